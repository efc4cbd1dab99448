// The lists screened against: what is loaded and how fresh for an organisation, and the imports
// and removals owners and admins make (official files are public data; an own list is the
// organisation's reference data, not a request's subject, kept in the data directory).
import type { ListsStatus, UserListReport } from '../../../../src-shared/contracts/lists';
import type { Services } from '../../compose';
import type { SessionContext } from '../accounts/accounts';
import { actorOf, type AuditActorRef } from '../audit/audit';
import { freshnessOf, staleDaysFor } from '../screening/lists/freshness';
import { importOfficialList, importUserCsv, removeUserCsv, type ListActor, type ListManagement } from '../screening/lists/manage';
import type { OfficialFile } from '../screening/lists/official';
import { listAttribution, type OfficialSource } from '../screening/lists/sources';
import { storedLists } from '../screening/lists/store';

/** The lists loaded, the index, and the organisation's own lists, stale by its windows now. */
export function listsStatus(s: Services, orgId: number): ListsStatus {
  const loaded = s.screening.current();
  const windows = s.organization.listFreshness(orgId);
  const now = s.clock.now();
  return {
    state: s.screening.state(),
    loaded_kinds: loaded?.loadedKinds ?? [],
    lists: (loaded?.catalog ?? []).map((l) => ({ ...l, ...listAttribution(l.source), ...freshnessOf(l, windows, now), stale_after_days: staleDaysFor(l.kind, windows) })) as ListsStatus['lists'],
    stale_windows: windows,
    index: loaded ? { ...loaded.stats, load_ms: loaded.timings.load_ms } : null,
    user_lists: Object.values(storedLists(s.config.dataDir).user).map((u) => ({ slug: u.slug, name: u.name, rows: u.rows, imported_at: u.imported_at })),
  };
}

/**
 * Who imports: an analyst in the console (the service then reloads its index before answering,
 * so the import is visible at once), or the CLI beside a service that notices new files itself.
 */
export type ListImporter = { session: SessionContext } | { cli: AuditActorRef; orgId: number | null };

function management(s: Services, by: ListImporter): ListManagement {
  return {
    dataDir: s.config.dataDir, audit: s.audit, now: () => new Date(s.clock.now()),
    ...('session' in by ? { refresh: () => s.screening.refresh() } : {}),
    check: s.pool.checks,
  };
}

const actor = (by: ListImporter): ListActor =>
  'session' in by ? { orgId: by.session.org.id, actor: actorOf(by.session.user) } : { orgId: by.orgId, actor: by.cli };

/** Newer files of an official list, replacing the shipped one; or why they are not one. */
export function importOfficial(s: Services, by: ListImporter, source: OfficialSource, files: readonly OfficialFile[]): ReturnType<typeof importOfficialList> {
  return importOfficialList(management(s, by), actor(by), source, files);
}

/** One of the organisation's own lists from a CSV (imported or replaced), or the report of why not. */
export function importOwnList(s: Services, by: ListImporter, name: string, bytes: Uint8Array): Promise<UserListReport> {
  return importUserCsv(management(s, by), actor(by), name, bytes);
}

/** Removes one of the organisation's own lists; false when there is none of that name. */
export function removeOwnList(s: Services, by: ListImporter, slug: string): Promise<boolean> {
  return removeUserCsv(management(s, by), actor(by), slug);
}
