// Console batch rescreen: cost preview and confirmation, one open batch per analyst (more in
// batch-per-analyst.test.ts),
// chunks streamed back as NDJSON, per-row errors, cancel, credits, and no subject at rest.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchChunkEnd, BatchInfo, BatchRowError, BatchRowResult } from '../../../src-shared/contracts/batch';
import { sliceEnds } from '../core/screening/batch';
import { closeAll, testService, type TestService } from './harness';
import { makeCanaries, scanForCanaries } from './privacy';

let t: TestService;
beforeAll(async () => {
  t = await testService({ plan: 'pro' });
  expect(await t.s.screening.ready(60_000)).not.toBeNull();
}, 90_000);
afterAll(closeAll);

function rows(n: number, start = 1, subject = (i: number) => ({ type: 'individual', first_name: `Given${i}`, last_name: 'Nobodyfound' })) {
  return Array.from({ length: n }, (_, k) => JSON.stringify({ row: start + k, previous_screening_id: `scr_prev${start + k}`, subject: subject(start + k) })).join('\n');
}

async function send(u: TestService, cookie: string, id: string, body: string) {
  const res = await u.call('POST', `/api/console/batches/${id}/rows`, { cookie, rawBody: body, headers: { 'Content-Type': 'application/x-ndjson' } });
  const text = await res.text();
  const lines = text.trim() === '' ? [] : text.trim().split('\n').map((l) => JSON.parse(l) as BatchRowResult & BatchRowError & BatchChunkEnd);
  return { status: res.status, lines, end: lines.at(-1)! };
}

