// `npm run bench:start` (issue 38): how soon Compliance Console starts, started the ways people
// start it. Prints figures; asserts nothing.
//   cold    the first `npm run serve` of a fresh clone (a `git clone` of HEAD with this checkout's
//           node_modules linked in, so no `npm ci`): each build step as it prints, the URL, and
//           /api/health saying screening is ready
//   built   `npm run serve` of a built install on a new data directory, and `node out/main/service.js`
//           (what the desktop shell forks): the URL, screening ready, the first screening answered 200
//   demo    `npm run demo`: the URL, screening ready, the first screening with the printed test key
// Targets (issue 38): built listens <= 1 s and screens <= 2 s; cold <= 45 s; demo <= 3 s.
//   npm run bench:start [-- --runs N] [-- --no-cold]
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from './build.mjs';

const ROOT = join(import.meta.dirname, '..');
const args = process.argv.slice(2);
const RUNS = Number(args[args.indexOf('--runs') + 1] || 3) || 3;
const COLD = !args.includes('--no-cold');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const s = (ms: number | null) => (ms === null ? 'never' : `${(ms / 1000).toFixed(2)} s`);

interface Started {
  /** ms from spawn to the printed URL. */
  listen: number;
  /** ms from spawn to /api/health saying screening is ready. */
  ready: number | null;
  /** ms from spawn to the first screening answered 200 (null: no key to screen with). */
  screened: number | null;
  /** Lines the process printed on stderr, each with its ms from spawn (the build's steps). */
  steps: string[];
}

/** Starts `cmd`, waits for its URL, then for screening; always stops it (and its children). */
async function start(cwd: string, cmd: string, cmdArgs: string[], key?: (out: string) => string | undefined): Promise<Started> {
  const t0 = performance.now();
  const proc: ChildProcess = spawn(cmd, cmdArgs, { cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true, env: { ...process.env, NODE_ENV: 'production' } });
  const steps: string[] = [];
  let out = '';
  try {
    const url = await new Promise<string>((resolve, reject) => {
      proc.stderr!.on('data', (d: Buffer) => {
        for (const l of d.toString().split('\n')) if (l.trim() !== '' && !l.startsWith('npm warn')) steps.push(`${s(performance.now() - t0).padStart(8)}  ${l.trim()}`);
      });
      proc.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /listening on (http:\/\/\S+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      proc.on('exit', (code) => reject(new Error(`${cmd} ${cmdArgs.join(' ')} exited ${code}:\n${steps.join('\n')}\n${out}`)));
    });
    const listen = performance.now() - t0;
    let ready: number | null = null;
    for (let tries = 0; ready === null && tries < 600; tries++) {
      const h = await fetch(`${url}/api/health`).then((r) => r.json() as Promise<{ screening?: string }>, () => ({}) as { screening?: string });
      if (h.screening === 'ready') ready = performance.now() - t0;
      else await sleep(60);
    }
    let screened: number | null = null;
    const apiKey = key?.(out);
    if (apiKey) {
      const body = JSON.stringify({ subject: { type: 'individual', first_name: 'Ivan', last_name: 'Sidorov' } });
      for (let tries = 0; screened === null && tries < 600; tries++) {
        const r = await fetch(`${url}/api/compliance/v1/screen`, { method: 'POST', headers: { 'X-API-Key': apiKey, 'Content-Type': 'application/json' }, body });
        await r.arrayBuffer();
        if (r.status === 200) screened = performance.now() - t0;
        else if (r.status === 503) await sleep(60);
        else throw new Error(`screen answered ${r.status}`);
      }
    }
    return { listen, ready, screened, steps };
  } finally {
    if (proc.exitCode === null) {
      const gone = new Promise((r) => proc.on('exit', r));
      process.kill(-proc.pid!, 'SIGTERM');
      await Promise.race([gone, sleep(5000)]);
    }
  }
}

function cli(cwd: string, ...a: string[]): string {
  const r = spawnSync(process.execPath, [join(cwd, 'out', 'main', 'cli.js'), ...a], { cwd, encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`cli ${a.slice(0, 2).join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}

/** A new data directory with an organisation and a test key that screens. */
function dataDirWithKey(): { dir: string; key: string } {
  const dir = mkdtempSync(join(tmpdir(), 'cc-bench-start-'));
  cli(ROOT, 'init', '--data-dir', dir, '--org', 'Bench Org', '--owner-email', 'bench@example.test', '--owner-password', 'bench password 1', '--plan', 'pro');
  const key = (JSON.parse(cli(ROOT, 'keys', 'create', '--data-dir', dir, '--env', 'test', '--scopes', 'compliance', '--json')) as { api_key: string }).api_key;
  return { dir, key };
}

function row(label: string, r: Started): void {
  process.stdout.write(`  ${label.padEnd(34)} URL ${s(r.listen)}, screening ready ${s(r.ready)}${r.screened === null ? '' : `, first screening 200 at ${s(r.screened)}`}\n`);
}

const temp: string[] = [];
try {
  if (COLD) {
    process.stdout.write('\n== cold: the first `npm run serve` of a fresh clone of HEAD (node_modules linked, no npm ci; target <= 45 s)\n');
    const clone = mkdtempSync(join(tmpdir(), 'cc-bench-clone-'));
    temp.push(clone);
    const c = spawnSync('git', ['clone', '--quiet', ROOT, clone], { encoding: 'utf8' });
    if (c.status !== 0) throw new Error(`git clone failed: ${c.stderr}`);
    symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'), 'dir');
    const data = mkdtempSync(join(tmpdir(), 'cc-bench-start-'));
    temp.push(data);
    const r = await start(clone, NPM, ['run', '-s', 'serve', '--', '--port', '0', '--data-dir', data]);
    for (const l of r.steps) process.stdout.write(`  ${l}\n`);
    row('cold start', r);
  }

  if (!build()) throw new Error('build failed');
  process.stdout.write(`\n== built: a start of a built install, new data directory each time (targets: URL <= 1 s, screening <= 2 s)\n`);
  for (let i = 1; i <= RUNS; i++) {
    const a = dataDirWithKey();
    temp.push(a.dir);
    row(`npm run serve, start ${i}`, await start(ROOT, NPM, ['run', '-s', 'serve', '--', '--port', '0', '--data-dir', a.dir], () => a.key));
    const b = dataDirWithKey();
    temp.push(b.dir);
    row(`node out/main/service.js, start ${i}`, await start(ROOT, process.execPath, [join(ROOT, 'out', 'main', 'service.js'), '--port', '0', '--data-dir', b.dir], () => b.key));
  }

  process.stdout.write(`\n== demo: \`npm run demo\` (target <= 3 s)\n`);
  for (let i = 1; i <= RUNS; i++) {
    row(`npm run demo, start ${i}`, await start(ROOT, NPM, ['run', '-s', 'demo', '--', '--port', '0'], (out) => /(svk-[A-Za-z0-9]{32})/.exec(out)?.[1]));
  }
} finally {
  for (const d of temp) rmSync(d, { recursive: true, force: true });
}
