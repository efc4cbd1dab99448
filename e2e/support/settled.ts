// Waiting for the service's writes before a privacy scan, instead of sleeping: every API request
// the page sent has had its answer, and the service has logged at least that many API requests.
// The request log line is written after the handler's own writes (ledger, audit, outbox), so
// once it is in, everything that request wrote is on disk for the scan to see.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page, Request } from '@playwright/test';
import { expect, type Service } from './service';

function loggedApiRequests(dataDir: string): number {
  let text = '';
  try {
    text = readFileSync(join(dataDir, 'logs', 'service.log'), 'utf8');
  } catch {
    return 0;
  }
  return text.split('\n').filter((l) => l.includes('"msg":"request"') && l.includes('"route":"/api/')).length;
}

export interface ApiTracker {
  /** Resolves when no API request of the page is in flight and the service has logged each answered one. */
  settled(): Promise<void>;
}

/** Start tracking before the page sends anything (first line of the test). */
export function trackApi(page: Page, service: Service): ApiTracker {
  const inFlight = new Set<Request>();
  let answered = 0;
  // A service shared by the file's tests (support/service.ts) has logged their requests already.
  const before = loggedApiRequests(service.dataDir);
  const isApi = (r: Request) => r.url().startsWith(`${service.url}/api/`);
  page.on('request', (r) => {
    if (isApi(r)) inFlight.add(r);
  });
  page.on('requestfinished', (r) => {
    if (inFlight.delete(r)) answered++;
  });
  page.on('requestfailed', (r) => {
    inFlight.delete(r);
  });
  return {
    async settled() {
      await expect.poll(() => inFlight.size, { message: 'API requests of the page still in flight' }).toBe(0);
      expect(answered, 'the page sent no API request: nothing to wait for, so the scan would prove nothing').toBeGreaterThan(0);
      await expect
        .poll(() => loggedApiRequests(service.dataDir) - before, { message: `the service has not logged the page's ${answered} answered API requests` })
        .toBeGreaterThanOrEqual(answered);
    },
  };
}
