// `npm run fuzz`, short: every route of the built service gets malformed, oversized, deeply nested
// and prototype-polluting requests; none may answer 5xx or echo input in an error, and memory
// must settle. The full run is `npm run fuzz` (10,000 requests).
import { describe, expect, it } from 'vitest';
import { runFuzz } from './fuzz';

describe('npm run fuzz (short)', () => {
  it('no 5xx, no echoed input, every request answered, RSS settled', async () => {
    const r = await runFuzz({ requests: 1500, seconds: 25, seed: 1, bigBodies: 2, concurrency: 8 });
    expect(r.serverErrors).toEqual([]);
    expect(r.echoes).toEqual([]);
    expect(r.failedConnections).toBe(0);
    expect(r.rss.ratio).toBeLessThan(1.5);
    // The cases reached the parsers: most requests got past authentication and rate limits.
    expect(r.reachedHandlers).toBeGreaterThan(r.requests / 2);
    expect(r.statuses['413']).toBeGreaterThan(0);
    expect(r.statuses['415']).toBeGreaterThan(0);
    // 19 anonymous sockets trickling 268 MB of declared uploads do not stop a paying customer.
    expect(r.besideSlowUploads).toEqual({ liveness: 200, screening: 200 });
  }, 120_000);
});
