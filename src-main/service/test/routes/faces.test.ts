// Liveness (POST /api/verify), token validation (POST /api/validate) and the mobile status of the
// face products, on the real models (in-process here), through the HTTP app like any client.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN, closeAll, testService, type TestService } from '../harness';
import * as fx from '../face-fixtures';
import type { LivenessResult, ValidateResponse } from '../../../../src-shared/contracts/faces';

afterAll(closeAll);

let t: TestService;
let key: { id: string; api_key: string; secret: string };
beforeAll(async () => {
  t = await testService({ plan: 'pro' });
  key = await t.key({ scopes: ['human'] });
});

async function verify(tt: TestService, body: FormData, apiKey?: string, headers: Record<string, string> = {}) {
  const res = await tt.app.request(`${ORIGIN}/api/verify`, { method: 'POST', body, headers: { ...(apiKey ? { 'X-API-Key': apiKey } : {}), ...headers } });
  return { status: res.status, body: (await res.json()) as LivenessResult & Record<string, unknown>, res };
}

describe('POST /api/verify', () => {
  it('passes one clear face: PASS, confidence, is_real_face, a token, one ledger row, no-store', async () => {
    const { status, body, res } = await verify(t, fx.form(await fx.selfie('a')), key.api_key);
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'PASS', face_detected: true, is_real_face: expect.any(Boolean), token: expect.any(String) });
    expect(body.verification_id).toMatch(/^ver_/);
    expect(body.confidence).toBeGreaterThan(50);
    expect(body.confidence).toBeLessThanOrEqual(100);
    expect(new Date(body.timestamp).toISOString()).toBe(body.timestamp);
    expect(body.error).toBeUndefined();
    expect(body.analysis?.checks.every((c) => c.passed)).toBe(true);
    expect(body.analysis?.box?.width).toBeGreaterThan(80);
    expect(JSON.stringify(body)).not.toMatch(/embedding|descriptor|mesh/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const row = (await t.s.ledger.get(body.verification_id))!;
    expect(row).toMatchObject({ product: 'human', status: 'PASS', env: 'test', credits: 0, error_code: null, api_key_id: key.id });
    expect(row.latency_ms).toBeGreaterThan(0);
  });

  it('takes PNG and WebP, applies EXIF orientation, flattens alpha', async () => {
    const cases = { png: await fx.selfie('c', 'png'), webp: await fx.selfie('a', 'webp'), exif: await fx.sidewaysWithExif(), alpha: await fx.withAlpha() };
    for (const [name, img] of Object.entries(cases)) {
      const { status, body } = await verify(t, fx.form(img), key.api_key);
      expect(status).toBe(200);
      expect({ name, status: body.status, checks: body.analysis?.checks.filter((c) => !c.passed) }).toEqual({ name, status: 'PASS', checks: [] });
    }
    // The EXIF tag turned the face upright; without it the same pixels show it lying on its side.
    const upright = await verify(t, fx.form(await fx.sidewaysWithExif()), key.api_key);
    expect(upright.body.analysis!.image).toEqual({ width: 560, height: 420 });
    const sideways = await verify(t, fx.form(await fx.sidewaysNoExif()), key.api_key);
    expect(sideways.body.analysis!.image).toEqual({ width: 420, height: 560 });
  });

  it('an EXIF bomb around a selfie is analysed as the selfie (its metadata never reaches the decoder)', async () => {
    const plain = await verify(t, fx.form(await fx.selfie('a')), key.api_key);
    const bomb = await verify(t, fx.form(await fx.exifBomb()), key.api_key);
    expect(bomb.status).toBe(200);
    expect(bomb.body.status).toBe('PASS');
    expect(bomb.body.analysis!.image).toEqual(plain.body.analysis!.image);
    expect(bomb.body.confidence).toBe(plain.body.confidence);
  });

  it('fails with a named reason: no face, several faces, a tiny face; FAIL is HTTP 200 and billed', async () => {
    const cases: [Buffer, string][] = [
      [await fx.noFace(), 'no_face_detected'],
      [await fx.groupPhoto(), 'multiple_faces'],
      [await fx.tinyFace(), 'face_too_small'],
    ];
    for (const [img, reason] of cases) {
      const { status, body } = await verify(t, fx.form(img), key.api_key);
      expect(status).toBe(200);
      expect(body).toMatchObject({ status: 'FAIL', failure_reason: reason, error: expect.any(String) });
      expect(body.token).toBeUndefined();
      expect(body.is_real_face).toBeUndefined();
      expect((await t.s.ledger.get(body.verification_id))).toMatchObject({ status: 'FAIL', error_code: reason });
    }
  });

  it('charges 1 credit per verification in live, PASS or FAIL', async () => {
    const tt = await testService({ plan: 'pro' });
    await tt.grant(5);
    const live = await tt.key({ env: 'live', scopes: ['human'] });
    await verify(tt, fx.form(await fx.selfie('a')), live.api_key);
    await verify(tt, fx.form(await fx.noFace()), live.api_key);
    expect((await tt.s.credits.balance(tt.orgId))).toBe(3);
  });

  it('refuses bad files with 400 naming the field and reason, never the bytes, and records nothing', async () => {
    const before = (t.s.db.prepare('SELECT COUNT(*) AS n FROM verifications').get() as { n: number }).n;
    const cases: [FormData, string][] = [
      [fx.form(null), 'missing'],
      [fx.form(new Uint8Array(0)), 'empty'],
      [fx.form(fx.gif()), 'unsupported_type'],
      [fx.form(Buffer.from('%PDF-1.7 secret-canary-text')), 'unsupported_type'],
      [fx.form(fx.corrupt()), 'corrupt'],
      [fx.form(await fx.truncated()), 'corrupt'],
      [fx.form(await fx.pixelBomb()), 'too_many_pixels'],
      [fx.form(await fx.oversize()), 'too_large'],
      [fx.form('not base64 !!'), 'not_base64'],
    ];
    for (const [body, issue] of cases) {
      const r = await verify(t, body, key.api_key);
      expect(r.status, issue).toBe(400);
      expect(r.body).toEqual({ error: expect.stringMatching(/^file /), status: 'ERROR', code: 'INVALID_IMAGE', fields: [{ field: 'file', issue }] });
      expect(JSON.stringify(r.body)).not.toContain('canary');
    }
    expect((t.s.db.prepare('SELECT COUNT(*) AS n FROM verifications').get() as { n: number }).n).toBe(before);
  });

  it('refuses a JSON body with 415 and an upload past the limit with 413', async () => {
    const json = await t.json('POST', '/api/verify', { key: key.api_key, body: { file: 'x' } });
    expect(json.status).toBe(415);
    const big = fx.form(new Uint8Array(13 * 1024 * 1024));
    const r = await verify(t, big, key.api_key);
    expect(r.status).toBe(413);
  });

  it('takes the key as the form field clientKey; a wrong scope is refused', async () => {
    const { status, body } = await verify(t, fx.form(await fx.selfie('b'), { clientKey: key.api_key }));
    expect(status).toBe(200);
    expect(body.status).toBe('PASS');
    const age = await t.key({ scopes: ['age'] });
    const wrong = await verify(t, fx.form(await fx.selfie('b'), { clientKey: age.api_key }));
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('API key does not have the required scope');
  });

  it('demo keys simulate PASS in the same shape without a model, and consume nothing', async () => {
    const tt = await testService({ plan: 'pro' });
    await tt.grant(5);
    const demo = await tt.key({ env: 'live', scopes: ['human'], demo: true });
    const { status, body } = await verify(tt, fx.form(await fx.noFace()), demo.api_key);
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'PASS', simulated: true, token: expect.any(String) });
    expect((await tt.s.credits.balance(tt.orgId))).toBe(5);
    // Intake still applies.
    expect((await verify(tt, fx.form(fx.gif()), demo.api_key)).status).toBe(400);
  });
});

