// SQL for the storefront age gate: each store's settings (one per organisation and environment),
// and which storefront selfie rows belong to which store (ids and times only, nothing about a visitor).
import type { Environment } from '../../../../src-shared/catalog';
import type { Db } from '../../db/open';

export interface StoreRow {
  id: string;
  org_id: number;
  env: Environment;
  settings: string;
  created_at: string;
  updated_at: string;
}

/** Each store's settings. */
export function storesRepo(db: Db) {
  return {
    byOrg: db.prepare<[number, string], StoreRow>('SELECT * FROM age_gate_stores WHERE org_id = ? AND env = ?'),
    byId: db.prepare<[string], StoreRow>('SELECT * FROM age_gate_stores WHERE id = ?'),
    insert: db.prepare('INSERT INTO age_gate_stores (id, org_id, env, settings, created_at, updated_at) VALUES (@id, @org_id, @env, @settings, @at, @at)'),
    update: db.prepare('UPDATE age_gate_stores SET settings = @settings, updated_at = @at WHERE id = @id'),
  };
}

/** Storefront selfie rows linked to their store, and how many of them the ledger charged. */
export function selfieChecksRepo(db: Db) {
  return {
    link: db.prepare('INSERT INTO age_gate_selfie_checks (verification_id, store_id, created_at) VALUES (?, ?, ?)'),
    charged: db.prepare<[string, string, string], { n: number }>(
      `SELECT COUNT(*) AS n FROM age_gate_selfie_checks g JOIN verifications v ON v.id = g.verification_id
       WHERE g.store_id = ? AND g.created_at >= ? AND g.created_at < ? AND v.credits > 0`,
    ),
  };
}
