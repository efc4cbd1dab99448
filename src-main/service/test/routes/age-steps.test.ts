// Age steps 1 and 2 and the single call, on the real face models (in-process here).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgeSelfieResponse } from '../../../../src-shared/contracts/age';
import { closeAll, testService, type TestService } from '../harness';
import * as fx from '../face-fixtures';

afterAll(closeAll);

let t: TestService;
let key: { id: string; api_key: string; secret: string };
beforeAll(async () => {
  t = await testService({ plan: 'pro' });
  key = await t.key({ scopes: ['age'] });
});
const rows = async (tt: TestService) => ((await tt.sql('SELECT COUNT(*) AS n FROM verifications'))[0] as { n: number }).n;
const b64 = async (img: Promise<Buffer>) => (await img).toString('base64');

describe('POST /api/v1/verify-age/step1', () => {
  const dobYearsAgo = (years: number, days = 0) => {
    const d = new Date(t.clock.now());
    d.setUTCFullYear(d.getUTCFullYear() - years);
    d.setUTCDate(d.getUTCDate() + days);
    return d.toISOString().slice(0, 10);
  };

  it('proceeds to step 2 at the minimum age, free and unrecorded', async () => {
    const before = await rows(t);
    const { status, body } = await t.json('POST', '/api/v1/verify-age/step1', { key: key.api_key, body: { date_of_birth: dobYearsAgo(18), use_case: 'adult' } });
    expect(status).toBe(200);
    expect(body).toEqual({ success: true, proceed_to_step2: true, user_age: 18, min_age_required: 18, message: expect.any(String), credits_consumed: 0 });
    expect(await rows(t)).toBe(before);
  });

  it('one day short of the minimum is underage: failed', async () => {
    const { body } = await t.json('POST', '/api/v1/verify-age/step1', { key: key.api_key, body: { date_of_birth: dobYearsAgo(21, 1), use_case: 'alcohol' } });
    expect(body).toMatchObject({ success: false, verified: false, underage: true, status: 'failed', user_age: 20, min_age_required: 21, credits_consumed: 0 });
  });

  it('refuses an impossible or future date naming the field, never echoing it', async () => {
    for (const dob of ['2001-02-30', '01/02/2001', dobYearsAgo(-1)]) {
      const { status, body } = await t.json('POST', '/api/v1/verify-age/step1', { key: key.api_key, body: { date_of_birth: dob } });
      expect(status).toBe(400);
      expect(JSON.stringify(body)).toContain('date_of_birth');
      expect(JSON.stringify(body)).not.toContain(dob);
    }
  });

  it('someone born on 29 February comes of age on 1 March in a common year, on the service\'s clock', async () => {
    const u = await testService({ plan: 'pro' });
    const k = await u.key({ scopes: ['age'] });
    const ageOn = async (day: string) => {
      u.clock.set(Date.parse(`${day}T12:00:00Z`));
      const { body } = await u.json<{ user_age: number }>('POST', '/api/v1/verify-age/step1', { key: k.api_key, body: { date_of_birth: '2008-02-29', use_case: 'adult' } });
      return body.user_age;
    };
    expect(await ageOn('2026-02-28')).toBe(17);
    expect(await ageOn('2026-03-01')).toBe(18);
    expect(await ageOn('2028-02-29')).toBe(20);
  });
});

