// SQL for the idempotency keys: per API key, the HMAC of the client's key and of the request,
// the attempt's state and the verification it made; never the request or the answer.
import type { Db } from '../../db/open';

export interface IdempotencyRow {
  api_key_id: string;
  idem_key: string;
  fingerprint: string;
  state: 'in_progress' | 'done';
  verification_id: string | null;
  status_code: number | null;
  created_at: string;
  expires_at: string;
}

export function idempotencyRepo(db: Db) {
  return {
    get: db.prepare<[string, string], IdempotencyRow>('SELECT * FROM idempotency_keys WHERE api_key_id = ? AND idem_key = ?'),
    del: db.prepare<[string, string]>('DELETE FROM idempotency_keys WHERE api_key_id = ? AND idem_key = ?'),
    insert: db.prepare(
      `INSERT INTO idempotency_keys (api_key_id, idem_key, fingerprint, state, created_at, expires_at)
       VALUES (@api_key_id, @idem_key, @fingerprint, 'in_progress', @created_at, @expires_at)`,
    ),
    done: db.prepare<[string, number, string, string]>(
      "UPDATE idempotency_keys SET state = 'done', verification_id = ?, status_code = ? WHERE api_key_id = ? AND idem_key = ?",
    ),
    purge: db.prepare<[string]>('DELETE FROM idempotency_keys WHERE expires_at < ?'),
    releaseAll: db.prepare("DELETE FROM idempotency_keys WHERE state = 'in_progress'"),
  };
}
