// A full disk is an answer, not a loss (issue 25): billable calls and new exports answer 507
// INSUFFICIENT_STORAGE with nothing stored or charged, a write that fails with a real SQLITE_FULL
// gets the same answer instead of a 500, an accepted export whose file cannot be stored ends as
// failed with its reason, /api/health says degraded and why, and the next request after space is
// freed works without a restart. The free space is injected (compose's `storage`); SQLITE_FULL is
// real, made with PRAGMA max_page_count.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CreatedExport, ExportJob, ExportList } from '../../../src-shared/contracts/reports';
import type { Health } from '../../../src-shared/contracts/status';
import { STORAGE_RESERVE_BYTES } from '../core/storage/storage';
import { closeAll, testService, type TestService } from './harness';

const MiB = 1024 * 1024;
const PLENTY = 10 * 1024 * MiB;
const FULL = 3 * MiB;
const CLEAR = { type: 'individual', first_name: 'Ingeborg', last_name: 'Abrahamsen', date_of_birth: '1972-11-21' };
const EXPORT = { report_type: 'overview', format: 'csv', env: 'live', from: '2026-01-01', to: '2026-01-31' };

let t: TestService;
let free = PLENTY;
let key: string;
let cookie: string;

beforeAll(async () => {
  t = await testService({ plan: 'pro', storage: { freeBytes: () => free, cacheMs: 0 }, exports: { runner: { inProcess: true } } });
  expect(await t.s.screening.ready(60_000)).not.toBeNull();
  key = (await t.key({ env: 'live', scopes: ['compliance'] })).api_key;
  cookie = await t.login();
  await t.grant(1000);
}, 90_000);
afterAll(closeAll);
beforeEach(() => {
  free = PLENTY;
  t.s.db.pragma('max_page_count = 4294967294');
});

const balance = () => t.s.credits.balance(t.orgId);
const ledgerRows = () => (t.s.db.prepare('SELECT COUNT(*) AS n FROM verifications').get() as { n: number }).n;
const screen = () => t.json<Record<string, unknown>>('POST', '/api/compliance/v1/screen', { key, body: { subject: CLEAR } });
const health = () => t.json<Health>('GET', '/api/health');

describe('batches and continued age flows on a full disk', () => {
  it('opening a batch and screening a chunk of an open one answer 507 in the account shape; both work once space is back', async () => {
    const create = (total: number) => t.json<{ id: string }>('POST', '/api/console/batches', { cookie, headers: { Origin: 'http://127.0.0.1:4310' }, body: { env: 'test', total_rows: total, reason: 'periodic_rescreen' } });
    free = FULL;
    const refused = await create(1);
    expect(refused.status).toBe(507);
    expect(refused.body).toEqual({ error: expect.stringMatching(/disk space/) });
    free = PLENTY;
    const open = await create(1);
    expect(open.status).toBe(201);
    const rows = (n: string) => t.json('POST', `/api/console/batches/${open.body.id}/rows`, {
      cookie, rawBody: n, headers: { Origin: 'http://127.0.0.1:4310', 'Content-Type': 'application/x-ndjson' },
    });
    const row = `${JSON.stringify({ row: 2, subject: { type: 'individual', first_name: 'Jane', last_name: 'Roe' } })}\n`;
    free = FULL;
    expect((await rows(row)).status).toBe(507);
    free = PLENTY;
    const ok = await t.call('POST', `/api/console/batches/${open.body.id}/rows`, { cookie, rawBody: row, headers: { Origin: 'http://127.0.0.1:4310', 'Content-Type': 'application/x-ndjson' } });
    expect(ok.status).toBe(200);
    await ok.text();
    await t.json('POST', `/api/console/batches/${open.body.id}/finish`, { cookie, headers: { Origin: 'http://127.0.0.1:4310' } });
  });

  it('an age check by ID answers 507 while the disk is full, before reading an image', async () => {
    const age = (await t.key({ env: 'test', scopes: ['age'] })).api_key;
    free = FULL;
    const refused = await t.json('POST', '/api/v1/verify-age/step3', { key: age, body: { image_selfie_b64: 'AAAA', image_id_b64: 'AAAA', min_age: 18 } });
    expect(refused.status).toBe(507);
    free = PLENTY;
    // With room again the same request reaches the images (not a picture: 400).
    expect((await t.json('POST', '/api/v1/verify-age/step3', { key: age, body: { image_selfie_b64: 'AAAA', image_id_b64: 'AAAA', min_age: 18 } })).status).toBe(400);
  });
});

