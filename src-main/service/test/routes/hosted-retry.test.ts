// Hosted failures explained and retryable (issue 26): a failure the person can fix answers `retry`
// with its code on the same link, up to the organisation's attempts (Settings, 1-10, default 3),
// the session charged once; a failure nobody can fix ends it at once; the analyst's list carries
// each failed attempt's code and the rules' numbers, never a picture or a document's contents.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostedAttemptsSettings, HostedCompleteResponse, HostedGenerateResponse, HostedPage, HostedSessionList, HostedSessionView } from '../../../../src-shared/contracts/hosted';
import { closeAll, testService, type TestService } from '../harness';
import { degrade, HOLDERS, renderSpecimen } from '../document-fixtures';
import * as fx from '../face-fixtures';
import { recordedModels } from '../recorded-models';

// The flows around the models are this file's subject: their outputs replay from a recording.
const models = recordedModels('hosted-retry');

afterAll(closeAll);

let t: TestService;
let owner: string;
let member: string;
let testKey: string;
let liveKey: string;
beforeAll(async () => {
  t = await testService({ plan: 'pro', models });
  owner = await t.login();
  await t.s.accounts.addUser({ orgId: t.orgId, email: 'member-retry@example.test', name: 'Mem', password: 'member password 1', role: 'member' });
  member = await t.login('member-retry@example.test', 'member password 1');
  testKey = (await t.key({ scopes: ['human', 'age', 'identity'] })).api_key;
  liveKey = (await t.key({ env: 'live', scopes: ['human', 'age', 'identity'] })).api_key;
  await t.grant(500);
}, 60_000);

const b64 = (b: Buffer) => b.toString('base64');
const generate = (body: Record<string, unknown>, key = testKey) =>
  t.json<HostedGenerateResponse>('POST', '/hosted/generate', { body, headers: { Authorization: `Bearer ${key}` } });
const complete = (token: string, body: Record<string, unknown>) => t.json<HostedCompleteResponse & Record<string, unknown>>('POST', `/hosted/complete/${token}`, { body });
const page = (token: string) => t.json<HostedPage>('GET', `/hosted/session/${token}`);
const setAttempts = (hosted_attempts: unknown, cookie = owner) => t.json<HostedAttemptsSettings & Record<string, unknown>>('PUT', '/api/settings/hosted-attempts', { cookie, body: { hosted_attempts } });
const listed = async (id: string, cookie = owner, env = 'test'): Promise<HostedSessionView | undefined> =>
  (await t.json<HostedSessionList>('GET', `/api/hosted/sessions?env=${env}`, { cookie })).body.sessions.find((s) => s.session_id === id);
const specimen = async () => b64(await degrade(await renderSpecimen(HOLDERS[1]!), 'clean'));

describe('GET/PUT /api/settings/hosted-attempts', () => {
  it('3 by default; owners and admins set 1-10; members read; bad values are refused by field; no session, no answer', async () => {
    expect((await t.json('GET', '/api/settings/hosted-attempts', { cookie: member })).body).toEqual({ hosted_attempts: 3 });
    for (const bad of [0, 11, 2.5, '4', null]) {
      const r = await setAttempts(bad);
      expect(r.status, String(bad)).toBe(400);
      expect(r.body).toMatchObject({ field: 'hosted_attempts' });
    }
    expect((await t.json('PUT', '/api/settings/hosted-attempts', { cookie: owner, body: { hosted_attempts: 4, extra: 1 } })).status).toBe(400);
    expect((await setAttempts(5, member)).status).toBe(403);
    expect((await t.json('GET', '/api/settings/hosted-attempts')).status).toBe(401);
    expect((await t.json('PUT', '/api/settings/hosted-attempts', { body: { hosted_attempts: 5 } })).status).toBe(401);
    expect((await setAttempts(5)).body).toEqual({ hosted_attempts: 5 });
    expect((await t.json('GET', '/api/settings/hosted-attempts', { cookie: member })).body).toEqual({ hosted_attempts: 5 });
    // The change is audited (from → to); the same number again writes nothing.
    await setAttempts(5);
    const changed = (await t.json<{ entries: { setting: string | null; from_value: string | null; to_value: string | null }[] }>('GET', '/api/audit?action=settings.changed', { cookie: owner })).body.entries
      .filter((e) => e.setting === 'hosted_attempts');
    expect(changed.map((e) => [e.from_value, e.to_value])).toEqual([['3', '5']]);
    // Another organisation's number is its own.
    const other = await t.addOrg({ email: 'owner@other-retry.test' });
    const theirs = await other.login();
    expect((await t.json('GET', '/api/settings/hosted-attempts', { cookie: theirs })).body).toEqual({ hosted_attempts: 3 });
    expect((await t.json('PUT', '/api/settings/hosted-attempts', { cookie: theirs, body: { hosted_attempts: 1 } })).status).toBe(200);
    expect((await t.json('GET', '/api/settings/hosted-attempts', { cookie: member })).body).toEqual({ hosted_attempts: 5 });
    await setAttempts(3);
  });
});

