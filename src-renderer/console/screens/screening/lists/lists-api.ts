// The list-management calls: a newer official file, a user list (both uploaded as the raw file),
// and removing one. Shapes and rules are the shared contracts (src-shared/contracts/lists.ts).
import { Message } from '../../../../../src-shared/contracts/common';
import {
  OfficialImport, UserListReport, type OfficialSource,
} from '../../../../../src-shared/contracts/lists';
import { request, upload } from '../../../api/client';

export {
  OFFICIAL_SOURCES, listSlug, type ListChanges, type ListIssue, type OfficialImport, type OfficialSource, type UserList,
  type UserListReport as UserReport,
} from '../../../../../src-shared/contracts/lists';

export const listsApi = {
  /**
   * A newer file of an official list; refused (ApiError 400, field `file`) when it is not one, and
   * answered with `held: true` (202) when it would remove much of the list: nothing changes until
   * applyHeld.
   */
  importOfficial: (source: OfficialSource, file: File): Promise<OfficialImport> =>
    upload(
      `/api/screening/lists/official?source=${encodeURIComponent(source)}&filename=${encodeURIComponent(file.name.slice(0, 200))}`,
      file, 'application/octet-stream', OfficialImport,
    ),

  /**
   * A user list from a CSV (its text as UTF-8: see list-file.ts). A file with no importable row
   * answers 400 with the same report (`ok: false`), which is returned rather than thrown: its row
   * errors are the useful part.
   */
  importUserList: (name: string, csv: Blob): Promise<UserListReport> =>
    upload(`/api/screening/lists/user?name=${encodeURIComponent(name)}`, csv, 'text/csv', UserListReport, { answerStatuses: [400] }),

  /** Applies the file held for `source`: it replaces the edition in use. */
  applyHeld: (source: OfficialSource): Promise<OfficialImport> =>
    request('POST', `/api/screening/lists/official/held/${encodeURIComponent(source)}`, OfficialImport),

  /** Discards the file held for `source`; the edition in use stays. */
  discardHeld: (source: OfficialSource) => request('DELETE', `/api/screening/lists/official/held/${encodeURIComponent(source)}`, Message),

  removeUserList: (slug: string) => request('DELETE', `/api/screening/lists/user/${encodeURIComponent(slug)}`, Message),
};
