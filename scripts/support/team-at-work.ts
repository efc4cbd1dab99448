// A team at work on a service, shared by `npm run bench:team` (one team server over HTTPS) and
// `npm run bench:instances` (three instances on one PostgreSQL behind HAProxy): N people signed in
// at once, each at a person's pace (a request every 0.3-1.2 s): home, review queues, the ledger,
// lists, team, audit (admins), single screens; some of them also run live batch rescreens of
// 2,000 rows in chunks of 500, one after another. The caller says how a request is sent.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { cli, quantile, sleep, subject } from './service';

export interface Answer { status: number; body: string; headers: Record<string, string | string[] | undefined> }
/** One request to the service as the caller reaches it (its base URL, transport and trust). */
export type Send = (path: string, o?: { method?: string; body?: string | Buffer; headers?: Record<string, string> }) => Promise<Answer>;

/**
 * Requests to `base`, each on a fresh connection (as separate clients make them); over HTTPS
 * trusting exactly `ca` (a team server's pinned certificate, as a desk would).
 */
export function sender(base: string, ca?: Buffer): Send {
  const request = base.startsWith('https:') ? httpsRequest : httpRequest;
  return (path, o = {}) => new Promise((resolve, reject) => {
    const headers = { ...o.headers, ...(o.body !== undefined ? { 'Content-Length': String(Buffer.byteLength(o.body)) } : {}) };
    const req = request(`${base}${path}`, { method: o.method ?? 'GET', headers, agent: false, ...(ca ? { ca } : {}) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d)).on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString('utf8'), headers: res.headers }));
    });
    req.on('error', reject);
    req.end(o.body);
  });
}

export interface Member { email: string; password: string; role: 'owner' | 'admin' | 'member' }
export interface Person extends Member { cookie: string }

export interface TeamFigures {
  /** Every console request's time by kind (batch chunks apart: their time is their rows'). */
  times: Map<string, number[]>;
  /** Rows a second of each 500-row batch chunk. */
  chunkRates: number[];
  failures: string[];
}

const BATCH_ROWS = 2000;
const CHUNK = 500;

/**
 * The owner and `count - 1` more people (a third admins, the rest members) added with the admin
 * CLI; `where` is its data directory and database arguments.
 */
export async function seedMembers(owner: Member, count: number, where: readonly string[]): Promise<Member[]> {
  const people: Member[] = [owner];
  for (let i = 1; i < count; i++) {
    const role = i % 3 === 0 ? 'admin' : 'member';
    const email = `desk${i}@team.example`;
    const password = `desk ${i} password long`;
    const added = await cli('members', 'add', ...where, '--email', email, '--password', password, '--role', role, '--name', `Desk ${i}`);
    if (added.status !== 0) throw new Error(`members add: ${added.stderr}`);
    people.push({ email, password, role });
  }
  return people;
}

/** Signs each member in with the console's own sign-in; their session cookies. */
export async function signIn(send: Send, origin: string, members: readonly Member[]): Promise<Person[]> {
  const out: Person[] = [];
  for (const p of members) {
    const res = await send('/api/auth/login', { method: 'POST', body: JSON.stringify({ email: p.email, password: p.password }), headers: { 'Content-Type': 'application/json', Origin: origin } });
    if (res.status !== 200) throw new Error(`sign-in of ${p.email} answered ${res.status}: ${res.body}`);
    const cookie = ([res.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('cc_session=')) ?? '').split(';')[0]!;
    out.push({ ...p, cookie });
  }
  return out;
}

/** Waits until the screening lists are loaded (screening answers 503 before). */
export async function listsReady(send: Send, cookie: string, timeoutMs = 120_000): Promise<void> {
  for (let waited = 0; ; waited += 200) {
    const lists = await send('/api/screening/lists', { headers: { Cookie: cookie } });
    if (lists.status === 200 && (JSON.parse(lists.body) as { state: string }).state === 'ready') return;
    if (waited > timeoutMs) throw new Error(`lists not ready within ${timeoutMs / 1000} s`);
    await sleep(200);
  }
}

export async function teamAtWork(o: { send: Send; origin: string; people: readonly Person[]; seconds: number; batchers: number; r: () => number }): Promise<TeamFigures> {
  const { send, origin, r } = o;
  const times = new Map<string, number[]>();
  const chunkRates: number[] = [];
  const failures: string[] = [];
  const timed = async (kind: string, p: Person, path: string, q: { method?: string; body?: string; type?: string } = {}): Promise<Answer | null> => {
    const started = performance.now();
    try {
      const res = await send(path, {
        ...(q.method ? { method: q.method } : {}), ...(q.body !== undefined ? { body: q.body } : {}),
        headers: { Cookie: p.cookie, Origin: origin, ...(q.type ? { 'Content-Type': q.type } : {}) },
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
  const until = performance.now() + o.seconds * 1000;
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
        else failures.push(`batch chunk answered ${res?.status}: ${res?.body.slice(0, 200)}`);
      }
      await timed('batch finish', p, `/api/console/batches/${id}/finish`, { method: 'POST' });
    }
  };
  const batchers = o.people.filter((p) => p.role === 'member').slice(0, o.batchers);
  await Promise.all([...o.people.map(desk), ...batchers.map(batcher)]);
  return { times, chunkRates, failures };
}

/** Prints the figures; whether the console p95 is within `targetMs` and nothing failed. */
export function printTeamFigures(line: (label: string, value: string | number) => void, f: TeamFigures, targetMs: number): boolean {
  const all = [...f.times.values()].flat().sort((a, b) => a - b);
  const ms = (x: number) => `${x.toFixed(1)} ms`;
  line('console requests', all.length);
  line('console p50 / p95 / p99', `${ms(quantile(all, 0.5))} / ${ms(quantile(all, 0.95))} / ${ms(quantile(all, 0.99))}`);
  for (const [kind, xs] of [...f.times].sort((a, b) => a[0].localeCompare(b[0]))) {
    const sorted = [...xs].sort((a, b) => a - b);
    line(`  ${kind} (${sorted.length})`, `p50 ${ms(quantile(sorted, 0.5))}, p95 ${ms(quantile(sorted, 0.95))}, max ${ms(sorted.at(-1) ?? 0)}`);
  }
  const rates = [...f.chunkRates].sort((a, b) => a - b);
  line(`batch chunks (${CHUNK} rows): rows/s p50 / min`, rates.length ? `${Math.round(quantile(rates, 0.5))} / ${Math.round(rates[0]!)} (${rates.length} chunks)` : 'none');
  line('failed or 5xx', f.failures.length ? f.failures.slice(0, 5).join('; ') : 'none');
  const p95 = quantile(all, 0.95);
  const ok = p95 <= targetMs && f.failures.length === 0 && all.length > 0;
  if (!ok) process.stdout.write(`MISSED: ${p95 > targetMs ? `console p95 ${ms(p95)} > ${targetMs} ms; ` : ''}${f.failures.length} failures\n`);
  return ok;
}
