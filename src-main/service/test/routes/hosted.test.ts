// Hosted sessions through their HTTP routes: made by a Bearer API key, opened and completed with
// the URL token (single use, expiring, revocable), the product run on the real models, the
// redirect by the spec's rules with routing signals only, and verification.completed.
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostedCompleteResponse, HostedGenerateResponse, HostedPage, HostedSessionList } from '../../../../src-shared/contracts/hosted';
import type { HostedRow } from '../../core/hosted/sessions';
import { fixtureCommand } from '../fixture-bundle';
import { closeAll, ORIGIN, TEST_ENGINE, testService, type TestService } from '../harness';
import { degrade, HOLDERS, renderSpecimen } from '../document-fixtures';
import * as fx from '../face-fixtures';
import { recordedModels } from '../recorded-models';

// The flows around the models are this file's subject: their outputs replay from a recording.
const models = recordedModels('hosted');

afterAll(closeAll);

let t: TestService;
let testKey: string;
let liveKey: string;
let cookie: string;
beforeAll(async () => {
  t = await testService({ plan: 'pro', models });
  testKey = (await t.key({ scopes: ['human', 'age', 'identity'] })).api_key;
  liveKey = (await t.key({ env: 'live', scopes: ['human', 'age', 'identity'] })).api_key;
  await t.grant(200);
  cookie = await t.login();
  // The organisation's apps return by these schemes (test/routes/redirects.test.ts: the rules themselves).
  expect((await t.json('PUT', '/api/settings/app-schemes', { cookie, body: { app_schemes: ['myapp', 'com.example.app'] } })).status).toBe(200);
  await t.s.webhooks.create({ orgId: t.orgId, url: 'https://receiver.example/hooks', env: 'test', events: ['verification.completed'], createdBy: null });
  await t.s.webhooks.create({ orgId: t.orgId, url: 'https://receiver.example/hooks', env: 'live', events: ['verification.completed'], createdBy: null });
}, 60_000);

const b64 = (b: Buffer) => b.toString('base64');
// Hosted liveness takes a clip: a head turning passes the challenge; a clip with no face misses it.
const headTurnClip = async () => b64(await fx.headTurnClip());
const noFaceClip = async () => b64(await fx.noFaceClip());
const generate = (body: Record<string, unknown>, key = testKey, headers: Record<string, string> = { Authorization: `Bearer ${key}` }) =>
  t.json<HostedGenerateResponse & Record<string, unknown>>('POST', '/hosted/generate', { body, headers });
const complete = (token: string, body: Record<string, unknown>) => t.json<HostedCompleteResponse & Record<string, unknown>>('POST', `/hosted/complete/${token}`, { body });
/** The verification.completed event of one verification. */
const eventOf = async (verificationId: unknown) => ((await t.sql("SELECT env, payload FROM webhook_events WHERE type = 'verification.completed'")) as { env: string; payload: string }[])
  .map((e): Record<string, unknown> => ({ env: e.env, ...(JSON.parse(e.payload) as Record<string, unknown>) })).find((e) => e.verification_id === verificationId);

