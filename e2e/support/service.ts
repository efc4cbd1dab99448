// Per-test service: a fresh temporary data directory and the real service on a free port.
// Stopped with SIGTERM and cleaned up afterwards.
//
// The global setup starts `node scripts/serve.mjs` once, which rebuilds the app if sources
// changed. Each test then runs the bundle serve.mjs runs (out/main/service.js) directly: while
// other work edits sources, serve.mjs in every test would rebuild out/ under the services that
// other workers are running (an emptied out/renderer answers `/` with 404).
// CONSOLE_E2E_SERVE_SCRIPT=1 starts every test's service through serve.mjs instead.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { expect, test as base, type APIRequestContext } from '@playwright/test';
import { cliCommand } from '../../src-main/service/test/cli-command';

const run = promisify(execFile);
export const ROOT = resolve(import.meta.dirname, '..', '..');
const READY = /https?:\/\/127\.0\.0\.1:\d+/;
const START_TIMEOUT_MS = 60_000;

export interface CliResult {
  stdout: string;
  stderr: string;
}

export interface Service {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  url: string;
  dataDir: string;
  /**
   * Runs the admin CLI (the built bundle, or the source through tsx: cliCommand) on this service's data directory;
   * `--data-dir` is added unless given. Rejects with the CLI's output when it fails.
   */
  cli: (...args: string[]) => Promise<CliResult>;
}

const SERVE_SCRIPT = 'scripts/serve.mjs';
const SERVICE_BUNDLE = 'out/main/service.js';

/**
 * Starts `node scripts/serve.mjs --data-dir DIR --port 0` (or, with `entry: 'bundle'`, the built
 * out/main/service.js with the same arguments) and waits for its URL line.
 */
