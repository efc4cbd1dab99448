// `npm run bench:credits`: what a billable request's credit work costs with a long ledger.
// Fills one organisation's ledger with 1M `credit_entries` rows (one transaction, one prepared
// statement; charges point at no verification), then times the credit work of a billable request
// as core/verification/billing.ts does it (`timeCharges`): the balance pre-check, then one
// transaction with the verification row, the balance re-read under its lock and the charge. Once with the checkpointed
// balance (migration 0009, what the service runs) and once with the old `SUM(amount)` query.
// The old query is timed on fewer charges (default 40): each reads the whole ledger twice.
// `--postgres` times the same credit work on PostgreSQL (a throwaway cluster of Debian's
// postgresql on a unix socket, with durable commits as a server would run) beside SQLite, then
// again with `synchronous_commit = off` on the charging connections: SQLite's guarantee (WAL with
// synchronous = NORMAL: a commit does not wait for the disk, so a power cut may lose the last
// ones, never the database), for a like-for-like figure.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'kysely';
import pg from 'pg';
import { postgresEngine, sqliteEngine, type Engine } from '../src-main/service/db/engine';
import { migratePostgres } from '../src-main/service/db/postgres/migrate';
import { clusterUnavailable, startCluster } from '../src-main/service/test/pg-cluster';
import { openDatabase, type Db } from '../src-main/service/db/open';
import { createCredits } from '../src-main/service/core/credits/credits';
import { systemClock } from '../src-main/service/core/clock';

export interface BenchCreditsOptions {
  /** Ledger rows for the organisation (default 1,000,000). */
  rows?: number;
  /** Charges timed with the checkpoint (default 2,000). */
  charges?: number;
  /** Charges timed with the old SUM query (default 40). */
  sumCharges?: number;
  /** Where each result line goes (default stdout). */
  log?: (line: string) => void;
}

/**
 * The credit work of one billable request through the engine, as billing.run does it: the balance
 * pre-check, then one transaction with the verification row, the balance re-read and the charge.
 */
let charged = 0;
async function timeCharges(engine: Engine, orgId: number, n: number): Promise<number[]> {
  const credits = createCredits(engine, systemClock);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    if ((await credits.balance(orgId)) < 1) throw new Error('balance ran out');
    const id = `ver_bench_${engine.dialect}_${++charged}`;
    const at = new Date().toISOString();
    await engine.transaction(async (tx) => {
      await tx.insertInto('verifications').values({ id, org_id: orgId, product: 'human', env: 'live', status: 'PASS', credits: 1, created_at: at, completed_at: at }).execute();
      await credits.chargeInTransaction(tx, orgId, 1, 'human', [id], 'live');
    });
    out.push(performance.now() - t);
  }
  return out;
}

export interface BenchCreditsPostgresResult { rows: number; fill_ms: number; charge: Timing; charge_async_commit: Timing; consistent: boolean }

