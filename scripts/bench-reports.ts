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
import { generateHistory } from '../src-main/service/core/reports/history';
import { addDays, isoDayOf } from '../src-shared/dates';
import { createApp } from '../src-main/service/http/app';
import { benchCredits } from './bench-credits';

const { values } = parseArgs({ options: { rows: { type: 'string', default: '1000000' }, runs: { type: 'string', default: '15' } } });
const ROWS = Number(values.rows);
const RUNS = Number(values.runs);
const ORIGIN = 'http://127.0.0.1:4310';
const TARGET_OVERVIEW_MS = 150;

const q = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? 0;

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cc-bench-reports-'));
  const s = await compose({ dataDir });
  try {
    const password = 'bench reports password';
    const { org, user } = await s.accounts.setup({ organization: 'Bench Org', name: 'Bench Owner', email: 'owner@bench.test', password, plan: 'pro' });
    for (const name of ['Storefront widget', 'Mobile app', 'Back office', 'Partner API']) {
      await s.keys.create({ orgId: org.id, plan: 'pro', name, env: 'test', scopes: ['human', 'age', 'identity', 'compliance'], demo: false, createdBy: user.id });
    }
    const now = Date.now();
    let t = performance.now();
    const main = generateHistory(s.db, { orgId: org.id, rows: ROWS, env: 'test', days: 90, endMs: now, seed: 13 });
    const mainMs = performance.now() - t;
    t = performance.now();
    let others = 0;
    for (let i = 0; i < 3; i++) {
      const id = await s.accounts.repo.insertOrg(s.engine.q, `Other ${i}`, 'pro', new Date(now).toISOString());
      others += generateHistory(s.db, { orgId: id, rows: Math.round(ROWS / 20), env: 'test', days: 90, endMs: now, seed: 100 + i, keys: [null] }).rows;
    }
    const otherMs = performance.now() - t;
    s.reports.invalidate(org.id);
    const rollupRows = (s.db.prepare('SELECT COUNT(*) AS n FROM report_daily WHERE org_id = ?').get(org.id) as { n: number }).n;

    const { app } = createApp(s);
    const login = await app.request(`${ORIGIN}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email: 'owner@bench.test', password }) });
    const cookie = /cc_session=[^;]*/.exec(login.headers.get('set-cookie') ?? '')?.[0];
    if (!cookie) throw new Error(`login failed: ${login.status}`);

    const to = isoDayOf(now);
    const from = addDays(to, -89);
    const range = `env=test&from=${from}&to=${to}`;
    const endpoints = [
      'overview', 'volume', 'volume&granularity=week', 'usage', 'risk-summary', 'widget-performance', 'regulatory-coverage', 'limits',
      'v21/verification', 'v21/full',
    ];
    const call = async (path: string) => {
      const started = performance.now();
      const res = await app.request(`${ORIGIN}${path}`, { headers: { Cookie: cookie } });
      const body = await res.text();
      const ms = performance.now() - started;
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${body}`);
      return { ms, body };
    };

    console.log(`Ledger: ${main.rows.toLocaleString('en')} rows for the benchmarked organisation in ${(mainMs / 1000).toFixed(1)} s ` +
      `(${Math.round(main.rows / (mainMs / 1000)).toLocaleString('en')} rows/s), ${others.toLocaleString('en')} rows of 3 other organisations in ${(otherMs / 1000).toFixed(1)} s; ` +
      `${rollupRows.toLocaleString('en')} daily rollup rows for the organisation. Range ${from}..${to} (90 days), ${RUNS} runs each.\n`);
    console.log('endpoint                          cold median   cold p95');
    const results: Record<string, number> = {};
    for (const e of endpoints) {
      const [name, extra] = e.split('&');
      const path = `/api/reports/${name}${name === 'limits' ? '' : `?${range}${extra ? `&${extra}` : ''}`}`;
      await call(path); // warm the statement cache and JIT, not the reports' cache
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        s.reports.invalidate(org.id);
        times.push((await call(path)).ms);
      }
      times.sort((a, b) => a - b);
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
    console.log(`\nTarget: overview over ${main.rows.toLocaleString('en')} rows ≤ ${TARGET_OVERVIEW_MS} ms (cold median): ${ok ? 'met' : 'NOT MET'}`);
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
