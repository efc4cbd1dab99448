// Shared by `npm run chaos` and `npm run soak` (and their tests): the real built service as an
// operator runs it (scripts/serve.mjs), the admin CLI to seed its data directory, one login per
// service start, and the figures read from outside the process (RSS, the SQLite file read-only).
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { seededRandom } from '../../src-main/service/core/random';
import { cli } from '../../src-main/service/test/cli-command';

export const ROOT = join(import.meta.dirname, '..', '..');
/** The service's database file in its data directory (src-main/service/db/open.ts). */
export const DB_FILE = 'console.db';

export interface RunningService {
  proc: ChildProcess;
  pid: number;
  url: string;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** Resolves with the exit code (null when killed by a signal) once the process is gone. */
  exited: Promise<number | null>;
}

/** `node scripts/serve.mjs --port 0 --data-dir DIR [args]`; resolves once it prints its URL. */
export async function startService(dataDir: string, timeoutMs = 120_000, args: readonly string[] = []): Promise<RunningService> {
  const proc = spawn(process.execPath, [join(ROOT, 'scripts/serve.mjs'), '--port', '0', '--data-dir', dataDir, ...args], {
    cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  proc.stderr!.setEncoding('utf8').on('data', (d: string) => (out += d));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service did not start within ${timeoutMs} ms:\n${out}`)), timeoutMs);
    const onData = () => {
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      proc.stdout!.off('data', onData);
      resolve(m[1]!);
    };
    proc.stdout!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`service exited (${code}) before listening:\n${out}`));
    });
  });
  return { proc, pid: proc.pid!, url, output: () => out, exited };
}

/**
 * A demo service (`--demo`: a test organisation and keys, printed) from `entry` (serve.mjs, or the
 * built bundle) with extra Node flags; resolves with its URL and what it printed once it listens.
 */
export async function startDemo(entry: string[], dataDir: string): Promise<{ child: ChildProcess; url: string; output: string }> {
  const child = spawn(process.execPath, [...entry, '--demo', '--port', '0', '--data-dir', dataDir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`service exited (${code}):\n${out}`)));
  });
  return { child, url, output: out };
}

/** SIGKILL: no shutdown handler, no flush, no socket close by the process. */
export async function kill9(s: RunningService): Promise<void> {
  if (s.proc.exitCode === null && s.proc.signalCode === null) s.proc.kill('SIGKILL');
  await s.exited;
}

/** SIGTERM (the service's clean shutdown), SIGKILL after a grace period. */
export async function stopService(s: RunningService, graceMs = 5000): Promise<void> {
  if (s.proc.exitCode !== null || s.proc.signalCode !== null) return;
  s.proc.kill('SIGTERM');
  const timer = setTimeout(() => s.proc.kill('SIGKILL'), graceMs);
  await s.exited;
  clearTimeout(timer);
}

/** The admin CLI, without blocking this process's event loop. */
export { cli };

async function cliOk(...args: string[]): Promise<string> {
  const r = await cli(...args);
  if (r.status !== 0) throw new Error(`cli ${args.slice(0, 2).join(' ')} failed (${r.status}): ${r.stderr}`);
  return r.stdout;
}

export interface Seeded {
  email: string;
  password: string;
  /** A live key with the compliance scope. */
  apiKey: string;
  keyId: string;
}

/** An organisation on `plan` with an owner, `credits` credits and one live compliance key, by the CLI. */
export async function seedOrganisation(dataDir: string, opts: { plan: 'pro' | 'enterprise'; credits: number }): Promise<Seeded> {
  const email = 'owner@reliability.example';
  const password = 'reliability run password';
  const d = ['--data-dir', dataDir];
  await cliOk('init', ...d, '--org', 'Reliability Org', '--owner-email', email, '--owner-password', password, '--plan', opts.plan);
  await cliOk('credits', 'grant', ...d, String(opts.credits), '--note', 'reliability run');
  const key = JSON.parse(await cliOk('keys', 'create', ...d, '--env', 'live', '--scopes', 'compliance', '--name', 'reliability', '--json')) as {
    id: string; api_key: string;
  };
  return { email, password, apiKey: key.api_key, keyId: key.id };
}

/** One login; the session cookie (sessions live in SQLite, so it outlives a restart). */
export async function login(url: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`login answered ${res.status}: ${await res.text()}`);
  return res.headers.get('set-cookie')!.split(';')[0]!;
}

/** Waits until the screening lists are loaded (before that, screening answers 503 by design). */
export async function waitForLists(url: string, cookie: string, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const res = await fetch(`${url}/api/screening/lists`, { headers: { Cookie: cookie } });
    if (res.status === 200 && ((await res.json()) as { state: string }).state === 'ready') return;
    await sleep(200);
  }
  throw new Error(`lists not ready within ${timeoutMs} ms`);
}

/**
 * Until the service's face workers have loaded and warmed their models (its log says so): the
 * models load in the background at start, and a latency measurement begun meanwhile would time
 * the start-up on a small machine, not the steady state.
 */
export async function waitForFaces(dataDir: string, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const log = (() => {
      try {
        return readFileSync(join(dataDir, 'logs', 'service.log'), 'utf8');
      } catch {
        return '';
      }
    })();
    if (log.includes('"msg":"faces_worker_ready"')) return;
    await sleep(200);
  }
  throw new Error(`face models not ready within ${timeoutMs} ms`);
}

/** Resident set size of a process in MiB, from /proc (Linux); null elsewhere or once it is gone. */
export function rssMiB(pid: number): number | null {
  try {
    const m = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/**
 * The service's database opened read-only, as an outside observer. WAL mode lets it read while
 * the service writes, and after a kill it sees exactly what a restart would recover.
 */
export function openReadOnly(dataDir: string): Database.Database {
  const db = new Database(join(dataDir, DB_FILE), { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  return db;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Deterministic PRNG: a seed replays the same run. */
export const rng = seededRandom;

export function quantile(sorted: readonly number[], q: number): number {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

export function mean(xs: readonly number[]): number {
  return xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length;
}

const FIRST = ['Anna', 'Boris', 'Carla', 'Dmitri', 'Elena', 'Farid', 'Grace', 'Hiro', 'Ines', 'Jonas', 'Vladimir', 'Kim', 'Ali', 'Maria'];
const LAST = ['Petrova', 'Smith', 'Okafor', 'Nguyen', 'Garcia', 'Ivanov', 'Putin', 'Jong Un', 'Hassan', 'Muller', 'Rossi', 'Tanaka'];

/** A made-up individual (a few are listed people, so some screens match). */
export function subject(r: () => number): { type: 'individual'; first_name: string; last_name: string; date_of_birth?: string } {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const s = { type: 'individual' as const, first_name: pick(FIRST), last_name: pick(LAST) };
  return r() < 0.5 ? { ...s, date_of_birth: `19${50 + Math.floor(r() * 50)}-0${1 + Math.floor(r() * 9)}-1${Math.floor(r() * 10)}` } : s;
}

/** Parses `--name value` flags; numbers only. */
export function numberFlags<T extends Record<string, number>>(argv: readonly string[], defaults: T): T {
  const out: Record<string, number> = { ...defaults };
  for (let i = 0; i < argv.length; i++) {
    const m = /^--([a-z-]+)$/.exec(argv[i]!);
    if (!m) throw new Error(`unexpected argument ${argv[i]}`);
    if (!(m[1]! in defaults)) throw new Error(`unknown option --${m[1]} (known: ${Object.keys(defaults).map((k) => `--${k}`).join(', ')})`);
    const v = Number(argv[++i]);
    if (!Number.isFinite(v)) throw new Error(`--${m[1]} needs a number`);
    out[m[1]!] = v;
  }
  return out as T;
}