describe('POST /hosted/generate', () => {
  it('makes a session for a Bearer API key: a hosted URL with a token kept only as a hash, expiring as asked', async () => {
    const { status, body, res } = await generate({ product: 'human', redirect_url: 'https://shop.example/done', expires_in_hours: 2, page_title: 'Check-in' });
    expect(status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(body.hosted_url).toBe(`${ORIGIN}/hosted/v/${body.token}`);
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(body.expires_at) - t.clock.now()).toBe(2 * 3_600_000);
    const row = (await t.sql('SELECT * FROM hosted_sessions WHERE id = ?', body.session_id))[0] as Record<string, unknown>;
    expect(row).toMatchObject({ product: 'human', env: 'test', state: 'created', page_title: 'Check-in' });
    expect(JSON.stringify((await t.sql('SELECT * FROM hosted_sessions')))).not.toContain(body.token);
  });

  it('accepts https, registered app-scheme deep links and loopback http; refuses scripts, data, files, plain http and credentials by field, without echoing the URL', async () => {
    for (const ok of ['https://shop.example/done?x=1', 'myapp://verify/done', 'com.example.app:/callback', 'http://localhost:3000/cb', 'http://127.0.0.1/cb']) {
      expect((await generate({ product: 'human', redirect_url: ok })).status, ok).toBe(200);
    }
    const refused: [string, string][] = [
      ['javascript:alert(document.cookie)', 'refused_scheme'], ['JaVaScRiPt:alert(1)', 'refused_scheme'], ['java\tscript:alert(1)', 'not_a_url'],
      ['data:text/html;base64,PHNjcmlwdD4=', 'refused_scheme'], ['file:///etc/passwd', 'refused_scheme'], ['http://shop.example/done', 'http_not_allowed'],
      ['https://user:secret@shop.example/', 'credentials_in_url'], ['/relative/path', 'not_a_url'], ['vbscript:msgbox', 'refused_scheme'],
    ];
    for (const [url, issue] of refused) {
      const r = await generate({ product: 'human', redirect_url: 'https://ok.example/', failure_redirect_url: url });
      expect(r.status, url).toBe(400);
      expect(r.body).toMatchObject({ code: 'INVALID_PARAMETERS', fields: [{ field: 'failure_redirect_url', issue }] });
      expect(JSON.stringify(r.body)).not.toContain(url.slice(0, 12));
    }
    expect((await generate({ product: 'human', expires_in_hours: 0 })).status).toBe(400);
    expect((await generate({ product: 'bogus' })).status).toBe(400);
  });

  it('needs an API key as a Bearer token, with the scope of the product', async () => {
    expect((await generate({ product: 'human' }, testKey, { 'X-API-Key': testKey })).status).toBe(401);
    expect((await generate({ product: 'human' }, testKey, { Authorization: 'Bearer svk-nope' })).status).toBe(401);
    const humanOnly = (await t.key({ scopes: ['human'] })).api_key;
    const wrong = await generate({ product: 'identity' }, humanOnly);
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('API key does not have the required scope');
  });
});

