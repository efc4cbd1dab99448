// `npm run soak`, short: 20 seconds of mixed traffic at the Pro plan's limits against the built
// service while the organisation's own list is imported (the index swaps) and webhooks go to a
// flaky receiver. The full run is 5 minutes (scripts/soak.ts lists the targets).
import { beforeAll, describe, expect, it } from 'vitest';
import { outboxLimit, runSoak, SOAK_DEFAULTS, type SoakResult } from './soak';

let r: SoakResult;
beforeAll(async () => {
  // One import, inside the warm-up: a 20-second run cannot tell a later swap's lazily collected
  // index from a leak; the 5-minute run replaces the list under measurement.
  r = await runSoak({ ...SOAK_DEFAULTS, seconds: 20, seed: 20260101, importEvery: 0, batchEvery: 10, batchRows: 500 });
}, 120_000);

describe('npm run soak (20 s)', () => {
  it('sent every kind of traffic and sampled the service', () => {
    for (const c of ['screening', 'status', 'health', 'console', 'batch', 'list-import'] as const) expect(r.classes[c].count, c).toBeGreaterThan(0);
    expect(r.samples.length).toBeGreaterThanOrEqual(8);
    expect(r.samples.every((s) => s.rss_mib > 0)).toBe(true);
    expect(r.webhooks.received).toBeGreaterThan(0);
  });

  it('answers no 5xx and drops no connection', () => {
    expect(r.missed.filter((m) => m.startsWith('errors:'))).toEqual([]);
  });

  it('keeps RSS settled and the webhook outbox bounded', () => {
    expect(r.missed.filter((m) => m.startsWith('memory:') || m.startsWith('outbox:'))).toEqual([]);
  });

  // The latency target (health p99 <= 50 ms, the index swap included) is a figure of `npm run
  // soak`, which exits 1 when it is missed: a wall-clock limit here failed whenever another
  // process shared the machine. The test asserts what must hold on any machine.
  it('answered every health check, and reports its p99 latency', () => {
    expect(r.classes.health.statuses).toEqual({ 200: r.classes.health.count });
    console.log(`soak (20 s): /api/health p99 ${r.classes.health.p99} ms over ${r.classes.health.count} checks (target 50 ms: npm run soak); `
      + `webhook outbox: waiting for a slot ${r.outbox.waiting_first_third} -> ${r.outbox.waiting_last_third} (mean of first vs last third, limit ${outboxLimit(r.outbox.waiting_first_third)}), `
      + `all pending ${r.outbox.first_third} -> ${r.outbox.last_third}, ${r.webhooks.received} received`);
  });
});
