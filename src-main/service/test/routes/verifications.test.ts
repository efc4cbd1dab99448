// The console's verification ledger and its try panel.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgeSelfieResponse } from '../../../../src-shared/contracts/age';
import type { LivenessResult } from '../../../../src-shared/contracts/faces';
import type { VerificationPage } from '../../../../src-shared/contracts/verifications';
import { ORIGIN, closeAll, testService, type TestService } from '../harness';
import * as fx from '../face-fixtures';

afterAll(closeAll);

let t: TestService;
let cookie: string;
beforeAll(async () => {
  t = await testService({ plan: 'pro' });
  cookie = await t.login();
});

const tryIt = async (tt: TestService, ck: string, path: string, file: Uint8Array | null, headers: Record<string, string> = {}) => {
  const res = await tt.app.request(`${ORIGIN}${path}`, { method: 'POST', body: fx.form(file), headers: { Cookie: ck, Origin: ORIGIN, ...headers } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe('console try panel', () => {
  it('runs liveness and age on an image in test, free, as a keyless ledger row', async () => {
    await t.grant(50);
    const live = await tryIt(t, cookie, '/api/console/try/liveness', await fx.selfie('a'));
    expect(live.status).toBe(200);
    expect(live.body as unknown as LivenessResult).toMatchObject({ status: 'PASS', analysis: { faces_found: 1 } });
    const age = await tryIt(t, cookie, '/api/console/try/age?min_age=25', await fx.selfie('b'));
    expect(age.status).toBe(200);
    expect(age.body as unknown as AgeSelfieResponse).toMatchObject({ min_age: 25, credits_consumed: 0, age_range: expect.any(Object) });
    expect((await t.s.credits.balance(t.orgId))).toBe(50);
    expect((await t.s.ledger.get(live.body.verification_id as string))).toMatchObject({ env: 'test', api_key_id: null, product: 'human', credits: 0 });
  });

  it('refuses a bad image by name, a bad min_age, and cross-origin or unauthenticated calls', async () => {
    const bad = await tryIt(t, cookie, '/api/console/try/liveness', fx.gif());
    expect(bad).toMatchObject({ status: 400, body: { code: 'INVALID_IMAGE', fields: [{ field: 'file', issue: 'unsupported_type' }] } });
    const missing = await tryIt(t, cookie, '/api/console/try/age', null);
    expect(missing.body).toMatchObject({ fields: [{ field: 'file', issue: 'missing' }] });
    expect((await tryIt(t, cookie, '/api/console/try/age?min_age=7', await fx.selfie('a'))).status).toBe(400);
    expect((await tryIt(t, cookie, '/api/console/try/liveness', await fx.selfie('a'), { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403);
    expect((await tryIt(t, '', '/api/console/try/liveness', await fx.selfie('a'))).status).toBe(401);
  });
});

describe('GET /api/verifications', () => {
  it('lists the organisation\'s ledger in one environment, newest first, with filters; never another org\'s rows', async () => {
    const key = await t.key({ scopes: ['human'] });
    t.clock.advance(1000);
    const api = await t.app.request(`${ORIGIN}/api/verify`, { method: 'POST', body: fx.form(await fx.noFace()), headers: { 'X-API-Key': key.api_key } });
    const apiId = ((await api.json()) as LivenessResult).verification_id;
    t.clock.advance(1000);
    const other = await t.addOrg({ email: 'other-ledger@example.test' });
    const theirKey = await other.key({ scopes: ['human'] });
    await t.app.request(`${ORIGIN}/api/verify`, { method: 'POST', body: fx.form(await fx.noFace()), headers: { 'X-API-Key': theirKey.api_key } });

    const all = await t.json<VerificationPage>('GET', '/api/verifications?env=test', { cookie });
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(3);
    expect(all.body.entries[0]).toMatchObject({ verification_id: apiId, product: 'human', status: 'FAIL', failure_reason: 'no_face_detected', api_key_id: key.id, api_key_name: expect.any(String) });
    expect(all.body.statuses).toEqual(expect.arrayContaining(['FAIL', 'PASS']));
    const byKey = await t.json<VerificationPage>('GET', `/api/verifications?env=test&key=${key.id}`, { cookie });
    expect(byKey.body.entries.map((e) => e.verification_id)).toEqual([apiId]);
    const consoleOnly = await t.json<VerificationPage>('GET', '/api/verifications?env=test&key=console&product=age', { cookie });
    expect(consoleOnly.body.total).toBe(1);
    const live = await t.json<VerificationPage>('GET', '/api/verifications?env=live', { cookie });
    expect(live.body.total).toBe(0);
    const paged = await t.json<VerificationPage>('GET', '/api/verifications?env=test&per_page=2&page=2', { cookie });
    expect(paged.body).toMatchObject({ page: 2, pages: 2, total: 3 });
    expect(paged.body.entries).toHaveLength(1);
    const theirs = await t.json<VerificationPage>('GET', '/api/verifications?env=test', { cookie: await other.login() });
    expect(theirs.body.total).toBe(1);
  });

  it('validates its query and needs a session', async () => {
    expect((await t.json('GET', '/api/verifications', { cookie })).status).toBe(400);
    expect((await t.json('GET', '/api/verifications?env=test&product=bogus', { cookie })).status).toBe(400);
    expect((await t.json('GET', '/api/verifications?env=test&per_page=1000', { cookie })).status).toBe(400);
    expect((await t.json('GET', '/api/verifications?env=test')).status).toBe(401);
  });
});
