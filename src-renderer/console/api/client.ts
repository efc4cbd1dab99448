// The console's only way to the service and its only fetch: same-origin with the session cookie,
// JSON in and out (plus raw file uploads and NDJSON streams), every answer checked against a zod
// schema so a drifting contract fails loudly here rather than as `undefined` somewhere in a
// screen. A 401 on a session route goes to the session store's handler; GETs are retried on a
// network failure or 502/503 (twice, briefly), nothing else is.
import { z } from 'zod';
import type { Environment } from '../../../src-shared/catalog';
import { Message } from '../../../src-shared/contracts/common';
import {
  Account, CreatedKey, DesktopChoice, KeyList, LedgerPage, RevokedKey, Session, SetupStatus, TokenLoginResponse,
  type ChangePlanRequest, type CreateKeyRequest, type DesktopLoginRequest, type LoginRequest, type SetupRequest,
} from '../../../src-shared/contracts/accounts';
import {
  AppSchemesSettings, DataDirectory, ListFreshnessSettings, OrganizationSettings, type UpdateAppSchemesRequest, type UpdateListFreshnessRequest,
  type UpdateOrganizationRequest,
} from '../../../src-shared/contracts/organization';
import { OrgSettings, type UpdateSettingsRequest } from '../../../src-shared/contracts/review';
import { PublicUrlSettings, type UpdatePublicUrlRequest } from '../../../src-shared/contracts/links';
import { HostedAttemptsSettings } from '../../../src-shared/contracts/hosted';
import { LivenessSettings } from '../../../src-shared/contracts/faces';
import { TeamServerStatus, type TeamServerStartRequest } from '../../../src-shared/contracts/team-server';
import { WebhookPrivateHosts, type UpdateWebhookPrivateHosts } from '../../../src-shared/contracts/webhooks';
import {
  AcceptedInvitation, type AcceptInviteRequest, ChangedBilling, ChangedRole, CreatedInvitation, EndedSessions, InvitationList, type InviteRequest, MemberList, RemovedMember,
  TeamActivity, type TeamRole,
} from '../../../src-shared/contracts/team';
import { ErrorBody, type FieldIssue } from '../../../src-shared/errors';
import { serviceUrl } from './shell';

/** The service refused a write because someone else changed the setting since this console read it (412). */
export function isStaleSetting(e: unknown): boolean {
  return e instanceof ApiError && e.status === 412;
}

