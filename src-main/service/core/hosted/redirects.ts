// Where a hosted page may send the person afterwards (spec: HTTPS web URLs, custom-scheme deep
// links, universal/app links; validated server-side). Refused: schemes that run or embed content
// in the page (javascript:, data:, vbscript:, blob:, about:, file:), plain http except to this
// machine (local testing), credentials in the URL, and anything that is not one absolute URL.
import { AppError } from '../../../../src-shared/errors';

const REFUSED_SCHEMES = new Set(['javascript:', 'data:', 'vbscript:', 'blob:', 'about:', 'file:', 'filesystem:', 'ftp:', 'ws:', 'wss:', 'mailto:', 'tel:', 'sms:']);
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
/** A custom scheme: letters first, then letters, digits, +, - and . (RFC 3986), at least two characters. */
const CUSTOM_SCHEME = /^[a-z][a-z0-9+.-]+:$/;

export type RedirectIssue = 'not_a_url' | 'refused_scheme' | 'http_not_allowed' | 'credentials_in_url' | 'too_long';

/** Why a redirect URL is refused, or null when it may be used. */
export function redirectIssue(raw: string): RedirectIssue | null {
  if (raw.length > 2048) return 'too_long';
  // Control characters and spaces (a URL parser strips some, which would let `java\tscript:` through).
  if (/[\u0000-\u0020\u007f-\u009f]/.test(raw)) return 'not_a_url';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'not_a_url';
  }
  const scheme = url.protocol.toLowerCase();
  if (REFUSED_SCHEMES.has(scheme)) return 'refused_scheme';
  if (url.username || url.password) return 'credentials_in_url';
  if (scheme === 'https:') return url.hostname ? null : 'not_a_url';
  if (scheme === 'http:') return LOOPBACK.has(url.hostname) ? null : 'http_not_allowed';
  return CUSTOM_SCHEME.test(scheme) ? null : 'refused_scheme';
}

const MESSAGE: Record<RedirectIssue, string> = {
  not_a_url: 'is not an absolute URL',
  refused_scheme: 'uses a scheme that is not allowed (use https, or your app\'s own scheme for a deep link)',
  http_not_allowed: 'must use https (plain http is accepted only for localhost, for local testing)',
  credentials_in_url: 'must not carry a user name or password',
  too_long: 'is longer than 2048 characters',
};

/** Refuses the first bad redirect with a 400 naming the field and the reason (never echoing the URL). */
export function checkRedirects(fields: Record<string, string | undefined>): void {
  for (const [field, value] of Object.entries(fields)) {
    if (value === undefined || value === '') continue;
    const issue = redirectIssue(value);
    if (issue) throw new AppError('invalid_parameters', { message: `${field} ${MESSAGE[issue]}`, fields: [{ field, issue }] });
  }
}

/** The redirect with the routing signals only: which session, and how it ended. Never proof. */
export function redirectWith(url: string, sessionId: string, outcome: 'passed' | 'failed'): string {
  const u = new URL(url);
  u.searchParams.set('hosted_session', sessionId);
  u.searchParams.set('status', outcome);
  return u.toString();
}
