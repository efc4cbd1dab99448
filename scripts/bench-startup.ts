// `npm run bench:startup`: how soon a restarted service screens after an official list import
// (issue 36, item 5). Imports the UN list into a fresh data directory with the CLI, then starts
// the built service (out/main/service.js) several times on it and prints, per start: time to
// listen, time until /api/health says screening is ready, and time to the first screening
// answered 200 (the request is retried while it answers 503). The first start after the import
// restores the index the import prepared; a last start without it shows the rebuild every start
// did before the data directory kept it. Figures only: asserts nothing. Builds first when the
// sources changed (as `npm run serve` does).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from './build.mjs';

const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'out', 'main', 'cli.js');
const SERVICE = join(ROOT, 'out', 'main', 'service.js');
const STARTS = Number(process.env.BENCH_STARTS ?? 3);

function cli(...args: string[]): string {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 300_000 });
  if (r.status !== 0) throw new Error(`cli ${args.slice(0, 2).join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Start { listen: number; healthReady: number | null; firstScreen: number; retries503: number; retryAfter: string | null; log: string }

async function start(dataDir: string, apiKey: string): Promise<Start> {
  const t0 = performance.now();
  const proc = spawn(process.execPath, [SERVICE, '--data-dir', dataDir, '--port', '0', '--lazy-models'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  try {
    const url = await new Promise<string>((resolve, reject) => {
      proc.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      proc.on('exit', (code) => reject(new Error(`service exited ${code}: ${out}`)));
    });
    const listen = performance.now() - t0;
    // Health polled beside the screening attempts: a screening may wait for the load (up to 15 s).
    let healthReady: number | null = null;
    let polling = true;
    const health = (async () => {
      while (polling && healthReady === null) {
        const h = (await (await fetch(`${url}/api/health`)).json()) as { screening?: string };
        if (h.screening === 'ready') healthReady = performance.now() - t0;
        else await sleep(60);
      }
    })();
    let retries503 = 0;
    let retryAfter: string | null = null;
    const body = JSON.stringify({ subject: { type: 'individual', first_name: 'Ivan', last_name: 'Sidorov' } });
    for (;;) {
      const r = await fetch(`${url}/api/compliance/v1/screen`, { method: 'POST', headers: { 'X-API-Key': apiKey, 'Content-Type': 'application/json' }, body });
      await r.arrayBuffer();
      if (r.status === 200) break;
      if (r.status !== 503) throw new Error(`screen answered ${r.status}`);
      retries503++;
      retryAfter ??= r.headers.get('retry-after');
      await sleep(100);
    }
    const firstScreen = performance.now() - t0;
    // The service without health's `screening` field (before issue 36) never says ready.
    await Promise.race([health, sleep(2000)]);
    polling = false;
    // How the index came to be (the service's own log line: load/index ms and the snapshot's use).
    const loaded = readFileSync(join(dataDir, 'logs', 'service.log'), 'utf8').split('\n').filter((l) => l.includes('"lists_loaded"')).at(-1) ?? '';
    const fields = /"load_ms".*?(?=,"names"|\})/.exec(loaded)?.[0] ?? 'no lists_loaded line';
    return { listen, healthReady, firstScreen, retries503, retryAfter, log: fields };
  } finally {
    proc.kill('SIGTERM');
    await new Promise((r) => (proc.exitCode !== null ? r(null) : proc.on('exit', r)));
  }
}

if (!build()) process.exit(1);
const dataDir = mkdtempSync(join(tmpdir(), 'cc-bench-startup-'));
try {
  cli('init', '--data-dir', dataDir, '--org', 'Bench Org', '--owner-email', 'bench@example.test', '--owner-password', 'bench password 1', '--plan', 'pro');
  const key = JSON.parse(cli('keys', 'create', '--data-dir', dataDir, '--env', 'test', '--scopes', 'compliance', '--json')) as { api_key: string };
  const un = join(ROOT, 'resources', 'watchlists', 'un_sc', '2026-02-27', 'consolidated.xml');
  const i0 = performance.now();
  const imported = JSON.parse(cli('lists', 'import', '--data-dir', dataDir, '--source', 'un_sc', un, '--json')) as { index?: { ms: number } };
  process.stdout.write(`lists import --source un_sc: ${Math.round(performance.now() - i0)} ms (CLI process, end to end; `
    + `${imported.index ? `index prepared in ${imported.index.ms} ms` : 'no index prepared'})\n`);
  const s = (ms: number | null) => (ms === null ? 'never' : `${(ms / 1000).toFixed(2)} s`);
  const report = (what: string, r: Start) => process.stdout.write(
    `${what}: listening ${s(r.listen)}, health says screening ready ${s(r.healthReady)}, first screen 200 at ${s(r.firstScreen)} `
    + `(${r.retries503} answers 503 before it${r.retryAfter ? `, Retry-After ${r.retryAfter}` : ''}); ${r.log}\n`,
  );
  for (let i = 1; i <= STARTS; i++) report(`start ${i}`, await start(dataDir, key.api_key));
  // What every start after an import did before the data directory kept its index: rebuild it all.
  const kept = join(dataDir, 'lists', 'screening-index.bin');
  if (existsSync(kept)) {
    rmSync(kept);
    report('start without the kept index (a rebuild, as every start before issue 36)', await start(dataDir, key.api_key));
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