describe('billable calls on a full disk', () => {
  it('a live screening answers 507 INSUFFICIENT_STORAGE, charges nothing, writes no row; the same call answers 200 once space is back', async () => {
    const before = { credits: await balance(), rows: ledgerRows() };
    free = FULL;
    const refused = await screen();
    expect(refused.status).toBe(507);
    expect(refused.body).toEqual({ error: expect.stringMatching(/disk space/), status: 'ERROR', code: 'INSUFFICIENT_STORAGE' });
    expect({ credits: await balance(), rows: ledgerRows() }).toEqual(before);

    free = PLENTY;
    const ok = await screen();
    expect(ok.status).toBe(200);
    expect(await balance()).toBeLessThan(before.credits);
    expect(ledgerRows()).toBe(before.rows + 1);
  });

  it('a real SQLITE_FULL while the ledger row is written answers 507, not 500, with the balance unchanged; then 200 once the database may grow', async () => {
    await t.grant(100_000);
    t.s.db.exec('VACUUM'); // no free pages left to reuse: the database may not grow at all
    const pages = t.s.db.pragma('page_count', { simple: true }) as number;
    t.s.db.pragma(`max_page_count = ${pages}`);
    // The rows fill the pages there are; the first write that needs a new page fails for real.
    let refused: Awaited<ReturnType<typeof screen>> | undefined;
    let before = { credits: 0, rows: 0 };
    for (let i = 0; i < 1000 && !refused; i++) {
      t.clock.advance(1000); // within the rate limit
      before = { credits: await balance(), rows: ledgerRows() };
      const r = await screen();
      if (r.status !== 200) refused = r;
    }
    expect(refused?.status).toBe(507);
    expect(refused?.body).toMatchObject({ status: 'ERROR', code: 'INSUFFICIENT_STORAGE' });
    expect({ credits: await balance(), rows: ledgerRows() }).toEqual(before);
    // The disk looks fine to statfs, but a write was refused: health says so until one succeeds.
    const degraded = await health();
    expect(degraded.body).toMatchObject({ status: 'degraded', storage: { status: 'ok', last_write_refused_at: expect.any(String) } });
    expect(degraded.body.reason).toMatch(/write failed for lack of disk space/);

    t.s.db.pragma('max_page_count = 4294967294');
    expect((await screen()).status).toBe(200);
    expect((await health()).body).toMatchObject({ status: 'ok', reason: null, storage: { last_write_refused_at: null } });
  });
});

describe('exports on a full disk', () => {
  const list = async () => (await t.json<ExportList>('GET', '/api/reports/exports?per_page=100', { cookie })).body;

  it('a new export answers 507 in the account APIs\' shape and creates nothing', async () => {
    const before = await list();
    free = FULL;
    const r = await t.json('POST', '/api/reports/exports', { cookie, body: EXPORT });
    expect(r.status).toBe(507);
    expect(r.body).toEqual({ error: expect.stringMatching(/disk space/) });
    free = PLENTY;
    expect((await list()).total).toBe(before.total);
  });

  it('an accepted export whose disk fills before it runs ends as failed (insufficient_storage) in the list', async () => {
    const created = await t.json<CreatedExport>('POST', '/api/reports/exports', { cookie, body: EXPORT });
    expect(created.status).toBe(201);
    free = FULL;
    await t.s.exports.drain();
    const item = (await list()).exports.find((e) => e.id === created.body.id);
    expect(item).toMatchObject({ status: 'failed', error_code: 'insufficient_storage', completed_at: expect.any(String) });
  });

  it('an accepted export whose file meets a real SQLITE_FULL ends as failed (insufficient_storage), not vanished; the next one succeeds', async () => {
    const created = await t.json<CreatedExport>('POST', '/api/reports/exports', { cookie, body: { ...EXPORT, format: 'pdf' } });
    expect(created.status).toBe(201);
    // The job row and its claim fit; the file (pages of its own) does not.
    t.s.db.exec('VACUUM');
    const pages = t.s.db.pragma('page_count', { simple: true }) as number;
    t.s.db.pragma(`max_page_count = ${pages}`);
    await t.s.exports.drain();
    const job = await t.json<ExportJob>('GET', `/api/reports/exports/${created.body.id}`, { cookie });
    expect(job.body).toMatchObject({ status: 'failed', error_code: 'insufficient_storage', download_url: null });
    expect((await list()).exports.find((e) => e.id === created.body.id)).toMatchObject({ status: 'failed', error_code: 'insufficient_storage' });

    t.s.db.pragma('max_page_count = 4294967294');
    const again = await t.json<CreatedExport>('POST', '/api/reports/exports', { cookie, body: { ...EXPORT, format: 'pdf' } });
    await t.s.exports.drain();
    expect((await t.json<ExportJob>('GET', `/api/reports/exports/${again.body.id}`, { cookie })).body).toMatchObject({ status: 'succeeded' });
  });
});

describe('/api/health and the disk', () => {
  it('says degraded, with the reason and the free bytes, while the disk is below the reserve; ok after, without a restart', async () => {
    free = FULL;
    const full = await health();
    expect(full.status).toBe(200);
    expect(full.body).toMatchObject({
      status: 'degraded', database: 'ok',
      storage: { status: 'low', free_bytes: FULL, reserve_bytes: STORAGE_RESERVE_BYTES, last_write_refused_at: null },
    });
    expect(full.body.reason).toMatch(/Less than 64 MiB free/);

    free = PLENTY;
    const ok = await health();
    expect(ok.body).toMatchObject({ status: 'ok', reason: null, storage: { status: 'ok', free_bytes: PLENTY } });
  });
});
