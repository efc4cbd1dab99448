// Managing the organisation's own lists: one function per operation, called by the console's
// routes and by the CLI. Each stores (or removes) the files, records who did it in the audit
// log, and, in a running service, swaps in the new index (the CLI leaves that to the service's
// watch of the lists folder). On PostgreSQL each change to the folder is shared with the other
// instances (shared.ts) as it is made.
import { AppError } from '../../../../../src-shared/errors';
import type { Audit, AuditActorRef } from '../../audit/audit';
import type { OfficialImport } from '../../../../../src-shared/contracts/lists';
import type { OfficialFile } from './official';
import type { OfficialSource } from './sources';
import {
  checkOfficial, checkUserList, currentOfficialRecords, discardHeldOfficial, holdOfficial, removeUserList, storedLists, storeOfficial, storeUserList,
  takeHeldOfficial, type OfficialCheck, type OfficialStoreOutcome, type UserListCheck, type UserStoreOutcome,
} from './store';
import { userListSlugOf } from './user-csv';
import { collectGarbage } from '../../workers/collect';

/**
 * Own lists kept at most. Each is indexed in memory beside the official lists and read at every
 * start: an import loop must not grow them without end. Replacing a list is always possible.
 */
export const MAX_USER_LISTS = 20;

export interface ListManagement {
  dataDir: string;
  /** The shipped lists (resources/watchlists): an import is compared with the edition in use. */
  watchlistsDir: string;
  audit: Pick<Audit, 'record'>;
  now: () => Date;
  /** Rebuilds the running service's index; absent in the CLI. */
  refresh?: () => Promise<unknown>;
  /**
   * Runs a change to the lists folder (SharedLists.change: on the shared version, under its lock,
   * shared once made); absent, it is simply run.
   */
  change?: <T>(work: () => T) => Promise<T>;
  /**
   * Reads a file elsewhere (the service's screening worker), so a large list never stalls the
   * HTTP loop; absent, it is read here (the CLI).
   */
  check?: ListChecker;
}

export interface ListChecker {
  userList(name: string, bytes: Uint8Array): Promise<UserListCheck>;
  official(source: OfficialSource, files: readonly OfficialFile[]): Promise<CheckedFiles>;
}

/**
 * An official file's check, and the files themselves: a worker that checks them may have them
 * moved to it and back instead of copied (the files given are then empty), so a 30 MB upload is
 * neither copied between threads nor held twice.
 */
export interface CheckedFiles {
  check: OfficialCheck;
  files: readonly OfficialFile[];
}

/** Who acts: the organisation (none before the first run, when nothing is audited) and the actor. */
export interface ListActor {
  orgId: number | null;
  actor: AuditActorRef;
}

/** `work` as a change of the lists folder (shared, on PostgreSQL), or simply run. */
async function changing<T>(m: ListManagement, work: () => T): Promise<T> {
  return m.change ? m.change(work) : work();
}

async function record(m: ListManagement, who: ListActor, action: 'list.imported' | 'list.removed', listId: string, records?: number): Promise<void> {
  if (who.orgId === null) return;
  await m.audit.record({
    orgId: who.orgId, actor: who.actor, action, listId, ...(records !== undefined ? { counts: { total: records } } : {}),
  });
}

/**
 * A newer file (or file set) of an official list; it replaces the shipped one, unless it would
 * remove more of the list than changes.ts lets pass: then it is held (answered with `held: true`)
 * until an owner or admin applies it (applyHeldOfficial), or `acceptRemovals` says they already did.
 */
export async function importOfficialList(
  m: ListManagement, who: ListActor, source: OfficialSource, files: readonly OfficialFile[], opts: { acceptRemovals?: boolean } = {},
): Promise<OfficialStoreOutcome> {
  const r = await checkAndStore(m, source, files, opts);
  if (!r.ok || r.held) return r;
  // The file is let go of (checkAndStore has returned), and collected, before the lists are
  // loaded again (workers/collect.ts).
  if (m.refresh) collectGarbage('here');
  await record(m, who, 'list.imported', r.source, r.records);
  await m.refresh?.();
  return r;
}

/** The file checked, then held or stored. */
async function checkAndStore(
  m: ListManagement, source: OfficialSource, given: readonly OfficialFile[], opts: { acceptRemovals?: boolean },
): Promise<OfficialStoreOutcome> {
  const { check, files } = m.check
    ? await m.check.official(source, given)
    : { check: checkOfficial(source, given, () => currentOfficialRecords(m.watchlistsDir, m.dataDir, source)), files: given };
  if (!check.ok) return check;
  if (check.hold !== null && !opts.acceptRemovals) return changing(m, () => holdOfficial(m.dataDir, source, files, m.now(), check));
  return changing(m, () => storeOfficial(m.dataDir, source, files, m.now(), check));
}

/** Applies the import held for `source` (an owner's or admin's confirmation); null when none is held. */
export async function applyHeldOfficial(m: ListManagement, who: ListActor, source: OfficialSource): Promise<OfficialImport | null> {
  const r = await changing(m, () => {
    const held = takeHeldOfficial(m.dataDir, source);
    return held ? storeOfficial(m.dataDir, source, held.files, m.now(), held.check) : null;
  });
  if (!r?.ok) return null;
  if (m.refresh) collectGarbage('here');
  await record(m, who, 'list.imported', r.source, r.records);
  await m.refresh?.();
  return r;
}

/** Drops the import held for `source`; false when none is held. Nothing was in use, so nothing changes. */
export function discardHeld(m: ListManagement, source: OfficialSource): Promise<boolean> {
  return changing(m, () => discardHeldOfficial(m.dataDir, source));
}

/** The organisation's own CSV list; stored only when at least one row could be imported. */
export async function importUserCsv(m: ListManagement, who: ListActor, name: string, bytes: Uint8Array): Promise<UserStoreOutcome> {
  const slug = userListSlugOf(name);
  const full = (): boolean => {
    const held = storedLists(m.dataDir).user;
    return !Object.hasOwn(held, slug) && Object.keys(held).length >= MAX_USER_LISTS;
  };
  const tooMany = () => new AppError('resource_limit', {
    team_limit: MAX_USER_LISTS, message: `At most ${MAX_USER_LISTS} own lists can be kept. Remove one, or replace a list by importing it under the same name.`,
  });
  if (full()) throw tooMany();
  const checked = m.check ? await m.check.userList(name, bytes) : checkUserList(name, bytes);
  // Counted again on the folder as the change finds it (another instance may have added lists meanwhile).
  const r = await changing(m, () => {
    if (full()) throw tooMany();
    return storeUserList(m.dataDir, name, bytes, m.now(), checked);
  });
  if (!r.ok) return r;
  await record(m, who, 'list.imported', r.source, r.rows.imported);
  await m.refresh?.();
  return r;
}

/** Removes a user list by slug; false when there is none. */
export async function removeUserCsv(m: ListManagement, who: ListActor, slug: string): Promise<boolean> {
  if (!(await changing(m, () => removeUserList(m.dataDir, slug)))) return false;
  await record(m, who, 'list.removed', `user:${slug}`);
  await m.refresh?.();
  return true;
}
