// The list-management calls: the organisation's own lists as the service stores them, a newer
// official file, a user list (both uploaded as the raw file), and removing one.
import { z } from 'zod';
import { request, upload } from '../../../api/client';

/** The official sources a newer file can replace (the service's OFFICIAL_SOURCES). */
export const OFFICIAL_SOURCES = ['us_ofac_sdn', 'us_ofac_cons', 'us_csl', 'un_sc'] as const;
export type OfficialSource = (typeof OFFICIAL_SOURCES)[number];

export type { UserList } from '../../../stores/lists';

const OfficialImport = z.object({
  ok: z.literal(true),
  source: z.string(),
  format: z.string(),
  records: z.number(),
  list_date: z.string().nullable(),
  sha256: z.string(),
});
export type OfficialImport = z.output<typeof OfficialImport>;

const Issue = z.object({ row: z.number(), column: z.string(), reason: z.string() });
export type ListIssue = z.output<typeof Issue>;

const UserReport = z.object({
  ok: z.boolean(),
  source: z.string(),
  rows: z.object({ total: z.number(), imported: z.number(), rejected: z.number() }),
  errors: z.array(Issue),
  warnings: z.array(Issue),
});
/** What the service made of a user CSV; `ok` is false when no row could be imported. */
export type UserReport = z.output<typeof UserReport>;

const Message = z.object({ message: z.string() }).loose();

export const listsApi = {
  /** A newer file of an official list; refused (ApiError 400, field `file`) when it is not one. */
  importOfficial: (source: OfficialSource, file: File): Promise<OfficialImport> =>
    upload(
      `/api/screening/lists/official?source=${encodeURIComponent(source)}&filename=${encodeURIComponent(file.name.slice(0, 200))}`,
      file, 'application/octet-stream', OfficialImport,
    ),

  /**
   * A user list from a CSV. A file with no importable row answers 400 with the same report
   * (`ok: false`), which is returned rather than thrown: its row errors are the useful part.
   */
  importUserList: (name: string, file: File): Promise<UserReport> =>
    upload(`/api/screening/lists/user?name=${encodeURIComponent(name)}`, file, 'text/csv', UserReport, { answerStatuses: [400] }),

  removeUserList: (slug: string) => request('DELETE', `/api/screening/lists/user/${encodeURIComponent(slug)}`, Message),
};

/** The service's slug of a list name (user-csv.ts userListSlug): the same name replaces a list. */
export function listSlug(name: string): string {
  return name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}
