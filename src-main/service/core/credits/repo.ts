// SQL for the append-only credits ledger.
import type { Db } from '../../db/open';
import type { Environment } from '../../../../src-shared/catalog';

export interface EntryRow {
  id: number;
  org_id: number;
  amount: number;
  kind: 'grant' | 'charge' | 'adjustment';
  product: string | null;
  verification_id: string | null;
  env: Environment | null;
  note: string | null;
  created_at: string;
}

export function creditsRepo(db: Db) {
  const s = {
    // The checkpoint (migration 0009's trigger keeps it in each insert's own statement) plus any
    // entries after it: an index seek, whatever the ledger's length.
    balance: db.prepare<[{ org: number }], { b: number }>(
      `SELECT COALESCE((SELECT balance FROM credit_balances WHERE org_id = @org), 0)
            + COALESCE((SELECT SUM(amount) FROM credit_entries
                        WHERE org_id = @org AND id > COALESCE((SELECT last_entry_id FROM credit_balances WHERE org_id = @org), 0)), 0) AS b`,
    ),
    /** The source of truth, summed in full: for checks, never on a request's path. */
    sum: db.prepare<[number], { b: number }>('SELECT COALESCE(SUM(amount), 0) AS b FROM credit_entries WHERE org_id = ?'),
    checkpoint: db.prepare<[number], { balance: number; last_entry_id: number }>('SELECT balance, last_entry_id FROM credit_balances WHERE org_id = ?'),
    insert: db.prepare(
      `INSERT INTO credit_entries (org_id, amount, kind, product, verification_id, env, note, created_at)
       VALUES (@org_id, @amount, @kind, @product, @verification_id, @env, @note, @created_at)`,
    ),
    page: db.prepare<[number, number, number], EntryRow>(
      'SELECT * FROM credit_entries WHERE org_id = ? ORDER BY id DESC LIMIT ? OFFSET ?',
    ),
    count: db.prepare<[number], { n: number }>('SELECT COUNT(*) AS n FROM credit_entries WHERE org_id = ?'),
  };
  return {
    balance: (orgId: number) => s.balance.get({ org: orgId })?.b ?? 0,
    sum: (orgId: number) => s.sum.get(orgId)?.b ?? 0,
    checkpoint: (orgId: number) => s.checkpoint.get(orgId) ?? null,
    insert: (e: Omit<EntryRow, 'id'>) => Number(s.insert.run(e).lastInsertRowid),
    page: (orgId: number, limit: number, offset: number) => s.page.all(orgId, limit, offset),
    count: (orgId: number) => s.count.get(orgId)?.n ?? 0,
  };
}
