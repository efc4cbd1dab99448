// The console's only way to the service: same-origin fetch with the session cookie, JSON in and
// out, responses checked against the shared zod contracts so a drifting contract fails loudly
// here rather than as `undefined` somewhere in a screen.
import { z } from 'zod';
import type { Environment } from '../../../src-shared/catalog';
import {
  Account, ApiKey, CreatedKey, KeyList, LedgerPage, Session, SetupStatus,
  type ChangePlanRequest, type CreateKeyRequest, type LoginRequest, type SetupRequest,
} from '../../../src-shared/contracts/accounts';
import { OrgSettings, type UpdateSettingsRequest } from '../../../src-shared/contracts/review';
import type { FieldIssue } from '../../../src-shared/errors';
import { serviceUrl } from './shell';

export class ApiError extends Error {
  constructor(
    /** HTTP status; 0 when the service could not be reached or answered nonsense. */
    readonly status: number,
    message: string,
    readonly field?: string,
    readonly fields?: FieldIssue[],
    readonly code?: string,
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
  if (e instanceof ApiError) return e.message;
  if (e instanceof Error) return e.message;
  return 'Something went wrong.';
}

type UnauthorizedHandler = () => void;
let onUnauthorized: UnauthorizedHandler | null = null;

/** The session store registers here: a 401 on a session route means the session has ended. */
export function setUnauthorizedHandler(handler: UnauthorizedHandler | null): void {
  onUnauthorized = handler;
}

interface RequestOptions {
  body?: unknown;
  signal?: AbortSignal;
  /** Login-type requests answer 401 for bad credentials; that is not an ended session. */
  anonymous?: boolean;
}

const ErrorBody = z.object({
  error: z.union([z.string(), z.object({ message: z.string() }).loose()]).optional(),
  message: z.string().optional(),
  field: z.string().optional(),
  fields: z.array(z.object({ field: z.string(), issue: z.string() })).optional(),
  code: z.string().optional(),
}).loose();

function toApiError(status: number, body: unknown): ApiError {
  const parsed = ErrorBody.safeParse(body);
  if (!parsed.success) return new ApiError(status, `The service answered with HTTP ${status}.`);
  const b = parsed.data;
  const text = typeof b.error === 'string' ? b.error : (b.error?.message ?? b.message ?? `The service answered with HTTP ${status}.`);
  return new ApiError(status, text, b.field, b.fields, b.code);
}

/** Screens with their own small API module (e.g. webhooks) call this directly. */
export async function request<S extends z.ZodType>(
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  schema: S,
  opts: RequestOptions = {},
): Promise<z.output<S>> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const init: RequestInit = { method, credentials: 'same-origin', headers, cache: 'no-store' };
  if (opts.signal) init.signal = opts.signal;
  if (method !== 'GET') {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(opts.body ?? {});
  }

  let res: Response;
  try {
    res = await fetch(`${serviceUrl()}${path}`, init);
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError') throw e;
    throw new ApiError(0, 'Cannot reach the Compliance Console service. Is it running?');
  }

  const text = await res.text();
  let json: unknown = undefined;
  if (text.length > 0) {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }

  if (!res.ok) {
    if (res.status === 401 && !opts.anonymous) onUnauthorized?.();
    throw toApiError(res.status, json);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    // Paths only: values could be anything the service sent.
    console.error(`Unexpected response from ${method} ${path}:`, parsed.error.issues.map((i) => i.path.join('.')));
    throw new ApiError(0, 'The service sent a response this console does not understand. Is the console up to date?');
  }
  return parsed.data;
}

const Message = z.object({ message: z.string() }).loose();
const RevokedKey = z.object({ key: ApiKey });

export const api = {
  setupStatus: (signal?: AbortSignal) => request('GET', '/api/setup', SetupStatus, { signal, anonymous: true }),
  setup: (body: SetupRequest) => request('POST', '/api/setup', Session, { body, anonymous: true }),
  login: (body: LoginRequest) => request('POST', '/api/auth/login', Session, { body, anonymous: true }),
  loginWithToken: (token: string) => request('POST', '/api/auth/token', Session, { body: { token }, anonymous: true }),
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
  ledger: (page: number, perPage: number, signal?: AbortSignal) =>
    request('GET', `/api/credits/ledger?page=${page}&per_page=${perPage}`, LedgerPage, { signal }),
};
