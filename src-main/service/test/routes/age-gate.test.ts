// The storefront age gate through its HTTP routes: the merchant's settings in the console (a
// public store id issued once), the widget's public config, and POST /api/verify-age by the
// spec's behaviour (underage → redirect; attestation accepted and recorded with an integer id;
// selfie required → the selfie step; 5 attempts per visitor per hour, then Too Many Attempts;
// a visitor is an address at a store, whatever user agent it sends).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgeGatePublicConfig, AgeGateResponse, AgeGateSettingsInput, AgeGateStore } from '../../../../src-shared/contracts/age-gate';
import { closeAll, ORIGIN, testService, type TestService } from '../harness';
import * as fx from '../face-fixtures';
import { ManualClock } from '../../core/clock';
import { createAgeGateAttempts, HOUR_MS } from '../../core/age-gate/attempts';
import { DAY_MS } from '../../../../src-shared/dates';

afterAll(closeAll);

let t: TestService;
let cookie: string;
beforeAll(async () => {
  t = await testService({ plan: 'pro' });
  cookie = await t.login();
}, 60_000);

const save = (env: 'test' | 'live', settings: AgeGateSettingsInput, c = cookie) =>
  t.json<AgeGateStore & Record<string, unknown>>('PUT', '/api/age-gate', { cookie: c, body: { env, settings } });
let visitors = 0;
/** A fresh visitor: an address of its own (documentation ranges, RFC 5737). */
const visitor = () => `${visitors < 250 ? '192.0.2' : '198.51.100'}.${(++visitors % 250) + 1}`;
const verify = (body: Record<string, unknown>, address: string, agent = 'Mozilla/5.0 (a storefront visitor)') =>
  t.json<AgeGateResponse & Record<string, unknown>>('POST', '/api/verify-age', { body, address, headers: { 'User-Agent': agent } });
/** A date of birth that makes someone exactly `years` old today (by the service's clock). */
const bornYearsAgo = (years: number, daysMore = 0) => {
  const d = new Date(t.clock.now());
  d.setUTCFullYear(d.getUTCFullYear() - years);
  d.setUTCDate(d.getUTCDate() - daysMore);
  return d.toISOString().slice(0, 10);
};
const rows = () => t.sql('SELECT rowid AS n, * FROM verifications ORDER BY rowid');

