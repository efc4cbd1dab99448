// SQL for the verification ledger: one row per verification attempt, no subject data.
import { sql } from 'kysely';
import { changedOne, type Q } from '../../db/engine';
import type { Billable, Environment } from '../../../../src-shared/catalog';

export interface VerificationRow {
  id: string;
  org_id: number;
  api_key_id: string | null;
  product: Billable;
  env: Environment;
  status: string;
  confidence: number | null;
  credits: number;
  billable: number;
  error_code: string | null;
  latency_ms: number | null;
  created_at: string;
  completed_at: string | null;
  /** Kinds of list an uncleared screening match was on, comma-separated; '' none; null not screened (migration 0010). */
  hit_categories?: string | null;
  /** HMAC of the screening's client reference (never the reference); null without one (migration 0022). */
  client_ref_hmac?: string | null;
  /** What a selfie's liveness rested on (still_photo, video_clip, head_turn_clip); null without a selfie (migration 0024). */
  liveness_evidence?: string | null;
}

/** A filtered page of one organisation's ledger in one environment (verification/ledger.ts). */
export interface LedgerFilter {
  orgId: number;
  env: Environment;
  product?: string | undefined;
  status?: string | undefined;
  /** An API key's id, or 'console' for the console's own work (no key). */
  key?: string | undefined;
  /** ISO instants: from inclusive, to exclusive. */
  from?: string | undefined;
  to?: string | undefined;
  /** A verification id, whole or its start, or a client reference by its HMAC (only that is kept). */
  search?: { text: string; hmac: string } | undefined;
  limit: number;
  offset: number;
}

/** Past every text that starts with `s` (U+10FFFF sorts after any character an id holds). */
const afterPrefix = (s: string) => `${s}\u{10FFFF}`;

/** The ledger's queries; each takes the builder to run on (the engine's, or the caller's transaction). */
export const verificationRepo = {
  /** The page's rows (newest first, with their key's name), the filter's total, and the statuses the environment has. */
  async page(q: Q, f: LedgerFilter): Promise<{ total: number; rows: (VerificationRow & { key_name: string | null })[]; statuses: string[] }> {
    let where = q.selectFrom('verifications as v').where('v.org_id', '=', f.orgId).where('v.env', '=', f.env);
    if (f.product) where = where.where('v.product', '=', f.product as Billable);
    if (f.status) where = where.where('v.status', '=', f.status);
    if (f.key === 'console') where = where.where('v.api_key_id', 'is', null);
    else if (f.key) where = where.where('v.api_key_id', '=', f.key);
    if (f.from) where = where.where('v.created_at', '>=', f.from);
    if (f.to) where = where.where('v.created_at', '<', f.to);
    // A search: an id from the text up to the ids that start with it, or the reference's HMAC.
    const search = f.search;
    if (search) {
      where = where.where((e) => e.or([
        e.and([e('v.id', '>=', search.text), e('v.id', '<', afterPrefix(search.text))]),
        e('v.client_ref_hmac', '=', search.hmac),
      ]));
    }
    const total = await where.select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const rows = await where.leftJoin('api_keys as k', 'k.id', 'v.api_key_id').selectAll('v').select('k.name as key_name')
      .orderBy('v.created_at', 'desc').orderBy('v.id', 'desc').limit(f.limit).offset(f.offset).execute();
    const statuses = await q.selectFrom('verifications').select('status').distinct().where('org_id', '=', f.orgId).where('env', '=', f.env).orderBy('status').execute();
    return { total: Number(total.n), rows: rows as (VerificationRow & { key_name: string | null })[], statuses: statuses.map((r) => r.status) };
  },
  async insert(q: Q, r: VerificationRow): Promise<void> {
    await q.insertInto('verifications')
      .values({ ...r, hit_categories: r.hit_categories ?? null, client_ref_hmac: r.client_ref_hmac ?? null, liveness_evidence: (r.liveness_evidence ?? null) as never })
      .execute();
  },
  async byId(q: Q, id: string): Promise<VerificationRow | undefined> {
    return (await q.selectFrom('verifications').selectAll().where('id', '=', id).executeTakeFirst()) as VerificationRow | undefined;
  },
  /**
   * The row's number in the ledger (a receipt number where an integer id is asked for: age-gate
   * attestations): SQLite's rowid, and on PostgreSQL the identity column of that name.
   */
  async numberOf(q: Q, id: string): Promise<number | undefined> {
    const r = await sql<{ n: number }>`SELECT rowid AS n FROM verifications WHERE id = ${id}`.execute(q);
    return r.rows[0] ? Number(r.rows[0].n) : undefined;
  },
  /** Moves a multi-step flow's row out of its waiting status; false when it was not waiting (any more). */
  async complete(q: Q, r: Pick<VerificationRow, 'id' | 'status' | 'confidence' | 'error_code' | 'completed_at'> & { latency_ms: number; waiting: string }): Promise<boolean> {
    const out = await q.updateTable('verifications')
      .set((e) => ({
        status: r.status, confidence: r.confidence, error_code: r.error_code, completed_at: r.completed_at,
        latency_ms: sql<number>`${e.fn.coalesce('latency_ms', sql<number>`0`)} + ${r.latency_ms}`,
      }))
      .where('id', '=', r.id).where('status', '=', r.waiting).executeTakeFirst();
    return changedOne(out);
  },
};
