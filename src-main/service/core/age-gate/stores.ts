// Age-gate stores: the merchant's settings for the storefront widget, one per organisation and
// environment, found by the widget through a public id (not a credential: it only names the
// store whose public settings the widget shows and whose organisation pays for selfie checks).
import type { Environment } from '../../../../src-shared/catalog';
import { AgeGateSettings } from '../../../../src-shared/contracts/age-gate';
import type { Db } from '../../db/open';
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

export function createAgeGateStores(db: Db, clock: Clock) {
  const q = storesRepo(db);
  return {
    of(orgId: number, env: Environment): AgeGateStoreRecord | undefined {
      const r = q.byOrg.get(orgId, env);
      return r && record(r);
    },
    byId(id: string): AgeGateStoreRecord | undefined {
      const r = id.length <= 64 ? q.byId.get(id) : undefined;
      return r && record(r);
    },
    /** Saves the settings; the first save issues the store's public id, which never changes after. */
    save(orgId: number, env: Environment, settings: AgeGateSettings): AgeGateStoreRecord {
      const at = nowIso(clock.now());
      const json = JSON.stringify(settings);
      db.transaction(() => {
        const existing = q.byOrg.get(orgId, env);
        if (existing) q.update.run({ id: existing.id, settings: json, at });
        else q.insert.run({ id: newId(`ag_${env}`), org_id: orgId, env, settings: json, at });
      })();
      return record(q.byOrg.get(orgId, env)!);
    },
  };
}
export type AgeGateStores = ReturnType<typeof createAgeGateStores>;
