// SQL for an organisation's own settings, on either engine (db/engine.ts): its name and logo,
// list freshness windows, app schemes, hosted attempts, the liveness clip rule and the private
// hosts webhooks may reach. Each function takes the query builder to run on: the engine's, or the
// caller's transaction.
import type { ListFreshnessSettings } from '../../../../src-shared/contracts/organization';
import { sql } from 'kysely';
import type { Q } from '../../db/engine';

export interface LogoRow { logo_png: Uint8Array | null; logo_updated_at: string | null }

/** The organisation's settings columns (a row, or undefined for no such organisation). */
const settingsOf = (q: Q, orgId: number) => q.selectFrom('organizations').where('id', '=', orgId);

export const organizationRepo = {
  /** The PostgreSQL database's size on disk (the ledger, when it is there). */
  databaseSize: async (q: Q): Promise<number> => Number((await sql<{ n: number }>`SELECT pg_database_size(current_database()) AS n`.execute(q)).rows[0]?.n ?? 0),
  name: async (q: Q, orgId: number): Promise<string | undefined> => (await settingsOf(q, orgId).select('name').executeTakeFirst())?.name,
  async rename(q: Q, orgId: number, name: string): Promise<void> {
    await q.updateTable('organizations').set({ name }).where('id', '=', orgId).execute();
  },
  logo: (q: Q, orgId: number): Promise<LogoRow | undefined> => settingsOf(q, orgId).select(['logo_png', 'logo_updated_at']).executeTakeFirst(),
  async setLogo(q: Q, orgId: number, png: Uint8Array | null, at: string | null): Promise<void> {
    await q.updateTable('organizations').set({ logo_png: png, logo_updated_at: at }).where('id', '=', orgId).execute();
  },
  freshness: (q: Q, orgId: number): Promise<ListFreshnessSettings | undefined> =>
    settingsOf(q, orgId).select(['sanctions_stale_days', 'pep_stale_days']).executeTakeFirst(),
  async setFreshness(q: Q, orgId: number, f: ListFreshnessSettings): Promise<void> {
    await q.updateTable('organizations').set(f).where('id', '=', orgId).execute();
  },
  async schemes(q: Q, orgId: number): Promise<string[]> {
    return (await q.selectFrom('organization_app_schemes').select('scheme').where('org_id', '=', orgId).orderBy('scheme').execute()).map((r) => r.scheme);
  },
  async setSchemes(q: Q, orgId: number, schemes: readonly string[]): Promise<void> {
    await q.deleteFrom('organization_app_schemes').where('org_id', '=', orgId).execute();
    if (schemes.length) await q.insertInto('organization_app_schemes').values(schemes.map((scheme) => ({ org_id: orgId, scheme }))).execute();
  },
  attempts: async (q: Q, orgId: number): Promise<number | undefined> => (await settingsOf(q, orgId).select('hosted_attempts').executeTakeFirst())?.hosted_attempts,
  async setAttempts(q: Q, orgId: number, attempts: number): Promise<void> {
    await q.updateTable('organizations').set({ hosted_attempts: attempts }).where('id', '=', orgId).execute();
  },
  clip: async (q: Q, orgId: number): Promise<number | undefined> => (await settingsOf(q, orgId).select('require_liveness_clip').executeTakeFirst())?.require_liveness_clip,
  async setClip(q: Q, orgId: number, required: boolean): Promise<void> {
    await q.updateTable('organizations').set({ require_liveness_clip: required ? 1 : 0 }).where('id', '=', orgId).execute();
  },
  privateHosts: async (q: Q, orgId: number): Promise<string | undefined> =>
    (await settingsOf(q, orgId).select('webhook_private_hosts').executeTakeFirst())?.webhook_private_hosts,
  async setPrivateHosts(q: Q, orgId: number, json: string): Promise<void> {
    await q.updateTable('organizations').set({ webhook_private_hosts: json }).where('id', '=', orgId).execute();
  },
};