describe('batch rescreen', () => {
  it('test batch: free, streams one result per row plus a summary line, then finishes', async () => {
    const u = await testService({ plan: 'pro' });
    const cookie = await u.login();
    const preview = await u.json('GET', '/api/console/batches/preview?env=test&rows=300', { cookie });
    expect(preview.body).toMatchObject({ credits_per_row: 0, total_credits: 0, sufficient: true });
    const created = await u.json<BatchInfo>('POST', '/api/console/batches', { cookie, body: { env: 'test', total_rows: 301 } });
    expect(created.status).toBe(201);
    expect(created.body.lists_checked).toEqual(['sanctions', 'pep']);
    const putin = JSON.stringify({ row: 301, previous_screening_id: 'scr_p', previous_result_summary: { risk_score: 0, risk_level: 'low', flags: [] }, subject: { type: 'individual', first_name: 'Vladimir', last_name: 'Putin', date_of_birth: '1952-10-07' } });
    const r = await send(u, cookie, created.body.id, rows(300) + '\n' + putin);
    expect(r.status).toBe(200);
    expect(r.lines).toHaveLength(302);
    expect(r.end).toEqual({ done: true, processed: 301, errors: 0, credits_charged: 0, state: 'open' });
    const hit = r.lines.find((l) => l.row === 301)!;
    expect(hit).toMatchObject({ risk: { level: 'high' }, risk_change: 'risk_increased', previous_screening_id: 'scr_p' });
    expect(hit.matches[0]!.explanation.alignment.length).toBeGreaterThan(0);
    expect(r.lines.find((l) => l.row === 1)).toMatchObject({ risk: { score: 0 }, risk_change: 'unknown_without_prior_result', matches: [] });
    // From source there is no built worker: rows are screened in-process (the bundled service's
    // worker is checked in serve-cli.test.ts).
    expect(u.s.pool.mode()).toBe('in-process');
    const fin = await u.json<BatchInfo>('POST', `/api/console/batches/${created.body.id}/finish`, { cookie, body: {} });
    expect(fin.body).toMatchObject({ state: 'finished', processed: 301 });
    expect(u.s.db.prepare("SELECT COUNT(*) AS n FROM verifications WHERE product = 'rescreen'").get()).toEqual({ n: 301 });
  });

  it('reports invalid rows by field without echoing values', async () => {
    const u = await testService({ plan: 'pro' });
    const cookie = await u.login();
    const b = await u.json<BatchInfo>('POST', '/api/console/batches', { cookie, body: { env: 'test', total_rows: 3 } });
    const body = [
      JSON.stringify({ row: 1, subject: { type: 'individual', first_name: 'Zyqsecret' } }),
      '{broken',
      JSON.stringify({ row: 3, subject: { type: 'individual', first_name: 'A', last_name: 'B', date_of_birth: '31/12/1990' } }),
    ].join('\n');
    const r = await send(u, cookie, b.body.id, body);
    expect(r.lines.slice(0, 3).map((l) => l.error?.message)).toEqual([
      "Invalid field 'subject.last_name': required", 'Line is not valid JSON', "Invalid field 'subject.date_of_birth': invalid format",
    ]);
    expect(JSON.stringify(r.lines)).not.toMatch(/Zyqsecret|31\/12\/1990/);
    expect(r.end).toMatchObject({ processed: 3, errors: 3 });
  });

  it('one open batch per analyst; a cancelled batch takes no more rows', async () => {
    const u = await testService({ plan: 'pro' });
    const cookie = await u.login();
    const a = await u.json<BatchInfo>('POST', '/api/console/batches', { cookie, body: { env: 'test', total_rows: 10 } });
    const second = await u.json('POST', '/api/console/batches', { cookie, body: { env: 'test', total_rows: 10 } });
    expect(second).toMatchObject({ status: 409, body: { error: expect.stringMatching(/^You already have a batch running\. Cancel or finish it first/) } });
    expect((await u.json<BatchInfo>('POST', `/api/console/batches/${a.body.id}/cancel`, { cookie, body: {} })).body.state).toBe('cancelled');
    expect((await send(u, cookie, a.body.id, rows(2))).status).toBe(409);
    await u.json('POST', `/api/console/batches/${a.body.id}/finish`, { cookie, body: {} });
    expect((await u.json('POST', '/api/console/batches', { cookie, body: { env: 'test', total_rows: 10 } })).status).toBe(201);
  });

  it('live: needs the confirmed cost, charges 30 per row, and stops unpaid rows', async () => {
    const u = await testService({ plan: 'pro' });
    await u.grant(30 * 300);
    const cookie = await u.login();
    const p = await u.json('GET', '/api/console/batches/preview?env=live&rows=300', { cookie });
    expect(p.body).toMatchObject({ credits_per_row: 30, total_credits: 9000, balance: 9000, sufficient: true });
    const unconfirmed = await u.json('POST', '/api/console/batches', { cookie, body: { env: 'live', total_rows: 300 } });
    expect(unconfirmed.status).toBe(400);
    expect(unconfirmed.body).toMatchObject({ field: 'confirm_credits' });
    expect((await u.json('POST', '/api/console/batches', { cookie, body: { env: 'live', total_rows: 301, confirm_credits: 9030 } })).status).toBe(402);
    const b = await u.json<BatchInfo>('POST', '/api/console/batches', { cookie, body: { env: 'live', total_rows: 300, confirm_credits: 9000 } });
    const r1 = await send(u, cookie, b.body.id, rows(250));
    expect(r1.end).toMatchObject({ processed: 250, credits_charged: 7500 });
    expect((await u.s.credits.balance(u.orgId))).toBe(1500);
    const k = await u.key({ env: 'live' });
    await u.json('POST', '/api/compliance/v1/screen', { key: k.api_key, body: { subject: { type: 'individual', first_name: 'A', last_name: 'B' } } });
    // 48 rows' worth left for 50 rows: the first slice (25) is paid, the second cannot be and fails whole.
    const r2 = await send(u, cookie, b.body.id, rows(50, 251));
    expect(r2.lines.filter((l) => l.error?.type === 'insufficient_credits')).toHaveLength(25);
    expect(r2.end).toMatchObject({ state: 'cancelled', credits_charged: 7500 + 750 });
    expect((await u.s.credits.balance(u.orgId))).toBe(1440 - 750);
  });

  it('live rows are charged slice by slice as the client reads them: none before the response starts, none ahead of the slice being sent', async () => {
    const u = await testService({ plan: 'pro' });
    await u.grant(30 * 300);
    const cookie = await u.login();
    const b = await u.json<BatchInfo>('POST', '/api/console/batches', { cookie, body: { env: 'live', total_rows: 300, confirm_credits: 9000 } });
    const res = await u.call('POST', `/api/console/batches/${b.body.id}/rows`, { cookie, rawBody: rows(300), headers: { 'Content-Type': 'application/x-ndjson' } });
    expect(res.status).toBe(200);
    // The response has started and nothing is charged: a crash now leaves no row paid and unsent.
    expect(await u.s.credits.balance(u.orgId)).toBe(9000);
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first.trim().split('\n')).toHaveLength(25);
    // While the client has not asked for more, the next slice is neither screened nor charged.
    await new Promise((r) => setTimeout(r, 200));
    expect(await u.s.credits.balance(u.orgId)).toBe(9000 - 30 * 25);
    let rest = '';
    for (let part = await reader.read(); !part.done; part = await reader.read()) rest += new TextDecoder().decode(part.value);
    expect(JSON.parse(rest.trim().split('\n').at(-1)!)).toMatchObject({ done: true, processed: 300, credits_charged: 9000 });
    expect(await u.s.credits.balance(u.orgId)).toBe(0);
  });

  it('live rows are paid slice by slice: a slice the balance cannot cover fails whole', async () => {
    const u = await testService({ plan: 'pro' });
    await u.grant(30 * 800);
    const cookie = await u.login();
    const b = await u.json<BatchInfo>('POST', '/api/console/batches', { cookie, body: { env: 'live', total_rows: 1000, confirm_credits: 30_000 } });
    expect(b.status).toBe(402);
    await u.grant(30 * 200);
    const ok = await u.json<BatchInfo>('POST', '/api/console/batches', { cookie, body: { env: 'live', total_rows: 1000, confirm_credits: 30_000 } });
    expect(ok.status).toBe(201);
    // The organisation's API spends 200 rows' worth meanwhile (100 live screens at 60): 800 rows' worth are left for 1000 rows.
    const k = await u.key({ env: 'live' });
    for (let i = 0; i < 100; i++) {
      const r = await u.json('POST', '/api/compliance/v1/screen', { key: k.api_key, body: { subject: { type: 'individual', first_name: 'A', last_name: `B${i}` } } });
      expect(r.status).toBe(200);
      u.clock.advance(1000); // within the key's rate limit
    }
    expect((await u.s.credits.balance(u.orgId))).toBe(30 * 800);
    const r = await send(u, cookie, ok.body.id, rows(1000));
    // Slices of 25, 100, 100, ...: seven whole slices fit in 800 rows' worth (725 rows), the eighth does not.
    expect(sliceEnds(1000).slice(0, 9)).toEqual([25, 125, 225, 325, 425, 525, 625, 725, 825]);
    expect(r.end).toMatchObject({ state: 'cancelled', processed: 825, credits_charged: 30 * 725 });
    expect(r.lines.filter((l) => l.error?.type === 'insufficient_credits')).toHaveLength(100);
    expect(r.lines).toHaveLength(825 + 1);
    expect((await u.s.credits.balance(u.orgId))).toBe(30 * 75);
  }, 60_000);

  it('refuses below Pro, and without a session', async () => {
    const u = await testService({ plan: 'growth' });
    const cookie = await u.login();
    expect((await u.json('POST', '/api/console/batches', { cookie, body: { env: 'test', total_rows: 1 } })).status).toBe(403);
    expect((await u.json('POST', '/api/console/batches', { body: { env: 'test', total_rows: 1 } })).status).toBe(401);
  });

  it('leaves no subject data in the data directory', async () => {
    const u = await testService({ plan: 'pro' });
    const c = makeCanaries();
    const cookie = await u.login();
    const b = await u.json<BatchInfo>('POST', '/api/console/batches', { cookie, body: { env: 'test', total_rows: 20 } });
    const r = await send(u, cookie, b.body.id, rows(20, 1, () => ({ type: 'individual', first_name: c.firstName, last_name: c.lastName, date_of_birth: c.dob })));
    expect(r.end).toMatchObject({ processed: 20, errors: 0 });
    u.s.db.pragma('wal_checkpoint(PASSIVE)');
    expect(scanForCanaries(u.dataDir, c)).toEqual([]);
  });
});

