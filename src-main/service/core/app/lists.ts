// The lists screened against: what is loaded and how fresh for an organisation, and the imports
// and removals owners and admins make (official files are public data; an own list is the
// organisation's reference data, not a request's subject, kept in the data directory).
import type { ListsStatus, OfficialImport, UserListReport } from '../../../../src-shared/contracts/lists';
import { AppError } from '../../../../src-shared/errors';
import type { Services } from '../../compose';
import type { SessionContext } from '../accounts/accounts';
import { actorOf } from '../audit/audit';
import { freshnessOf, staleDaysFor } from '../screening/lists/freshness';
import { importOfficialList, importUserCsv, removeUserCsv, type ListActor, type ListManagement } from '../screening/lists/manage';
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

function management(s: Services): ListManagement {
  return {
    dataDir: s.config.dataDir, audit: s.audit, now: () => new Date(s.clock.now()),
    refresh: () => s.screening.refresh(),
    check: s.pool.checks,
  };
}

const by = (session: SessionContext): ListActor => ({ orgId: session.org.id, actor: actorOf(session.user) });

/** A newer file of an official list, replacing the shipped one; a file that is not one is refused naming why. */
export async function importOfficial(s: Services, session: SessionContext, source: OfficialSource, file: { name: string; bytes: Uint8Array }): Promise<OfficialImport> {
  const r = await importOfficialList(management(s), by(session), source, [file]);
  if (!r.ok) throw new AppError('account_validation', { field: 'file', message: `Not imported: ${r.reason}` });
  return r;
}

/** One of the organisation's own lists from a CSV (imported or replaced), or the report of why not. */
export function importOwnList(s: Services, session: SessionContext, name: string, bytes: Uint8Array): Promise<UserListReport> {
  return importUserCsv(management(s), by(session), name, bytes);
}

export async function removeOwnList(s: Services, session: SessionContext, slug: string): Promise<void> {
  if (!(await removeUserCsv(management(s), by(session), slug))) throw new AppError('list_not_found');
}