describe('POST /api/validate', () => {
  async function passToken(tt: TestService, apiKey: string): Promise<LivenessResult> {
    const r = await verify(tt, fx.form(await fx.selfie('a')), apiKey);
    expect(r.body.status).toBe('PASS');
    return r.body;
  }
  const validate = (tt: TestService, secret: string | undefined, token: unknown) =>
    tt.json<ValidateResponse>('POST', '/api/validate', { body: { token }, ...(secret ? { headers: { Authorization: `Bearer ${secret}` } } : {}) });

  it('a token is valid for the secret of the same organisation and environment', async () => {
    const v = await passToken(t, key.api_key);
    const { status, body } = await validate(t, key.secret, v.token);
    expect(status).toBe(200);
    expect(body).toEqual({ valid: true, verification_id: v.verification_id, status: 'PASS', confidence: v.confidence });
    // Any secret of the same organisation and environment validates it.
    const other = await t.key({ scopes: ['age'] });
    expect((await validate(t, other.secret, v.token)).body.valid).toBe(true);
  });

  it('tampered, expired, other-environment and other-organisation tokens are valid: false', async () => {
    const v = await passToken(t, key.api_key);
    const token = v.token!;
    const [h, p, s] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, status: 'PASS', confidence: 100 })).toString('base64url')}.${s}`;
    const flipped = `${h}.${p}.${s.slice(0, -2)}${s.at(-2) === 'A' ? 'B' : 'A'}${s.at(-1)}`;
    for (const bad of [forged, flipped, 'not-a-jwt', `${h}.${p}.`]) {
      expect((await validate(t, key.secret, bad)).body).toEqual({ valid: false, verification_id: null, status: null, confidence: null, reason: 'invalid' });
    }
    const live = await t.key({ env: 'live', scopes: ['human'] });
    expect((await validate(t, live.secret, token)).body).toMatchObject({ valid: false, reason: 'invalid' });
    const org = await t.addOrg();
    const theirs = await org.key({ scopes: ['human'] });
    expect((await validate(t, theirs.secret, token)).body).toMatchObject({ valid: false, reason: 'invalid' });
    t.clock.advance(15 * 60_000 + 1000);
    expect((await validate(t, key.secret, token)).body).toMatchObject({ valid: false, reason: 'expired' });
  });

  it('needs the bearer secret: no header, an API key or an unknown secret is 401', async () => {
    expect((await validate(t, undefined, 'x')).status).toBe(401);
    expect((await validate(t, key.api_key, 'x')).status).toBe(401);
    expect((await validate(t, 'svsk-' + 'A'.repeat(48), 'x')).status).toBe(401);
    const bad = await validate(t, key.secret, 42);
    expect(bad.status).toBe(400);
  });
});

describe('status lookups', () => {
  it('GET /api/status and the mobile status give ids, outcome and times, for the same org and env only', async () => {
    const v = (await verify(t, fx.form(await fx.noFace()), key.api_key)).body;
    const s = await t.json('GET', `/api/status/${v.verification_id}`, { key: key.api_key });
    expect(s.body).toEqual({ verification_id: v.verification_id, status: 'FAIL', confidence: 0, created_at: expect.any(String), completed_at: expect.any(String) });
    const m = await t.json('GET', `/api/mobile/v1/human/status/${v.verification_id}`, { key: key.api_key });
    expect(m.status).toBe(200);
    expect(m.body).toEqual({
      verification_id: v.verification_id, product: 'human', environment: 'test', status: 'FAIL', confidence: 0,
      failure_reason: 'no_face_detected', created_at: expect.any(String), completed_at: expect.any(String),
    });
    // Another product's path, another environment, another organisation: not found.
    const ageKey = await t.key({ scopes: ['age'] });
    expect((await t.json('GET', `/api/mobile/v1/age/status/${v.verification_id}`, { key: ageKey.api_key })).status).toBe(404);
    const live = await t.key({ env: 'live', scopes: ['human'] });
    expect((await t.json('GET', `/api/mobile/v1/human/status/${v.verification_id}`, { key: live.api_key })).status).toBe(404);
    const org = await t.addOrg({ email: 'mobile@example.test' });
    expect((await t.json('GET', `/api/mobile/v1/human/status/${v.verification_id}`, { key: (await org.key({ scopes: ['human'] })).api_key })).status).toBe(404);
  });
});

describe('POST /api/verify with a short video', () => {
  it('a clip of a still picture fails as spoof_suspected; a moving face passes; frames are reported', async () => {
    const still = await verify(t, fx.form(await fx.clip(await fx.selfieFrames(false), 'webm'), {}, 'still.webm'), key.api_key);
    expect(still.status).toBe(200);
    expect(still.body).toMatchObject({ status: 'FAIL', failure_reason: 'spoof_suspected', face_detected: true });
    expect(still.body.analysis?.frames).toMatchObject({ analysed: 6, with_face: 6, pose_range: expect.any(Number) });
    const moving = await verify(t, fx.form(await fx.clip(await fx.selfieFrames(true), 'mp4'), {}, 'moving.mp4'), key.api_key);
    expect(moving.body).toMatchObject({ status: 'PASS', token: expect.any(String) });
    expect(moving.body.analysis!.frames!.pose_range).toBeGreaterThanOrEqual(1);
    expect((await t.s.ledger.get(moving.body.verification_id))).toMatchObject({ product: 'human', status: 'PASS' });
  });

  it('a broken clip is a 400, to the age product too (which takes a clip as the head-turn selfie: issue 37)', async () => {
    const clip = await fx.clip(await fx.selfieFrames(false, 4), 'mp4');
    const broken = await verify(t, fx.form(clip.subarray(0, 400)), key.api_key);
    expect(broken.status).toBe(400);
    expect(broken.body).toMatchObject({ code: 'INVALID_IMAGE', fields: [{ field: 'file', issue: 'corrupt' }] });
    const ageKey = await t.key({ scopes: ['age'] });
    const age = await t.json('POST', '/api/v1/verify-age/step2', { key: ageKey.api_key, body: { image_selfie_b64: clip.subarray(0, 400).toString('base64') } });
    expect(age.status).toBe(400);
    expect(age.body).toMatchObject({ fields: [{ field: 'image_selfie_b64', issue: 'corrupt' }] });
  });
});