describe('chunks', () => {
  // Correctness only: rows per second are the bench's (npm run bench:load, "a 5,000-row batch chunk").
  it('takes a chunk of the largest size (5,000 rows), then a next chunk, one line per row and a running count', async () => {
    const cookie = await t.login();
    const b = await t.json<BatchInfo>('POST', '/api/console/batches', { cookie, body: { env: 'test', total_rows: 5_003 } });
    const names = ['Anna Petrova', 'Ivan Sokolov', 'Li Wang', 'Maria Garcia', 'Ahmed Hassan', 'Peter Muller', 'John Smith'];
    const full = await send(t, cookie, b.body.id, rows(5000, 1, (i) => {
      const [f, l] = names[i % names.length]!.split(' ');
      return { type: 'individual', first_name: f!, last_name: `${l}${i % 5 ? '' : 'a'}` };
    }));
    expect(full.status).toBe(200);
    expect(full.lines).toHaveLength(5001);
    expect(new Set(full.lines.slice(0, -1).map((l) => l.row)).size).toBe(5000);
    expect(full.end).toMatchObject({ done: true, processed: 5000, errors: 0, state: 'open' });
    const next = await send(t, cookie, b.body.id, rows(3, 5001));
    expect(next.lines.slice(0, -1).map((l) => l.row)).toEqual([5001, 5002, 5003]);
    expect(next.end).toMatchObject({ done: true, processed: 5003, errors: 0 });
    await t.json('POST', `/api/console/batches/${b.body.id}/finish`, { cookie, body: {} });
  }, 120_000);
});
