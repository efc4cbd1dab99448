// SQL for an organisation's own settings: its name and logo, list freshness windows, app schemes,
// hosted attempts, the liveness clip rule and the private hosts webhooks may reach.
import type { ListFreshnessSettings } from '../../../../src-shared/contracts/organization';
import type { Db } from '../../db/open';
import type { OrgRow } from './repo';

export interface LogoRow { logo_png: Uint8Array | null; logo_updated_at: string | null }

export function organizationRepo(db: Db) {
  return {
    org: db.prepare<[number], OrgRow>('SELECT * FROM organizations WHERE id = ?'),
    rename: db.prepare<[string, number]>('UPDATE organizations SET name = ? WHERE id = ?'),
    logo: db.prepare<[number], LogoRow>('SELECT logo_png, logo_updated_at FROM organizations WHERE id = ?'),
    setLogo: db.prepare<[Uint8Array | null, string | null, number]>('UPDATE organizations SET logo_png = ?, logo_updated_at = ? WHERE id = ?'),
    freshness: db.prepare<[number], ListFreshnessSettings>('SELECT sanctions_stale_days, pep_stale_days FROM organizations WHERE id = ?'),
    setFreshness: db.prepare<[number, number, number]>('UPDATE organizations SET sanctions_stale_days = ?, pep_stale_days = ? WHERE id = ?'),
    schemes: db.prepare<[number], { scheme: string }>('SELECT scheme FROM organization_app_schemes WHERE org_id = ? ORDER BY scheme'),
    clearSchemes: db.prepare<[number]>('DELETE FROM organization_app_schemes WHERE org_id = ?'),
    addScheme: db.prepare<[number, string]>('INSERT INTO organization_app_schemes (org_id, scheme) VALUES (?, ?)'),
    attempts: db.prepare<[number], { hosted_attempts: number }>('SELECT hosted_attempts FROM organizations WHERE id = ?'),
    setAttempts: db.prepare<[number, number]>('UPDATE organizations SET hosted_attempts = ? WHERE id = ?'),
    clip: db.prepare<[number], { require_liveness_clip: number }>('SELECT require_liveness_clip FROM organizations WHERE id = ?'),
    setClip: db.prepare<[number, number]>('UPDATE organizations SET require_liveness_clip = ? WHERE id = ?'),
    privateHosts: db.prepare<[number], { webhook_private_hosts: string }>('SELECT webhook_private_hosts FROM organizations WHERE id = ?'),
    setPrivateHosts: db.prepare<[string, number]>('UPDATE organizations SET webhook_private_hosts = ? WHERE id = ?'),
  };
}