describe('the age gate\'s settings in the console: GET and PUT /api/age-gate', () => {
  it('has the spec\'s defaults and no store id until the first save; the id then never changes and the embed names it', async () => {
    const first = await t.json<AgeGateStore>('GET', '/api/age-gate?env=live', { cookie });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      store_id: null, environment: 'live', embed: null, link_reach: 'this_computer', updated_at: null,
      settings: {
        enabled: false, apply_to: 'all_pages', product_tag: 'age-restricted', collection_tag: 'age-restricted', page_handles: [], min_age: 18,
        use_case: 'adult', require_selfie: true, session_mode: 'guest', underage_redirect_url: '', session_duration_hours: 24,
        custom_message: '', logo: '', daily_selfie_cap: 200,
      },
      selfie_checks_today: 0,
    });
    const saved = await save('live', { enabled: true, min_age: 21, custom_message: 'Adults only' });
    expect(saved.status).toBe(200);
    expect(saved.body.store_id).toMatch(/^ag_live_[A-Za-z0-9]{24}$/);
    expect(saved.body.embed).toBe(`<script src="${ORIGIN}/widget/age-gate.js" data-store="${saved.body.store_id}" async></script>`);
    const again = await save('live', { enabled: true, min_age: 25 });
    expect(again.body.store_id).toBe(saved.body.store_id);
    expect(again.body.settings).toMatchObject({ min_age: 25, custom_message: '' });
    // Test and live are two stores.
    const test = await save('test', { enabled: true });
    expect(test.body.store_id).toMatch(/^ag_test_/);
  });

  it('refuses settings out of the spec\'s ranges and unsafe redirects or logos, by field and without echoing', async () => {
    const bads: Record<string, unknown>[] = [{ min_age: 17 }, { min_age: 26 }, { session_duration_hours: 200 }, { session_duration_hours: 5 }, { use_case: 'custom' }, { apply_to: 'everything' },
      { daily_selfie_cap: 0 }, { daily_selfie_cap: 100_001 }, { daily_selfie_cap: 2.5 }, { daily_selfie_cap: '50' }];
    for (const bad of bads) {
      const r = await save('test', bad as AgeGateSettingsInput);
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.body).toMatchObject({ code: 'INVALID_PARAMETERS', fields: [expect.objectContaining({ field: `settings.${Object.keys(bad)[0]}` })] });
    }
    const js = await save('test', { underage_redirect_url: 'javascript:alert(1)' });
    expect(js.status).toBe(400);
    expect(js.body).toMatchObject({ code: 'INVALID_PARAMETERS', fields: [{ field: 'underage_redirect_url', issue: 'refused_scheme' }] });
    expect(JSON.stringify(js.body)).not.toContain('alert');
    expect((await save('test', { underage_redirect_url: 'http://shop.example/' })).status).toBe(400);
    expect((await save('test', { logo: 'data:text/html;base64,PHNjcmlwdD4=' })).status).toBe(400);
    expect((await save('test', { logo: 'javascript:alert(1)' })).status).toBe(400);
    expect((await save('test', { enabled: true, logo: 'data:image/png;base64,iVBORw0KGgo=' })).status).toBe(200);
  });

  it('needs a session, and an owner or admin to save (a member reads); another organisation has its own store', async () => {
    expect((await t.json('GET', '/api/age-gate')).status).toBe(401);
    expect((await t.json('PUT', '/api/age-gate', { body: { env: 'test', settings: {} } })).status).toBe(401);
    const other = await t.addOrg({ email: 'gate@other.test' });
    const otherCookie = await other.login();
    const theirs = await t.json<AgeGateStore>('GET', '/api/age-gate?env=test', { cookie: otherCookie });
    expect(theirs.body.store_id).toBeNull();
    const memberEmail = 'member-gate@example.test';
    await t.s.accounts.addUser({ orgId: t.orgId, email: memberEmail, name: 'Max Member', password: 'member password 123', role: 'member', billing: false });
    const member = await t.login(memberEmail, 'member password 123');
    expect((await t.json('GET', '/api/age-gate?env=test', { cookie: member })).status).toBe(200);
    expect((await save('test', { enabled: false }, member)).status).toBe(403);
    const cap = (await t.json<AgeGateStore>('GET', '/api/age-gate?env=live', { cookie })).body.settings.daily_selfie_cap;
    const refused = await save('live', { enabled: true, daily_selfie_cap: cap + 1 }, member);
    expect(refused.status).toBe(403);
    expect((await t.json<AgeGateStore>('GET', '/api/age-gate?env=live', { cookie: member })).body.settings.daily_selfie_cap).toBe(cap);
  });
});

