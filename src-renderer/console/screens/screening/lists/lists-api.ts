// The list-management calls: the organisation's own lists as the service stores them, a newer
// official file, a user list, and removing one. Uploads send the file itself as the body (not
// JSON), so they use fetch here, with the same error shapes and session handling as
// api/client.ts; everything else goes through `request`.
import { z } from 'zod';
import { ApiError, request } from '../../../api/client';
import { serviceUrl } from '../../../api/shell';

/** The official sources a newer file can replace (the service's OFFICIAL_SOURCES). */
export const OFFICIAL_SOURCES = ['us_ofac_sdn', 'us_ofac_cons', 'us_csl', 'un_sc'] as const;
export type OfficialSource = (typeof OFFICIAL_SOURCES)[number];

const UserList = z.object({ slug: z.string(), name: z.string(), rows: z.number(), imported_at: z.string() });
export type UserList = z.output<typeof UserList>;

// Absent from a service that predates user lists: none.
const Stored = z.object({ user_lists: z.array(UserList).default([]) }).loose();

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

const UNREACHABLE = 'Cannot reach the Compliance Console service. Is it running?';

function messageOf(status: number, body: unknown): ApiError {
  let message = `The service answered with HTTP ${status}.`;
  let field: string | undefined;
  if (body && typeof body === 'object') {
    const b = body as { error?: unknown; message?: unknown; field?: unknown };
    if (typeof b.error === 'string') message = b.error;
    else if (b.error && typeof b.error === 'object' && 'message' in b.error) message = String(b.error.message);
    else if (typeof b.message === 'string') message = b.message;
    if (typeof b.field === 'string') field = b.field;
  }
  if (status === 401) {
    // Let the session store see the ended session the way every other request reports it.
    void request('GET', '/api/account', z.unknown()).catch(() => undefined);
  }
  return new ApiError(status, message, field);
}

/** POSTs a file as the raw body; answers the status and the parsed JSON (or throws ApiError 0). */
async function upload(path: string, file: Blob, contentType: string): Promise<{ status: number; ok: boolean; body: unknown }> {
  let res: Response;
  try {
    res = await fetch(`${serviceUrl()}${path}`, {
      method: 'POST',
      credentials: 'same-origin',
      cache: 'no-store',
      headers: { 'Content-Type': contentType, Accept: 'application/json' },
      body: file,
    });
  } catch {
    throw new ApiError(0, UNREACHABLE);
  }
  const text = await res.text();
  let body: unknown;
  try {
    body = text.length > 0 ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: res.status, ok: res.ok, body };
}

function understood<S extends z.ZodType>(schema: S, body: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  console.error(`Unexpected response from ${what}:`, parsed.error.issues.map((i) => i.path.join('.')));
  throw new ApiError(0, 'The service sent a response this console does not understand. Is the console up to date?');
}

export const listsApi = {
  /** The organisation's own lists (GET /api/screening/lists, `user_lists` only). */
  userLists: async (signal?: AbortSignal): Promise<UserList[]> =>
    (await request('GET', '/api/screening/lists', Stored, { signal })).user_lists,

  /** A newer file of an official list; refused (ApiError 400, field `file`) when it is not one. */
  importOfficial: async (source: OfficialSource, file: File): Promise<OfficialImport> => {
    const path = `/api/screening/lists/official?source=${encodeURIComponent(source)}&filename=${encodeURIComponent(file.name.slice(0, 200))}`;
    const res = await upload(path, file, 'application/octet-stream');
    if (!res.ok) throw messageOf(res.status, res.body);
    return understood(OfficialImport, res.body, 'POST /api/screening/lists/official');
  },

  /**
   * A user list from a CSV. A file with no importable row answers 400 with the same report
   * (`ok: false`), which is returned rather than thrown: its row errors are the useful part.
   */
  importUserList: async (name: string, file: File): Promise<UserReport> => {
    const res = await upload(`/api/screening/lists/user?name=${encodeURIComponent(name)}`, file, 'text/csv');
    if (res.ok || res.status === 400) {
      const report = UserReport.safeParse(res.body);
      if (report.success) return report.data;
    }
    if (!res.ok) throw messageOf(res.status, res.body);
    return understood(UserReport, res.body, 'POST /api/screening/lists/user');
  },

  removeUserList: (slug: string) => request('DELETE', `/api/screening/lists/user/${encodeURIComponent(slug)}`, Message),
};

/** The service's slug of a list name (user-csv.ts userListSlug): the same name replaces a list. */
export function listSlug(name: string): string {
  return name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}
