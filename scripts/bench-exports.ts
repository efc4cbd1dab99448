// Report export figures (issue 13): time to make a full-v21 PDF and CSV of a 90-day range on
// generated ledger history, their sizes, and /api/health latency and event-loop delay while the
// export renders, with the render in the worker thread and, for comparison, in the HTTP thread.
// Usage: npx tsx scripts/bench-exports.ts [rows per day, default 500]
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { seedHistory } from '../src-main/service/test/fixtures/ledger-history';
import { testService, type TestService } from '../src-main/service/test/harness';

const perDay = Number(process.argv[2] ?? 500);
const BODY = { report_type: 'full-v21', env: 'live', from: '2026-01-01', to: '2026-03-31' };

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};

async function run(t: TestService, cookie: string, format: 'pdf' | 'csv'): Promise<void> {
  const { body } = await t.json<{ id: number }>('POST', '/api/reports/exports', { cookie, body: { ...BODY, format } });
  const lat: number[] = [];
  const loop = monitorEventLoopDelay({ resolution: 5 });
  let running = true;
  const probe = (async () => {
    while (running) {
      const t0 = performance.now();
      await t.call('GET', '/api/health');
      lat.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  loop.enable();
  const t0 = performance.now();
  await t.s.exports.drain();
  const ms = performance.now() - t0;
  running = false;
  await probe;
  loop.disable();
  const job = (await t.json<{ status: string; file_size_bytes: number }>('GET', `/api/reports/exports/${body.id}`, { cookie })).body;
  console.log(`${format.toUpperCase()} (${t.s.exports.renderedIn()}): ${job.status}, ${Math.round(ms)} ms, ${job.file_size_bytes} bytes; ` +
    `/api/health p50 ${pct(lat, 50).toFixed(1)} ms, p95 ${pct(lat, 95).toFixed(1)} ms, max ${Math.max(...lat).toFixed(1)} ms over ${lat.length} calls; ` +
    `event-loop delay p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms, max ${(loop.max / 1e6).toFixed(1)} ms`);
}

for (const inProcess of [false, true]) {
  const t = await testService({ plan: 'enterprise', ...(inProcess ? { exports: { runner: { inProcess: true } } } : {}) });
  const cookie = await t.login();
  const keys = await Promise.all(Array.from({ length: 12 }, async (_, i) => (await t.s.keys.create({ orgId: t.orgId, plan: 'enterprise', name: `Store ${i + 1}`, env: 'live', scopes: ['human'], demo: false, createdBy: null })).key.id));
  const n = await seedHistory(t, { from: '2026-01-01', to: '2026-03-31', perDay, keyIds: [...keys, null] });
  const b0 = performance.now();
  await t.s.reports.bundle('full-v21', { orgId: t.orgId, plan: 'enterprise', canViewCredits: true }, { env: 'live', from: BODY.from, to: BODY.to });
  console.log(`\n${inProcess ? 'Rendering in the HTTP thread (comparison)' : 'Rendering in the export worker'}: ${n} ledger rows, report data ${Math.round(performance.now() - b0)} ms (first, uncached)`);
  // Warm: the first render also starts the worker and loads pdf-lib.
  await run(t, cookie, 'pdf');
  await run(t, cookie, 'pdf');
  await run(t, cookie, 'csv');
  t.close();
}
process.exit(0);
