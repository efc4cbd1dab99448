// Where a hosted page (or the age gate) may send the person afterwards (spec: HTTPS web URLs,
// custom-scheme deep links, universal/app links; validated server-side). Allowed: https with a
// host; plain http only to this machine (localhost, 127.0.0.0/8, [::1]: local testing); and the
// custom schemes the organisation registered for its own apps (settings, `app_schemes`), never a
// forbidden one (javascript:, data:, file:, OS handlers such as ms-msdt:, search-ms:, smb:,
// intent:, view-source:; contracts/organization.ts). Everything else is refused, as are
// credentials in the URL and anything that is not one absolute URL.
import { isForbiddenAppScheme } from '../../../../src-shared/contracts/organization';
import { AppError, type ErrorCode } from '../../../../src-shared/errors';

const LOOPBACK_NAMES = new Set(['localhost', '[::1]']);
/** The WHATWG parser writes every IPv4 form (127.1, 0x7f.0.0.1, 2130706433) as four decimals. */
const LOOPBACK_V4 = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;
const isLoopback = (hostname: string) => LOOPBACK_NAMES.has(hostname) || LOOPBACK_V4.test(hostname);

export type RedirectIssue = 'not_a_url' | 'refused_scheme' | 'scheme_not_registered' | 'http_not_allowed' | 'credentials_in_url' | 'too_long';

/** Why a redirect URL is refused for an organisation with these app schemes, or null when it may be used. */
export function redirectIssue(raw: string, appSchemes: readonly string[]): RedirectIssue | null {
  if (raw.length > 2048) return 'too_long';
  // Control characters and spaces (a URL parser strips some, which would let `java\tscript:` through).
  if (/[\u0000-\u0020\u007f-\u009f]/.test(raw)) return 'not_a_url';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'not_a_url';
  }
  const scheme = url.protocol.toLowerCase().slice(0, -1);
  if (url.username || url.password) return 'credentials_in_url';
  if (scheme === 'https') return url.hostname ? null : 'not_a_url';
  if (scheme === 'http') return isLoopback(url.hostname) ? null : 'http_not_allowed';
  // Forbidden even when registered (a scheme kept from before the rule, or put in by hand).
  if (isForbiddenAppScheme(scheme)) return 'refused_scheme';
  return appSchemes.includes(scheme) ? null : 'scheme_not_registered';
}

const MESSAGE: Record<RedirectIssue, string> = {
  not_a_url: 'is not an absolute URL',
  refused_scheme: 'uses a scheme that is not allowed (use https, or your app\'s own scheme registered in Settings)',
  scheme_not_registered: 'uses an app scheme this organisation has not registered (add it under Settings → App schemes, or use https)',
  http_not_allowed: 'must use https (plain http is accepted only for localhost, for local testing)',
  credentials_in_url: 'must not carry a user name or password',
  too_long: 'is longer than 2048 characters',
};

/**
 * Refuses the first bad redirect with a 400 naming the field and the reason (never echoing the
 * URL), in the calling route's error shape (`invalid_parameters` by default).
 */
export function checkRedirects(fields: Record<string, string | undefined>, appSchemes: readonly string[], code: ErrorCode = 'invalid_parameters'): void {
  for (const [field, value] of Object.entries(fields)) {
    if (value === undefined || value === '') continue;
    const issue = redirectIssue(value, appSchemes);
    if (issue) throw new AppError(code, { message: `${field} ${MESSAGE[issue]}`, fields: [{ field, issue }], field });
  }
}

/**
 * A stored redirect when it may still be used, else null (the page then shows the result): one
 * saved under older rules, or with an app scheme the organisation has since removed, is not followed.
 */
export function usableRedirect(url: string | null | undefined, appSchemes: readonly string[]): string | null {
  return url && redirectIssue(url, appSchemes) === null ? url : null;
}

/** The redirect with the routing signals only: which session, and how it ended. Never proof. */
export function redirectWith(url: string, sessionId: string, outcome: 'passed' | 'failed'): string {
  const u = new URL(url);
  u.searchParams.set('hosted_session', sessionId);
  u.searchParams.set('status', outcome);
  return u.toString();
}
