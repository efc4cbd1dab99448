// The lists screened against: what is loaded and how fresh for an organisation, and the imports
// and removals owners and admins make (official files are public data; an own list is the
// organisation's reference data, not a request's subject, kept in the data directory).
import { join } from 'node:path';
import type { ListsStatus, UserListReport } from '../../../../src-shared/contracts/lists';
import type { SessionContext } from '../accounts/accounts';
import type { Organization } from '../accounts/organization';
import { actorOf, type Audit, type AuditActorRef } from '../audit/audit';
import type { Clock } from '../clock';
import { freshnessOf, staleDaysFor } from '../screening/lists/freshness';
import { applyHeldOfficial, discardHeld, importOfficialList, importUserCsv, removeUserCsv, type ListActor, type ListManagement } from '../screening/lists/manage';
import type { OfficialFile } from '../screening/lists/official';
import type { SharedLists } from '../screening/lists/shared';
import { listAttribution, type OfficialSource } from '../screening/lists/sources';
import { heldOfficials, storedLists } from '../screening/lists/store';
import type { ScreenPool } from '../screening/pool';
import type { Screening } from '../screening/service';

/**
 * What the lists' use cases use: where the lists are (the data directory, the shipped
 * watchlists), the loaded lists, the worker's checks, the shared version (PostgreSQL), the
 * organisation's staleness windows and the audit log.
 */
export interface ListsDeps {
  config: { dataDir: string; resourcesDir: string };
  clock: Clock;
  screening: Screening;
  pool: ScreenPool;
  sharedLists: SharedLists;
  organization: Organization;
  audit: Audit;
}

/** The lists loaded, the index, and the organisation's own lists, stale by its windows now. */
export async function listsStatus(s: Pick<ListsDeps, 'config' | 'clock' | 'screening' | 'organization'>, orgId: number): Promise<ListsStatus> {
  const loaded = s.screening.current();
  const windows = await s.organization.listFreshness(orgId);
  const now = s.clock.now();
  return {
    state: s.screening.state(),
    loaded_kinds: loaded?.loadedKinds ?? [],
    lists: (loaded?.catalog ?? []).map((l) => ({ ...l, ...listAttribution(l.source), ...freshnessOf(l, windows, now), stale_after_days: staleDaysFor(l.kind, windows) })) as ListsStatus['lists'],
    stale_windows: windows,
    index: loaded ? { ...loaded.stats, load_ms: loaded.timings.load_ms } : null,
    user_lists: Object.values(storedLists(s.config.dataDir).user).map((u) => ({ slug: u.slug, name: u.name, rows: u.rows, imported_at: u.imported_at })),
    held_imports: heldOfficials(s.config.dataDir),
  };
}

/**
 * Who imports: an analyst in the console (the service then reloads its index before answering,
 * so the import is visible at once), or the CLI beside a service that notices new files itself.
 */
export type ListImporter = { session: SessionContext } | { cli: AuditActorRef; orgId: number | null };

function management(s: ListsDeps, by: ListImporter): ListManagement {
  return {
    dataDir: s.config.dataDir, watchlistsDir: join(s.config.resourcesDir, 'watchlists'), audit: s.audit, now: () => new Date(s.clock.now()),
    ...('session' in by ? { refresh: () => s.screening.refresh() } : {}),
    change: s.sharedLists.change,
    check: s.pool.checks,
  };
}

const actor = (by: ListImporter): ListActor =>
  'session' in by ? { orgId: by.session.org.id, actor: actorOf(by.session.user) } : { orgId: by.orgId, actor: by.cli };

/**
 * Newer files of an official list, replacing the shipped one (or held for confirmation when they
 * would remove much of it: `acceptRemovals` is that confirmation, given beforehand); or why they
 * are not one.
 */
export function importOfficial(
  s: ListsDeps, by: ListImporter, source: OfficialSource, files: readonly OfficialFile[], opts: { acceptRemovals?: boolean } = {},
): ReturnType<typeof importOfficialList> {
  return importOfficialList(management(s, by), actor(by), source, files, opts);
}

/** Applies the import held for `source`; null when none is held. */
export function applyHeldImport(s: ListsDeps, by: ListImporter, source: OfficialSource): ReturnType<typeof applyHeldOfficial> {
  return applyHeldOfficial(management(s, by), actor(by), source);
}

/** Discards the import held for `source`; false when none is held. */
export function discardHeldImport(s: ListsDeps, by: ListImporter, source: OfficialSource): Promise<boolean> {
  return discardHeld(management(s, by), source);
}

/** One of the organisation's own lists from a CSV (imported or replaced), or the report of why not. */
export function importOwnList(s: ListsDeps, by: ListImporter, name: string, bytes: Uint8Array): Promise<UserListReport> {
  return importUserCsv(management(s, by), actor(by), name, bytes);
}

/** Removes one of the organisation's own lists; false when there is none of that name. */
export function removeOwnList(s: ListsDeps, by: ListImporter, slug: string): Promise<boolean> {
  return removeUserCsv(management(s, by), actor(by), slug);
}
