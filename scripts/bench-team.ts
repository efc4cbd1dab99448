// `npm run bench:team [-- --seconds S --people N --batchers B]` (after `npm run build`): a team at
// work on one team server (issue 39, item 5). Starts the built service with `--team 127.0.0.1:0`
// (HTTPS, its own certificate, pinned here as a console on another desk would), seeds an
// Enterprise organisation with N people (the owner, a third admins, the rest members), signs each
// in over HTTPS and lets them work at once for S seconds, each at a person's pace (a request every
// 0.3-1.2 s): home, review queues, the ledger, lists, team, audit (admins), single screens; B of
// them also run live batch rescreens of 2,000 rows in chunks of 500, one after another.
// Prints p50/p95/p99 of the console requests (every request but a batch chunk, whose time is its
// rows'), per kind, and the batch chunks' rows per second; exits 1 when the console p95 is over
// 200 ms or any request failed or answered 5xx.
import { readFileSync, rmSync, mkdtempSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, numberFlags, quantile, rng, seedOrganisation, sleep, startService, stopService, subject, type RunningService } from './support/service';

const TARGET_P95_MS = 200;
const flags = numberFlags(process.argv.slice(2), { seconds: 60, people: 10, batchers: 3, seed: 39 });
const BATCH_ROWS = 2000;
const CHUNK = 500;

function line(label: string, value: string | number): void {
  process.stdout.write(`  ${label.padEnd(44)} ${value}\n`);
}

interface Answer { status: number; body: string; headers: Record<string, string | string[] | undefined> }

/** One HTTPS request that trusts exactly the team server's certificate (pinned, as a desk would). */
function https(url: string, ca: Buffer, o: { method?: string; body?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers = { ...o.headers, ...(o.body !== undefined ? { 'Content-Length': String(Buffer.byteLength(o.body)) } : {}) };
    const req = request(url, { method: o.method ?? 'GET', ca, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d)).on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString('utf8'), headers: res.headers }));
    });
    req.on('error', reject);
    req.end(o.body);
  });
}

interface Person { email: string; password: string; role: 'owner' | 'admin' | 'member'; cookie: string }

