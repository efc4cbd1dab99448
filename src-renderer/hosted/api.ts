// The hosted page's calls to its own origin, parsed with the shared contract's schemas.
import {
  HostedCompleteResponse, HostedPage, PublishedFlowStartResponse, type HostedCompleteRequest,
} from '../../src-shared/contracts/hosted';
import { GeneralErrorBody } from '../../src-shared/errors';

export type FieldIssue = { field: string; issue: string };

/** An answer that is not the one hoped for: the service's own words, or a network fault. */
export class HostedError extends Error {
  constructor(
    readonly kind: 'not_found' | 'closed' | 'invalid' | 'busy' | 'network' | 'unexpected' | 'other',
    message: string,
    readonly fields: FieldIssue[] = [],
  ) {
    super(message);
  }
}

/** The token is the last segment of `/hosted/v/<token>`. */
export function tokenFromPath(path: string): string | null {
  const m = /^\/hosted\/v\/([^/?#]+)\/?$/.exec(path);
  return m?.[1] ? decodeURIComponent(m[1]) : null;
}

/** A published flow's stable URL: `/hosted/f/<slug>`. */
export function flowSlugFromPath(path: string): string | null {
  const m = /^\/hosted\/f\/([^/?#]+)\/?$/.exec(path);
  return m?.[1] ? decodeURIComponent(m[1]) : null;
}

async function call<T>(path: string, schema: { safeParse(x: unknown): { success: true; data: T } | { success: false } }, init?: RequestInit): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, { ...init, credentials: 'omit', cache: 'no-store', referrerPolicy: 'no-referrer' });
  } catch {
    throw new HostedError('network', '');
  }
  const body: unknown = await res.json().catch(() => null);
  if (res.ok) {
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw new HostedError('unexpected', '');
    return parsed.data;
  }
  const err = GeneralErrorBody.safeParse(body);
  const message = err.success ? err.data.error : '';
  const fields = err.success ? (err.data.fields ?? []) : [];
  const kind = res.status === 404 ? 'not_found' : res.status === 410 ? 'closed' : res.status === 409 ? 'busy' : res.status === 400 ? 'invalid' : 'other';
  throw new HostedError(kind, message, fields);
}

export function loadSession(token: string): Promise<HostedPage> {
  return call(`/hosted/session/${encodeURIComponent(token)}`, HostedPage);
}

export function completeSession(token: string, body: HostedCompleteRequest): Promise<HostedCompleteResponse> {
  return call(`/hosted/complete/${encodeURIComponent(token)}`, HostedCompleteResponse, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** A fresh session from a published flow (a POST: opening the flow's URL alone starts nothing). */
export function startFlow(slug: string): Promise<PublishedFlowStartResponse> {
  return call(`/hosted/flow/${encodeURIComponent(slug)}/start`, PublishedFlowStartResponse, { method: 'POST' });
}
