// Age-gate stores: the merchant's settings for the storefront widget, one per organisation and
// environment, found by the widget through a public id (not a credential: it only names the
// store whose public settings the widget shows and whose organisation pays for selfie checks).
import type { Environment } from '../../../../src-shared/catalog';
import { AgeGateSettings } from '../../../../src-shared/contracts/age-gate';
import type { Engine, Q } from '../../db/engine';
import type { Clock } from '../clock';
import { newId, nowIso } from '../ids';
import { storesRepo, type StoreRow } from './repo';

export interface AgeGateStoreRecord {
  id: string;
  orgId: number;
  env: Environment;
  settings: AgeGateSettings;
  updatedAt: string;
}

const record = (r: StoreRow): AgeGateStoreRecord => ({
  // Settings saved by an older version gain the defaults of fields added since.
  id: r.id, orgId: r.org_id, env: r.env, settings: AgeGateSettings.parse(JSON.parse(r.settings)), updatedAt: r.updated_at,
});

export function createAgeGateStores(engine: Engine, clock: Clock) {
  return {
    /** The organisation's store in `env`, read on `q` (a transaction) or on the engine. */
    async of(orgId: number, env: Environment, q: Q = engine.q): Promise<AgeGateStoreRecord | undefined> {
      const r = await storesRepo.byOrg(q, orgId, env);
      return r && record(r);
    },
    async byId(id: string): Promise<AgeGateStoreRecord | undefined> {
      const r = id.length <= 64 ? await storesRepo.byId(engine.q, id) : undefined;
      return r && record(r);
    },
    /** Saves the settings in `tx`; the first save issues the store's public id, which never changes after. */
    async save(orgId: number, env: Environment, settings: AgeGateSettings, tx: Q): Promise<AgeGateStoreRecord> {
      await storesRepo.upsert(tx, { id: newId(`ag_${env}`), org_id: orgId, env, settings: JSON.stringify(settings), at: nowIso(clock.now()) });
      return record((await storesRepo.byOrg(tx, orgId, env))!);
    },
  };
}
export type AgeGateStores = ReturnType<typeof createAgeGateStores>;