/** The same ledger on PostgreSQL: `rows` entries, then `charges` charges timed as the service makes them. */
export async function benchCreditsPostgres(opts: BenchCreditsOptions = {}): Promise<BenchCreditsPostgresResult | { skipped: string }> {
  const rows = opts.rows ?? 1_000_000;
  const log = opts.log ?? ((l: string) => process.stdout.write(`${l}\n`));
  const why = clusterUnavailable();
  if (why) {
    log(`  PostgreSQL: skipped (${why})`);
    return { skipped: why };
  }
  const cluster = await startCluster({ durable: true });
  try {
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query('CREATE DATABASE bench');
    await admin.end();
    const engine = postgresEngine(cluster.urlOf('bench'), { max: 4 });
    try {
      await migratePostgres(engine);
      const org = await engine.q.insertInto('organizations').values({ name: 'Bench', plan: 'enterprise', created_at: new Date().toISOString() }).returning('id').executeTakeFirstOrThrow();
      const started = performance.now();
      // One statement; the checkpoint trigger is set aside for the fill and its row written once
      // after it (a million upserts of one row would time the fill, not the charge).
      await engine.transaction(async (tx) => {
        await sql`ALTER TABLE credit_entries DISABLE TRIGGER credit_entries_checkpoint`.execute(tx);
        await sql`INSERT INTO credit_entries (org_id, amount, kind, product, env, created_at)
          SELECT ${org.id}, CASE WHEN g = 1 THEN ${rows * 10} ELSE -1 END, CASE WHEN g = 1 THEN 'grant' ELSE 'charge' END,
                 CASE WHEN g = 1 THEN NULL ELSE 'human' END, 'live', ${new Date().toISOString()}
          FROM generate_series(1, ${rows}) AS g`.execute(tx);
        await sql`INSERT INTO credit_balances (org_id, balance, last_entry_id)
          SELECT ${org.id}, SUM(amount), MAX(id) FROM credit_entries WHERE org_id = ${org.id}`.execute(tx);
        await sql`ALTER TABLE credit_entries ENABLE TRIGGER credit_entries_checkpoint`.execute(tx);
      });
      await sql`VACUUM ANALYZE credit_entries`.execute(engine.q);
      // The fill's writes reach the disk now, not under the timed charges' commits.
      await sql`CHECKPOINT`.execute(engine.q);
      const fillMs = performance.now() - started;
      await timeCharges(engine, org.id, 50); // warm-up
      const charge = timing(await timeCharges(engine, org.id, opts.charges ?? 2000));
      const asyncCommit = postgresEngine(`${cluster.urlOf('bench')}&options=${encodeURIComponent('-c synchronous_commit=off')}`, { max: 4 });
      let chargeAsync: Timing;
      try {
        await timeCharges(asyncCommit, org.id, 50);
        chargeAsync = timing(await timeCharges(asyncCommit, org.id, opts.charges ?? 2000));
      } finally {
        await asyncCommit.close();
      }
      const r = await createCredits(engine, systemClock).reconcile(org.id);
      const result = { rows, fill_ms: Math.round(fillMs), charge, charge_async_commit: chargeAsync, consistent: r.balance === r.sum };
      log(`  ${'PostgreSQL: filling the ledger'.padEnd(40)} ${(fillMs / 1000).toFixed(1)} s`);
      log(`  ${'PostgreSQL: checkpointed balance'.padEnd(40)} median ${charge.median_us} µs, p95 ${charge.p95_us} µs, max ${charge.max_us} µs (${charge.n} charges)`);
      log(`  ${'  commits not waiting for the disk'.padEnd(40)} median ${chargeAsync.median_us} µs, p95 ${chargeAsync.p95_us} µs, max ${chargeAsync.max_us} µs (as SQLite's WAL, synchronous = NORMAL)`);
      log(`  ${'PostgreSQL: checkpoint = SUM(amount)'.padEnd(40)} ${result.consistent ? 'yes' : 'NO'}`);
      return result;
    } finally {
      await engine.close();
    }
  } finally {
    await cluster.stop();
  }
}

export interface Timing { n: number; median_us: number; p95_us: number; max_us: number }

export interface BenchCreditsResult {
  rows: number;
  fill_ms: number;
  checkpoint: Timing;
  sum: Timing;
  /** The checkpointed balance equals SUM(amount) at the end. */
  consistent: boolean;
}

const q = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

function timing(samples: number[]): Timing {
  const s = [...samples].sort((a, b) => a - b);
  const us = (ms: number) => Math.round(ms * 1000);
  return { n: s.length, median_us: us(q(s, 0.5)), p95_us: us(q(s, 0.95)), max_us: us(s.at(-1) ?? 0) };
}

function fill(db: Db, orgId: number, rows: number): void {
  const insert = db.prepare("INSERT INTO credit_entries (org_id, amount, kind, product, env, created_at) VALUES (?, ?, ?, ?, 'live', ?)");
  const at = new Date().toISOString();
  db.transaction(() => {
    insert.run(orgId, rows * 10, 'grant', null, at);
    for (let i = 1; i < rows; i++) insert.run(orgId, -1, 'charge', 'human', at);
  })();
}

