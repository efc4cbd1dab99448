// `npm run bench:instances [-- --seconds S --concurrency C --people N]` (part of
// `npm run bench:scale`; needs Debian's `postgresql` and `haproxy` packages): several
// service instances on one PostgreSQL behind HAProxy (issue 40, item 5).
// Starts a durable PostgreSQL cluster, seeds an Enterprise organisation with the admin CLI, starts
// three instances of the built service on it (each its own data directory, `--database`,
// `--trust-proxy 127.0.0.1` and the balancer's `--public-url`), and HAProxy in front (round robin;
// a console's session cookie sticks it to one instance, as docs/scale.md tells operators, since a
// CSV batch lives in the memory of the instance that opened it). Then, through the balancer:
//   throughput  liveness (POST /api/verify, a selfie) and screening (POST /api/compliance/v1/screen)
//               with live keys, C requests in flight for S seconds, behind 1 and then 3 instances;
//               then again with each instance held to one core of its own (taskset), 1 and 2
//   team        N people at work for S seconds on the three instances (scripts/support/team-at-work.ts):
//               the p95 of their console requests (target 200 ms, as bench:team)
// Every process (PostgreSQL, HAProxy, the instances and this client) shares this machine's cores:
// the figures say what the cores give, not what three machines would.
import { createServer } from 'node:net';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import postgresClient from 'pg';
import { startCluster } from '../src-main/service/test/pg-cluster';
import { cli, numberFlags, quantile, rng, sleep, startService, stopService, subject, ROOT, waitForFaces, type RunningService } from './support/service';
import { listsReady, printTeamFigures, seedMembers, sender, signIn, teamAtWork, type Answer } from './support/team-at-work';

const flags = numberFlags(process.argv.slice(2), { seconds: 20, concurrency: 12, people: 10, seed: 40 });
const TARGET_P95_MS = 200;
const INSTANCES = 3;
const SAMPLE = join(ROOT, 'node_modules/@vladmandic/face-api/demo/sample1.jpg');

