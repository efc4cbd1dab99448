// `npm run chaos [-- --cycles N --seed S]`: kill -9 the real built service in the middle of a live
// batch rescreen and of concurrent live API screens with Idempotency-Keys, restart it on the same
// data directory, and check what a customer relies on:
//   integrity    PRAGMA integrity_check and foreign_key_check of the file the kill left behind
//   balance      the balance the service reports equals the sum of the credit entries, and equals
//                what the client was sold: the grant less 60 per screened key and 30 per batch row
//   no double    no verification charged twice, no Idempotency-Key settled under two ids
//   no orphan    every charged batch row's screening id reached the client in a result line;
//                every charged API screen reached the client, or is replayed by its key's retry
//   retries      every interrupted call, retried with its Idempotency-Key after the restart,
//                settles exactly once (never IDEMPOTENCY_KEY_IN_PROGRESS, never a second charge)
//   lock         the killed service's `service.lock` is left naming it, and the restart takes it
//                over (one service per data directory, issue 25)
// Prints the figures per cycle; exits 1 on any violation. The seed replays a run's choices (the
// kill's timing against the service's progress still varies).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type Database from 'better-sqlite3';
import {
  kill9, login, numberFlags, openReadOnly, rng, seedOrganisation, sleep, startService, stopService, subject, waitForLists,
  type RunningService, type Seeded,
} from './support/service';

const SCREEN_COST = 60;
const ROW_COST = 30;
const GRANT = 50_000_000;

export interface ChaosOptions {
  cycles: number;
  seed: number;
  /** Concurrent API callers, and their requests per second together. */
  callers: number;
  rps: number;
  /** Rows per batch (a batch that finishes before the kill is followed by another). */
  rows: number;
  killMinMs: number;
  killMaxMs: number;
  log?: (line: string) => void;
}

/** What the client knows about one Idempotency-Key. */
interface Call {
  key: string;
  body: string;
  /** The screening id the service answered with; null until an answer arrived. */
  id: string | null;
  /** An attempt was cut off by a kill: it must be retried after the restart. */
  interrupted: boolean;
}

export interface CycleFigures {
  cycle: number;
  killed_after_ms: number;
  api: { sent: number; ok: number; replays: number; rate_limited: number; in_flight_at_kill: number };
  batch: { batches: number; chunks: number; lines: number; row_errors: number; streaming_at_kill: boolean };
  after_kill: { integrity: string; in_progress_keys: number; charged_batch_rows: number; charged_api_screens: number };
  after_restart: { in_progress_keys: number; retried: number; settled_by_replay: number; settled_fresh: number; balance: number; expected: number };
}

export interface ChaosResult {
  seed: number;
  cycles: CycleFigures[];
  violations: string[];
}