describe('the hosted page\'s calls: GET /hosted/session/:token and POST /hosted/complete/:token', () => {
  it('runs liveness in test mode (free): passed, the redirect with routing signals only, verification.completed, and the link used up', async () => {
    const g = await generate({ product: 'human', redirect_url: 'https://shop.example/done?order=42', success_message: 'Thanks!' });
    const page = await t.json<HostedPage>('GET', `/hosted/session/${g.body.token}`);
    expect(page.body).toMatchObject({ product: 'human', state: 'opened', test_mode: true, page_title: null, needs_id: false });
    const before = (await t.s.credits.balance(t.orgId));
    const r = await complete(g.body.token, { selfie_b64: await headTurnClip() });
    expect(r.status).toBe(200);
    expect(r.res.headers.get('cache-control')).toBe('no-store');
    expect(r.body).toMatchObject({ status: 'passed', product: 'human', environment: 'test', message: 'Thanks!', test_mode: true, reason: null });
    const target = new URL(r.body.redirect_url!);
    expect(`${target.origin}${target.pathname}`).toBe('https://shop.example/done');
    expect(Object.fromEntries(target.searchParams)).toEqual({ order: '42', hosted_session: g.body.session_id, status: 'passed' });
    expect((await t.s.credits.balance(t.orgId))).toBe(before);
    expect((await t.s.ledger.get(r.body.verification_id!))).toMatchObject({ product: 'human', env: 'test', status: 'PASS', credits: 0 });
    expect(await eventOf(r.body.verification_id)).toMatchObject({ env: 'test', event: 'verification.completed', verification_id: r.body.verification_id, status: 'PASS', product: 'human', environment: 'test', timestamp: expect.any(String) });

    const again = await complete(g.body.token, { selfie_b64: await headTurnClip() });
    expect(again.status).toBe(410);
    expect(again.body).toMatchObject({ code: 'HOSTED_SESSION_CLOSED', error: expect.stringContaining('already used') });
    expect((await t.json<HostedPage>('GET', `/hosted/session/${g.body.token}`)).body.state).toBe('completed');
  }, 120_000);

  it('a failure goes to failure_redirect_url when set, else nowhere; a live session is paid by the key that made it, once', async () => {
    const withFailure = await generate({ product: 'human', redirect_url: 'https://shop.example/ok', failure_redirect_url: 'myapp://verify/failed' }, liveKey);
    const before = (await t.s.credits.balance(t.orgId));
    // Three recordings with no face: two are asked again, the third fails the session.
    for (const left of [2, 1]) {
      expect((await complete(withFailure.body.token, { selfie_b64: await noFaceClip() })).body)
        .toMatchObject({ status: 'retry', reason: 'no_face_detected', redirect_url: null, challenge: { failed: 'face_in_view', attempts_left: left } });
    }
    const r = await complete(withFailure.body.token, { selfie_b64: await noFaceClip() });
    expect(r.body).toMatchObject({ status: 'failed', environment: 'live', reason: 'no_face_detected', test_mode: false, challenge: { attempts_left: 0 } });
    expect(r.body.redirect_url).toBe(`myapp://verify/failed?hosted_session=${withFailure.body.session_id}&status=failed`);
    expect((await t.s.credits.balance(t.orgId))).toBe(before - 1);
    expect(await eventOf(r.body.verification_id)).toMatchObject({ env: 'live', status: 'FAIL', verification_id: r.body.verification_id });

    // Denied at the date of birth, with no failure URL: the person stays on the result page.
    const noFailureUrl = await generate({ product: 'age', min_age: 21, redirect_url: 'https://shop.example/ok' });
    const young = new Date(t.clock.now() - 19 * 365.25 * 86_400_000).toISOString().slice(0, 10);
    const stay = await complete(noFailureUrl.body.token, { date_of_birth: young, selfie_b64: b64(await fx.selfie('a')) });
    expect(stay.body).toMatchObject({ status: 'failed', redirect_url: null, message: 'We could not verify you this time.' });
  }, 120_000);

  it('age: under the minimum by date of birth is a denial without a picture looked at; a selfie that is not enough asks for an ID, which finishes the flow without a second charge', async () => {
    const denied = await generate({ product: 'age', min_age: 21, failure_redirect_url: 'https://www.example.org/' }, liveKey);
    const before = (await t.s.credits.balance(t.orgId));
    const young = new Date(t.clock.now() - 19 * 365.25 * 86_400_000).toISOString().slice(0, 10);
    const d = await complete(denied.body.token, { date_of_birth: young, selfie_b64: 'not even an image' });
    expect(d.body).toMatchObject({ status: 'failed', reason: 'below_minimum_age' });
    expect(d.body.redirect_url).toContain('https://www.example.org/?hosted_session=');
    expect((await t.s.credits.balance(t.orgId))).toBe(before);

    const flow = await generate({ product: 'age', min_age: 60, redirect_url: 'https://shop.example/adult' }, liveKey);
    expect((await t.json<HostedPage>('GET', `/hosted/session/${flow.body.token}`)).body.challenge).toMatchObject({ kind: 'head_turn' });
    // One liveness policy (issue 37): the age selfie is the head-turn clip too; a photo is refused before anything runs.
    const photo = await complete(flow.body.token, { date_of_birth: '1964-08-12', selfie_b64: b64(await fx.selfie('b')) });
    expect(photo.body).toMatchObject({ fields: [{ field: 'selfie_b64', issue: 'video_required' }] });
    expect((await t.s.credits.balance(t.orgId))).toBe(before);
    const selfie = b64(await fx.headTurnClip('b'));
    const step = await complete(flow.body.token, { date_of_birth: '1964-08-12', selfie_b64: selfie });
    expect(step.body).toMatchObject({ status: 'id_required', redirect_url: null });
    expect((await t.json<HostedPage>('GET', `/hosted/session/${flow.body.token}`)).body).toMatchObject({ state: 'opened', needs_id: true, min_age: 60 });
    const missing = await complete(flow.body.token, { selfie_b64: selfie });
    expect(missing.body).toMatchObject({ fields: [{ field: 'id_front_b64', issue: 'missing' }] });
    const id = await complete(flow.body.token, { selfie_b64: selfie, id_front_b64: b64(await degrade(await renderSpecimen(HOLDERS[1]!), 'clean')) });
    expect(id.body).toMatchObject({ status: 'passed', verification_id: step.body.verification_id });
    expect((await t.s.credits.balance(t.orgId))).toBe(before - 10);
    expect((await t.s.ledger.get(step.body.verification_id!))).toMatchObject({ status: 'success', credits: 10, liveness_evidence: 'head_turn_clip' });
  }, 120_000);

  it('identity: the head-turn clip and an ID document (a photo as the selfie is refused); the answer to the page carries no document data', async () => {
    const g = await generate({ product: 'identity' });
    expect((await t.json<HostedPage>('GET', `/hosted/session/${g.body.token}`)).body.challenge).toMatchObject({ kind: 'head_turn' });
    const id = b64(await degrade(await renderSpecimen(HOLDERS[1]!, { kind: 'td1' }), 'clean'));
    const photo = await complete(g.body.token, { selfie_b64: b64(await fx.selfie('b')), id_front_b64: id });
    expect(photo.status).toBe(400);
    expect(photo.body).toMatchObject({ fields: [{ field: 'selfie_b64', issue: 'video_required' }] });
    const r = await complete(g.body.token, { selfie_b64: b64(await fx.headTurnClip('b')), id_front_b64: id });
    expect(r.body).toMatchObject({ status: 'passed', product: 'identity' });
    expect(JSON.stringify(r.body)).not.toMatch(/MUSTERMANN|C01X00T47|1964/);
    expect((await t.s.ledger.get(r.body.verification_id!))).toMatchObject({ liveness_evidence: 'head_turn_clip' });
  }, 120_000);

  it('refuses unknown, expired and revoked links and a revoked key\'s links; missing fields are named; nothing is run or charged', async () => {
    expect((await complete('x'.repeat(43), { selfie_b64: 'x' })).status).toBe(404);
    expect((await t.json('GET', `/hosted/session/${'y'.repeat(43)}`)).status).toBe(404);

    const missing = await generate({ product: 'human' });
    expect((await complete(missing.body.token, {})).body).toMatchObject({ status: 'ERROR', fields: [{ field: 'selfie_b64', issue: 'missing' }] });

    const short = await generate({ product: 'human', expires_in_hours: 1 });
    t.clock.advance(3_600_000 + 1);
    const late = await complete(short.body.token, { selfie_b64: b64(await fx.selfie('a')) });
    expect(late.status).toBe(410);
    expect(late.body.error).toContain('expired');

    const revoked = await generate({ product: 'human' });
    const other = await t.addOrg({ email: 'owner@other-hosted.test' });
    expect((await t.json('POST', `/api/hosted/sessions/${revoked.body.session_id}/revoke`, { cookie: await other.login() })).status).toBe(404);
    const rv = await t.json('POST', `/api/hosted/sessions/${revoked.body.session_id}/revoke`, { cookie });
    expect(rv.body).toMatchObject({ state: 'revoked' });
    expect((await complete(revoked.body.token, { selfie_b64: b64(await fx.selfie('a')) })).status).toBe(410);

    const k = await t.key({ scopes: ['human'] });
    const byKey = await generate({ product: 'human' }, k.api_key);
    await t.s.keys.revoke(k.id);
    expect((await complete(byKey.body.token, { selfie_b64: b64(await fx.selfie('a')) })).status).toBe(410);
  }, 60_000);

  it('an owner makes a session in the console for an on-site check; a member may not; the link works like an API key\'s', async () => {
    const made = await t.json<HostedGenerateResponse>('POST', '/api/hosted/sessions', { cookie, body: { product: 'human', env: 'test', page_title: 'Front desk' } });
    expect(made.status).toBe(200);
    expect(made.body.hosted_url).toBe(`${ORIGIN}/hosted/v/${made.body.token}`);
    expect((await t.sql('SELECT api_key_id, env FROM hosted_sessions WHERE id = ?', made.body.session_id))[0]).toEqual({ api_key_id: null, env: 'test' });
    expect((await t.json<HostedPage>('GET', `/hosted/session/${made.body.token}`)).body).toMatchObject({ page_title: 'Front desk', test_mode: true });
    expect((await t.json('POST', '/api/hosted/sessions', { cookie, body: { product: 'human', env: 'test', redirect_url: 'javascript:alert(1)' } })).status).toBe(400);
    await t.s.accounts.addUser({ orgId: t.orgId, email: 'member-hosted@example.test', name: 'Mem', password: 'member password 1', role: 'member' });
    const member = await t.login('member-hosted@example.test', 'member password 1');
    expect((await t.json('POST', '/api/hosted/sessions', { cookie: member, body: { product: 'human', env: 'test' } })).status).toBe(403);
  });

  it('the console lists the sessions with their state and no token or subject data', async () => {
    const list = await t.json<HostedSessionList>('GET', '/api/hosted/sessions?env=test', { cookie });
    expect(list.status).toBe(200);
    const states = new Set(list.body.sessions.map((s) => s.state));
    expect([...states]).toEqual(expect.arrayContaining(['completed', 'expired', 'revoked', 'created']));
    expect(list.body.sessions.every((s) => s.environment === 'test')).toBe(true);
    expect(JSON.stringify(list.body)).not.toMatch(/token|MUSTERMANN/);
    expect((await t.json('GET', '/api/hosted/sessions')).status).toBe(401);
  });
});

