// `npm run check:readme [-- --full] [-- --budget S] [-- --keep]` (issue 38): every command the
// README gives, run as printed from a fresh clone of this checkout's HEAD, as a newcomer would.
// The clone sits in a new temporary folder beside a link to ../shared (the benchmarks read it).
// Placeholders are filled in (DIR a new data directory, E and P an e-mail and password, ID the
// key just made, `svk-…` and $URL the key and the URL `npm run demo` printed: ports are read
// from what a service prints, never assumed). How each command is run: scripts/support/readme-commands.ts.
//   --full    long commands (benchmarks, fuzzers, calibrations) run to their end, and the README's
//             test command runs too (otherwise it is what .ci/run runs on every landing)
//   --budget  seconds a long command must run without failing, when not --full (default 45)
//   --keep    keep the temporary folder
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createHmac } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readmeCommands, runnerOf, type ReadmeCommand } from './support/readme-commands';

const ROOT = join(import.meta.dirname, '..');
const args = process.argv.slice(2);
const FULL = args.includes('--full');
const BUDGET_S = Number(args[args.indexOf('--budget') + 1] || 45) || 45;
const KEEP = args.includes('--keep');

const base = mkdtempSync(join(tmpdir(), 'cc-readme-'));
const baseReal = realpathSync(base);
const repo = join(base, 'compliance-console');
const shared = join(ROOT, '..', 'shared');
let dirs = 0;
const newDir = () => join(base, `data-${++dirs}`);
const env = { ...process.env, CONSOLE_DATA_DIR: join(base, 'default-data') };
const results: { text: string; way: string; outcome: string; ok: boolean; s: number }[] = [];

function record(c: ReadmeCommand, way: string, ok: boolean, outcome: string, t0: number) {
  results.push({ text: c.text, way, outcome, ok, s: (performance.now() - t0) / 1000 });
  process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${((performance.now() - t0) / 1000).toFixed(1).padStart(6)} s  ${c.text}\n       ${outcome}\n`);
}

/** Runs a command line through bash in the clone; its output is kept for the step's check. */
function run(line: string, timeoutS = 900): { code: number | null; out: string; err: string } {
  const r = spawnSync('bash', ['-c', line], { cwd: repo, env, encoding: 'utf8', timeout: timeoutS * 1000, maxBuffer: 256 << 20 });
  return { code: r.status, out: r.stdout ?? '', err: r.stderr ?? '' };
}

/** Starts a command line that serves; resolves with its printed URL, all it printed, and a stop function. */
async function serve(line: string, timeoutS = 900): Promise<{ url: string; out: () => string; stop: () => Promise<void> }> {
  const proc = spawn('bash', ['-c', line], { cwd: repo, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  let err = '';
  proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((r) => proc.on('exit', () => r()));
  const stop = async () => {
    try { process.kill(-proc.pid!, 'SIGINT'); } catch { /* gone */ }
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    try { process.kill(-proc.pid!, 'SIGKILL'); } catch { /* gone */ }
  };
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL printed in ${timeoutS} s`)), timeoutS * 1000);
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    proc.on('exit', (code) => reject(new Error(`exited ${code} before printing a URL: ${err.trim().split('\n').slice(-3).join(' | ')}`)));
  }).catch(async (e: Error) => {
    await stop();
    throw e;
  });
  return { url, out: () => out, stop };
}

