// SQL for API keys.
import type { Db } from '../../db/open';
import type { Environment } from '../../../../src-shared/catalog';

export interface KeyRow {
  id: string;
  org_id: number;
  name: string;
  key_hash: string;
  secret_hash: string;
  prefix: string;
  env: Environment;
  scopes: string;
  demo: number;
  created_by: number | null;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

export interface KeyListRow extends KeyRow {
  creator_email: string | null;
}

export function keysRepo(db: Db) {
  const s = {
    insert: db.prepare(
      `INSERT INTO api_keys (id, org_id, name, key_hash, secret_hash, prefix, env, scopes, demo, created_by, created_at)
       VALUES (@id, @org_id, @name, @key_hash, @secret_hash, @prefix, @env, @scopes, @demo, @created_by, @created_at)`,
    ),
    byHash: db.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE key_hash = ?'),
    bySecretHash: db.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE secret_hash = ?'),
    byId: db.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE id = ?'),
    list: db.prepare<[number], KeyListRow>(
      `SELECT k.*, u.email AS creator_email FROM api_keys k LEFT JOIN users u ON u.id = k.created_by
       WHERE k.org_id = ? ORDER BY k.created_at DESC, k.id`,
    ),
    revoke: db.prepare<[string, string]>('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
    touch: db.prepare<[string, string]>('UPDATE api_keys SET last_used_at = ? WHERE id = ?'),
    countAge: db.prepare<[string], { n: number }>(
      "SELECT COUNT(*) AS n FROM verifications WHERE api_key_id = ? AND product = 'age'",
    ),
  };
  return {
    insert: (row: Omit<KeyRow, 'revoked_at' | 'last_used_at'>) => s.insert.run(row),
    byHash: (h: string) => s.byHash.get(h),
    bySecretHash: (h: string) => s.bySecretHash.get(h),
    byId: (id: string) => s.byId.get(id),
    list: (orgId: number) => s.list.all(orgId),
    revoke: (id: string, at: string) => s.revoke.run(at, id).changes,
    touch: (id: string, at: string) => s.touch.run(at, id),
    ageVerifications: (keyId: string) => s.countAge.get(keyId)?.n ?? 0,
  };
}