export class ApiError extends Error {
  constructor(
    /** HTTP status; 0 when the service could not be reached or answered nonsense. */
    readonly status: number,
    message: string,
    readonly field?: string,
    readonly fields?: FieldIssue[],
    readonly code?: string,
    /** Seconds the service asked to wait (Retry-After on a 429 or 503). */
    readonly retryAfter?: number,
    /** Account errors about a cap (the team limit): how many there are and how many the plan allows. */
    readonly counts?: { current: number; limit: number },
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The message for one form field, from `field` or `fields` (account and general shapes). */
  forField(name: string): string | undefined {
    if (this.field === name) return this.message;
    const issue = this.fields?.find((f) => f.field === name);
    return issue ? `${labelOf(name)} is ${issue.issue}` : undefined;
  }
}

function labelOf(field: string): string {
  const text = field.replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function errorText(e: unknown): string {
  if (e instanceof ApiError) return e.retryAfter ? `${e.message} (wait ${e.retryAfter} s)` : e.message;
  if (e instanceof Error) return e.message;
  return 'Something went wrong.';
}

/**
 * What a 401 on a session route leads to: the session store asks for the password in place and
 * answers true once the same person has signed in again (the request is then sent once more),
 * false when they gave up (signed out, or chose to sign in as someone else).
 */
type UnauthorizedHandler = () => Promise<boolean>;
let onUnauthorized: UnauthorizedHandler | null = null;

/** The session store registers here: a 401 on a session route means the session has ended. */
export function setUnauthorizedHandler(handler: UnauthorizedHandler | null): void {
  onUnauthorized = handler;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface RequestOptions {
  body?: unknown;
  signal?: AbortSignal;
  /** Login-type requests answer 401 for bad credentials; that is not an ended session. */
  anonymous?: boolean;
}

/** An error answer, read with the service's own error shapes (src-shared/errors.ts). */
function toApiError(res: Response, body: unknown): ApiError {
  const status = res.status;
  const wait = Number(res.headers.get('retry-after') ?? '');
  const retryAfter = Number.isInteger(wait) && wait > 0 ? wait : undefined;
  const parsed = ErrorBody.safeParse(body);
  if (!parsed.success) return new ApiError(status, `The service answered with HTTP ${status}.`, undefined, undefined, undefined, retryAfter);
  const b = parsed.data;
  if (typeof b.error !== 'string') return new ApiError(status, b.error.message, undefined, undefined, b.error.code, retryAfter);
  const counts = 'current' in b && b.current !== undefined && 'limit' in b && typeof b.limit === 'number' ? { current: b.current, limit: b.limit } : undefined;
  return new ApiError(
    status, b.error, 'field' in b ? b.field : undefined, 'fields' in b ? b.fields : undefined, 'code' in b ? b.code : undefined, retryAfter, counts,
  );
}

const UNREACHABLE = 'Cannot reach the Compliance Console service. Is it running?';
const NOT_UNDERSTOOD = 'The service sent a response this console does not understand. Is the console up to date?';

/** GETs only (they change nothing): a network failure or a 502/503 is tried again, twice at most. */
const RETRY_DELAYS_MS = [250, 750];
const RETRY_STATUSES = new Set([502, 503]);

function isAbort(e: unknown): boolean {
  return e instanceof DOMException && e.name === 'AbortError';
}

function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('Aborted', 'AbortError'));
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new DOMException('Aborted', 'AbortError'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

interface SendInit {
  body?: BodyInit;
  contentType?: string;
  accept?: string;
  signal?: AbortSignal;
  anonymous?: boolean;
}

/** Resolves when the handler answers, rejects when `signal` aborts first. */
function untilSignedInAgain(handler: UnauthorizedHandler, signal: AbortSignal | undefined): Promise<boolean> {
  if (!signal) return handler();
  if (signal.aborted) return Promise.reject(new DOMException('Aborted', 'AbortError'));
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new DOMException('Aborted', 'AbortError'));
    signal.addEventListener('abort', onAbort, { once: true });
    handler().then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * The one place that calls fetch: same origin, the session cookie, no cache. Retries safe GETs.
 * A 401 on a session route goes to the registered handler, and the request waits: once the same
 * person has signed in again it is sent once more (a 401 comes before a route does anything, so
 * resending changes nothing twice), else the 401 is the answer. Answers the response whatever its
 * status (callers decide what an error status means); throws ApiError 0 when unreachable.
 */
async function send(method: Method, path: string, init: SendInit): Promise<Response> {
  const res = await sendOnce(method, path, init);
  if (res.status !== 401 || init.anonymous || !onUnauthorized) return res;
  if (!(await untilSignedInAgain(onUnauthorized, init.signal))) return res;
  await res.body?.cancel().catch(() => undefined);
  return sendOnce(method, path, init);
}

/**
 * The version (ETag) of each setting as this console last read or wrote it: a write sends it back
 * (If-Match), so a change someone else made meanwhile is refused (412) instead of overwritten.
 */
const seenVersions = new Map<string, string>();

async function sendOnce(method: Method, path: string, init: SendInit): Promise<Response> {
  const headers: Record<string, string> = { Accept: init.accept ?? 'application/json' };
  if (init.contentType) headers['Content-Type'] = init.contentType;
  const setting = path.split('?', 1)[0]!;
  const seen = method === 'PUT' || method === 'PATCH' ? seenVersions.get(setting) : undefined;
  if (seen) headers['If-Match'] = seen;
  const req: RequestInit = { method, credentials: 'same-origin', headers, cache: 'no-store' };
  if (init.body !== undefined) req.body = init.body;
  if (init.signal) req.signal = init.signal;
  const retries = method === 'GET' ? RETRY_DELAYS_MS.length : 0;

  for (let attempt = 0; ; attempt++) {
    let res: Response | null = null;
    try {
      res = await fetch(`${serviceUrl()}${path}`, req);
    } catch (e) {
      if (isAbort(e)) throw e;
      if (attempt >= retries) throw new ApiError(0, UNREACHABLE);
    }
    if (res && (attempt >= retries || !RETRY_STATUSES.has(res.status))) {
      const version = res.ok ? res.headers.get('etag') : null;
      if (version) seenVersions.set(setting, version);
      else if (res.ok && method !== 'GET') seenVersions.delete(setting);
      return res;
    }
    // Drop the failed answer's body before asking again.
    if (res) await res.body?.cancel().catch(() => undefined);
    await wait(RETRY_DELAYS_MS[attempt] ?? 0, init.signal);
  }
}

async function readJson(res: Response): Promise<unknown> {
  const text = await res.text();
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function understood<S extends z.ZodType>(schema: S, body: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  // Paths only: values could be anything the service sent.
  console.error(`Unexpected response from ${what}:`, parsed.error.issues.map((i) => i.path.join('.')));
  throw new ApiError(0, NOT_UNDERSTOOD);
}

/** A query string from an object's defined, non-empty values. */
export function queryString(q: Record<string, unknown>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== '') p.set(k, String(v));
  return p.toString();
}

/** A JSON request checked against `schema`. Screens' own API modules call this. */
export async function request<S extends z.ZodType>(
  method: Method,
  path: string,
  schema: S,
  opts: RequestOptions = {},
): Promise<z.output<S>> {
  const res = await send(method, path, {
    body: method === 'GET' ? undefined : JSON.stringify(opts.body ?? {}),
    contentType: method === 'GET' ? undefined : 'application/json',
    signal: opts.signal,
    anonymous: opts.anonymous,
  });
  const json = await readJson(res);
  if (!res.ok) throw toApiError(res, json);
  return understood(schema, json, `${method} ${path}`);
}

interface UploadOptions {
  signal?: AbortSignal;
  /**
   * Error statuses whose body is still an answer when it fits `schema` (a report of what was
   * wrong with the file, say); returned instead of thrown.
   */
  answerStatuses?: readonly number[];
  /** POST unless said (the logo is PUT: it replaces the one there is). */
  method?: 'POST' | 'PUT';
}

/** POSTs a file as the raw body (not JSON); the JSON answer is checked against `schema`. */
export async function upload<S extends z.ZodType>(
  path: string,
  file: Blob,
  contentType: string,
  schema: S,
  opts: UploadOptions = {},
): Promise<z.output<S>> {
  const method = opts.method ?? 'POST';
  const res = await send(method, path, { body: file, contentType, signal: opts.signal });
  const json = await readJson(res);
  if (!res.ok) {
    const answer = opts.answerStatuses?.includes(res.status) ? schema.safeParse(json) : null;
    if (answer?.success) return answer.data;
    throw toApiError(res, json);
  }
  return understood(schema, json, `${method} ${path}`);
}

/** POSTs a multipart form (the browser sets its boundary); the JSON answer is checked against `schema`. */
export async function uploadForm<S extends z.ZodType>(path: string, form: FormData, schema: S, opts: { signal?: AbortSignal } = {}): Promise<z.output<S>> {
  const res = await send('POST', path, { body: form, signal: opts.signal });
  const json = await readJson(res);
  if (!res.ok) throw toApiError(res, json);
  return understood(schema, json, `POST ${path}`);
}

interface StreamOptions {
  body: string;
  contentType: string;
  signal?: AbortSignal;
}

/**
 * POSTs `body` and reads the NDJSON answer as it arrives: each line is checked against `lineSchema`
 * and the lines of each arriving piece go to `onLines` together. A line that does not fit stops
 * the stream with an ApiError.
 */
export async function streamLines<S extends z.ZodType>(
  path: string,
  lineSchema: S,
  onLines: (lines: z.output<S>[]) => void,
  opts: StreamOptions,
): Promise<void> {
  const res = await send('POST', path, {
    body: opts.body, contentType: opts.contentType, accept: 'application/x-ndjson', signal: opts.signal,
  });
  if (!res.ok || !res.body) throw toApiError(res, await readJson(res));

  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let rest = '';
  const take = (text: string) => {
    const parts = text.split('\n');
    rest = parts.pop() ?? '';
    const out: z.output<S>[] = [];
    for (const part of parts) {
      if (part.trim() === '') continue;
      let json: unknown;
      try {
        json = JSON.parse(part);
      } catch {
        throw new ApiError(0, NOT_UNDERSTOOD);
      }
      out.push(understood(lineSchema, json, `a line of POST ${path}`));
    }
    if (out.length > 0) onLines(out);
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      take(rest + decoder.decode(value, { stream: true }));
    }
    take(rest + decoder.decode() + '\n');
  } finally {
    reader.releaseLock();
  }
}

export interface DownloadedFile {
  bytes: Uint8Array;
  /** From Content-Disposition (`attachment; filename="report_7.pdf"`); null when it names none. */
  filename: string | null;
}

/** GETs a file (a report export) as bytes, for the desktop shell's save dialog. */
export async function download(path: string, opts: { signal?: AbortSignal } = {}): Promise<DownloadedFile> {
  const res = await send('GET', path, { accept: '*/*', signal: opts.signal });
  if (!res.ok) throw toApiError(res, await readJson(res));
  const disposition = res.headers.get('content-disposition') ?? '';
  const name = /filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? null;
  return { bytes: new Uint8Array(await res.arrayBuffer()), filename: name };
}

/** Just enough of an OpenAPI document to know it is one; Swagger UI reads the rest itself. */
const OpenApiDocument = z.object({ openapi: z.string(), paths: z.record(z.string(), z.unknown()) }).loose();
export type OpenApiDocument = z.output<typeof OpenApiDocument>;

export const api = {
  /** The service's OpenAPI document, or null when it publishes none (404). */
  openapi: (signal?: AbortSignal): Promise<OpenApiDocument | null> =>
    request('GET', '/api/openapi.json', OpenApiDocument, { signal, anonymous: true }).then(
      (doc) => doc,
      (e: unknown) => {
        if (e instanceof ApiError && e.status === 404) return null;
        throw e;
      },
    ),
  setupStatus: (signal?: AbortSignal) => request('GET', '/api/setup', SetupStatus, { signal, anonymous: true }),
  setup: (body: SetupRequest) => request('POST', '/api/setup', Session, { body, anonymous: true }),
  login: (body: LoginRequest) => request('POST', '/api/auth/login', Session, { body, anonymous: true }),
  /** The only member's session, or the members to choose from (several people share the desktop install). */
  loginWithToken: (token: string) => request('POST', '/api/auth/token', TokenLoginResponse, { body: { token }, anonymous: true }),
  desktopMembers: () => request('GET', '/api/auth/desktop/members', DesktopChoice, { anonymous: true }),
  desktopLogin: (body: DesktopLoginRequest) => request('POST', '/api/auth/desktop/login', Session, { body, anonymous: true }),
  /** Anonymous: "not logged in yet" at start-up is a normal answer, not an ended session. */
  me: () => request('GET', '/api/auth/me', Session, { anonymous: true }),
  logout: () => request('POST', '/api/auth/logout', Message, { anonymous: true }),

  listKeys: (env: Environment, signal?: AbortSignal) =>
    request('GET', `/api/keys?env=${encodeURIComponent(env)}`, KeyList, { signal }),
  createKey: (body: CreateKeyRequest) => request('POST', '/api/keys', CreatedKey, { body }),
  revokeKey: (id: string) => request('POST', `/api/keys/${encodeURIComponent(id)}/revoke`, RevokedKey),

  account: (signal?: AbortSignal) => request('GET', '/api/account', Account, { signal }),
  changePlan: (body: ChangePlanRequest) => request('PATCH', '/api/account/plan', Account, { body }),
  settings: (signal?: AbortSignal) => request('GET', '/api/settings', OrgSettings, { signal }),
  updateSettings: (body: UpdateSettingsRequest) => request('PATCH', '/api/settings', OrgSettings, { body }),
  organization: (signal?: AbortSignal) => request('GET', '/api/settings/organization', OrganizationSettings, { signal }),
  renameOrganization: (body: UpdateOrganizationRequest) => request('PATCH', '/api/settings/organization', OrganizationSettings, { body }),
  listFreshness: (signal?: AbortSignal) => request('GET', '/api/settings/list-freshness', ListFreshnessSettings, { signal }),
  updateListFreshness: (body: UpdateListFreshnessRequest) => request('PATCH', '/api/settings/list-freshness', ListFreshnessSettings, { body }),
  appSchemes: (signal?: AbortSignal) => request('GET', '/api/settings/app-schemes', AppSchemesSettings, { signal }),
  updateAppSchemes: (body: UpdateAppSchemesRequest) => request('PUT', '/api/settings/app-schemes', AppSchemesSettings, { body }),
  publicUrl: (signal?: AbortSignal) => request('GET', '/api/settings/public-url', PublicUrlSettings, { signal }),
  updatePublicUrl: (body: UpdatePublicUrlRequest) => request('PUT', '/api/settings/public-url', PublicUrlSettings, { body }),
  livenessSettings: (signal?: AbortSignal) => request('GET', '/api/settings/liveness', LivenessSettings, { signal }),
  /** The team server (issue 39): status for everyone signed in; start and stop for the owner. */
  teamServer: (signal?: AbortSignal) => request('GET', '/api/team-server', TeamServerStatus, { signal }),
  startTeamServer: (body: TeamServerStartRequest) => request('POST', '/api/team-server/start', TeamServerStatus, { body }),
  stopTeamServer: () => request('POST', '/api/team-server/stop', TeamServerStatus),
  /** The hosts on private networks webhooks may reach (issue 39): everyone reads, the owner sets. */
  webhookPrivateHosts: (signal?: AbortSignal) => request('GET', '/api/webhooks/private-hosts', WebhookPrivateHosts, { signal }),
  setWebhookPrivateHosts: (body: UpdateWebhookPrivateHosts) => request('PUT', '/api/webhooks/private-hosts', WebhookPrivateHosts, { body }),
  updateLivenessSettings: (body: LivenessSettings) => request('PUT', '/api/settings/liveness', LivenessSettings, { body }),
  hostedAttempts: (signal?: AbortSignal) => request('GET', '/api/settings/hosted-attempts', HostedAttemptsSettings, { signal }),
  updateHostedAttempts: (body: HostedAttemptsSettings) => request('PUT', '/api/settings/hosted-attempts', HostedAttemptsSettings, { body }),
  /** Any other file goes as octet-stream, so the service's check (by its first bytes) says what is wrong with it. */
  uploadLogo: (file: Blob) =>
    upload('/api/settings/logo', file, file.type === 'image/png' || file.type === 'image/jpeg' ? file.type : 'application/octet-stream', OrganizationSettings, { method: 'PUT' }),
  removeLogo: () => request('DELETE', '/api/settings/logo', OrganizationSettings),
  dataDirectory: (signal?: AbortSignal) => request('GET', '/api/settings/data-directory', DataDirectory, { signal }),
  ledger: (page: number, perPage: number, signal?: AbortSignal) =>
    request('GET', `/api/credits/ledger?page=${page}&per_page=${perPage}`, LedgerPage, { signal }),

  teamMembers: (signal?: AbortSignal) => request('GET', '/api/team/members', MemberList, { signal }),
  teamInvites: (signal?: AbortSignal) => request('GET', '/api/team/invites', InvitationList, { signal }),
  teamActivity: (page: number, signal?: AbortSignal) => request('GET', `/api/team/activity?page=${page}&per_page=20`, TeamActivity, { signal }),
  invite: (body: InviteRequest) => request('POST', '/api/team/invite', CreatedInvitation, { body }),
  cancelInvite: (id: number) => request('DELETE', `/api/team/invites/${id}`, Message),
  changeRole: (id: number, role: TeamRole) => request('PATCH', `/api/team/members/${id}/role`, ChangedRole, { body: { role } }),
  setBilling: (id: number, billing: boolean) => request('PATCH', `/api/team/members/${id}/billing`, ChangedBilling, { body: { billing } }),
  removeMember: (id: number) => request('DELETE', `/api/team/members/${id}`, RemovedMember),
  endMemberSessions: (id: number) => request('POST', `/api/team/members/${id}/end-sessions`, EndedSessions),
  /**
   * Anonymous: the invitee may not be signed in, and its 401 ("log in with the invited e-mail") is
   * an answer for the acceptance screen, not an ended session. The token goes in the body only.
   */
  acceptInvite: (body: AcceptInviteRequest) => request('POST', '/api/team/invite/accept', AcceptedInvitation, { body, anonymous: true }),
};
