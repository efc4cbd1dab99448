// The organisation's branding (display name and logo, shown on hosted pages and in PDF exports)
// and the data directory's size. The logo is org branding, not subject data: it is kept in
// SQLite as a PNG the service re-encoded itself (so no uploaded bytes, metadata or polyglot
// content are ever served back), at most LOGO_MAX_SIDE pixels on a side.
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadSharp } from '../media/sharp';
import { AppError } from '../../../../src-shared/errors';
import {
  LOGO_MAX_SIDE, type AppSchemesSettings, type DataDirectory, type ListFreshnessSettings, type OrganizationSettings, type UpdateListFreshnessRequest,
} from '../../../../src-shared/contracts/organization';
import type { Engine, Q } from '../../db/engine';
import { DB_FILE } from '../../db/open';
import { DATA_FOLDERS } from '../../paths';
import type { Audit } from '../audit/audit';
import { actorOf } from '../audit/audit';
import type { Clock } from '../clock';
import { nowIso } from '../ids';
import type { UserRow } from './repo';
import { organizationRepo } from './organization-repo';

/** Decoded pixels refused beyond this: a logo needs far fewer, a decompression bomb many more. */
const LOGO_MAX_PIXELS = 25_000_000;
/** A re-encoded logo above this is quantised to a palette PNG (always under the stored limit). */
const LOGO_PALETTE_ABOVE = 300 * 1024;

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_MAGIC = [0xff, 0xd8, 0xff];
const starts = (b: Uint8Array, magic: number[]) => b.length >= magic.length && magic.every((m, i) => b[i] === m);

const invalid = (message: string) => new AppError('account_validation', { field: 'logo', message });

export interface Branding {
  name: string;
  logo_png: Uint8Array | null;
}


/** Re-encodes an uploaded PNG or JPEG as a bounded PNG; refuses anything else. */
export async function normaliseLogo(bytes: Uint8Array): Promise<{ png: Buffer; width: number; height: number }> {
  const format = starts(bytes, PNG_MAGIC) ? 'png' : starts(bytes, JPEG_MAGIC) ? 'jpeg' : null;
  if (!format) throw invalid('The logo must be a PNG or JPEG image');
  const sharp = await loadSharp();
  try {
    const meta = await sharp(bytes, { limitInputPixels: LOGO_MAX_PIXELS }).metadata();
    if (meta.format !== format) throw invalid('The logo must be a PNG or JPEG image');
    const resized = sharp(bytes, { limitInputPixels: LOGO_MAX_PIXELS, failOn: 'error' })
      .rotate()
      .resize(LOGO_MAX_SIDE, LOGO_MAX_SIDE, { fit: 'inside', withoutEnlargement: true });
    let out = await resized.clone().png({ compressionLevel: 9 }).toBuffer({ resolveWithObject: true });
    if (out.data.length > LOGO_PALETTE_ABOVE) out = await resized.clone().png({ compressionLevel: 9, palette: true }).toBuffer({ resolveWithObject: true });
    return { png: out.data, width: out.info.width, height: out.info.height };
  } catch (e) {
    if (e instanceof AppError) throw e;
    throw invalid('The logo could not be read as an image');
  }
}

function sizeOf(path: string): number {
  let st;
  try {
    st = lstatSync(path);
  } catch {
    return 0;
  }
  if (st.isSymbolicLink()) return 0;
  if (!st.isDirectory()) return st.size;
  let total = 0;
  for (const name of readdirSync(path)) total += sizeOf(join(path, name));
  return total;
}

