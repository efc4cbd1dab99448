// SQL for the append-only credits ledger, on either engine (db/engine.ts). Each function takes the
// query builder to run on: the engine's, or the caller's transaction.
import { sql, type Selectable } from 'kysely';
import type { Environment } from '../../../../src-shared/catalog';
import type { Dialect, Q } from '../../db/engine';
import type { CreditEntriesTable } from '../../db/tables';

/** A ledger entry as read (the migrated schema's row: db/tables.ts). */
export type EntryRow = Selectable<CreditEntriesTable>;

export function creditsRepo(dialect: Dialect) {
  return {
    // The checkpoint: the entries' trigger moves it in each insert's own statement, whoever
    // writes (migration 0009), so it is the ledger's sum. One primary-key read, whatever the
    // ledger's length (migration 0033).
    async balance(q: Q, orgId: number): Promise<number> {
      return (await this.checkpoint(q, orgId))?.balance ?? 0;
    },
    /**
     * Takes the organisation's balance lock, which the caller's transaction then holds to its end
     * (concurrent charges take turns), reads the balance after it and, when it covers `cost` for
     * each of `verificationIds`, writes one charge entry per id. Answers the balance read under
     * the lock, before the charge: nothing was written when it is short of the total. On
     * PostgreSQL one round trip (migration 0033's credit_charge: the checkpoint row is the lock);
     * SQLite's transactions already hold the one write lock (BEGIN IMMEDIATE).
     */
    async charge(q: Q, orgId: number, cost: number, product: string, verificationIds: readonly string[], env: Environment, at: string): Promise<number> {
      if (dialect === 'postgres') {
        const r = await sql<{ locked: number }>`
          SELECT credit_charge(${orgId}, ${cost}, ${product}, ${[...verificationIds]}::text[], ${env}, ${at}) AS locked`.execute(q);
        return Number(r.rows[0]!.locked);
      }
      const locked = await this.balance(q, orgId);
      if (locked < cost * verificationIds.length) return locked;
      for (const id of verificationIds) {
        await this.insert(q, { org_id: orgId, amount: -cost, kind: 'charge', product, verification_id: id, env, note: null, created_at: at });
      }
      return locked;
    },
    /** The source of truth, summed in full: for checks, never on a request's path. */
    async sum(q: Q, orgId: number): Promise<number> {
      const r = await q.selectFrom('credit_entries').select((e) => e.fn.sum<number>('amount').as('s')).where('org_id', '=', orgId).executeTakeFirst();
      return Number(r?.s ?? 0);
    },
    async checkpoint(q: Q, orgId: number): Promise<{ balance: number; last_entry_id: number } | null> {
      return (await q.selectFrom('credit_balances').select(['balance', 'last_entry_id']).where('org_id', '=', orgId).executeTakeFirst()) ?? null;
    },
    async insert(q: Q, e: Omit<EntryRow, 'id'>): Promise<number> {
      const r = await q.insertInto('credit_entries').values(e).returning('id').executeTakeFirstOrThrow();
      return r.id;
    },
    async page(q: Q, orgId: number, limit: number, offset: number): Promise<EntryRow[]> {
      return (await q.selectFrom('credit_entries').selectAll().where('org_id', '=', orgId).orderBy('id', 'desc').limit(limit).offset(offset).execute());
    },
    async count(q: Q, orgId: number): Promise<number> {
      const r = await q.selectFrom('credit_entries').select((e) => e.fn.countAll<number>().as('n')).where('org_id', '=', orgId).executeTakeFirst();
      return Number(r?.n ?? 0);
    },
  };
}
