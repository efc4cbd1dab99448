// SQL for the append-only credits ledger, on either engine (db/engine.ts). Each function takes the
// query builder to run on: the engine's, or the caller's transaction.
import { sql } from 'kysely';
import type { Dialect, Q } from '../../db/engine';
import type { CreditEntriesTable } from '../../db/tables';
import type { Environment } from '../../../../src-shared/catalog';

export interface EntryRow {
  id: number;
  org_id: number;
  amount: number;
  kind: CreditEntriesTable['kind'];
  product: string | null;
  verification_id: string | null;
  env: Environment | null;
  note: string | null;
  created_at: string;
}

export function creditsRepo(dialect: Dialect) {
  return {
    // The checkpoint (a trigger keeps it in each insert's own statement) plus any entries after
    // it: an index seek, whatever the ledger's length.
    async balance(q: Q, orgId: number): Promise<number> {
      const r = await sql<{ b: number }>`
        SELECT COALESCE((SELECT balance FROM credit_balances WHERE org_id = ${orgId}), 0)
             + COALESCE((SELECT SUM(amount) FROM credit_entries
                         WHERE org_id = ${orgId} AND id > COALESCE((SELECT last_entry_id FROM credit_balances WHERE org_id = ${orgId}), 0)), 0) AS b`.execute(q);
      return Number(r.rows[0]?.b ?? 0);
    },
    /**
     * Makes the organisation's charges take turns until the caller's transaction ends: on
     * PostgreSQL a lock on its checkpoint row (made if it has none, so a first charge locks too);
     * SQLite's transactions already hold the one write lock (BEGIN IMMEDIATE).
     */
    async lockBalance(q: Q, orgId: number): Promise<void> {
      if (dialect === 'sqlite') return;
      await q.insertInto('credit_balances').values({ org_id: orgId, balance: 0, last_entry_id: 0 }).onConflict((c) => c.column('org_id').doNothing()).execute();
      await q.selectFrom('credit_balances').select('org_id').where('org_id', '=', orgId).forUpdate().execute();
    },
    /** The source of truth, summed in full: for checks, never on a request's path. */
    async sum(q: Q, orgId: number): Promise<number> {
      const r = await q.selectFrom('credit_entries').select((e) => e.fn.coalesce(e.fn.sum<number>('amount'), sql<number>`0`).as('b')).where('org_id', '=', orgId).executeTakeFirst();
      return Number(r?.b ?? 0);
    },
    async checkpoint(q: Q, orgId: number): Promise<{ balance: number; last_entry_id: number } | null> {
      return (await q.selectFrom('credit_balances').select(['balance', 'last_entry_id']).where('org_id', '=', orgId).executeTakeFirst()) ?? null;
    },
    async insert(q: Q, e: Omit<EntryRow, 'id'>): Promise<number> {
      const r = await q.insertInto('credit_entries').values(e).returning('id').executeTakeFirstOrThrow();
      return r.id;
    },
    async page(q: Q, orgId: number, limit: number, offset: number): Promise<EntryRow[]> {
      return (await q.selectFrom('credit_entries').selectAll().where('org_id', '=', orgId).orderBy('id', 'desc').limit(limit).offset(offset).execute()) as EntryRow[];
    },
    async count(q: Q, orgId: number): Promise<number> {
      const r = await q.selectFrom('credit_entries').select((e) => e.fn.countAll<number>().as('n')).where('org_id', '=', orgId).executeTakeFirst();
      return Number(r?.n ?? 0);
    },
  };
}
