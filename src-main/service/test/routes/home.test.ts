// GET /api/home: what needs attention today for the signed-in user, counts and flags only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Home } from '../../../../src-shared/contracts/home';
import type { HostedCompleteResponse, HostedGenerateResponse } from '../../../../src-shared/contracts/hosted';
import { closeAll, testService, type TestService } from '../harness';
import { disposition, PUTIN, runBatch } from '../review-support';

afterAll(closeAll);

const MEMBER = { email: 'mo@example.test', password: 'member password 1' };
let t: TestService;
let owner: string;
let member: string;
/** The start of "today" as the console sends it: an instant with the analyst's own offset. */
let today: string;

beforeAll(async () => {
  t = await testService({ plan: 'pro' });
  owner = await t.login();
  await t.s.accounts.addUser({ orgId: t.orgId, email: MEMBER.email, name: 'Mo Member', password: MEMBER.password, role: 'member' });
  member = await t.login(MEMBER.email, MEMBER.password);
  const midnight = new Date(t.clock.now() - 3_600_000);
  today = `${midnight.toISOString().slice(0, 19)}+00:00`;
}, 60_000);

const home = async (cookie: string, since = today) => t.json<Home & { error?: string; field?: string }>('GET', `/api/home?since=${encodeURIComponent(since)}`, { cookie });

describe('GET /api/home', () => {
  it('a new install: nothing set up, no credits (low), nothing waiting', async () => {
    const r = await home(owner);
    expect(r.status).toBe(200);
    expect(r.res.headers.get('cache-control')).toBe('no-store');
    expect(r.body).toEqual({
      clearances_awaiting: 0,
      open_batches: 0,
      hosted_failed: { test: 0, live: 0 },
      credits: { balance: 0, low: true },
      setup: { test_keys: 0, live_keys: 0, webhooks: 0, members: 2, four_eyes: false },
    });
  });

  it('counts keys (not revoked), webhooks, credits against the low mark, and clearances waiting for a second person', async () => {
    await t.key({ env: 'test' });
    const live = await t.key({ env: 'live' });
    await t.key({ env: 'live' });
    expect((await t.json('POST', `/api/keys/${live.id}/revoke`, { cookie: owner })).status).toBe(200);
    await t.s.webhooks.create({ orgId: t.orgId, url: 'https://receiver.example/hooks', env: 'test', events: ['verification.completed'], createdBy: null });
    await t.grant(150);
    expect((await t.json('PATCH', '/api/settings', { cookie: owner, body: { four_eyes: true } })).status).toBe(200);
    expect(await t.s.screening.ready(60_000)).not.toBeNull();
    const batch = await runBatch(t, member, [PUTIN]);
    const cleared = await t.json('POST', '/api/review/dispositions', {
      cookie: member, body: disposition(batch.id, batch.row(2), 'cleared_false_positive', { reason_code: 'name_only_common_name' }),
    });
    expect(cleared.status).toBe(200);

    const r = await home(owner);
    expect(r.body).toMatchObject({
      clearances_awaiting: 1,
      credits: { balance: 150, low: false },
      setup: { test_keys: 1, live_keys: 1, webhooks: 1, members: 2, four_eyes: true },
    });
  }, 120_000);

  it('counts hosted sessions that failed since the start of the analyst\'s day, per environment', async () => {
    const key = (await t.key({ scopes: ['age'] })).api_key;
    const g = await t.json<HostedGenerateResponse>('POST', '/hosted/generate', { body: { product: 'age', min_age: 21 }, headers: { Authorization: `Bearer ${key}` } });
    const young = new Date(t.clock.now() - 19 * 365.25 * 86_400_000).toISOString().slice(0, 10);
    const done = await t.json<HostedCompleteResponse>('POST', `/hosted/complete/${g.body.token}`, { body: { date_of_birth: young, selfie_b64: 'not looked at' } });
    expect(done.body.status).toBe('failed');
    expect((await home(owner)).body.hosted_failed).toEqual({ test: 1, live: 0 });
    // A day that starts after it: nothing failed "today".
    const later = new Date(t.clock.now() + 60_000).toISOString();
    expect((await home(owner, later)).body.hosted_failed).toEqual({ test: 0, live: 0 });
  });

  it('a member sees the balance (everyone\'s, as on GET /api/account) but not the approval count', async () => {
    const r = await home(member);
    expect(r.status).toBe(200);
    expect(r.body.credits).toEqual({ balance: 150, low: false });
    expect(r.body.clearances_awaiting).toBeNull();
    expect(r.body.open_batches).toBeNull();
  });

  it('counts the organisation\'s open batch rescreens for owners and admins', async () => {
    const opened = await t.json<{ id: string }>('POST', '/api/console/batches', { cookie: member, body: { env: 'test', total_rows: 3 } });
    expect(opened.status).toBe(201);
    expect((await home(owner)).body.open_batches).toBe(1);
    expect((await home(member)).body.open_batches).toBeNull();
    expect((await t.json('POST', `/api/console/batches/${opened.body.id}/finish`, { cookie: member, body: {} })).status).toBe(200);
    expect((await home(owner)).body.open_batches).toBe(0);
  });

  it('needs a session; `since` must be an instant with its offset', async () => {
    expect((await t.json('GET', `/api/home?since=${encodeURIComponent(today)}`)).status).toBe(401);
    const bad = await t.json<{ field?: string }>('GET', '/api/home?since=yesterday', { cookie: owner });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ field: 'since' });
    expect((await t.json('GET', '/api/home', { cookie: owner })).status).toBe(400);
  });

  it('another organisation\'s owner sees only their own', async () => {
    const other = await t.addOrg({ plan: 'pro' });
    const cookie = await other.login();
    const r = await home(cookie);
    expect(r.body).toMatchObject({ clearances_awaiting: 0, open_batches: 0, hosted_failed: { test: 0, live: 0 }, setup: { test_keys: 0, live_keys: 0, webhooks: 0, members: 1 } });
  });
});
