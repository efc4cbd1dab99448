// SQL for the idempotency keys, on either engine: per API key, the HMAC of the client's key and of
// the request, the attempt's state and the verification it made; never the request or the answer.
import type { Selectable } from 'kysely';
import type { Q } from '../../db/engine';
import type { IdempotencyKeysTable } from '../../db/tables';

/** An Idempotency-Key's row (the migrated schema's: db/tables.ts). */
export type IdempotencyRow = Selectable<IdempotencyKeysTable>;

export const idempotencyRepo = {
  async get(q: Q, apiKeyId: string, idemKey: string): Promise<IdempotencyRow | undefined> {
    return q.selectFrom('idempotency_keys').selectAll().where('api_key_id', '=', apiKeyId).where('idem_key', '=', idemKey).executeTakeFirst();
  },
  async del(q: Q, apiKeyId: string, idemKey: string): Promise<void> {
    await q.deleteFrom('idempotency_keys').where('api_key_id', '=', apiKeyId).where('idem_key', '=', idemKey).execute();
  },
  /** False when an attempt with this key exists already (begun at the same moment by another request or instance). */
  async insertIfAbsent(q: Q, r: Pick<IdempotencyRow, 'api_key_id' | 'idem_key' | 'fingerprint' | 'created_at' | 'expires_at'>): Promise<boolean> {
    const out = await q.insertInto('idempotency_keys').values({ ...r, state: 'in_progress' })
      .onConflict((c) => c.columns(['api_key_id', 'idem_key']).doNothing()).executeTakeFirst();
    return Number(out.numInsertedOrUpdatedRows ?? 0) > 0;
  },
  async done(q: Q, apiKeyId: string, idemKey: string, verificationId: string, statusCode: number): Promise<void> {
    await q.updateTable('idempotency_keys').set({ state: 'done', verification_id: verificationId, status_code: statusCode })
      .where('api_key_id', '=', apiKeyId).where('idem_key', '=', idemKey).execute();
  },
  async purge(q: Q, before: string): Promise<void> {
    await q.deleteFrom('idempotency_keys').where('expires_at', '<', before).execute();
  },
  async releaseAll(q: Q): Promise<number> {
    const r = await q.deleteFrom('idempotency_keys').where('state', '=', 'in_progress').executeTakeFirst();
    return Number(r.numDeletedRows);
  },
};
