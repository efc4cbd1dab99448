// `npm run bench:reports`: the reporting API over a large ledger (issue 13). Builds a fresh data
// directory with ~1M realistic test-mode ledger rows for one organisation over 90 days (plus
// other organisations' rows, which every query must skip), then times each report endpoint
// through the real HTTP app in-process: cold (the reports' cache emptied before every call)
// median and p95 over N runs, and the cached overview. Target: overview over 1M rows ≤ 150 ms.
//   npm run bench:reports -- [--rows 1000000] [--runs 15]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { compose } from '../src-main/service/compose';
import { addDays, isoDayOf } from '../src-shared/dates';
import { createApp } from '../src-main/service/http/app';
import { benchCredits } from './bench-credits';
import { benchCookie, coldTimes, seedBenchLedger, BENCH_ORIGIN } from './support/bench-ledger';

const { values } = parseArgs({ options: { rows: { type: 'string', default: '1000000' }, runs: { type: 'string', default: '15' } } });
const ROWS = Number(values.rows);
const RUNS = Number(values.runs);
const TARGET_OVERVIEW_MS = 150;

const q = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? 0;

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cc-bench-reports-'));
  const s = await compose({ dataDir });
  try {
    const now = Date.now();
    const ledger = await seedBenchLedger(s, ROWS, now);
    const { org } = ledger;
    s.reports.invalidate(org.id);
    const rollupRows = (s.db.prepare('SELECT COUNT(*) AS n FROM report_daily WHERE org_id = ?').get(org.id) as { n: number }).n;

    const { app } = createApp(s);
    const cookie = await benchCookie(app);

    const to = isoDayOf(now);
    const from = addDays(to, -89);
    const range = `env=test&from=${from}&to=${to}`;
    const endpoints = [
      'overview', 'volume', 'volume&granularity=week', 'usage', 'risk-summary', 'widget-performance', 'regulatory-coverage', 'limits',
      'v21/verification', 'v21/full',
    ];
    const call = async (path: string) => {
      const started = performance.now();
      const res = await app.request(`${BENCH_ORIGIN}${path}`, { headers: { Cookie: cookie } });
      const body = await res.text();
      const ms = performance.now() - started;
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${body}`);
      return { ms, body };
    };

    console.log(`Ledger: ${ledger.rows.toLocaleString('en')} rows for the benchmarked organisation in ${(ledger.ms / 1000).toFixed(1)} s ` +
      `(${Math.round(ledger.rows / (ledger.ms / 1000)).toLocaleString('en')} rows/s), ${ledger.otherRows.toLocaleString('en')} rows of 3 other organisations in ${(ledger.otherMs / 1000).toFixed(1)} s; ` +
      `${rollupRows.toLocaleString('en')} daily rollup rows for the organisation. Range ${from}..${to} (90 days), ${RUNS} runs each.\n`);
    console.log('endpoint                          cold median   cold p95');
    const results: Record<string, number> = {};
    for (const e of endpoints) {
      const [name, extra] = e.split('&');
      const path = `/api/reports/${name}${name === 'limits' ? '' : `?${range}${extra ? `&${extra}` : ''}`}`;
      const times = await coldTimes(s, app, org.id, cookie, path, RUNS);
      results[e] = q(times, 0.5);
      console.log(`${e.padEnd(34)}${q(times, 0.5).toFixed(1).padStart(8)} ms${q(times, 0.95).toFixed(1).padStart(8)} ms`);
    }
    const cachedTimes: number[] = [];
    await call(`/api/reports/overview?${range}`);
    for (let i = 0; i < RUNS; i++) {
      const r = await call(`/api/reports/overview?${range}`);
      if (!r.body.includes('"cached":true')) throw new Error('the repeated overview was not cached');
      cachedTimes.push(r.ms);
    }
    cachedTimes.sort((a, b) => a - b);
    console.log(`${'overview (cached)'.padEnd(34)}${q(cachedTimes, 0.5).toFixed(1).padStart(8)} ms${q(cachedTimes, 0.95).toFixed(1).padStart(8)} ms`);
    const ok = (results.overview ?? Infinity) <= TARGET_OVERVIEW_MS;
    console.log(`\nTarget: overview over ${ledger.rows.toLocaleString('en')} rows ≤ ${TARGET_OVERVIEW_MS} ms (cold median): ${ok ? 'met' : 'NOT MET'}`);
    if (!ok) process.exitCode = 1;
  } finally {
    s.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();

// The credit balance at the same scale: a billable request reads the balance inside its
// transaction; with 1M ledger entries the checkpoint keeps that read constant (issue 13).
console.log('\nCredit balance per billable request at 1M ledger entries (npm run bench:credits):');
const credits = await benchCredits();
if (!credits.consistent) process.exitCode = 1;