describe('hosted liveness requires the recorded challenge, is charged once, and keeps its missed recordings', () => {
  const page = (token: string, tt = t) => tt.json<HostedPage>('GET', `/hosted/session/${token}`);
  const ledgerCount = async () => ((await t.sql('SELECT COUNT(*) AS n FROM verifications'))[0] as { n: number }).n;
  const sessionRow = async (id: string, tt = t) => (await tt.sql('SELECT * FROM hosted_sessions WHERE id = ?', id))[0] as HostedRow;

  it('a photo instead of the clip is a 400 naming selfie_b64 video_required, before anything runs: not charged, not an attempt, the session still open', async () => {
    const g = await generate({ product: 'human' }, liveKey);
    expect((await page(g.body.token)).body.challenge).toMatchObject({ kind: 'head_turn', attempts_left: 3 });
    const balance = (await t.s.credits.balance(t.orgId));
    const rows = await ledgerCount();
    for (const photo of [await fx.selfie('a'), await fx.selfie('b', 'png'), await fx.selfie('c', 'webp')]) {
      const r = await complete(g.body.token, { selfie_b64: b64(photo) });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ status: 'ERROR', code: 'INVALID_PARAMETERS', fields: [{ field: 'selfie_b64', issue: 'video_required' }] });
      expect(r.body.error).toMatch(/video/);
      expect(JSON.stringify(r.body)).not.toContain(b64(photo).slice(100, 140));
    }
    expect((await t.s.credits.balance(t.orgId))).toBe(balance);
    expect(await ledgerCount()).toBe(rows);
    expect(await sessionRow(g.body.session_id)).toMatchObject({ state: 'opened', challenge_misses: 0, billed_verification_id: null, verification_id: null });
    expect((await page(g.body.token)).body).toMatchObject({ state: 'opened', challenge: { attempts_left: 3 } });
    // The same session still takes a recording.
    expect((await complete(g.body.token, { selfie_b64: await noFaceClip() })).body).toMatchObject({ status: 'retry', challenge: { attempts_left: 2 } });
  }, 60_000);

  it('two missed recordings and a pass on a live key cost one charge, the first recording\'s; the retries are ledger rows of 0 credits', async () => {
    const g = await generate({ product: 'human', redirect_url: 'https://shop.example/ok' }, liveKey);
    const balance = (await t.s.credits.balance(t.orgId));
    const ids: string[] = [];
    for (const left of [2, 1]) {
      const miss = await complete(g.body.token, { selfie_b64: await noFaceClip() });
      expect(miss.body).toMatchObject({ status: 'retry', environment: 'live', challenge: { attempts_left: left } });
      ids.push(miss.body.verification_id!);
    }
    const pass = await complete(g.body.token, { selfie_b64: await headTurnClip() });
    expect(pass.body).toMatchObject({ status: 'passed', environment: 'live', challenge: { failed: null, attempts_left: 0 } });
    ids.push(pass.body.verification_id!);

    expect((await t.s.credits.balance(t.orgId))).toBe(balance - 1);
    expect(await Promise.all(ids.map((id) => t.s.ledger.get(id)))).toMatchObject([
      { product: 'human', env: 'live', status: 'FAIL', credits: 1, billable: 1 },
      { product: 'human', env: 'live', status: 'FAIL', credits: 0, billable: 0 },
      { product: 'human', env: 'live', status: 'PASS', credits: 0, billable: 0 },
    ]);
    const charges = (await t.sql(`SELECT verification_id, amount FROM credit_entries WHERE kind = 'charge' AND verification_id IN (?, ?, ?)`, ...ids));
    expect(charges).toEqual([{ verification_id: ids[0], amount: -1 }]);
    // The session names the row that billed it and the verification that completed it.
    expect(await sessionRow(g.body.session_id)).toMatchObject({ state: 'completed', outcome: 'passed', billed_verification_id: ids[0], verification_id: ids[2], challenge_misses: 2 });
    expect(await eventOf(ids[2])).toMatchObject({ env: 'live', status: 'PASS', verification_id: ids[2] });
    expect((await t.s.credits.reconcile(t.orgId)).balance).toBe((await t.s.credits.reconcile(t.orgId)).sum);
  }, 120_000);

  // (Another process opens the data directory's file; instances on one PostgreSQL: postgres.test.ts.)
  it.skipIf(TEST_ENGINE === 'postgres')('missed recordings survive a restart of the service on the same data directory (and another process of it)', async () => {
    const first = await testService({ plan: 'pro' });
    const key = (await first.key({ scopes: ['human'] })).api_key;
    const g = await first.json<HostedGenerateResponse>('POST', '/hosted/generate', { body: { product: 'human' }, headers: { Authorization: `Bearer ${key}` } });
    const send = async (tt: TestService) => tt.json<HostedCompleteResponse>('POST', `/hosted/complete/${g.body.token}`, { body: { selfie_b64: await noFaceClip() } });
    expect((await send(first)).body).toMatchObject({ status: 'retry', challenge: { attempts_left: 2 } });

    // While it is down, a fresh process of the service (nothing in memory) serves the page once.
    let elsewhere: { page: HostedPage; complete: { status: number; body: HostedCompleteResponse } } | undefined;
    const second = await first.restart(async (dataDir) => {
      const fixture = fixtureCommand('hosted-worker.ts');
      const child = execFile(process.execPath, [...fixture, dataDir, g.body.token]);
      child.stdin!.end(await noFaceClip());
      const out = await new Promise<string>((resolve, reject) => {
        let text = '';
        child.stdout!.on('data', (d: Buffer) => (text += d.toString()));
        child.on('error', reject);
        child.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`hosted worker exited ${code}`))));
      });
      elsewhere = JSON.parse(out) as typeof elsewhere;
    });
    expect(elsewhere?.page).toMatchObject({ state: 'opened', challenge: { attempts_left: 2 } });
    expect(elsewhere?.complete).toMatchObject({ status: 200, body: { status: 'retry', challenge: { attempts_left: 1 } } });

    expect(second.dataDir).toBe(first.dataDir);
    expect((await page(g.body.token, second)).body.challenge).toMatchObject({ attempts_left: 1 });
    expect((await send(second)).body).toMatchObject({ status: 'failed', reason: 'no_face_detected', challenge: { attempts_left: 0 } });
    expect(await sessionRow(g.body.session_id, second)).toMatchObject({ state: 'completed', outcome: 'failed', challenge_misses: 2 });
  }, 120_000);
});