export function createOrganization(engine: Engine, clock: Clock, audit: Audit, dataDir: string) {
  const s = organizationRepo;
  const { q } = engine;

  /** The custom schemes the organisation's redirects may use (its apps' return), in order. */
  const appSchemes = (orgId: number, on: Q = q): Promise<string[]> => s.schemes(on, orgId);

  async function listFreshness(orgId: number, on: Q = q): Promise<ListFreshnessSettings> {
    const r = await s.freshness(on, orgId);
    if (!r) throw new AppError('account_not_found');
    return { sanctions_stale_days: r.sanctions_stale_days, pep_stale_days: r.pep_stale_days };
  }

  async function logoOf(orgId: number, on: Q = q): Promise<{ png: Uint8Array; updated_at: string } | null> {
    const r = await s.logo(on, orgId);
    return r?.logo_png && r.logo_updated_at ? { png: r.logo_png, updated_at: r.logo_updated_at } : null;
  }

  async function webhookPrivateHosts(orgId: number, on: Q = q): Promise<string[]> {
    const json = await s.privateHosts(on, orgId);
    return json ? (JSON.parse(json) as string[]) : [];
  }

  async function settings(orgId: number): Promise<OrganizationSettings> {
    const name = await s.name(q, orgId);
    if (name === undefined) throw new AppError('account_not_found');
    const logo = await logoOf(orgId);
    let dims = { width: 0, height: 0 };
    if (logo) {
      // The PNG's IHDR: width and height as big-endian integers at bytes 16 and 20.
      const v = new DataView(logo.png.buffer, logo.png.byteOffset, logo.png.byteLength);
      dims = { width: v.getUint32(16), height: v.getUint32(20) };
    }
    return {
      name,
      logo: logo ? { url: `/api/settings/logo?v=${Date.parse(logo.updated_at)}`, ...dims, size_bytes: logo.png.byteLength, updated_at: logo.updated_at } : null,
    };
  }

  return {
    settings,

    /** What PDF exports and hosted pages show: the display name and the logo PNG (or null). */
    async branding(orgId: number): Promise<Branding> {
      const name = await s.name(q, orgId);
      if (name === undefined) throw new AppError('account_not_found');
      return { name, logo_png: (await logoOf(orgId))?.png ?? null };
    },

    logo: (orgId: number) => logoOf(orgId),

    async rename(actor: UserRow, orgId: number, name: string): Promise<OrganizationSettings> {
      await audit.atomically(async (tx) => {
        if ((await s.name(tx, orgId)) === name) return;
        await s.rename(tx, orgId, name);
        // The names themselves stay out of the log (they may be long): that it changed, by whom.
        await audit.record({ orgId, actor: actorOf(actor), action: 'settings.changed', setting: 'organization_name' }, tx);
      });
      return settings(orgId);
    },

    /** The organisation's windows after which a list is stale (lists/freshness.ts). */
    listFreshness: (orgId: number) => listFreshness(orgId),

    /** Changes either window or both; each change is audited with its old and new number of days. */
    setListFreshness(actor: UserRow, orgId: number, change: UpdateListFreshnessRequest): Promise<ListFreshnessSettings> {
      return audit.atomically(async (tx) => {
        const before = await listFreshness(orgId, tx);
        const after = {
          sanctions_stale_days: change.sanctions_stale_days ?? before.sanctions_stale_days,
          pep_stale_days: change.pep_stale_days ?? before.pep_stale_days,
        };
        await s.setFreshness(tx, orgId, after);
        for (const setting of ['sanctions_stale_days', 'pep_stale_days'] as const) {
          if (before[setting] === after[setting]) continue;
          await audit.record({ orgId, actor: actorOf(actor), action: 'settings.changed', setting, from: String(before[setting]), to: String(after[setting]) }, tx);
        }
        return after;
      });
    },

    appSchemes,

    /** The attempts a person has on one hosted link (issue 26; migration 0018, default 3); on `on` when given (a transaction). */
    async hostedAttempts(orgId: number, on: Q = q): Promise<number> {
      const n = await s.attempts(on, orgId);
      if (n === undefined) throw new AppError('account_not_found');
      return n;
    },

    async setHostedAttempts(orgId: number, attempts: number, tx: Q): Promise<number> {
      await s.setAttempts(tx, orgId, attempts);
      return attempts;
    },

    /** Whether the organisation's API keys must send the head-turn clip as a selfie, never a still photo (issue 37; migration 0024, default off). */
    async requiresLivenessClip(orgId: number, on: Q = q): Promise<boolean> {
      const r = await s.clip(on, orgId);
      if (r === undefined) throw new AppError('account_not_found');
      return r === 1;
    },

    async setRequiresLivenessClip(orgId: number, required: boolean, tx: Q): Promise<boolean> {
      await s.setClip(tx, orgId, required);
      return required;
    },

    /** The hosts on private networks the owner allows webhooks to reach (issue 39; core/webhooks/destination.ts). */
    webhookPrivateHosts,

    /** Replaces them (checked by the contract); audited with how many there were before and after, as app schemes. */
    async setWebhookPrivateHosts(actor: UserRow, orgId: number, hosts: readonly string[]): Promise<string[]> {
      const next = [...new Set(hosts.map((h) => h.toLowerCase()))];
      await audit.atomically(async (tx) => {
        const before = await webhookPrivateHosts(orgId, tx);
        await s.setPrivateHosts(tx, orgId, JSON.stringify(next));
        if (before.join(' ') !== next.join(' ')) {
          await audit.record({ orgId, actor: actorOf(actor), action: 'settings.changed', setting: 'webhook_private_hosts', from: String(before.length), to: String(next.length) }, tx);
        }
      });
      return next;
    },

    /**
     * Replaces the organisation's app schemes (already checked by the contract). Redirects saved
     * before keep working only while their scheme is still registered. A change is audited with how
     * many were registered before and after (the schemes are configuration, like the name: not logged).
     */
    async setAppSchemes(actor: UserRow, orgId: number, schemes: readonly string[]): Promise<AppSchemesSettings> {
      await audit.atomically(async (tx) => {
        const before = await appSchemes(orgId, tx);
        await s.setSchemes(tx, orgId, [...new Set(schemes)]);
        const after = await appSchemes(orgId, tx);
        if (before.join(' ') !== after.join(' ')) {
          await audit.record({ orgId, actor: actorOf(actor), action: 'settings.changed', setting: 'app_schemes', from: String(before.length), to: String(after.length) }, tx);
        }
      });
      return { app_schemes: await appSchemes(orgId) };
    },

    async setLogo(actor: UserRow, orgId: number, bytes: Uint8Array): Promise<OrganizationSettings> {
      const { png } = await normaliseLogo(bytes);
      await audit.atomically(async (tx) => {
        const had = (await logoOf(orgId, tx)) !== null;
        await s.setLogo(tx, orgId, png, nowIso(clock.now()));
        await audit.record({ orgId, actor: actorOf(actor), action: 'settings.changed', setting: 'logo', from: had ? 'set' : 'none', to: 'replaced' }, tx);
      });
      return settings(orgId);
    },

    async removeLogo(actor: UserRow, orgId: number): Promise<OrganizationSettings> {
      await audit.atomically(async (tx) => {
        if ((await logoOf(orgId, tx)) === null) return;
        await s.setLogo(tx, orgId, null, null);
        await audit.record({ orgId, actor: actorOf(actor), action: 'settings.changed', setting: 'logo', from: 'set', to: 'removed' }, tx);
      });
      return settings(orgId);
    },

    /** The data directory's size by part: the database, its journal, each folder the service writes, and the rest. */
    async dataDirectory(): Promise<DataDirectory> {
      const known = new Set([DB_FILE, `${DB_FILE}-wal`, `${DB_FILE}-shm`]);
      const embedded = engine.dialect === 'sqlite';
      const breakdown = embedded
        ? [
          { name: 'database', size_bytes: sizeOf(join(dataDir, DB_FILE)) },
          { name: 'database_journal', size_bytes: sizeOf(join(dataDir, `${DB_FILE}-wal`)) + sizeOf(join(dataDir, `${DB_FILE}-shm`)) },
        ]
        : [];
      for (const folder of [...Object.values(DATA_FOLDERS), 'onsite']) {
        known.add(folder);
        breakdown.push({ name: folder, size_bytes: sizeOf(join(dataDir, folder)) });
      }
      let other = 0;
      for (const name of readdirSync(dataDir)) if (!known.has(name)) other += sizeOf(join(dataDir, name));
      breakdown.push({ name: 'other', size_bytes: other });
      const ledger = embedded
        ? { engine: 'sqlite' as const, size_bytes: breakdown[0]!.size_bytes + breakdown[1]!.size_bytes }
        : { engine: 'postgres' as const, size_bytes: await organizationRepo.databaseSize(engine.q) };
      return { path: dataDir, size_bytes: breakdown.reduce((a, b) => a + b.size_bytes, 0), breakdown, ledger };
    },
  };
}
export type Organization = ReturnType<typeof createOrganization>;
