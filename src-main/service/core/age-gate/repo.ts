// SQL for the storefront age gate, on either engine (db/engine.ts): each store's settings (one per
// organisation and environment), and which storefront selfie rows belong to which store (ids and
// times only, nothing about a visitor). Each function takes the query builder to run on: the
// engine's, or the caller's transaction.
import type { Selectable } from 'kysely';
import type { Environment } from '../../../../src-shared/catalog';
import type { Dialect, Q } from '../../db/engine';
import type { AgeGateStoresTable } from '../../db/tables';

export type StoreRow = Selectable<AgeGateStoresTable>;

const stores = (q: Q) => q.selectFrom('age_gate_stores').selectAll();

/** Each store's settings. */
export const storesRepo = {
  byOrg: (q: Q, orgId: number, env: Environment): Promise<StoreRow | undefined> =>
    stores(q).where('org_id', '=', orgId).where('env', '=', env).executeTakeFirst(),
  byId: (q: Q, id: string): Promise<StoreRow | undefined> => stores(q).where('id', '=', id).executeTakeFirst(),
  /** Saves the settings, issuing `id` if the organisation has no store in `env` yet (one statement: two first saves at once make one store). */
  async upsert(q: Q, row: { id: string; org_id: number; env: Environment; settings: string; at: string }): Promise<void> {
    await q.insertInto('age_gate_stores')
      .values({ id: row.id, org_id: row.org_id, env: row.env, settings: row.settings, created_at: row.at, updated_at: row.at })
      .onConflict((oc) => oc.columns(['org_id', 'env']).doUpdateSet({ settings: row.settings, updated_at: row.at }))
      .execute();
  },
};

/** Storefront selfie rows linked to their store, and how many of them the ledger charged. */
export function selfieChecksRepo(dialect: Dialect) {
  return {
    async link(q: Q, verificationId: string, storeId: string, at: string): Promise<void> {
      await q.insertInto('age_gate_selfie_checks').values({ verification_id: verificationId, store_id: storeId, created_at: at }).execute();
    },
    /** On PostgreSQL, the store's row lock: charges linked to one store through several instances take turns to count. */
    async lockStore(q: Q, storeId: string): Promise<void> {
      if (dialect === 'postgres') await q.selectFrom('age_gate_stores').select('id').where('id', '=', storeId).forUpdate().execute();
    },
    async charged(q: Q, storeId: string, fromIso: string, toIso: string): Promise<number> {
      const r = await q.selectFrom('age_gate_selfie_checks as g').innerJoin('verifications as v', 'v.id', 'g.verification_id')
        .select((e) => e.fn.countAll<number>().as('n'))
        .where('g.store_id', '=', storeId).where('g.created_at', '>=', fromIso).where('g.created_at', '<', toIso).where('v.credits', '>', 0)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
  };
}