describe('a failed hosted check the person can fix is retried on the same link', () => {
  it('liveness: the organisation\'s number of recordings; each miss gives its code and rule; the analyst sees each attempt\'s code and numbers', async () => {
    await setAttempts(4);
    try {
      const g = await generate({ product: 'human' });
      expect((await page(g.body.token)).body).toMatchObject({ attempts_left: 4, challenge: { attempts_left: 4 } });
      for (const left of [3, 2, 1]) {
        const miss = await complete(g.body.token, { selfie_b64: b64(await fx.noFaceClip()) });
        expect(miss.body).toMatchObject({ status: 'retry', reason: 'no_face_detected', attempts_left: left, challenge: { failed: 'face_in_view', attempts_left: left } });
      }
      expect((await page(g.body.token)).body.attempts_left).toBe(1);
      const last = await complete(g.body.token, { selfie_b64: b64(await fx.noFaceClip()) });
      expect(last.body).toMatchObject({ status: 'failed', reason: 'no_face_detected', attempts_left: 0 });

      const seen = (await listed(g.body.session_id))!;
      expect(seen).toMatchObject({ state: 'completed', outcome: 'failed', attempts_allowed: 4 });
      expect(seen.failed_attempts.map((a) => [a.attempt, a.reason, a.rule])).toEqual([1, 2, 3, 4].map((n) => [n, 'no_face_detected', 'face_in_view']));
      const first = seen.failed_attempts[0]!;
      expect(first.verification_id).toMatch(/^ver_/);
      expect(first.checks).toEqual(expect.arrayContaining([{ rule: 'face_in_view', passed: false, value: expect.any(Number), limit: expect.any(Number) }]));
      // Codes and numbers only.
      expect(JSON.stringify(seen.failed_attempts)).toMatch(/^[\w"{}[\]:,.\-+]*$/);
    } finally {
      await setAttempts(3);
    }
  }, 120_000);

  it('identity: an unreadable document is retried on the same link and passes; a live session is charged once', async () => {
    const g = await generate({ product: 'identity' }, liveKey);
    const before = (await t.s.credits.balance(t.orgId));
    const selfie = b64(await fx.headTurnClip('b'));
    const miss = await complete(g.body.token, { selfie_b64: selfie, id_front_b64: b64(await fx.noFace()) });
    expect(miss.body).toMatchObject({ status: 'retry', reason: 'document_unreadable', attempts_left: 2, redirect_url: null });
    // The head turn was met (the document is what to send again).
    expect(miss.body.challenge).toEqual({ failed: null, attempts_left: 2 });
    expect((await page(g.body.token)).body).toMatchObject({ state: 'opened', attempts_left: 2 });
    const pass = await complete(g.body.token, { selfie_b64: selfie, id_front_b64: await specimen() });
    expect(pass.body).toMatchObject({ status: 'passed', attempts_left: 0 });
    expect((await t.s.credits.balance(t.orgId))).toBe(before - 30);
    expect((await t.s.ledger.get(pass.body.verification_id!))).toMatchObject({ status: 'PASS', credits: 0 });
    const seen = (await listed(g.body.session_id, owner, 'live'))!;
    expect(seen.failed_attempts).toEqual([{
      attempt: 1, at: expect.any(String), verification_id: miss.body.verification_id, reason: 'document_unreadable', rule: null,
      checks: expect.arrayContaining([{ rule: 'one_face', passed: true, value: 1, limit: 1 }]),
    }]);
    // The document was not read, so the faces were never compared: no face-match number that would mean nothing.
    expect(seen.failed_attempts[0]!.checks.map((c) => c.rule)).not.toContain('face_match');
    expect(JSON.stringify(seen)).not.toMatch(/MUSTERMANN|ERIKA|C01X00T47|1964/);
  }, 120_000);

  it('age: a failed ID step is a new attempt at the ID (the selfie flow closed), paid by the session\'s first act', async () => {
    const g = await generate({ product: 'age', min_age: 60 }, liveKey);
    const before = (await t.s.credits.balance(t.orgId));
    const selfie = b64(await fx.headTurnClip('b'));
    expect((await complete(g.body.token, { date_of_birth: '1964-08-12', selfie_b64: selfie })).body).toMatchObject({ status: 'id_required', attempts_left: 3 });
    const miss = await complete(g.body.token, { selfie_b64: selfie, id_front_b64: b64(await fx.noFace()) });
    expect(miss.body).toMatchObject({ status: 'retry', reason: 'document_unreadable', attempts_left: 2 });
    expect((await page(g.body.token)).body).toMatchObject({ needs_id: true, attempts_left: 2 });
    const pass = await complete(g.body.token, { selfie_b64: selfie, id_front_b64: await specimen() });
    expect(pass.body).toMatchObject({ status: 'passed' });
    expect((await t.s.credits.balance(t.orgId))).toBe(before - 10);
    expect((await listed(g.body.session_id, owner, 'live'))!.failed_attempts).toEqual([
      { attempt: 1, at: expect.any(String), verification_id: miss.body.verification_id, reason: 'document_unreadable', rule: null, checks: [] },
    ]);
  }, 120_000);
});

describe('failures that end the session at once', () => {
  it('with one attempt set, the first failure ends the session, failed, and is recorded', async () => {
    await setAttempts(1);
    try {
      const g = await generate({ product: 'human', failure_redirect_url: 'https://shop.example/failed' });
      expect((await page(g.body.token)).body.attempts_left).toBe(1);
      const r = await complete(g.body.token, { selfie_b64: b64(await fx.noFaceClip()) });
      expect(r.body).toMatchObject({ status: 'failed', reason: 'no_face_detected', attempts_left: 0 });
      expect(r.body.redirect_url).toContain('https://shop.example/failed?');
      expect((await listed(g.body.session_id))!.failed_attempts).toMatchObject([{ attempt: 1, reason: 'no_face_detected', rule: 'face_in_view' }]);
    } finally {
      await setAttempts(3);
    }
  }, 60_000);

  it('a date of birth below the minimum is final whatever attempts are left', async () => {
    const g = await generate({ product: 'age', min_age: 21 });
    const young = new Date(t.clock.now() - 19 * 365.25 * 86_400_000).toISOString().slice(0, 10);
    const r = await complete(g.body.token, { date_of_birth: young, selfie_b64: b64(await fx.selfie('a')) });
    expect(r.body).toMatchObject({ status: 'failed', reason: 'below_minimum_age', attempts_left: 0 });
    expect((await listed(g.body.session_id))!.failed_attempts).toMatchObject([{ attempt: 1, reason: 'below_minimum_age', rule: null, checks: [] }]);
    expect((await complete(g.body.token, { date_of_birth: '1970-01-01', selfie_b64: b64(await fx.selfie('a')) })).status).toBe(410);
  });

  it('lowering the number makes the next failure on a link already given its last', async () => {
    const g = await generate({ product: 'human' });
    expect((await complete(g.body.token, { selfie_b64: b64(await fx.noFaceClip()) })).body).toMatchObject({ status: 'retry', attempts_left: 2 });
    await setAttempts(1);
    try {
      expect((await page(g.body.token)).body).toMatchObject({ state: 'opened', attempts_left: 1 });
      expect((await complete(g.body.token, { selfie_b64: b64(await fx.noFaceClip()) })).body).toMatchObject({ status: 'failed', attempts_left: 0 });
      expect((await listed(g.body.session_id))!.failed_attempts.map((a) => a.attempt)).toEqual([1, 2]);
    } finally {
      await setAttempts(3);
    }
  }, 60_000);
});

describe('the analyst\'s view is the organisation\'s own', () => {
  it('another organisation lists none of these sessions or attempts, and its number does not change them', async () => {
    const g = await generate({ product: 'human' });
    await complete(g.body.token, { selfie_b64: b64(await fx.noFaceClip()) });
    const other = await t.addOrg({ email: 'owner@third-retry.test' });
    const theirs = await other.login();
    expect((await t.json('PUT', '/api/settings/hosted-attempts', { cookie: theirs, body: { hosted_attempts: 1 } })).status).toBe(200);
    const list = await t.json<HostedSessionList>('GET', '/api/hosted/sessions?env=test', { cookie: theirs });
    expect(list.body.sessions.find((s) => s.session_id === g.body.session_id)).toBeUndefined();
    expect(JSON.stringify(list.body)).not.toContain(g.body.session_id);
    expect((await page(g.body.token)).body.attempts_left).toBe(2);
    expect((await listed(g.body.session_id, member))!.failed_attempts).toHaveLength(1);
    expect((await t.json('GET', '/api/hosted/sessions?env=test')).status).toBe(401);
  }, 60_000);
});