/** /api/health until screening is ready (at most 60 s), and the console's page. */
async function checkService(url: string): Promise<string> {
  const page = await fetch(`${url}/`);
  if (page.status !== 200) throw new Error(`GET / answered ${page.status}`);
  for (let i = 0; i < 600; i++) {
    const h = (await fetch(`${url}/api/health`).then((r) => r.json(), () => ({}))) as { screening?: string; status?: string };
    if (h.screening === 'ready') return `${url}: console 200, health ${h.status}, screening ready`;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('screening not ready within 60 s');
}

/** A long command: to its end with --full, else it must run BUDGET_S seconds (or end) without failing. */
async function long(c: ReadmeCommand) {
  const t0 = performance.now();
  if (FULL) {
    const r = run(c.text, 3 * 3600);
    record(c, 'long', r.code === 0, r.code === 0 ? `ran to its end; last line: ${lastLine(r.out)}` : `exit ${r.code}: ${lastLine(r.err || r.out)}`, t0);
    return;
  }
  const proc = spawn('bash', ['-c', c.text], { cwd: repo, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null | 'running'>((resolve) => {
    const timer = setTimeout(() => resolve('running'), BUDGET_S * 1000);
    proc.on('exit', (x) => {
      clearTimeout(timer);
      resolve(x);
    });
  });
  if (code === 'running') {
    try { process.kill(-proc.pid!, 'SIGKILL'); } catch { /* gone */ }
    killStragglers();
    record(c, 'long', true, `running after ${BUDGET_S} s, stopped (--full runs it to its end); last line: ${lastLine(out)}`, t0);
  } else record(c, 'long', code === 0, code === 0 ? `ended within ${BUDGET_S} s; last line: ${lastLine(out)}` : `exit ${code}: ${lastLine(out)}`, t0);
}

/**
 * Ends every process still working in the clone or the temporary folder: a long command stopped
 * mid-run cannot clean up after itself, and what it started in a process group of its own (the
 * services bench:start starts) outlives the group it was stopped with. Linux (/proc).
 */
function killStragglers(): void {
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p) && Number(p) !== process.pid)) {
    let cwd = '';
    try { cwd = realpathSync(`/proc/${pid}/cwd`); } catch { continue; }
    if (cwd === baseReal || cwd.startsWith(`${baseReal}/`)) {
      try { process.kill(Number(pid), 'SIGKILL'); } catch { /* gone */ }
    }
  }
}

const lastLine = (s: string) => s.trim().split('\n').filter((l) => !l.startsWith('npm warn')).at(-1)?.slice(0, 160) ?? '(nothing printed)';

