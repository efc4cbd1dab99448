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
    balance: db.prepare<[number], { b: number }>('SELECT COALESCE(SUM(amount), 0) AS b FROM credit_entries WHERE org_id = ?'),
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
    balance: (orgId: number) => s.balance.get(orgId)?.b ?? 0,
    insert: (e: Omit<EntryRow, 'id'>) => Number(s.insert.run(e).lastInsertRowid),
    page: (orgId: number, limit: number, offset: number) => s.page.all(orgId, limit, offset),
    count: (orgId: number) => s.count.get(orgId)?.n ?? 0,
  };
}