async function main(): Promise<void> {
  const r = rng(flags.seed);
  const dir = mkdtempSync(join(tmpdir(), 'cc-bench-team-'));
  let svc: RunningService | undefined;
  const times = new Map<string, number[]>();
  const chunkRates: number[] = [];
  const failures: string[] = [];
  try {
    const seeded = await seedOrganisation(dir, { plan: 'enterprise', credits: 100_000_000 });
    const people: Omit<Person, 'cookie'>[] = [{ email: seeded.email, password: seeded.password, role: 'owner' }];
    for (let i = 1; i < flags.people; i++) {
      const role = i % 3 === 0 ? 'admin' : 'member';
      const email = `desk${i}@team.example`;
      const password = `desk ${i} password long`;
      const added = await cli('members', 'add', '--data-dir', dir, '--email', email, '--password', password, '--role', role, '--name', `Desk ${i}`);
      if (added.status !== 0) throw new Error(`members add: ${added.stderr}`);
      people.push({ email, password, role });
    }
    svc = await startService(dir, 180_000, ['--team', '127.0.0.1:0', '--lazy-models']);
    const s = svc;
    for (let waited = 0; !/Team server listening on https:/.test(s.output()) && waited < 10_000; waited += 50) await sleep(50);
    const team = /Team server listening on (https:\/\/[\d.]+:\d+)/.exec(s.output())?.[1];
    if (!team) throw new Error(`the team server did not start:\n${s.output()}`);
    const ca = readFileSync(join(dir, 'team', 'team-cert.pem'));

    const signedIn: Person[] = [];
    for (const p of people) {
      const res = await https(`${team}/api/auth/login`, ca, { method: 'POST', body: JSON.stringify({ email: p.email, password: p.password }), headers: { 'Content-Type': 'application/json', Origin: team } });
      if (res.status !== 200) throw new Error(`sign-in of ${p.email} answered ${res.status}: ${res.body}`);
      const cookie = ([res.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('cc_session=')) ?? '').split(';')[0]!;
      signedIn.push({ ...p, cookie });
    }
    // Lists loaded (screening answers 503 before).
    for (let waited = 0; ; waited += 200) {
      const lists = await https(`${team}/api/screening/lists`, ca, { headers: { Cookie: signedIn[0]!.cookie } });
      if (lists.status === 200 && (JSON.parse(lists.body) as { state: string }).state === 'ready') break;
      if (waited > 120_000) throw new Error('lists not ready within 120 s');
      await sleep(200);
    }
    process.stdout.write(`\n== a team at work: ${flags.people} people over HTTPS on ${team} for ${flags.seconds} s, ${flags.batchers} of them running ${BATCH_ROWS}-row live batches (target: console p95 <= ${TARGET_P95_MS} ms)\n`);

    const timed = async (kind: string, p: Person, path: string, o: { method?: string; body?: string; type?: string } = {}): Promise<Answer | null> => {
      const started = performance.now();
      try {
        const res = await https(`${team}${path}`, ca, {
          ...(o.method ? { method: o.method } : {}), ...(o.body !== undefined ? { body: o.body } : {}),
          headers: { Cookie: p.cookie, Origin: team, ...(o.type ? { 'Content-Type': o.type } : {}) },
        });
        const ms = performance.now() - started;
        if (kind !== 'batch chunk') (times.get(kind) ?? times.set(kind, []).get(kind)!).push(ms);
        if (res.status >= 500) failures.push(`${kind} ${path}: ${res.status}`);
        return res;
      } catch (e) {
        failures.push(`${kind} ${path}: ${e instanceof Error ? e.message : String(e)}`);
        return null;
      }
    };

    const READS: [string, string, (p: Person) => boolean][] = [
      ['home', '/api/home', () => true],
      ['review queue', '/api/review/clearances', () => true],
      ['approvals', '/api/review/approvals', (p) => p.role !== 'member'],
      ['ledger', '/api/credits/ledger?page=1&per_page=50', (p) => p.role !== 'member'],
      ['lists', '/api/screening/lists', () => true],
      ['team', '/api/team/members', () => true],
      ['audit', '/api/audit', (p) => p.role !== 'member'],
      ['batches', '/api/console/batches', () => true],
      ['account', '/api/account', () => true],
    ];
    const until = performance.now() + flags.seconds * 1000;
    const desk = async (p: Person) => {
      while (performance.now() < until) {
        await sleep(300 + r() * 900);
        if (r() < 0.25) {
          await timed('screen', p, '/api/console/screen?env=live', { method: 'POST', body: JSON.stringify({ subject: subject(r) }), type: 'application/json' });
        } else {
          const mine = READS.filter(([, , may]) => may(p));
          const [kind, path] = mine[Math.floor(r() * mine.length)]!;
          await timed(kind, p, path);
        }
      }
    };
    const batcher = async (p: Person) => {
      while (performance.now() < until) {
        const preview = await timed('batch preview', p, `/api/console/batches/preview?env=live&rows=${BATCH_ROWS}`);
        const credits = preview?.status === 200 ? (JSON.parse(preview.body) as { total_credits: number }).total_credits : 0;
        const created = await timed('batch start', p, '/api/console/batches', { method: 'POST', body: JSON.stringify({ env: 'live', total_rows: BATCH_ROWS, confirm_credits: credits }), type: 'application/json' });
        if (created?.status !== 201) {
          failures.push(`batch start answered ${created?.status}: ${created?.body.slice(0, 200)}`);
          return;
        }
        const id = (JSON.parse(created.body) as { id: string }).id;
        for (let row = 1; row <= BATCH_ROWS && performance.now() < until; row += CHUNK) {
          const body = Array.from({ length: CHUNK }, (_, k) => JSON.stringify({ row: row + k, subject: subject(r) })).join('\n');
          const started = performance.now();
          const res = await timed('batch chunk', p, `/api/console/batches/${id}/rows`, { method: 'POST', body, type: 'application/x-ndjson' });
          if (res?.status === 200) chunkRates.push(CHUNK / ((performance.now() - started) / 1000));
        }
        await timed('batch finish', p, `/api/console/batches/${id}/finish`, { method: 'POST' });
      }
    };
    const batchers = signedIn.filter((p) => p.role === 'member').slice(0, flags.batchers);
    await Promise.all([...signedIn.map(desk), ...batchers.map(batcher)]);

    const all = [...times.values()].flat().sort((a, b) => a - b);
    const f = (x: number) => `${x.toFixed(1)} ms`;
    line('console requests', all.length);
    line('console p50 / p95 / p99', `${f(quantile(all, 0.5))} / ${f(quantile(all, 0.95))} / ${f(quantile(all, 0.99))}`);
    for (const [kind, xs] of [...times].sort((a, b) => a[0].localeCompare(b[0]))) {
      const sorted = [...xs].sort((a, b) => a - b);
      line(`  ${kind} (${sorted.length})`, `p50 ${f(quantile(sorted, 0.5))}, p95 ${f(quantile(sorted, 0.95))}, max ${f(sorted.at(-1) ?? 0)}`);
    }
    const rates = [...chunkRates].sort((a, b) => a - b);
    line('batch chunks (500 rows): rows/s p50 / min', rates.length ? `${Math.round(quantile(rates, 0.5))} / ${Math.round(rates[0]!)} (${rates.length} chunks)` : 'none');
    line('failed or 5xx', failures.length ? failures.slice(0, 5).join('; ') : 'none');
    const p95 = quantile(all, 0.95);
    if (p95 > TARGET_P95_MS || failures.length > 0 || all.length === 0) {
      process.stdout.write(`MISSED: ${p95 > TARGET_P95_MS ? `console p95 ${f(p95)} > ${TARGET_P95_MS} ms; ` : ''}${failures.length} failures\n`);
      process.exitCode = 1;
    }
  } finally {
    if (svc) await stopService(svc);
    rmSync(dir, { recursive: true, force: true });
  }
}

void main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack ?? e.message : String(e)}\n`);
  process.exit(1);
});
