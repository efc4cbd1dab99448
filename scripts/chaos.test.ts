// `npm run chaos`, one cycle: the built service is killed -9 in the middle of a live batch and of
// live API screens with Idempotency-Keys, restarted on the same data directory, and the books are
// checked (scripts/chaos.ts lists the checks). The full run is 5 cycles.
import { describe, expect, it } from 'vitest';
import { runChaos } from './chaos';

describe('npm run chaos (one cycle)', () => {
  it('a kill -9 mid-traffic leaves an intact file, balanced books, no double or undelivered charge, and retries that settle once', async () => {
    const r = await runChaos({ cycles: 1, seed: 20260101, callers: 4, rps: 8, rows: 3000, killMinMs: 1500, killMaxMs: 3000 });
    expect(r.violations).toEqual([]);
    const [c] = r.cycles;
    // The kill landed in live traffic of both kinds, and the restart was checked.
    expect(c!.api.ok).toBeGreaterThan(0);
    expect(c!.batch.lines).toBeGreaterThan(0);
    expect(c!.after_kill.integrity).toBe('ok');
    // The kill cut an Idempotency-Key off in progress; its retry after the restart settled.
    expect(c!.after_kill.in_progress_keys).toBeGreaterThan(0);
    expect(c!.after_restart.retried).toBeGreaterThan(0);
    expect(c!.after_restart.in_progress_keys).toBe(0);
    expect(c!.after_restart.balance).toBe(c!.after_restart.expected);
  }, 120_000);
});
