// The console's Content-Security-Policy, set by the shell on every response from the service
// origin so that it holds even if the service forgets a header. Nothing else gets it: the
// window never shows another origin (window.ts blocks that). The policy itself is shared with
// the service (src-shared/csp.ts), so the console behaves the same in Chromium and in Electron.
import type { Session } from 'electron';
import { CONSOLE_CSP } from '../../src-shared/csp';
import { originOf } from './url-rules';

export const CONTENT_SECURITY_POLICY = CONSOLE_CSP;

function withoutHeader(headers: Record<string, string[]>, name: string): Record<string, string[]> {
  const lower = name.toLowerCase();
  return Object.fromEntries(Object.entries(headers).filter(([key]) => key.toLowerCase() !== lower));
}

export function installContentSecurityPolicy(target: Session, serviceOrigin: () => string | null): void {
  target.webRequest.onHeadersReceived((details, callback) => {
    const origin = serviceOrigin();
    if (origin === null || originOf(details.url) !== origin) {
      callback({});
      return;
    }
    // Replace rather than add: two CSP headers intersect, and one policy is easier to reason about.
    let headers = withoutHeader(details.responseHeaders ?? {}, 'Content-Security-Policy');
    headers['Content-Security-Policy'] = [CONTENT_SECURITY_POLICY];
    if (new URL(details.url).pathname.startsWith('/api/')) {
      // API bodies can carry subject data; Chromium's disk cache in userData must never hold them.
      headers = withoutHeader(headers, 'Cache-Control');
      headers['Cache-Control'] = ['no-store'];
    }
    callback({ responseHeaders: headers });
  });
}
