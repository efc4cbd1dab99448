// The ledger the report benches measure (bench:reports, bench:scale): one organisation with four
// keys and `rows` realistic test-mode ledger rows over 90 days, and three other organisations with
// a twentieth of that each (rows every query must skip), written the way the demo writes history.
// Also the owner's session cookie for the in-process HTTP app, and a report's cold timings.
import type { Services } from '../../src-main/service/compose';
import type { OrgRow } from '../../src-main/service/core/accounts/repo';
import { generateHistory } from '../../src-main/service/core/reports/history';
import type { createApp } from '../../src-main/service/http/app';

export const BENCH_ORIGIN = 'http://127.0.0.1:4310';
export const BENCH_OWNER = { email: 'owner@bench.test', password: 'bench reports password' };

export interface BenchLedger {
  org: OrgRow;
  /** Rows of the benchmarked organisation, and the time they took. */
  rows: number;
  ms: number;
  /** Rows of the three other organisations, and the time they took. */
  otherRows: number;
  otherMs: number;
}

export async function seedBenchLedger(s: Services, rows: number, now: number): Promise<BenchLedger> {
  const { org, user } = await s.accounts.setup({ organization: 'Bench Org', name: 'Bench Owner', ...BENCH_OWNER, plan: 'pro' });
  for (const name of ['Storefront widget', 'Mobile app', 'Back office', 'Partner API']) {
    await s.keys.create({ orgId: org.id, plan: 'pro', name, env: 'test', scopes: ['human', 'age', 'identity', 'compliance'], demo: false, createdBy: user.id });
  }
  let t = performance.now();
  const made = generateHistory(s.db, { orgId: org.id, rows, env: 'test', days: 90, endMs: now, seed: 13 });
  const ms = performance.now() - t;
  t = performance.now();
  let otherRows = 0;
  for (let i = 0; i < 3; i++) {
    const id = await s.accounts.repo.insertOrg(s.engine.q, `Other ${i}`, 'pro', new Date(now).toISOString());
    otherRows += generateHistory(s.db, { orgId: id, rows: Math.round(rows / 20), env: 'test', days: 90, endMs: now, seed: 100 + i, keys: [null] }).rows;
  }
  return { org, rows: made.rows, ms, otherRows, otherMs: performance.now() - t };
}

type App = ReturnType<typeof createApp>['app'];

/** The bench owner's session cookie on `app`. */
export async function benchCookie(app: App): Promise<string> {
  const login = await app.request(`${BENCH_ORIGIN}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(BENCH_OWNER) });
  const cookie = /cc_session=[^;]*/.exec(login.headers.get('set-cookie') ?? '')?.[0];
  if (!cookie) throw new Error(`login failed: ${login.status}`);
  return cookie;
}

/** `path` timed `runs` times with the reports' cache emptied before each call (after one call that warms statements and the JIT), sorted. */
export async function coldTimes(s: Services, app: App, orgId: number, cookie: string, path: string, runs: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i <= runs; i++) {
    s.reports.invalidate(orgId);
    const started = performance.now();
    const res = await app.request(`${BENCH_ORIGIN}${path}`, { headers: { Cookie: cookie } });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${body}`);
    if (i > 0) times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}
