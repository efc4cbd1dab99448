// SQL for API keys, on either engine (db/engine.ts). Each function takes the query builder to run
// on: the engine's, or the caller's transaction.
import type { Insertable, Selectable } from 'kysely';
import type { Q } from '../../db/engine';
import type { ApiKeysTable } from '../../db/tables';

/** A key as read (the migrated schema's row: db/tables.ts). */
export type KeyRow = Selectable<ApiKeysTable>;

export interface KeyListRow extends KeyRow {
  creator_email: string | null;
}

export const keysRepo = {
  async insert(q: Q, row: Insertable<ApiKeysTable>): Promise<void> {
    await q.insertInto('api_keys').values(row).execute();
  },
  byHash: (q: Q, h: string): Promise<KeyRow | undefined> => q.selectFrom('api_keys').selectAll().where('key_hash', '=', h).executeTakeFirst(),
  bySecretHash: (q: Q, h: string): Promise<KeyRow | undefined> => q.selectFrom('api_keys').selectAll().where('secret_hash', '=', h).executeTakeFirst(),
  byId: (q: Q, id: string): Promise<KeyRow | undefined> => q.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst(),
  list: (q: Q, orgId: number): Promise<KeyListRow[]> => q.selectFrom('api_keys as k').leftJoin('users as u', 'u.id', 'k.created_by')
    .selectAll('k').select('u.email as creator_email')
    .where('k.org_id', '=', orgId).orderBy('k.created_at', 'desc').orderBy('k.id').execute(),
  /** 1 when this call revoked it, 0 when it was revoked already. */
  async revoke(q: Q, id: string, at: string): Promise<number> {
    const r = await q.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
    return Number(r.numUpdatedRows);
  },
  async touch(q: Q, id: string, at: string): Promise<void> {
    await q.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
  },
  async ageVerifications(q: Q, keyId: string): Promise<number> {
    const r = await q.selectFrom('verifications').select((v) => v.fn.countAll<number>().as('n'))
      .where('api_key_id', '=', keyId).where('product', '=', 'age').executeTakeFirst();
    return Number(r?.n ?? 0);
  },
};