export async function benchCredits(opts: BenchCreditsOptions = {}): Promise<BenchCreditsResult> {
  const rows = opts.rows ?? 1_000_000;
  const log = opts.log ?? ((l: string) => process.stdout.write(`${l}\n`));
  const dir = mkdtempSync(join(tmpdir(), 'bench-credits-'));
  try {
    const db = openDatabase(dir);
    const orgId = Number(db.prepare("INSERT INTO organizations (name, plan, created_at) VALUES ('Bench', 'enterprise', ?)").run(new Date().toISOString()).lastInsertRowid);
    const started = performance.now();
    fill(db, orgId, rows);
    const fillMs = performance.now() - started;
    db.pragma('wal_checkpoint(TRUNCATE)');

    const engine = sqliteEngine(db);
    const credits = createCredits(engine, systemClock);
    await timeCharges(engine, orgId, 50); // warm-up
    const a = await timeCharges(engine, orgId, opts.charges ?? 2000);

    // The old way: the balance summed over the whole ledger, before the work and again in the
    // transaction, then the charge.
    const insertVerification = db.prepare(
      `INSERT INTO verifications (id, org_id, product, env, status, credits, created_at, completed_at)
       VALUES (?, ?, 'human', 'live', 'PASS', 1, ?, ?)`,
    );
    const sumBalance = db.prepare<[number], { b: number }>('SELECT COALESCE(SUM(amount), 0) AS b FROM credit_entries WHERE org_id = ?');
    const insertCharge = db.prepare("INSERT INTO credit_entries (org_id, amount, kind, product, verification_id, env, created_at) VALUES (?, -1, 'charge', 'human', ?, 'live', ?)");
    let n = 0;
    const summed = () => {
      const t = performance.now();
      if (sumBalance.get(orgId)!.b < 1) throw new Error('balance ran out');
      const id = `ver_bench_sum_${++n}`;
      const at = new Date().toISOString();
      db.transaction(() => {
        insertVerification.run(id, orgId, at, at);
        if (sumBalance.get(orgId)!.b < 1) throw new Error('balance ran out');
        insertCharge.run(orgId, id, at);
      }).immediate();
      return performance.now() - t;
    };
    summed(); // warm-up (the ledger's pages into the cache)
    const b = Array.from({ length: opts.sumCharges ?? 40 }, summed);
    const r = await credits.reconcile(orgId);
    db.close();

    const result: BenchCreditsResult = { rows, fill_ms: Math.round(fillMs), checkpoint: timing(a), sum: timing(b), consistent: r.balance === r.sum };
    const fmt = (t: Timing) => `median ${t.median_us} µs, p95 ${t.p95_us} µs, max ${t.max_us} µs (${t.n} charges)`;
    log(`== Credits: the credit work of one billable request, ${rows.toLocaleString('en')} ledger rows for the organisation`);
    log(`  ${'filling the ledger (one transaction)'.padEnd(40)} ${(fillMs / 1000).toFixed(1)} s`);
    log(`  ${'checkpointed balance (the service)'.padEnd(40)} ${fmt(result.checkpoint)}`);
    log(`  ${'SUM(amount) over the ledger (before)'.padEnd(40)} ${fmt(result.sum)}`);
    log(`  ${'speed-up at the median'.padEnd(40)} ${(result.sum.median_us / Math.max(1, result.checkpoint.median_us)).toFixed(0)}×`);
    log(`  ${'checkpoint = SUM(amount) afterwards'.padEnd(40)} ${result.consistent ? 'yes' : 'NO'}`);
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? Number(process.argv[i + 1]) : undefined;
  };
  const rows = arg('rows');
  const charges = arg('charges');
  const o = { ...(rows ? { rows } : {}), ...(charges ? { charges } : {}) };
  (async () => {
    const r = await benchCredits(o);
    if (!r.consistent) process.exitCode = 1;
    if (process.argv.includes('--postgres')) {
      const p = await benchCreditsPostgres(o);
      if ('consistent' in p && !p.consistent) process.exitCode = 1;
    }
  })().catch((e: unknown) => { console.error(e); process.exitCode = 1; });
}
