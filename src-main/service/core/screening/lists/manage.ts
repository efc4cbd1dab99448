// Managing the organisation's own lists: one function per operation, called by the console's
// routes and by the CLI. Each stores (or removes) the files, records who did it in the audit
// log, and, in a running service, swaps in the new index (the CLI leaves that to the service's
// watch of the lists folder).
import { AppError } from '../../../../../src-shared/errors';
import type { Audit, AuditActorRef } from '../../audit/audit';
import type { OfficialFile } from './official';
import type { OfficialSource } from './sources';
import {
  checkOfficial, checkUserList, removeUserList, storedLists, storeOfficial, storeUserList,
  type OfficialCheck, type OfficialStoreOutcome, type UserListCheck, type UserStoreOutcome,
} from './store';
import { userListSlugOf } from './user-csv';

/**
 * Own lists kept at most. Each is indexed in memory beside the official lists and read at every
 * start: an import loop must not grow them without end. Replacing a list is always possible.
 */
export const MAX_USER_LISTS = 20;

export interface ListManagement {
  dataDir: string;
  audit: Pick<Audit, 'record'>;
  now: () => Date;
  /** Rebuilds the running service's index; absent in the CLI. */
  refresh?: () => Promise<unknown>;
  /**
   * Reads a file elsewhere (the service's screening worker), so a large list never stalls the
   * HTTP loop; absent, it is read here (the CLI).
   */
  check?: ListChecker;
}

export interface ListChecker {
  userList(name: string, bytes: Uint8Array): Promise<UserListCheck>;
  official(source: OfficialSource, files: readonly OfficialFile[]): Promise<OfficialCheck>;
}

/** Who acts: the organisation (none before the first run, when nothing is audited) and the actor. */
export interface ListActor {
  orgId: number | null;
  actor: AuditActorRef;
}

function record(m: ListManagement, who: ListActor, action: 'list.imported' | 'list.removed', listId: string, records?: number): void {
  if (who.orgId === null) return;
  m.audit.record({
    orgId: who.orgId, actor: who.actor, action, listId, ...(records !== undefined ? { counts: { total: records } } : {}),
  });
}

/** A newer file (or file set) of an official list; it replaces the shipped one. */
export async function importOfficialList(
  m: ListManagement, who: ListActor, source: OfficialSource, files: readonly OfficialFile[],
): Promise<OfficialStoreOutcome> {
  const checked = m.check ? await m.check.official(source, files) : checkOfficial(source, files);
  const r = storeOfficial(m.dataDir, source, files, m.now(), checked);
  if (!r.ok) return r;
  record(m, who, 'list.imported', r.source, r.records);
  await m.refresh?.();
  return r;
}

/** The organisation's own CSV list; stored only when at least one row could be imported. */
export async function importUserCsv(m: ListManagement, who: ListActor, name: string, bytes: Uint8Array): Promise<UserStoreOutcome> {
  const slug = userListSlugOf(name);
  const held = storedLists(m.dataDir).user;
  if (!Object.hasOwn(held, slug) && Object.keys(held).length >= MAX_USER_LISTS) {
    throw new AppError('resource_limit', {
      team_limit: MAX_USER_LISTS, message: `At most ${MAX_USER_LISTS} own lists can be kept. Remove one, or replace a list by importing it under the same name.`,
    });
  }
  const checked = m.check ? await m.check.userList(name, bytes) : checkUserList(name, bytes);
  const r = storeUserList(m.dataDir, name, bytes, m.now(), checked);
  if (!r.ok) return r;
  record(m, who, 'list.imported', r.source, r.rows.imported);
  await m.refresh?.();
  return r;
}

/** Removes a user list by slug; false when there is none. */
export async function removeUserCsv(m: ListManagement, who: ListActor, slug: string): Promise<boolean> {
  if (!removeUserList(m.dataDir, slug)) return false;
  record(m, who, 'list.removed', `user:${slug}`);
  await m.refresh?.();
  return true;
}