describe('the widget\'s calls: GET /api/age-gate/config/:store_id and POST /api/verify-age', () => {
  it('gives the widget the public settings with the effective minimum age; unknown and disabled stores are 404', async () => {
    const st = await save('test', { enabled: true, use_case: 'alcohol', min_age: 18, apply_to: 'product_tag', product_tag: '18plus' });
    const cfg = await t.json<AgeGatePublicConfig>('GET', `/api/age-gate/config/${st.body.store_id}`);
    expect(cfg.status).toBe(200);
    expect(cfg.res.headers.get('access-control-allow-origin')).toBe('*');
    expect(cfg.body).toMatchObject({ store_id: st.body.store_id, test_mode: true, min_age: 21, use_case: 'alcohol', apply_to: 'product_tag', product_tag: '18plus' });
    // The merchant's daily cap is not the widget's business.
    expect(cfg.body).not.toHaveProperty('daily_selfie_cap');
    expect((await t.json('GET', '/api/age-gate/config/ag_test_doesnotexist0000000000')).body).toMatchObject({ code: 'AGE_GATE_NOT_FOUND' });
    await save('test', { enabled: false });
    expect((await t.json('GET', `/api/age-gate/config/${st.body.store_id}`)).status).toBe(404);
    expect((await verify({ store_id: st.body.store_id, date_of_birth: bornYearsAgo(30) }, visitor())).status).toBe(404);
  });

  it('attestation: an adult is accepted and recorded (an integer id, free, no API key); underage goes to the store\'s redirect', async () => {
    const st = await save('live', { enabled: true, require_selfie: false, min_age: 21, underage_redirect_url: 'https://www.example.org/kids' });
    const id = st.body.store_id!;
    const before = (await t.s.credits.balance(t.orgId));
    const ok = await verify({ store_id: id, date_of_birth: bornYearsAgo(21), min_age: 18, use_case: 'adult', mode: 'guest', attestation_only: true }, visitor());
    expect(ok.status).toBe(200);
    expect(ok.res.headers.get('cache-control')).toBe('no-store');
    expect(ok.body).toEqual({
      success: true, verified: true, estimated_age: null, verification_id: expect.any(Number), mode: 'attestation', message: expect.any(String),
      reason: null, redirect_url: null, attempts_remaining: 4, session_duration_hours: 24,
    });
    const row = (await rows()).find((r) => r.n === ok.body.verification_id)!;
    expect(row).toMatchObject({ product: 'age', env: 'live', status: 'success', credits: 0, api_key_id: null, org_id: t.orgId });
    expect((await t.s.credits.balance(t.orgId))).toBe(before);

    // One day short of 21: underage, whatever minimum the caller sends (the store's wins).
    const young = await verify({ store_id: id, date_of_birth: bornYearsAgo(21, -1), min_age: 18 }, visitor());
    // An attestation store's answers are attestation results, under age too: an integer id and `mode`.
    expect(young.body).toMatchObject({ success: true, verified: false, reason: 'underage', redirect_url: 'https://www.example.org/kids', verification_id: expect.any(Number), mode: 'attestation' });
    expect((await rows()).find((r) => r.n === young.body.verification_id)).toMatchObject({ status: 'failed', error_code: 'below_minimum_age', credits: 0 });
    expect(young.body._test_mode).toBeUndefined();
  });

  it('selfie mode: an adult is asked for a selfie (attestation_only cannot skip it); the estimate is the age product\'s, paid by the store\'s organisation', async () => {
    const st = await save('live', { enabled: true, require_selfie: true, min_age: 18 });
    const id = st.body.store_id!;
    const who = visitor();
    const step = await verify({ store_id: id, date_of_birth: bornYearsAgo(30), attestation_only: true }, who);
    // Asking for the selfie decides nothing: it is not an attempt.
    expect(step.body).toMatchObject({ success: true, verified: false, reason: 'selfie_required', verification_id: null, attempts_remaining: 5 });
    expect(step.body.mode).toBeUndefined();
    // Under age at a selfie store: the same id style as its selfie answers (issue 38), and with no
    // redirect chosen by the merchant, none is chosen for them: the gate's own message stays.
    const young = await verify({ store_id: id, date_of_birth: bornYearsAgo(15) }, visitor());
    expect(young.body).toMatchObject({ verified: false, reason: 'underage', redirect_url: null, verification_id: expect.stringMatching(/^age_/), message: 'You must be at least 18 to enter.' });
    expect(young.body.mode).toBeUndefined();
    expect((await t.s.ledger.get(young.body.verification_id as string))).toMatchObject({ status: 'failed', error_code: 'below_minimum_age', credits: 0 });

    await t.grant(100);
    const before = (await t.s.credits.balance(t.orgId));
    const selfie = (await fx.selfie('a')).toString('base64');
    const r = await verify({ store_id: id, date_of_birth: bornYearsAgo(30), selfie_b64: selfie }, who);
    expect(r.status).toBe(200);
    expect(r.body.attempts_remaining).toBe(4);
    expect(r.body).toMatchObject({ success: true, verification_id: expect.stringMatching(/^age_/), estimated_age: expect.any(Number) });
    expect((await t.s.credits.balance(t.orgId))).toBe(before - 10);
    const row = (await t.s.ledger.get(r.body.verification_id as string))!;
    expect(row).toMatchObject({ product: 'age', env: 'live', credits: 10, api_key_id: null, status: r.body.verified ? 'success' : 'failed' });
    expect(r.body.reason).toBe(r.body.verified ? null : 'selfie_not_conclusive');

    // A picture without a face: not verified, the flow ends (no ID step on a storefront), still charged.
    const none = await verify({ store_id: id, date_of_birth: bornYearsAgo(30), selfie_b64: (await fx.noFace()).toString('base64') }, visitor());
    expect(none.body).toMatchObject({ verified: false, reason: 'no_face_detected', estimated_age: null });
    expect((await t.s.ledger.get(none.body.verification_id as string))).toMatchObject({ status: 'failed', error_code: 'no_face_detected', credits: 10 });
    const garbage = await verify({ store_id: id, date_of_birth: bornYearsAgo(30), selfie_b64: 'bm90IGFuIGltYWdl' }, visitor());
    expect(garbage.status).toBe(400);
  });

  it('test stores answer _test_mode and consume nothing', async () => {
    const st = await save('test', { enabled: true, require_selfie: true, min_age: 18 });
    const before = (await t.s.credits.balance(t.orgId));
    const r = await verify({ store_id: st.body.store_id, date_of_birth: bornYearsAgo(40), selfie_b64: (await fx.selfie('b')).toString('base64') }, visitor());
    expect(r.body._test_mode).toBe(true);
    expect((await t.s.credits.balance(t.orgId))).toBe(before);
    const att = await save('test', { enabled: true, require_selfie: false });
    expect((await verify({ store_id: att.body.store_id, date_of_birth: bornYearsAgo(40) }, visitor())).body).toMatchObject({ _test_mode: true, mode: 'attestation' });
  });

  it('5 attempts per visitor per hour, then Too Many Attempts with Retry-After; another visitor is not affected; an hour later it is allowed again', async () => {
    const st = await save('test', { enabled: true, require_selfie: false, min_age: 18 });
    const id = st.body.store_id!;
    const who = visitor();
    const remaining: number[] = [];
    for (let i = 0; i < 5; i++) remaining.push((await verify({ store_id: id, date_of_birth: bornYearsAgo(i % 2 ? 15 : 30) }, who)).body.attempts_remaining);
    expect(remaining).toEqual([4, 3, 2, 1, 0]);
    const sixth = await verify({ store_id: id, date_of_birth: bornYearsAgo(30) }, who);
    expect(sixth.status).toBe(429);
    expect(sixth.body).toEqual({ error: 'Too Many Attempts. Please try again later.', status: 'ERROR', code: 'TOO_MANY_ATTEMPTS' });
    expect(Number(sixth.res.headers.get('retry-after'))).toBeGreaterThan(3_500);
    const recorded = (await rows()).length;
    expect((await verify({ store_id: id, date_of_birth: bornYearsAgo(30) }, who)).status).toBe(429);
    expect((await rows()).length).toBe(recorded);
    expect((await verify({ store_id: id, date_of_birth: bornYearsAgo(30) }, visitor())).status).toBe(200);
    t.clock.advance(30 * 60_000);
    expect((await verify({ store_id: id, date_of_birth: bornYearsAgo(30) }, who)).status).toBe(429);
    t.clock.advance(31 * 60_000);
    expect((await verify({ store_id: id, date_of_birth: bornYearsAgo(30) }, who)).status).toBe(200);
  });

  it('a visitor is its address at the store, whatever user agent it sends: rotating the agent gets no sixth decision and no sixth paid selfie', async () => {
    const st = await save('live', { enabled: true, require_selfie: true, min_age: 18 });
    const id = st.body.store_id!;
    await t.grant(1_000);
    const before = (await t.s.credits.balance(t.orgId));
    const who = visitor();
    const selfie = (await fx.noFace()).toString('base64');
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      statuses.push((await verify({ store_id: id, date_of_birth: bornYearsAgo(30), selfie_b64: selfie }, who, `Mozilla/5.0 (rotated agent ${i})`)).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    expect((await t.s.credits.balance(t.orgId))).toBe(before - 50);
    // Another address is another visitor.
    expect((await verify({ store_id: id, date_of_birth: bornYearsAgo(30), selfie_b64: selfie }, visitor(), 'Mozilla/5.0 (rotated agent 0)')).status).toBe(200);
  });

  it('an IPv6 client is its /64 (one host is given a whole /64 to pick from); an IPv4 address mapped into IPv6 is that IPv4 address', async () => {
    const st = await save('test', { enabled: true, require_selfie: false, min_age: 18 });
    const adult = { store_id: st.body.store_id, date_of_birth: bornYearsAgo(30) };
    for (let i = 1; i <= 5; i++) expect((await verify(adult, `2001:db8:1:2::${i.toString(16)}`)).status).toBe(200);
    expect((await verify(adult, '2001:0db8:0001:0002:ffff:1:2:3')).status).toBe(429);
    expect((await verify(adult, '2001:db8:1:3::1')).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await verify(adult, '::ffff:203.0.113.50')).status).toBe(200);
    expect((await verify(adult, '203.0.113.50')).status).toBe(429);
  });

  it('refuses bad requests by field, without echoing; a future or impossible date is not a birth date', async () => {
    const st = await save('test', { enabled: true, require_selfie: false });
    const id = st.body.store_id!;
    for (const dob of ['2000-02-30', '31/12/1990', '1990-1-1', bornYearsAgo(-1)]) {
      const r = await verify({ store_id: id, date_of_birth: dob }, visitor());
      expect(r.status, dob).toBe(400);
      expect(r.body).toMatchObject({ code: 'INVALID_PARAMETERS', fields: expect.arrayContaining([expect.objectContaining({ field: 'date_of_birth' })]) });
      expect(JSON.stringify(r.body)).not.toContain(dob);
    }
    expect((await verify({ date_of_birth: bornYearsAgo(30) }, visitor())).status).toBe(400);
    expect((await t.json('POST', '/api/verify-age', { rawBody: '{', headers: { 'Content-Type': 'application/json' } })).status).toBe(400);
  });

  it('keeps nothing about the visitor: no date of birth, address, user agent or customer id in the database', async () => {
    const st = await save('test', { enabled: true, require_selfie: false, session_mode: 'profile' });
    const agent = 'Mozilla/5.0 (a very distinctive agent 7f3e)';
    const dob = bornYearsAgo(33, 17);
    await verify({ store_id: st.body.store_id, date_of_birth: dob, mode: 'profile', customer_id: 'cust-8812-distinct' }, '203.0.113.77', agent);
    const dump = JSON.stringify(await t.tables());
    for (const needle of [dob, 'cust-8812-distinct', 'distinctive agent', '203.0.113.77']) expect(dump).not.toContain(needle);
  });
});

