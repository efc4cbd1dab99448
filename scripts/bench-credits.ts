// `npm run bench:credits`: what a billable request's credit work costs with a long ledger.
// Fills one organisation's ledger with 1M `credit_entries` rows (one transaction, one prepared
// statement; charges point at no verification), then times the credit work of a billable request
// as core/verification/billing.ts does it: the balance pre-check, then one IMMEDIATE transaction
// with the verification row, the balance re-read and the charge. Once with the checkpointed
// balance (migration 0009, what the service runs) and once with the old `SUM(amount)` query.
// The old query is timed on fewer charges (default 40): each reads the whole ledger twice.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sqliteEngine, type Q } from '../src-main/service/db/engine';
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
    const insertVerification = db.prepare(
      `INSERT INTO verifications (id, org_id, product, env, status, credits, created_at, completed_at)
       VALUES (?, ?, 'human', 'live', 'PASS', 1, ?, ?)`,
    );
    const sumBalance = db.prepare<[number], { b: number }>('SELECT COALESCE(SUM(amount), 0) AS b FROM credit_entries WHERE org_id = ?');
    const insertCharge = db.prepare("INSERT INTO credit_entries (org_id, amount, kind, product, verification_id, env, created_at) VALUES (?, -1, 'charge', 'human', ?, 'live', ?)");
    let n = 0;

    /** One request's credit work, as billing.run does it, with `balance` as the balance read. */
    const charge = async (balance: () => number | Promise<number>, write: (tx: Q, id: string, at: string) => unknown) => {
      const t = performance.now();
      if ((await balance()) < 1) throw new Error('balance ran out');
      const id = `ver_bench_${++n}`;
      const at = new Date().toISOString();
      await engine.transaction(async (tx) => {
        insertVerification.run(id, orgId, at, at);
        if ((await balance()) < 1) throw new Error('balance ran out');
        await write(tx, id, at);
      });
      return performance.now() - t;
    };
    const checkpointed = () => charge(() => credits.balance(orgId), (tx, id) => credits.chargeInTransaction(tx, orgId, 1, 'human', [id], 'live'));
    const summed = () => charge(() => sumBalance.get(orgId)!.b, (_tx, id, at) => insertCharge.run(orgId, id, at));
    const times = async (k: number, one: () => Promise<number>) => {
      const out: number[] = [];
      for (let i = 0; i < k; i++) out.push(await one());
      return out;
    };

    await times(50, checkpointed); // warm-up
    const a = await times(opts.charges ?? 2000, checkpointed);
    await summed(); // warm-up (the ledger's pages into the cache)
    const b = await times(opts.sumCharges ?? 40, summed);
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
  benchCredits({ ...(rows ? { rows } : {}), ...(charges ? { charges } : {}) }).then(
    (r) => { if (!r.consistent) process.exitCode = 1; },
    (e: unknown) => { console.error(e); process.exitCode = 1; },
  );
}