// ---------------------------------------------------------------- a fresh clone
const head = spawnSync('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).stdout.trim();
process.stdout.write(`README commands from a fresh clone of ${head} in ${repo}${FULL ? ' (full)' : `, long commands for ${BUDGET_S} s`}\n\n`);
spawnSync('git', ['clone', '--quiet', ROOT, repo], { stdio: 'inherit' });
if (existsSync(shared)) symlinkSync(realpathSync(shared), join(base, 'shared'));
const commands = readmeCommands(readFileSync(join(repo, 'README.md'), 'utf8'));
const unknown = commands.filter((c) => runnerOf(c.text) === undefined);
if (unknown.length > 0) {
  process.stdout.write(`README commands this script cannot run: ${unknown.map((c) => `line ${c.line}: ${c.text}`).join('; ')}\n`);
  process.exit(1);
}
const byText = new Map(commands.map((c) => [c.text, c]));
const done = new Set<string>();
function take(pred: (c: ReadmeCommand) => boolean): ReadmeCommand[] {
  const taken = commands.filter((c) => !done.has(c.text) && pred(c));
  for (const c of taken) done.add(c.text);
  return taken;
}

// Placeholders as the README writes them.
const OWNER = { email: 'owner@readme.example', password: 'readme owner password' };
function fill(text: string, dir: string, extra: Record<string, string> = {}): string {
  let t = text
    .replace(/--org NAME/, "--org 'Readme Org'")
    .replace(/--owner-email E/, `--owner-email ${OWNER.email}`)
    .replace(/--owner-password P/, `--owner-password '${OWNER.password}'`)
    .replace(/--email E --password P/, "--email member@readme.example --password 'readme member password'")
    .replace(/\[--plan PLAN\]/, '--plan pro')
    .replace(/(plan set --data-dir DIR) PLAN/, '$1 enterprise')
    .replace(/test\|live/, 'test')
    .replace(/admin\|member/, 'member')
    .replace(/\[--name N\] \[--demo\]/, '--name readme')
    .replace(/(credits grant --data-dir DIR) N/, '$1 100')
    .replace(/https:\/\/…/, 'https://hooks.readme.example/in')
    .replace(/--data-dir DIR --port N/, `--data-dir ${dir} --port 0`)
    .replace(/\bDIR\b/g, dir);
  for (const [k, v] of Object.entries(extra)) t = t.split(k).join(v);
  return t;
}

// ---------------------------------------------------------------- services
for (const c of take((c) => runnerOf(c.text)!.way === 'serve' && c.text !== 'npm run demo')) {
  const t0 = performance.now();
  try {
    // `npm ci && npm run serve` comes first: it installs and builds the fresh clone.
    const s = await serve(fill(c.text, newDir()));
    const said = await checkService(s.url).finally(() => s.stop());
    record(c, 'serve', true, said, t0);
    for (const part of c.text.split(' && ')) {
      if (!byText.has(part) || done.has(part)) continue;
      done.add(part);
      record(byText.get(part)!, 'run', true, `run as part of \`${c.text}\``, performance.now());
    }
  } catch (e) {
    record(c, 'serve', false, (e as Error).message, t0);
    if (c.text.startsWith('npm ci')) process.exit(1);
  }
}
{
  const demo = byText.get('npm run demo')!;
  done.add(demo.text);
  const t0 = performance.now();
  const s = await serve(demo.text);
  try {
    record(demo, 'serve', true, await checkService(s.url), t0);
    const key = /Test key \(all products\): (svk-\S+)/.exec(s.out())?.[1] ?? '';
    copyFileSync(join(repo, 'node_modules', '@vladmandic', 'face-api', 'demo', 'sample1.jpg'), join(repo, 'selfie.jpg'));
    for (const c of take((c) => c.text.startsWith('curl '))) {
      const t1 = performance.now();
      const r = spawnSync('bash', ['-c', c.text.split('svk-…').join(key)], { cwd: repo, env: { ...env, URL: s.url }, encoding: 'utf8' });
      let body: Record<string, unknown> = {};
      try { body = JSON.parse(r.stdout) as Record<string, unknown>; } catch { /* below */ }
      // The answer the README promises: a verification (whatever it decided about a demo photo) or a hosted link.
      const ok = r.status === 0 && (c.text.includes('/hosted/generate') ? String(body.hosted_url).startsWith(`${s.url}/hosted/v/`) : typeof body.verification_id === 'string');
      record(c, 'run', ok, ok ? `answered ${Object.keys(body).slice(0, 5).join(', ')}…` : `exit ${r.status}: ${r.stdout.slice(0, 200)} ${r.stderr.slice(0, 200)}`, t1);
    }
  } finally {
    await s.stop();
  }
}

// ---------------------------------------------------------------- the admin CLI and the lists
{
  const dir = newDir();
  const extra: Record<string, string> = {};
  const latest = (name: string) => {
    const d = join(repo, 'resources', 'watchlists', 'us_ofac_sdn');
    const day = readdirSync(d).filter((x) => existsSync(join(d, x, name))).sort().at(-1)!;
    return join(d, day, name);
  };
  for (const f of ['sdn.csv', 'alt.csv', 'add.csv']) copyFileSync(latest(f), join(repo, f));
  writeFileSync(join(repo, 'peps.csv'), 'kind,name,dob,country\npep,Ingeborg Readme-Abrahamsen,1961-04-02,NO\npep,Tomasz Readme-Wilk,,PL\n');
  writeFileSync(join(repo, 'pairs.csv'), 'schema,name1,name2\nPerson,Vladimir Putin,Vladimir Vladimirovich Putin\nPerson,John Smith,Jane Doe\n');
  writeFileSync(join(repo, 'in.ndjson'), `${JSON.stringify({ subject: { type: 'individual', first_name: 'Vladimir', last_name: 'Putin' } })}\n${JSON.stringify({ subject: { type: 'individual', first_name: 'Ingeborg', last_name: 'Abrahamsen' } })}\n`);
  for (const c of take((c) => c.text.includes(' cli -- '))) {
    const t0 = performance.now();
    const line = fill(c.text, dir, extra);
    const r = run(line);
    let ok = r.code === 0;
    let said = lastLine(r.out);
    if (ok && c.text.includes('keys create')) extra.ID = String((JSON.parse(r.out) as { id: string }).id);
    if (ok && c.text.includes('> audit.csv')) {
      // A byte-order mark first (spreadsheets read UTF-8 by it), then the header: no npm banner.
      const first = (readFileSync(join(repo, 'audit.csv'), 'utf8').split(/\r?\n/)[0] ?? '').replace(/^\uFEFF/, '');
      ok = /^[a-z_]+(,[a-z_]+)+$/.test(first);
      said = `audit.csv starts "${first.slice(0, 60)}"`;
    }
    if (ok && c.text.includes('> scores.txt')) {
      const lines = readFileSync(join(repo, 'scores.txt'), 'utf8').trim().split('\n');
      ok = lines.length === 2 && lines.every((l) => /^\d/.test(l));
      said = `scores.txt: ${lines.join(' ')}`;
    }
    if (ok && c.text.includes('> out.ndjson')) {
      const lines = readFileSync(join(repo, 'out.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { matches?: unknown[] });
      ok = lines.length === 2 && (lines[0]!.matches?.length ?? 0) > 0;
      said = `out.ndjson: ${lines.length} answers, ${lines[0]!.matches?.length ?? 0} matches for the first`;
    }
    record(c, 'run', ok, ok ? said : `exit ${r.code}: ${lastLine(r.err || r.out)} (${line})`, t0);
  }
}

// ---------------------------------------------------------------- the webhook receiver, as printed
{
  const t0 = performance.now();
  const readme = readFileSync(join(repo, 'README.md'), 'utf8');
  const code = /```js\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
  // Beside the clone, not in it: it is the README's example, not the project's code (the lint of `npm run checks`).
  writeFileSync(join(base, 'receiver.mjs'), code);
  const secret = 'whsec_readme';
  const rc: ReadmeCommand = { text: 'WEBHOOK_SECRET=whsec_… PORT=8080 node receiver.mjs', line: 0, inline: false };
  const proc = spawn(process.execPath, ['receiver.mjs'], { cwd: base, env: { ...env, WEBHOOK_SECRET: secret, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    // PORT=0 picks a free port; the receiver prints "listening", and ss names its port.
    await new Promise<void>((r) => proc.stdout!.once('data', () => r()));
    const port = /127\.0\.0\.1:(\d+)/.exec(spawnSync('ss', ['-ltnp'], { encoding: 'utf8' }).stdout.split('\n').find((l) => l.includes(`pid=${proc.pid},`)) ?? '')?.[1];
    const body = JSON.stringify({ event: 'verification.completed', timestamp: new Date().toISOString() });
    const sig = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
    const good = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body, headers: { 'X-Service-Signature': sig } });
    const bad = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body, headers: { 'X-Service-Signature': 'sha256=00' } });
    record(rc, 'run', good.status === 200 && bad.status === 401, `signed event ${good.status}, bad signature ${bad.status}`, t0);
  } catch (e) {
    record(rc, 'run', false, (e as Error).message, t0);
  } finally {
    proc.kill();
  }
}

// ---------------------------------------------------------------- builds, then the long commands
for (const c of take((c) => runnerOf(c.text)!.way === 'run')) {
  const t0 = performance.now();
  const r = run(c.text);
  record(c, 'run', r.code === 0, r.code === 0 ? lastLine(r.err || r.out) : `exit ${r.code}: ${lastLine(r.err || r.out)}`, t0);
}
for (const c of take((c) => runnerOf(c.text)!.way === 'long')) await long(c);

// ---------------------------------------------------------------- the test command, and what cannot run here
for (const c of take((c) => runnerOf(c.text)!.way === 'ci')) {
  const t0 = performance.now();
  if (!FULL) {
    record(c, 'ci', true, 'not run here: .ci/run runs it from a fresh clone on every landing (--full runs it)', t0);
    continue;
  }
  const r = run(c.text, 3 * 3600);
  record(c, 'ci', r.code === 0, r.code === 0 ? lastLine(r.out) : `exit ${r.code}: ${lastLine(r.err || r.out)}`, t0);
}
for (const c of take((c) => runnerOf(c.text)!.way === 'skip')) {
  const t0 = performance.now();
  const why = runnerOf(c.text)!.why!;
  if (c.text.startsWith('npm install -g npm@')) {
    const v = run('npm --version').out.trim();
    const [major, minor] = v.split('.').map(Number);
    record(c, 'skip', major! > 11 || (major === 11 && minor! >= 19), `not run: ${why} (npm ${v})`, t0);
  } else record(c, 'skip', true, `not run: ${why}`, t0);
}

killStragglers();
const failed = results.filter((r) => !r.ok);
process.stdout.write(`\n${results.length} commands: ${results.length - failed.length} ok, ${failed.length} failed${failed.length ? `:\n${failed.map((f) => `  ${f.text}: ${f.outcome}`).join('\n')}` : ''}\n`);
if (!KEEP) rmSync(base, { recursive: true, force: true });
else process.stdout.write(`kept ${base}\n`);
process.exit(failed.length ? 1 : 0);