describe('a live store\'s daily cap on paid selfie checks (issue 25)', () => {
  it('answers 429 DAILY_CAP_REACHED with Retry-After to the end of the UTC day once the day\'s charged checks reach the cap; refused checks do not count; the console sees the count; a restart forgets nothing; the next day starts again', async () => {
    let u = await testService({ plan: 'pro' });
    // 22:00 UTC on a day to come: two hours left in it.
    const midnight = Math.ceil(u.clock.now() / DAY_MS) * DAY_MS + DAY_MS;
    u.clock.set(midnight - 2 * HOUR_MS);
    let c = await u.login();
    await u.grant(1_000);
    const saved = await u.json<AgeGateStore>('PUT', '/api/age-gate', { cookie: c, body: { env: 'live', settings: { enabled: true, require_selfie: true, daily_selfie_cap: 2 } } });
    expect(saved.body).toMatchObject({ settings: { daily_selfie_cap: 2 }, selfie_checks_today: 0 });
    const id = saved.body.store_id!;
    const selfie = (await fx.noFace()).toString('base64');
    const dob = bornYearsAgo(30);
    const check = (svc: TestService, address: string, extra: Record<string, unknown> = { selfie_b64: selfie }) =>
      svc.json<AgeGateResponse & Record<string, unknown>>('POST', '/api/verify-age', { body: { store_id: id, date_of_birth: dob, ...extra }, address });
    const today = async (svc: TestService, cookie: string) => (await svc.json<AgeGateStore>('GET', '/api/age-gate?env=live', { cookie })).body.selfie_checks_today;
    const balance = () => u.s.credits.balance(u.orgId);

    expect((await check(u, visitor())).status).toBe(200);
    // Refused before any charge: a picture that is not one, a visitor over their hourly limit.
    expect((await check(u, visitor(), { selfie_b64: 'bm90IGFuIGltYWdl' })).status).toBe(400);
    const busy = visitor();
    for (let i = 0; i < 5; i++) expect((await check(u, busy, { date_of_birth: bornYearsAgo(15) })).status).toBe(200);
    expect((await check(u, busy)).body).toMatchObject({ code: 'TOO_MANY_ATTEMPTS' });
    expect(await today(u, c)).toBe(1);
    expect((await check(u, visitor())).status).toBe(200);
    expect(await today(u, c)).toBe(2);
    expect(await balance()).toBe(1_000 - 20);

    const full = await check(u, visitor());
    expect(full.status).toBe(429);
    expect(full.body).toEqual({ error: 'This store cannot check more selfies today. Please try again later.', status: 'ERROR', code: 'DAILY_CAP_REACHED' });
    expect(full.res.headers.get('retry-after')).toBe(String(2 * 3_600));
    // Nor is an adult asked for a selfie that would be refused; an underage visitor is still sent away (free).
    expect((await check(u, visitor(), {})).body).toMatchObject({ code: 'DAILY_CAP_REACHED' });
    expect((await check(u, visitor(), { date_of_birth: bornYearsAgo(15) })).body).toMatchObject({ reason: 'underage' });
    expect(await balance()).toBe(1_000 - 20);

    // A test store is free and not capped.
    const test = await u.json<AgeGateStore>('PUT', '/api/age-gate', { cookie: c, body: { env: 'test', settings: { enabled: true, require_selfie: true, daily_selfie_cap: 1 } } });
    expect(test.body.selfie_checks_today).toBeNull();
    for (let i = 0; i < 2; i++) {
      const r = await u.json<AgeGateResponse>('POST', '/api/verify-age', { body: { store_id: test.body.store_id, date_of_birth: dob, selfie_b64: selfie }, address: visitor() });
      expect(r.body).toMatchObject({ _test_mode: true, verification_id: expect.stringMatching(/^age_/) });
    }

    // The count is the ledger's: a restart on the same data directory still refuses.
    u = await u.restart();
    c = await u.login();
    expect(await today(u, c)).toBe(2);
    expect((await check(u, visitor())).status).toBe(429);

    // 00:00 UTC: a new day. Three visitors at once against a cap of two: two are checked, one is refused.
    u.clock.advance(2 * HOUR_MS);
    c = await u.login();
    expect(await today(u, c)).toBe(0);
    const statuses = (await Promise.all([visitor(), visitor(), visitor()].map((a) => check(u, a)))).map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 429]);
    expect(await today(u, c)).toBe(2);
    expect((await u.s.credits.balance(u.orgId))).toBe(1_000 - 40);
  });
});

describe('the visitor memory behind the attempts', () => {
  it('rotates its hashing key every hour without giving anyone a fresh allowance, and forgets visitors after two hours', () => {
    const clock = new ManualClock(0);
    const attempts = createAgeGateAttempts(clock, 5);
    const v = ['ag_test_x', '203.0.113.9'];
    clock.advance(HOUR_MS - 60_000);
    for (let i = 0; i < 5; i++) expect(attempts.take(v).allowed).toBe(true);
    clock.advance(2 * 60_000); // the key rotated; the five attempts are two minutes old
    expect(attempts.take(v)).toMatchObject({ allowed: false, retryAfter: HOUR_MS / 1000 - 120 });
    expect(attempts.take(['ag_test_x', '203.0.113.10']).allowed).toBe(true);
    clock.advance(HOUR_MS);
    expect(attempts.take(v)).toMatchObject({ allowed: true, remaining: 4 });
    clock.advance(2 * HOUR_MS);
    attempts.take(['ag_test_y', '203.0.113.10']);
    expect(attempts.size()).toBe(1);
  });
});
