// SQL for the token buckets every instance shares on PostgreSQL (migration 0028): a token taken by
// the database's own function under the bucket's row lock, a bucket read without taking, and the
// buckets idle long enough to be full again removed. PostgreSQL only: a SQLite process keeps its
// buckets in memory (token-bucket.ts).
import { sql } from 'kysely';
import type { Q } from '../../db/engine';

export interface BucketRow { tokens: number; at_ms: number; rps: number; burst: number }

export const bucketsRepo = {
  async take(q: Q, id: string, now: number, rps: number, burst: number): Promise<{ tokens: number; allowed: boolean }> {
    const r = await sql<{ tokens: number; allowed: boolean }>`SELECT tokens, allowed FROM rate_take(${id}, ${now}, ${rps}, ${burst})`.execute(q);
    return r.rows[0]!;
  },
  byId: (q: Q, id: string): Promise<BucketRow | undefined> =>
    q.selectFrom('rate_buckets').select(['tokens', 'at_ms', 'rps', 'burst']).where('id', '=', id).executeTakeFirst(),
  /** Buckets full again by `now` (a missing bucket is a full one). */
  async removeFull(q: Q, now: number): Promise<number> {
    const r = await q.deleteFrom('rate_buckets').where(sql<boolean>`tokens + (${now} - at_ms) / 1000.0 * rps >= burst`).executeTakeFirst();
    return Number(r.numDeletedRows);
  },
  count: async (q: Q): Promise<number> => Number((await q.selectFrom('rate_buckets').select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n),
};
