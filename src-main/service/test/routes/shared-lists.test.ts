// Lists imported on one instance are screened by every instance on the same PostgreSQL (issue 40),
// through the HTTP API as the console calls it: an own list imported on A is found by a screen on
// B within seconds, without a restart; removed on B, it is gone from A; an official file held on A
// is confirmed on B and used by both; an instance started afterwards on an empty data directory
// screens with the shared lists from its first answer.
import { afterAll, describe, expect, it } from 'vitest';
import type { ScreeningResponse } from '../../../../src-shared/contracts/screening';
import { POSTGRES, testEngines } from '../engines';
import { closeAll, testService, type TestService } from '../harness';
import { PEP_CSV, truncatedUn } from '../list-files';

afterAll(closeAll);
const engines = testEngines();
const why = POSTGRES.url ? '' : ` (skipped: ${POSTGRES.why})`;
const QUENTIN = { type: 'individual', first_name: 'Quentin', last_name: 'Abernathy-Vole', date_of_birth: '1961-04-12' };
type Status = { lists: { source: string; counts: { total: number } }[]; user_lists: { slug: string }[]; held_imports: { source: string }[] };

/** Polls `read` until `done` holds of it (the other instance has heard), at most `ms`; answers how long it took. */
async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 15_000): Promise<number> {
  const start = Date.now();
  for (;;) {
    if (done(await read())) return Date.now() - start;
    if (Date.now() - start > ms) throw new Error(`not seen within ${ms} ms: ${JSON.stringify(await read()).slice(0, 300)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const status = async (t: TestService, cookie: string) => (await t.json<Status>('GET', '/api/screening/lists', { cookie })).body;
const unRecords = (s: Status) => s.lists.find((l) => l.source === 'un_sc')?.counts.total;

/** Two instances on a new database (B its own data directory), both screening. */
async function twoInstances() {
  const db = await engines.open('postgres');
  const a = await testService({ plan: 'pro', database: db.url! });
  const b = await testService({ plan: 'pro', setup: false, database: db.url! });
  expect(await a.s.screening.ready(60_000)).not.toBeNull();
  expect(await b.s.screening.ready(60_000)).not.toBeNull();
  return { db, a, b };
}

describe.skipIf(!POSTGRES.url)(`lists shared by the instances on one PostgreSQL${why}`, () => {
  it('an own list imported on one instance is screened by the other within seconds; removed there, it is gone from both', async () => {
    const { a, b } = await twoInstances();
    const cookie = await a.login();
    const key = await a.key();
    const screenOnB = async () => {
      const r = await b.json<ScreeningResponse>('POST', '/api/compliance/v1/screen', { key: key.api_key, body: { subject: QUENTIN, screening: { lists: ['pep'] } } });
      // Screening goes on while the other instance brings the list in: never an error meanwhile.
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body;
    };
    expect((await screenOnB()).matches.some((m) => m.source === 'user:internal-watchlist')).toBe(false);

    const res = await a.call('POST', '/api/screening/lists/user?name=Internal%20watchlist', { cookie, rawBody: PEP_CSV, headers: { 'Content-Type': 'text/csv' } });
    expect(res.status).toBe(201);
    const took = await until(screenOnB, (r) => r.matches.some((m) => m.source === 'user:internal-watchlist'));
    // Notified, not polled (the poll is every 30 s).
    console.log(`an own list imported on A is screened on B ${(took / 1000).toFixed(2)} s after A answered`);
    expect(took).toBeLessThan(10_000);
    expect((await status(b, cookie)).user_lists.map((u) => u.slug)).toEqual(['internal-watchlist']);

    expect((await b.json('DELETE', '/api/screening/lists/user/internal-watchlist', { cookie })).status).toBe(200);
    await until(() => status(a, cookie), (s) => s.user_lists.length === 0);
    const gone = await a.json<ScreeningResponse>('POST', '/api/compliance/v1/screen', { key: key.api_key, body: { subject: QUENTIN } });
    expect(gone.body.matches.some((m) => m.source === 'user:internal-watchlist')).toBe(false);
    expect(gone.body.screening.list_versions.some((v) => v.source.startsWith('user:'))).toBe(false);
  }, 180_000);

  it('an official file held on one instance is confirmed on another and used by both; a new instance starts with it', async () => {
    const { db, a, b } = await twoInstances();
    const cookie = await a.login();
    expect(unRecords(await status(b, cookie))).toBe(1003);
    const held = await a.call('POST', '/api/screening/lists/official?source=un_sc&filename=consolidated.xml', { cookie, rawBody: truncatedUn(1), headers: { 'Content-Type': 'application/octet-stream' } });
    expect(held.status).toBe(202);
    await until(() => status(b, cookie), (s) => s.held_imports.some((h) => h.source === 'un_sc'));
    // Held is not applied: B still screens with the list in use.
    expect(unRecords(await status(b, cookie))).toBe(1003);
    expect((await b.call('POST', '/api/screening/lists/official/held/un_sc', { cookie })).status).toBe(201);
    expect(unRecords(await status(b, cookie))).toBe(1);
    await until(() => status(a, cookie), (s) => unRecords(s) === 1 && s.held_imports.length === 0);
    // Confirmed once: A holds nothing more to confirm.
    expect((await a.call('POST', '/api/screening/lists/official/held/un_sc', { cookie })).status).toBe(404);

    const c = await testService({ plan: 'pro', setup: false, database: db.url! });
    expect(await c.s.screening.ready(60_000)).not.toBeNull();
    expect(unRecords(await status(c, cookie))).toBe(1);
  }, 240_000);
});