export async function startService(
  dataDir: string,
  entry: 'serve-script' | 'bundle' = 'serve-script',
  env: Record<string, string> = {},
  extraArgs: readonly string[] = [],
): Promise<{ url: string; child: ChildProcess }> {
  const script = entry === 'bundle' && !process.env.CONSOLE_E2E_SERVE_SCRIPT ? SERVICE_BUNDLE : SERVE_SCRIPT;
  if (script === SERVICE_BUNDLE && !existsSync(join(ROOT, SERVICE_BUNDLE))) {
    throw new Error(`${SERVICE_BUNDLE} is missing: run \`npm run build\` (the global setup should have built it)`);
  }
  const child = spawn(process.execPath, [script, '--data-dir', dataDir, '--port', '0', ...extraArgs], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FORCE_COLOR: '0', ...env },
  });
  let output = '';
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => fail(new Error(`service did not start within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((l) => l.includes('listening on'));
      const m = line ? READY.exec(line) : null;
      if (m) {
        clearTimeout(timer);
        resolveUrl(m[0]);
      }
    };
    const fail = (e: Error) => {
      clearTimeout(timer);
      child.kill('SIGTERM');
      reject(new Error(`${e.message}\n--- service output ---\n${output}`));
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code, signal) => fail(new Error(`service exited early (code ${code}, signal ${signal})`)));
    child.once('error', fail);
  });
  // Keep draining so a chatty service never blocks on a full pipe.
  child.stdout?.resume();
  child.stderr?.resume();
  return { url, child };
}

export async function stopService(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const timeout = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 5_000));
  if ((await Promise.race([exited, timeout])) === 'timeout') {
    child.kill('SIGKILL');
    await exited;
  }
}

export async function runCli(dataDir: string, args: string[]): Promise<CliResult> {
  const full = args.includes('--data-dir') ? args : [...args, '--data-dir', dataDir];
  try {
    const c = cliCommand();
    const { stdout, stderr } = await run(c.file, [...c.args, ...full], { cwd: ROOT, timeout: 60_000 });
    return { stdout, stderr };
  } catch (e) {
    const err = e as Error & { stdout?: string; stderr?: string };
    throw new Error(`cli ${full.join(' ')} failed: ${err.message}\n${err.stdout ?? ''}\n${err.stderr ?? ''}`);
  }
}

/** Services kept by one Playwright worker for the files that share one (`test.use({ shareService: true })`). */
interface SharedServices {
  get(key: string, start: () => Promise<Running>): Promise<Service>;
}

interface Running {
  service: Service;
  stop: () => Promise<void>;
}

/**
 * The suite's API calls (`page.request`, `context.request`) send a request again, once, when the
 * connection it went out on is reset. Playwright's client keeps idle connections with no limit of
 * its own (Node's agent ignores the service's `Keep-Alive: timeout=5` hint unless it has a
 * timeout), so a call made just as the service closes a connection idle for 5 s meets ECONNRESET,
 * as one did after a list import. Chromium, and so the console, resends such a request itself.
 * `maxRetries` retries ECONNRESET only; a call that passes its own keeps it.
 */
function resendOnReset(request: APIRequestContext): void {
  for (const method of ['fetch', 'get', 'post', 'put', 'patch', 'delete', 'head'] as const) {
    const send = request[method].bind(request) as (url: unknown, options?: object) => ReturnType<APIRequestContext['get']>;
    Object.assign(request, { [method]: (url: unknown, options: object = {}) => send(url, { maxRetries: 1, ...options }) });
  }
}

/** A fresh data directory and the built service on it, with the given models setting. */
async function freshService(serviceEnv: Record<string, string>, models: 'eager' | 'lazy'): Promise<Running> {
  const dataDir = await mkdtemp(join(tmpdir(), 'cc-e2e-'));
  const { url, child } = await startService(dataDir, 'bundle', serviceEnv, models === 'lazy' ? ['--lazy-models'] : []);
  const service: Service = { url, dataDir, cli: (...args) => runCli(dataDir, args) };
  return {
    service,
    stop: async () => {
      await stopService(child);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export const test = base.extend<
  { service: Service; serviceEnv: Record<string, string>; models: 'eager' | 'lazy'; shareService: boolean; pageGuard: void },
  { sharedServices: SharedServices }
>({
  /** Extra environment for the service process, e.g. CONSOLE_LOGIN_TOKEN (test.use to set). */
  serviceEnv: [{}, { option: true }],
  /**
   * When the service loads its face and document models. Lazy (at the first request needing
   * them: `--lazy-models`) spares a spec that never verifies a person ~4 s of CPU, and one that
   * checks faces but reads no document (age gate, hosted challenge, verifications) the document
   * reader's ~2 s a start; specs that read documents use `test.use({ models: 'eager' })`, started
   * as the app starts.
   */
  models: ['lazy', { option: true }],
  /**
   * The tests of a file that need only "an organisation on this install, signed in" share one
   * service (and so one organisation) per worker: a start costs the service about 1.3 s of CPU
   * (its modules, the lists' worker), about a third of a short test's. Such a file says so with
   * `test.use({ shareService: true })`; its tests then make the organisation with `initOrg`, which
   * is done once per service, and must not count on what another test of the file did or did not
   * do. A test that needs a fresh install (first run, lists still loading) leaves it false.
   */
  shareService: [false, { option: true }],
  sharedServices: [
    async ({}, use) => {
      // One at a time: a worker that moves on to another file stops the last file's service.
      const kept: { current: { key: string; running: Running } | null } = { current: null };
      await use({
        async get(key, start) {
          if (kept.current?.key === key) return kept.current.running.service;
          const last = kept.current;
          kept.current = null;
          if (last) await last.running.stop();
          kept.current = { key, running: await start() };
          return kept.current.running.service;
        },
      });
      if (kept.current) await kept.current.running.stop();
    },
    { scope: 'worker' },
  ],
  service: async ({ serviceEnv, models, shareService, sharedServices }, use, testInfo) => {
    if (shareService) {
      const key = JSON.stringify([testInfo.file, serviceEnv, models]);
      await use(await sharedServices.get(key, () => freshService(serviceEnv, models)));
      return;
    }
    const running = await freshService(serviceEnv, models);
    try {
      await use(running.service);
    } finally {
      await running.stop();
    }
  },
  context: async ({ context }, use) => {
    resendOnReset(context.request);
    await use(context);
  },
  // Uncaught exceptions and CSP violations in the console fail the test that caused them.
  pageGuard: [
    async ({ page }, use) => {
      const problems: string[] = [];
      page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
      page.on('console', (m) => {
        if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text())) problems.push(`csp: ${m.text()}`);
      });
      await use();
      expect(problems, 'errors in the console page').toEqual([]);
    },
    { auto: true },
  ],
  // Every page starts at the test's own service.
  baseURL: async ({ service }, use) => {
    await use(service.url);
  },
});

export { expect };