describe('POST /api/v1/verify-age/step2', () => {
  const step2 = (tt: TestService, k: string, body: Record<string, unknown>) =>
    tt.json<AgeSelfieResponse & Record<string, unknown>>('POST', '/api/v1/verify-age/step2', { key: k, body });

  it('verifies only when the lower end of the age range reaches the minimum; otherwise asks for an ID', async () => {
    const image = await b64(fx.selfie('a'));
    const low = await step2(t, key.api_key, { image_selfie_b64: image, min_age: 18 });
    expect(low.status).toBe(200);
    const range = low.body.age_range!;
    expect(range.Low).toBeLessThanOrEqual(low.body.estimated_age!);
    expect(range.High).toBeGreaterThanOrEqual(low.body.estimated_age!);
    // One rule, both ways: a minimum at the range's lower end verifies, one above it does not.
    const at = await step2(t, key.api_key, { image_selfie_b64: image, min_age: Math.max(13, range.Low), use_case: 'custom' });
    if (range.Low >= 13) {
      expect(at.body).toMatchObject({ verified: true, method: 'selfie', requires_id: false, status: 'success' });
      expect(at.body.proceed_to_step3).toBeUndefined();
    }
    const above = await step2(t, key.api_key, { image_selfie_b64: image, min_age: range.Low + 1, use_case: 'custom' });
    expect(above.body).toMatchObject({
      verified: false, requires_id: true, proceed_to_step3: true, reason: 'estimated_age_below_threshold', status: 'id_required',
      estimated_age: low.body.estimated_age, age_range: range,
    });
    expect(above.body.method).toBeUndefined();
    expect((await t.s.ledger.get(above.body.verification_id))).toMatchObject({ product: 'age', status: 'id_required', error_code: 'estimated_age_below_threshold' });
  });

  it('a selfie without a usable face asks for an ID with the rule missed as the reason', async () => {
    const { body } = await step2(t, key.api_key, { image_selfie_b64: await b64(fx.noFace()), min_age: 18 });
    expect(body).toMatchObject({ verified: false, proceed_to_step3: true, reason: 'no_face_detected', estimated_age: null, age_range: null, is_real_person: false });
  });

  it('charges 10 credits in live whatever the outcome, and reports the balance', async () => {
    const tt = await testService({ plan: 'pro' });
    await tt.grant(100);
    const live = await tt.key({ env: 'live', scopes: ['age'] });
    const a = await step2(tt, live.api_key, { image_selfie_b64: await b64(fx.selfie('b')), min_age: 18 });
    expect(a.body).toMatchObject({ credits_consumed: 10, credits_remaining: 90 });
    const b = await step2(tt, live.api_key, { image_selfie_b64: await b64(fx.noFace()), min_age: 25 });
    expect(b.body).toMatchObject({ credits_consumed: 10, credits_remaining: 80 });
    // Test keys consume nothing and show the balance.
    const test = await tt.key({ env: 'test', scopes: ['age'] });
    const c = await step2(tt, test.api_key, { image_selfie_b64: await b64(fx.noFace()), min_age: 18 });
    expect(c.body).toMatchObject({ credits_consumed: 0, credits_remaining: 80 });
  });

  it('refuses a bad image (named field and reason), a user_age below the minimum, and charges nothing', async () => {
    const tt = await testService({ plan: 'pro' });
    await tt.grant(100);
    const live = await tt.key({ env: 'live', scopes: ['age'] });
    const cases: [unknown, string][] = [
      ['***', 'not_base64'], ['', 'empty'], [fx.gif().toString('base64'), 'unsupported_type'], [fx.corrupt().toString('base64'), 'corrupt'],
    ];
    for (const [image, issue] of cases) {
      const { status, body } = await step2(tt, live.api_key, { image_selfie_b64: image, min_age: 18 });
      expect(status).toBe(400);
      expect(body).toMatchObject({ code: 'INVALID_IMAGE', fields: [{ field: 'image_selfie_b64', issue }] });
    }
    const missing = await step2(tt, live.api_key, { min_age: 18 });
    expect(missing.status).toBe(400);
    const young = await step2(tt, live.api_key, { image_selfie_b64: await b64(fx.selfie('a')), user_age: 16, min_age: 18 });
    expect(young.status).toBe(400);
    expect(young.body).toMatchObject({ fields: [{ field: 'user_age', issue: 'below_minimum_age' }] });
    expect((await tt.s.credits.balance(tt.orgId))).toBe(100);
    expect(await rows(tt)).toBe(0);
  });

  it('demo keys answer a simulated verified result and consume nothing', async () => {
    const tt = await testService({ plan: 'pro' });
    await tt.grant(20);
    const demo = await tt.key({ env: 'live', scopes: ['age'], demo: true });
    const { body } = await step2(tt, demo.api_key, { image_selfie_b64: await b64(fx.noFace()), min_age: 21, use_case: 'alcohol' });
    expect(body).toMatchObject({ verified: true, simulated: true, estimated_age: 28, age_range: { Low: 24, High: 32 }, credits_consumed: 0 });
    expect((await tt.s.credits.balance(tt.orgId))).toBe(20);
  });
});

describe('POST /api/v1/verify-age/verify (single call)', () => {
  it('without an ID it is step 2 in one call (with an ID: documents.test.ts)', async () => {
    const tt = await testService({ plan: 'pro' });
    await tt.grant(100);
    const live = await tt.key({ env: 'live', scopes: ['age'] });
    const image = await b64(fx.selfie('c'));
    const one = await tt.json<AgeSelfieResponse>('POST', '/api/v1/verify-age/verify', { key: live.api_key, body: { image_selfie_b64: image, use_case: 'adult' } });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ min_age: 18, credits_consumed: 10, estimated_age: expect.any(Number) });
    expect((await tt.s.credits.balance(tt.orgId))).toBe(90);
    // The mobile status of the age verification.
    const m = await tt.json('GET', `/api/mobile/v1/age/status/${one.body.verification_id}`, { key: live.api_key });
    expect(m.body).toMatchObject({ verification_id: one.body.verification_id, product: 'age', environment: 'live' });
  });
});
