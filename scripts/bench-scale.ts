// `npm run bench:scale` (issue 40, item 5), first half: the ledger at scale on PostgreSQL beside
// SQLite. Builds ~1M realistic ledger rows for one organisation over 90 days (plus three other
// organisations' rows) in a SQLite data directory, moves them to PostgreSQL with `db copy`'s own
// code on a cluster this script starts (durable: commits wait for the disk, as a server's do), then
// times on both engines, through the real HTTP app in process: every report endpoint cold (the
// reports' cache emptied before each call), median and p95; and a charge (the billing path's row,
// charge and balance in one transaction, no work) at that ledger size.
// Targets: every report endpoint ≤ 150 ms at 1M rows on PostgreSQL; a charge as fast as on SQLite.
//   npm run bench:scale -- [--rows 1000000] [--runs 11] [--charges 300]
// Then (package.json) scripts/bench-instances.ts: throughput of 1 and 3 instances behind HAProxy.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import postgresClient from 'pg';
import { compose, type Services } from '../src-main/service/compose';
import { copyToPostgres } from '../src-main/service/db/copy';
import { openLedger } from '../src-main/service/db/ledger';
import { createApp } from '../src-main/service/http/app';
import { startCluster } from '../src-main/service/test/pg-cluster';
import { addDays, isoDayOf } from '../src-shared/dates';
import { benchCookie, coldTimes, seedBenchLedger } from './support/bench-ledger';

const { values } = parseArgs({ options: { rows: { type: 'string', default: '1000000' }, runs: { type: 'string', default: '11' }, charges: { type: 'string', default: '300' } } });
const ROWS = Number(values.rows);
const RUNS = Number(values.runs);
const CHARGES = Number(values.charges);
const TARGET_MS = 150;
const ENDPOINTS = ['overview', 'volume', 'volume&granularity=week', 'usage', 'risk-summary', 'widget-performance', 'regulatory-coverage', 'v21/verification', 'v21/full'];

const q = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? 0;
const fmt = (ms: number) => ms.toFixed(1).padStart(8);

async function reportTimes(s: Services, orgId: number, now: number): Promise<Record<string, [number, number]>> {
  const { app } = createApp(s);
  const cookie = await benchCookie(app);
  const to = isoDayOf(now);
  const range = `env=test&from=${addDays(to, -89)}&to=${to}`;
  const out: Record<string, [number, number]> = {};
  for (const e of ENDPOINTS) {
    const [name, extra] = e.split('&');
    const times = await coldTimes(s, app, orgId, cookie, `/api/reports/${name}?${range}${extra ? `&${extra}` : ''}`, RUNS);
    out[e] = [q(times, 0.5), q(times, 0.95)];
  }
  return out;
}

/** A charge at this ledger size: billing's transaction (row, charge, balance) around no work. */
async function chargeTimes(s: Services, orgId: number): Promise<[number, number]> {
  const made = await s.keys.create({ orgId, plan: 'pro', name: 'Charges', env: 'live', scopes: ['human'], demo: false, createdBy: null });
  const found = await s.keys.lookup(made.api_key);
  if (!found.ok) throw new Error('key');
  await s.credits.grant(orgId, CHARGES * 10 + 100, 'bench');
  const times: number[] = [];
  for (let i = 0; i < CHARGES; i++) {
    const started = performance.now();
    await s.billing.run({ key: found.key, operation: 'human', idPrefix: 'ver' }, async () => ({ status: 'PASS', confidence: 90, billable: true, httpStatus: 200, result: null }));
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return [q(times, 0.5), q(times, 0.95)];
}

const dataDir = mkdtempSync(join(tmpdir(), 'cc-bench-scale-'));
const pgDir = mkdtempSync(join(tmpdir(), 'cc-bench-scale-pg-'));
const cluster = await startCluster({ durable: true });
try {
  const lite = await compose({ dataDir });
  const now = Date.now();
  const made = await seedBenchLedger(lite, ROWS, now);
  const { org } = made;
  console.log(`Ledger: ${made.rows.toLocaleString('en')} rows for the organisation (+${made.otherRows.toLocaleString('en')} of three others) on SQLite in ${((made.ms + made.otherMs) / 1000).toFixed(1)} s.`);

  const admin = new postgresClient.Client({ connectionString: cluster.url });
  await admin.connect();
  await admin.query('CREATE DATABASE bench');
  await admin.end();
  const url = cluster.urlOf('bench');
  const t = performance.now();
  const target = await openLedger(pgDir, { database: url });
  const copied = await copyToPostgres(lite.db, target.engine);
  await target.engine.close();
  const total = Object.values(copied.rows).reduce((a, b) => a + b, 0);
  console.log(`Moved to PostgreSQL (db copy): ${total.toLocaleString('en')} rows in ${((performance.now() - t) / 1000).toFixed(1)} s; balances and rollups rebuilt and equal.\n`);

  const pg = await compose({ dataDir: pgDir, database: url });
  const [onLite, onPg] = [await reportTimes(lite, org.id, now), await reportTimes(pg, org.id, now)];
  console.log(`Report endpoints, cold, ${RUNS} runs each (median / p95 ms):`);
  console.log('endpoint                            SQLite median    p95   PostgreSQL median    p95');
  let worst = 0;
  for (const e of ENDPOINTS) {
    const [lm, lp] = onLite[e]!;
    const [pm, pp] = onPg[e]!;
    worst = Math.max(worst, pm);
    console.log(`${e.padEnd(34)}${fmt(lm)}${fmt(lp)}        ${fmt(pm)}${fmt(pp)}`);
  }
  const [cl, clp] = await chargeTimes(lite, org.id);
  const [cp, cpp] = await chargeTimes(pg, org.id);
  console.log(`\nA charge at ${made.rows.toLocaleString('en')}+ ledger rows, ${CHARGES} in a row (median / p95 ms): SQLite ${cl.toFixed(2)} / ${clp.toFixed(2)}, PostgreSQL ${cp.toFixed(2)} / ${cpp.toFixed(2)}.`);
  const ok = worst <= TARGET_MS;
  console.log(`\nTarget: every report endpoint ≤ ${TARGET_MS} ms on PostgreSQL at ${made.rows.toLocaleString('en')} rows (cold median): ${ok ? 'met' : 'NOT MET'} (slowest ${worst.toFixed(1)} ms).`);
  if (!ok) process.exitCode = 1;
  lite.close();
  pg.close();
} finally {
  await cluster.stop();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(pgDir, { recursive: true, force: true });
}
