// SQL for the append-only credits ledger, on either engine (db/engine.ts). Each function takes the
// query builder to run on: the engine's, or the caller's transaction.
import { sql, type RawBuilder, type Selectable } from 'kysely';
import type { Dialect, Q } from '../../db/engine';
import type { CreditEntriesTable } from '../../db/tables';

/** A ledger entry as read (the migrated schema's row: db/tables.ts). */
export type EntryRow = Selectable<CreditEntriesTable>;

/** The organisation's entries after `lastEntryId` (its checkpoint's; 0: all of them), summed: a seek on (org_id, id). */
async function sumAfter(q: Q, orgId: number, lastEntryId: number): Promise<number> {
  const r = await q.selectFrom('credit_entries').select((e) => e.fn.sum<number>('amount').as('s'))
    .where('org_id', '=', orgId).where('id', '>', lastEntryId).executeTakeFirst();
  return Number(r?.s ?? 0);
}

/** PostgreSQL: the sum of the organisation's entries after `lastEntryId` (a column of the row it is read beside), 0 when none. */
const entriesAfter = (orgId: number, lastEntryId: RawBuilder<number>): RawBuilder<number> =>
  sql<number>`coalesce((SELECT sum(e.amount) FROM credit_entries e WHERE e.org_id = ${orgId} AND e.id > ${lastEntryId}), 0)`;

export function creditsRepo(dialect: Dialect) {
  return {
    // The checkpoint (a trigger keeps it in each insert's own statement) plus any entries after
    // it: two index seeks, whatever the ledger's length. On PostgreSQL one statement, the entries'
    // sum a subquery correlated with the checkpoint's row (entriesAfter): given the value, it
    // reads the few rows after it (an uncorrelated `id > (subquery)` was planned for a third of
    // the table, in parallel workers: 38 ms a balance at 1M rows). On SQLite two statements; read
    // in this order, an entry committed between them is counted once.
    async balance(q: Q, orgId: number): Promise<number> {
      if (dialect === 'postgres') {
        const r = await sql<{ balance: number | string }>`
          SELECT coalesce(b.balance, 0) + ${entriesAfter(orgId, sql`coalesce(b.last_entry_id, 0)`)} AS balance
          FROM (SELECT 1) AS one LEFT JOIN credit_balances b ON b.org_id = ${orgId}`.execute(q);
        return Number(r.rows[0]?.balance ?? 0);
      }
      const cp = await this.checkpoint(q, orgId);
      return (cp?.balance ?? 0) + (await sumAfter(q, orgId, cp?.last_entry_id ?? 0));
    },
    /**
     * The balance, read after taking the organisation's balance lock, which the caller's
     * transaction then holds to its end: concurrent charges take turns. On PostgreSQL the lock is
     * the checkpoint row's, taken by an upsert that also returns it (made if the organisation has
     * none, so a first charge locks too), one round trip; SQLite's transactions already hold the
     * one write lock (BEGIN IMMEDIATE).
     */
    async lockedBalance(q: Q, orgId: number): Promise<number> {
      if (dialect === 'sqlite') return this.balance(q, orgId);
      // One round trip. The upsert waits for a concurrent charge's lock and then returns the row
      // as that charge left it; the entries' sum is read in this statement's snapshot, taken
      // before the wait, but every entry's insert moves the checkpoint in its own transaction
      // (migration 0009's trigger), so what the snapshot misses is in the row returned.
      const r = await sql<{ balance: number | string }>`
        WITH cp AS (
          INSERT INTO credit_balances (org_id, balance, last_entry_id) VALUES (${orgId}, 0, 0)
          ON CONFLICT (org_id) DO UPDATE SET org_id = excluded.org_id
          RETURNING balance, last_entry_id
        )
        SELECT cp.balance + ${entriesAfter(orgId, sql`cp.last_entry_id`)} AS balance FROM cp`.execute(q);
      return Number(r.rows[0]!.balance);
    },
    /** The source of truth, summed in full: for checks, never on a request's path. */
    sum: (q: Q, orgId: number): Promise<number> => sumAfter(q, orgId, 0),
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