function line(label: string, value: string | number): void {
  process.stdout.write(`  ${label.padEnd(44)} ${value}\n`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** HAProxy in the foreground on `port`, round robin over `backends`, a console's session sticking to one. */
async function balancer(dir: string, port: number, backends: readonly string[]): Promise<ChildProcess> {
  const cfg = join(dir, `haproxy-${backends.length}.cfg`);
  writeFileSync(cfg, [
    'global', '  maxconn 4096', '  nbthread 1',
    'defaults', '  mode http', '  option forwardfor', '  timeout connect 5s', '  timeout client 120s', '  timeout server 120s',
    'frontend console', `  bind 127.0.0.1:${port}`, '  default_backend instances',
    'backend instances', '  balance roundrobin',
    // Sticky by the session cookie's hash (the balancer keeps no session token itself).
    '  stick-table type binary len 32 size 100k expire 12h',
    '  stick on req.cook(cc_session),sha2(256)',
    '  stick store-response res.cook(cc_session),sha2(256)',
    ...backends.map((b, i) => `  server i${i + 1} ${b.replace(/^http:\/\//, '')}`),
    '',
  ].join('\n'));
  const proc = spawn('haproxy', ['-db', '-f', cfg], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  proc.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  for (let waited = 0; ; waited += 50) {
    if (proc.exitCode !== null) throw new Error(`haproxy exited: ${err}`);
    try {
      if ((await sender(`http://127.0.0.1:${port}`)('/api/health')).status === 200) return proc;
    } catch {
      // not listening yet
    }
    if (waited > 10_000) throw new Error(`haproxy did not answer: ${err}`);
    await sleep(50);
  }
}

/** Every thread of `pid` held to the CPU (or list of CPUs) `cpu` (util-linux taskset). */
async function pin(pid: number, cpu: number | string): Promise<void> {
  const done = spawn('taskset', ['-a', '-p', '-c', String(cpu), String(pid)], { stdio: 'ignore' });
  const code = await new Promise((r) => done.once('exit', r));
  if (code !== 0) throw new Error(`taskset answered ${String(code)}`);
}

async function stop(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const gone = new Promise((r) => proc.once('exit', r));
  proc.kill('SIGTERM');
  await gone;
}

/** CPU seconds a process has used (and, with `children`, its waited-for children), from /proc. */
function cpuOf(pid: number, children = false): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
    return (f[11]! + f[12]! + (children ? f[13]! + f[14]! : 0)) / 100;
  } catch {
    return 0;
  }
}

/** PostgreSQL's CPU seconds: the postmaster, its ended children and its live ones. */
function postgresCpu(postmaster: number): number {
  let total = cpuOf(postmaster, true);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster) total += cpuOf(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

/** C requests in flight for S seconds; answers a second, and the latencies of the 200s. */
async function throughput(send: () => Promise<Answer>): Promise<{ perSecond: number; p50: number; p95: number; statuses: Map<number, number> }> {
  const statuses = new Map<number, number>();
  const times: number[] = [];
  // Warm: the first answers of each instance (JIT, pools) are not the steady state.
  await Promise.all(Array.from({ length: flags.concurrency }, () => send()));
  const started = performance.now();
  const until = started + flags.seconds * 1000;
  await Promise.all(Array.from({ length: flags.concurrency }, async () => {
    while (performance.now() < until) {
      const t = performance.now();
      const res = await send();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status === 200) times.push(performance.now() - t);
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  return { perSecond: times.length / seconds, p50: quantile(times, 0.5), p95: quantile(times, 0.95), statuses };
}

async function main(): Promise<void> {
  const r = rng(flags.seed);
  const dir = mkdtempSync(join(tmpdir(), 'cc-bench-instances-'));
  const cluster = await startCluster({ durable: true });
  const running: RunningService[] = [];
  let lb: ChildProcess | undefined;
  try {
    const admin = new postgresClient.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query('CREATE DATABASE console');
    await admin.end();
    const database = cluster.urlOf('console');
    const postmaster = Number(readFileSync(join(cluster.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const where = ['--data-dir', join(dir, 'cli'), '--database', database];
    const owner = { email: 'owner@instances.example', password: 'instances run password', role: 'owner' as const };
    for (const args of [
      ['init', ...where, '--org', 'Instances Org', '--owner-email', owner.email, '--owner-password', owner.password, '--plan', 'enterprise'],
      ['credits', 'grant', ...where, '100000000', '--note', 'bench'],
    ]) {
      const done = await cli(...args);
      if (done.status !== 0) throw new Error(`cli ${args[0]}: ${done.stderr}`);
    }
    const members = await seedMembers(owner, flags.people, where);

    const port = await freePort();
    const publicUrl = `http://127.0.0.1:${port}`;
    // One after another: the first start rebuilds a stale build (serve.mjs), the others find it current.
    for (let i = 0; i < INSTANCES; i++) {
      running.push(await startService(join(dir, `instance-${i + 1}`), 120_000, ['--database', database, '--trust-proxy', '127.0.0.1', '--public-url', publicUrl]));
    }
    for (let i = 0; i < running.length; i++) await waitForFaces(join(dir, `instance-${i + 1}`), 120_000);
    lb = await balancer(dir, port, running.map((s) => s.url));
    const send = sender(publicUrl);
    const [ownerSignedIn] = await signIn(send, publicUrl, [owner]);
    const cookie = ownerSignedIn!.cookie;
    await listsReady(send, cookie);
    for (const s of running) await listsReady(sender(s.url), cookie);

    // Keys enough that no key's own limit (Enterprise: 25 liveness or 8⅓ screens a second) is what is measured.
    const keys: string[] = [];
    for (let i = 0; i < 96; i++) {
      const made = await send('/api/keys', { method: 'POST', body: JSON.stringify({ name: `bench ${i}`, env: 'live', scopes: ['human', 'compliance'] }), headers: { Cookie: cookie, Origin: publicUrl, 'Content-Type': 'application/json' } });
      if (made.status !== 201) throw new Error(`key: ${made.status} ${made.body}`);
      keys.push((JSON.parse(made.body) as { api_key: string }).api_key);
    }
    let next = 0;
    const key = () => keys[next++ % keys.length]!;
    const selfie = await sharp(readFileSync(SAMPLE)).extract({ left: 122, top: 105, width: 774, height: 774 }).jpeg({ quality: 90 }).toBuffer();
    const boundary = 'bench-instances-boundary';
    const form = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="selfie.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`), selfie, Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const liveness = () => send('/api/verify', { method: 'POST', body: form, headers: { 'X-API-Key': key(), 'Content-Type': `multipart/form-data; boundary=${boundary}` } });
    const screening = () => send('/api/compliance/v1/screen', { method: 'POST', body: JSON.stringify({ subject: subject(r) }), headers: { 'X-API-Key': key(), 'Content-Type': 'application/json' } });

    process.stdout.write(`\n== throughput through HAProxy, ${flags.concurrency} requests in flight for ${flags.seconds} s, live keys (charged), one PostgreSQL; ${availableParallelism()} cores shared by everything\n`);
    const measure = async (label: string, n: number): Promise<Record<string, number>> => {
      await stop(lb!);
      lb = await balancer(dir, port, running.slice(0, n).map((s) => s.url));
      const out: Record<string, number> = {};
      for (const [name, run] of [['liveness', liveness], ['screening', screening]] as const) {
        const cpu = () => ({
          instances: running.reduce((a, x) => a + cpuOf(x.pid), 0), postgres: postgresCpu(postmaster), haproxy: cpuOf(lb!.pid!),
          client: (process.cpuUsage().user + process.cpuUsage().system) / 1e6,
        });
        const before = cpu();
        const t = await throughput(run);
        const after = cpu();
        const answered = t.perSecond * flags.seconds;
        const per = (k: keyof typeof before) => `${(((after[k] - before[k]) * 1000) / answered).toFixed(1)}`;
        out[name] = t.perSecond;
        const other = [...t.statuses].filter(([s]) => s !== 200).map(([s, c]) => `${s} × ${c}`).join(', ');
        line(`${name}, ${label}`, `${t.perSecond.toFixed(1)} /s, p50 ${t.p50.toFixed(0)} ms, p95 ${t.p95.toFixed(0)} ms${other ? ` (also ${other})` : ''}`);
        line('  CPU ms a request: instances / PostgreSQL / HAProxy / client', `${per('instances')} / ${per('postgres')} / ${per('haproxy')} / ${per('client')}`);
      }
      return out;
    };
    const ratio = (a: Record<string, number>, b: Record<string, number>, label: string) => {
      for (const name of ['liveness', 'screening']) line(`${name}: ${label}`, `${(b[name]! / a[name]!).toFixed(2)}×`);
    };
    const one = await measure('1 instance', 1);
    const three = await measure(`${INSTANCES} instances`, INSTANCES);
    ratio(one, three, `${INSTANCES} instances / 1`);
    // Each instance on a core of its own (taskset, every thread), as if each were a small machine of
    // its own; the balancer, PostgreSQL and this client still float over both cores.
    const cores = Math.min(availableParallelism(), INSTANCES);
    if (cores >= 2) {
      process.stdout.write(`\n== the same, each instance held to one core of its own (as on separate machines)\n`);
      for (let i = 0; i < cores; i++) await pin(running[i]!.pid, i);
      const pinnedOne = await measure('1 instance on 1 core', 1);
      const pinnedAll = await measure(`${cores} instances on ${cores} cores`, cores);
      ratio(pinnedOne, pinnedAll, `${cores} instances / 1`);
      for (let i = 0; i < cores; i++) await pin(running[i]!.pid, `0-${availableParallelism() - 1}`);
    }

    await stop(lb);
    lb = await balancer(dir, port, running.map((s) => s.url));
    const people = await signIn(send, publicUrl, members);
    process.stdout.write(`\n== a team at work: ${flags.people} people through HAProxy on ${INSTANCES} instances for ${flags.seconds} s, one of them running 2,000-row live batches (target: console p95 <= ${TARGET_P95_MS} ms)\n`);
    const team = await teamAtWork({ send, origin: publicUrl, people, seconds: flags.seconds, batchers: 1, r });
    if (!printTeamFigures(line, team, TARGET_P95_MS)) process.exitCode = 1;
  } finally {
    if (lb) await stop(lb);
    for (const s of running) await stopService(s);
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack ?? e.message : String(e)}\n`);
  process.exit(1);
});