export async function runChaos(opts: ChaosOptions): Promise<ChaosResult> {
  const log = opts.log ?? (() => {});
  const r = rng(opts.seed);
  const dataDir = mkdtempSync(join(tmpdir(), 'cc-chaos-'));
  const violations: string[] = [];
  const violation = (cycle: number, what: string) => {
    violations.push(`cycle ${cycle}: ${what}`);
    log(`  VIOLATION ${what}`);
  };
  const calls = new Map<string, Call>();
  const batchReceived = new Set<string>();
  const cycles: CycleFigures[] = [];
  let seeded: Seeded;
  let svc: RunningService | undefined;
  let cookie = '';

  try {
    seeded = await seedOrganisation(dataDir, { plan: 'enterprise', credits: GRANT });
    log(`chaos: seed ${opts.seed}, ${opts.cycles} cycles, data directory ${dataDir}`);
    for (let cycle = 1; cycle <= opts.cycles; cycle++) {
      svc = await startService(dataDir);
      // One login for the whole run: the session is in SQLite and survives the restarts.
      cookie ||= await login(svc.url, seeded.email, seeded.password);
      await waitForLists(svc.url, cookie);
      const restart = cycle > 1 ? await afterRestart(svc, cycle - 1) : null;
      if (restart) cycles.at(-1)!.after_restart = restart;

      const figures = await killCycle(svc, cycle);
      cycles.push(figures);
      log(`cycle ${cycle}: killed after ${figures.killed_after_ms} ms; api ${JSON.stringify(figures.api)}; batch ${JSON.stringify(figures.batch)}`);
      log(`  after kill: ${JSON.stringify(figures.after_kill)}`);
    }
    // The last kill's retries and checks need one more start.
    svc = await startService(dataDir);
    await waitForLists(svc.url, cookie);
    cycles.at(-1)!.after_restart = await afterRestart(svc, opts.cycles);
    await stopService(svc);
    const db = openReadOnly(dataDir);
    try {
      const integrity = String(db.pragma('integrity_check', { simple: true }));
      if (integrity !== 'ok') violation(opts.cycles, `integrity_check after the clean stop: ${integrity}`);
    } finally {
      db.close();
    }
  } finally {
    if (svc) await kill9(svc);
    if (violations.length === 0) rmSync(dataDir, { recursive: true, force: true });
    else log(`data directory kept for inspection: ${dataDir}`);
  }
  return { seed: opts.seed, cycles, violations };

  /** Traffic, a kill at a random point, and the checks of the file the kill left. */
  async function killCycle(s: RunningService, cycle: number): Promise<CycleFigures> {
    const api = { sent: 0, ok: 0, replays: 0, rate_limited: 0, in_flight_at_kill: 0 };
    const batch = { batches: 0, chunks: 0, lines: 0, row_errors: 0, streaming_at_kill: false };
    let killed = false;
    let inFlight = 0;
    let streaming = false;
    let seq = 0;

    const pace = (1000 * opts.callers) / opts.rps;
    const caller = async (n: number) => {
      while (!killed) {
        const settled = [...calls.values()].filter((c) => c.id !== null);
        const replay = settled.length > 0 && r() < 0.1;
        const call: Call = replay
          ? settled[Math.floor(r() * settled.length)]!
          : { key: `chaos-${opts.seed}-${cycle}-${n}-${++seq}`, body: JSON.stringify({ subject: subject(r), client_reference_id: `c${seq}` }), id: null, interrupted: false };
        calls.set(call.key, call);
        api.sent++;
        inFlight++;
        const out = await screen(s.url, call, cycle, () => killed);
        inFlight--;
        if (out.kind === 'lost') return;
        if (out.kind === 'ok') {
          api.ok++;
          if (replay) api.replays++;
        }
        if (out.kind === 'rate') {
          api.rate_limited++;
          await sleep(out.retryAfterMs);
        } else {
          // Paced at the plan's limit overall (the burst is there for the first moments).
          await sleep(r() * 2 * pace);
        }
      }
    };

    const batches = async () => {
      while (!killed) {
        batch.batches++;
        const preview = await getJson<{ total_credits: number }>(s.url, `/api/console/batches/preview?env=live&rows=${opts.rows}`);
        const created = await post(s.url, '/api/console/batches', JSON.stringify({ env: 'live', total_rows: opts.rows, confirm_credits: preview.total_credits }));
        if (created.status !== 201) throw new Error(`batch create answered ${created.status}: ${await created.text()}`);
        const id = ((await created.json()) as { id: string }).id;
        for (let row = 1; row <= opts.rows && !killed;) {
          const size = Math.min(opts.rows - row + 1, 50 + Math.floor(r() * 950));
          const body = Array.from({ length: size }, (_, k) => JSON.stringify({ row: row + k, subject: subject(r) })).join('\n');
          row += size;
          batch.chunks++;
          streaming = true;
          await postLines(s.url, `/api/console/batches/${id}/rows`, body, (line) => {
            if (typeof line.id === 'string') {
              batchReceived.add(line.id);
              batch.lines++;
            } else if (line.error) batch.row_errors++;
          });
          streaming = false;
        }
        if (!killed) await post(s.url, `/api/console/batches/${id}/finish`, '');
      }
    };

    const started = Date.now();
    const work = [batches(), ...Array.from({ length: opts.callers }, (_, i) => caller(i))].map((p) =>
      p.catch((e: unknown) => {
        // Anything but the kill cutting a request off is the script's or the service's fault.
        if (!killed) violation(cycle, `traffic failed before the kill: ${e instanceof Error ? e.message : String(e)}`);
      }),
    );
    // The kill is meant for live traffic of both kinds: the random wait starts once an API call has
    // been answered and a batch line streamed (on a slow or busy machine the first ones take
    // longer than the wait itself), or after 30 s, when the checks below say what was missing.
    for (let waited = 0; (api.ok === 0 || batch.lines === 0) && waited < 30_000; waited += 10) await sleep(10);
    await sleep(opts.killMinMs + r() * (opts.killMaxMs - opts.killMinMs));
    // A random point, nudged (by at most 2 s) to one where the service holds an Idempotency-Key
    // in progress (begun, not yet committed), else to one where an API call is in flight.
    const probe = openReadOnly(dataDir);
    const keysInProgress = probe.prepare("SELECT COUNT(*) FROM idempotency_keys WHERE state = 'in_progress'").pluck();
    for (let waited = 0; keysInProgress.get() === 0 && waited < 2000; waited++) await sleep(1);
    probe.close();
    for (let waited = 0; inFlight === 0 && waited < 1000; waited += 2) await sleep(2);
    api.in_flight_at_kill = inFlight;
    batch.streaming_at_kill = streaming;
    killed = true;
    await kill9(s);
    const killedAfter = Date.now() - started;
    await Promise.all(work);
    // The killed service's lock is left behind, naming a process that is gone: the next start
    // must take it over (issue 25: one service per data directory).
    const lock = readFileSync(join(dataDir, 'service.lock'), 'utf8').trim();
    if (lock !== String(s.pid)) violation(cycle, `after kill the data directory's lock names ${lock || 'nothing'}, not the killed service ${s.pid}`);

    const db = openReadOnly(dataDir);
    try {
      const integrity = String(db.pragma('integrity_check', { simple: true }));
      if (integrity !== 'ok') violation(cycle, `integrity_check after kill: ${integrity}`);
      const fk = db.pragma('foreign_key_check') as unknown[];
      if (fk.length > 0) violation(cycle, `foreign_key_check after kill: ${fk.length} rows`);
      const ledger = readLedger(db, seeded.keyId);
      structuralChecks(ledger, cycle);
      for (const id of ledger.chargedBatch) {
        if (!batchReceived.has(id)) violation(cycle, `batch row ${id} charged, but its result line never reached the client`);
      }
      return {
        cycle, killed_after_ms: killedAfter, api, batch,
        after_kill: {
          integrity, in_progress_keys: ledger.inProgress, charged_batch_rows: ledger.chargedBatch.length, charged_api_screens: ledger.chargedApi.length,
        },
        after_restart: { in_progress_keys: -1, retried: 0, settled_by_replay: 0, settled_fresh: 0, balance: 0, expected: 0 },
      };
    } finally {
      db.close();
    }
  }

  /** After a restart: nothing stuck, every unsettled key retried once more, the books balanced. */
  async function afterRestart(s: RunningService, cycle: number): Promise<CycleFigures['after_restart']> {
    const before = openReadOnly(dataDir);
    const chargedBefore = new Set(readLedger(before, seeded.keyId).chargedApi);
    const inProgress = readLedger(before, seeded.keyId).inProgress;
    before.close();
    if (inProgress > 0) violation(cycle, `${inProgress} Idempotency-Keys still in progress after the restart`);

    const pending = [...calls.values()].filter((c) => c.id === null || c.interrupted);
    let byReplay = 0;
    let fresh = 0;
    for (const call of pending) {
      const known = call.id;
      for (let attempt = 0; ; attempt++) {
        const out = await screen(s.url, call, cycle, () => false);
        if (out.kind === 'ok') break;
        if (out.kind === 'rate' && attempt < 20) {
          await sleep(out.retryAfterMs);
          continue;
        }
        violation(cycle, `retry of Idempotency-Key ${call.key} did not settle (${out.kind})`);
        break;
      }
      call.interrupted = false;
      if (call.id === null) continue;
      if (known !== null && known !== call.id) violation(cycle, `Idempotency-Key ${call.key} answered ${known}, then ${call.id} on retry`);
      if (chargedBefore.has(call.id)) byReplay++;
      else fresh++;
    }

    const account = await getJson<{ credits: { balance: number } }>(s.url, '/api/account');
    const db = openReadOnly(dataDir);
    try {
      const ledger = readLedger(db, seeded.keyId);
      structuralChecks(ledger, cycle);
      if (account.credits.balance !== ledger.sum) violation(cycle, `the service reports a balance of ${account.credits.balance}; the entries sum to ${ledger.sum}`);
      // Every settled key is one charged screen; every id the client holds was charged once.
      const settled = [...calls.values()].filter((c) => c.id !== null);
      const received = new Set(settled.map((c) => c.id!));
      for (const id of ledger.chargedApi) {
        if (!received.has(id)) violation(cycle, `API screen ${id} charged, but no Idempotency-Key answers it (a second charge for a retried key, or a lost result)`);
      }
      for (const id of received) {
        if (!ledger.chargedApi.includes(id)) violation(cycle, `API screen ${id} answered but never charged`);
      }
      for (const id of batchReceived) {
        if (!ledger.chargedBatch.includes(id)) violation(cycle, `batch row ${id} delivered but never charged`);
      }
      const expected = ledger.grants - SCREEN_COST * received.size - ROW_COST * batchReceived.size;
      if (ledger.sum !== expected) violation(cycle, `balance ${ledger.sum}, but the client was sold ${received.size} screens and ${batchReceived.size} rows: expected ${expected}`);
      return { in_progress_keys: inProgress, retried: pending.length, settled_by_replay: byReplay, settled_fresh: fresh, balance: ledger.sum, expected };
    } finally {
      db.close();
    }
  }

  /** Checks that hold whenever the file is looked at: each charge pays for one recorded verification. */
  function structuralChecks(l: Ledger, cycle: number): void {
    for (const d of l.doubles) violation(cycle, `verification ${d.verification_id} charged ${d.n} times`);
    for (const m of l.mismatched) violation(cycle, `charge entry ${m} does not match a verification's recorded credits`);
    for (const u of l.unpaid) violation(cycle, `verification ${u} records credits but has no charge entry`);
  }

  async function screen(url: string, call: Call, cycle: number, wasKilled: () => boolean): Promise<
    { kind: 'ok' } | { kind: 'rate'; retryAfterMs: number } | { kind: 'lost' } | { kind: 'refused'; status: number }
  > {
    let res: Response;
    let text: string;
    try {
      res = await fetch(`${url}/api/compliance/v1/screen`, {
        method: 'POST', body: call.body,
        headers: { 'X-API-Key': seeded.apiKey, 'Content-Type': 'application/json', 'Idempotency-Key': call.key },
      });
      text = await res.text();
    } catch (e) {
      if (!wasKilled()) throw e;
      call.interrupted = true;
      return { kind: 'lost' };
    }
    if (res.status === 200) {
      const id = (JSON.parse(text) as { id: string }).id;
      if (call.id !== null && call.id !== id) violation(cycle, `Idempotency-Key ${call.key} answered ${call.id}, then ${id}`);
      call.id ??= id;
      return { kind: 'ok' };
    }
    if (res.status === 429) return { kind: 'rate', retryAfterMs: 1000 * Number(res.headers.get('retry-after') ?? 1) };
    const code = (JSON.parse(text) as { code?: string }).code;
    violation(cycle, `screen with Idempotency-Key ${call.key} answered ${res.status}${code ? ` ${code}` : ''}`);
    return { kind: 'refused', status: res.status };
  }

  function post(url: string, path: string, body: string, contentType = 'application/json'): Promise<Response> {
    return fetch(`${url}${path}`, { method: 'POST', body, headers: { Cookie: cookie, 'Content-Type': contentType } });
  }

  /**
   * POSTs NDJSON and hands over each whole line of the answer as its bytes arrive; rejects once the
   * connection is cut (a line cut off by a kill is not a line). Not fetch: its body stream, like
   * any WHATWG or Node stream read by iteration, drops what it holds unread when the connection
   * errors, so lines that reached this process just before the kill would count as never sent.
   */
  function postLines(url: string, path: string, body: string, onLine: (line: { id?: unknown; error?: unknown }) => void): Promise<void> {
    return new Promise((resolve, reject) => {
      const req = request(`${url}${path}`, { method: 'POST', headers: { Cookie: cookie, 'Content-Type': 'application/x-ndjson' } }, (res) => {
        const decoder = new TextDecoder();
        let buf = '';
        res.on('data', (chunk: Buffer) => {
          buf += decoder.decode(chunk, { stream: true });
          // A refusal's body is kept whole for the error below; an answer's lines are handed over.
          if (res.statusCode !== 200) return;
          for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
            const line = buf.slice(0, nl);
            buf = buf.slice(nl + 1);
            if (line.trim()) onLine(JSON.parse(line) as { id?: unknown });
          }
        });
        res.on('error', reject);
        res.on('close', () => {
          if (!res.complete) reject(new Error(`${path}: the connection was cut`));
          else if (res.statusCode !== 200) reject(new Error(`${path} answered ${res.statusCode}: ${buf}`));
          else resolve();
        });
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  async function getJson<T>(url: string, path: string): Promise<T> {
    const res = await fetch(`${url}${path}`, { headers: { Cookie: cookie } });
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`);
    return (await res.json()) as T;
  }
}

interface Ledger {
  sum: number;
  grants: number;
  inProgress: number;
  doubles: { verification_id: string; n: number }[];
  mismatched: number[];
  unpaid: string[];
  chargedApi: string[];
  chargedBatch: string[];
}

function readLedger(db: Database.Database, keyId: string): Ledger {
  const col = (sql: string, ...args: unknown[]) => db.prepare(sql).pluck().all(...args) as never[];
  const one = (sql: string) => db.prepare(sql).pluck().get() as number;
  return {
    sum: one('SELECT COALESCE(SUM(amount), 0) FROM credit_entries'),
    grants: one("SELECT COALESCE(SUM(amount), 0) FROM credit_entries WHERE kind = 'grant'"),
    inProgress: one("SELECT COUNT(*) FROM idempotency_keys WHERE state = 'in_progress'"),
    doubles: db.prepare("SELECT verification_id, COUNT(*) AS n FROM credit_entries WHERE kind = 'charge' GROUP BY verification_id HAVING n > 1").all() as Ledger['doubles'],
    mismatched: col(`SELECT c.id FROM credit_entries c LEFT JOIN verifications v ON v.id = c.verification_id
                     WHERE c.kind = 'charge' AND (v.id IS NULL OR v.credits != -c.amount)`),
    unpaid: col(`SELECT v.id FROM verifications v WHERE v.credits > 0
                 AND NOT EXISTS (SELECT 1 FROM credit_entries c WHERE c.verification_id = v.id AND c.kind = 'charge')`),
    chargedApi: col("SELECT v.id FROM verifications v JOIN credit_entries c ON c.verification_id = v.id AND c.kind = 'charge' WHERE v.api_key_id = ?", keyId),
    chargedBatch: col(`SELECT v.id FROM verifications v JOIN credit_entries c ON c.verification_id = v.id AND c.kind = 'charge'
                       WHERE v.api_key_id IS NULL AND v.product = 'rescreen'`),
  };
}

async function main(): Promise<void> {
  const o = numberFlags(process.argv.slice(2), {
    cycles: 5, seed: Math.floor(Math.random() * 2 ** 31), callers: 6, rps: 8, rows: 5000, 'kill-min-ms': 1000, 'kill-max-ms': 6000,
  });
  const result = await runChaos({
    cycles: o.cycles, seed: o.seed, callers: o.callers, rps: o.rps, rows: o.rows, killMinMs: o['kill-min-ms'], killMaxMs: o['kill-max-ms'],
    log: (line) => console.log(line),
  });
  console.log('\nper cycle:');
  console.table(result.cycles.map((c) => ({
    cycle: c.cycle, 'killed at ms': c.killed_after_ms, 'api ok': c.api.ok, 'in flight': c.api.in_flight_at_kill,
    'batch lines': c.batch.lines, streaming: c.batch.streaming_at_kill, 'stuck after kill': c.after_kill.in_progress_keys,
    'stuck after restart': c.after_restart.in_progress_keys, retried: c.after_restart.retried,
    'by replay': c.after_restart.settled_by_replay, fresh: c.after_restart.settled_fresh, balance: c.after_restart.balance,
  })));
  if (result.violations.length > 0) {
    console.error(`\nchaos: ${result.violations.length} violation(s) (seed ${result.seed}):\n${result.violations.map((v) => `  ${v}`).join('\n')}`);
    process.exitCode = 1;
  } else {
    console.log(`\nchaos: ${result.cycles.length} kill -9 cycles, no violation (seed ${result.seed})`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((e: unknown) => {
    console.error(`chaos: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
    process.exitCode = 2;
  });
}
