// One liveness policy for every path (issue 37), through the HTTP app on the real models:
// every answer with a selfie says what its liveness rested on (a still photo, a clip, the
// head-turn clip) and the ledger keeps it; identity and age take the head-turn clip as their
// selfie; an organisation can require the clip of its API keys (Settings), audited, while the
// console's try panel and the storefront age gate (not API keys) keep taking photos.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgeSelfieResponse } from '../../../../src-shared/contracts/age';
import type { AuditPage } from '../../../../src-shared/contracts/audit';
import type { IdentityResult } from '../../../../src-shared/contracts/documents';
import type { LivenessResult, LivenessSettings } from '../../../../src-shared/contracts/faces';
import { degrade, HOLDERS, renderSpecimen } from '../document-fixtures';
import * as fx from '../face-fixtures';
import { ORIGIN, closeAll, testService, type TestService } from '../harness';

afterAll(closeAll);

let t: TestService;
let owner: string;
let key: { id: string; api_key: string };
let live: { id: string; api_key: string };
beforeAll(async () => {
  t = await testService({ plan: 'pro' });
  owner = await t.login();
  key = await t.key({ scopes: ['human', 'age', 'identity', 'compliance'] });
  live = await t.key({ env: 'live', scopes: ['human', 'identity'] });
  await t.grant(1000);
}, 60_000);

const b64 = (b: Buffer) => b.toString('base64');
async function verify(file: Buffer, extra: Record<string, string> = {}, name = 'selfie.jpg', k = key.api_key) {
  const res = await t.app.request(`${ORIGIN}/api/verify`, { method: 'POST', body: fx.form(file, extra, name), headers: { 'X-API-Key': k } });
  return { status: res.status, body: (await res.json()) as LivenessResult & Record<string, unknown> };
}
const row = (id: string) => t.s.db.prepare('SELECT liveness_evidence, credits FROM verifications WHERE id = ?').get(id) as { liveness_evidence: string | null; credits: number } | undefined;
const rows = () => (t.s.db.prepare('SELECT COUNT(*) AS n FROM verifications').get() as { n: number }).n;
const setting = async (require_liveness_clip: boolean, cookie = owner) =>
  t.json<LivenessSettings>('PUT', '/api/settings/liveness', { cookie, body: { require_liveness_clip } });
const erikaDocument = async () => b64(await degrade(await renderSpecimen(HOLDERS[1]!, { kind: 'td1' }), 'clean'));

describe('what a selfie\'s liveness rested on, in every answer and in the ledger', () => {
  it('a still photo passes /api/verify but is answered as weaker evidence, and the ledger says still_photo', async () => {
    const r = await verify(await fx.selfie('a'));
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('PASS');
    expect(r.body.analysis?.evidence).toEqual({ kind: 'still_photo', weaker: true, note: expect.stringMatching(/still photo is weaker evidence/) });
    expect(row(r.body.verification_id)).toMatchObject({ liveness_evidence: 'still_photo' });
  }, 60_000);

  it('a clip without the challenge is a video_clip (weaker); with challenge=head_turn a head_turn_clip (not weaker, no note)', async () => {
    const plain = await verify(await fx.clip(await fx.selfieFrames(true, 8), 'webm'), {}, 'clip.webm');
    expect(plain.body.analysis?.evidence).toMatchObject({ kind: 'video_clip', weaker: true });
    expect(row(plain.body.verification_id)).toMatchObject({ liveness_evidence: 'video_clip' });
    const turned = await verify(await fx.headTurnClip('c'), { challenge: 'head_turn' }, 'clip.webm');
    expect(turned.body).toMatchObject({ status: 'PASS' });
    expect(turned.body.analysis?.evidence).toEqual({ kind: 'head_turn_clip', weaker: false, note: null });
    expect(row(turned.body.verification_id)).toMatchObject({ liveness_evidence: 'head_turn_clip' });
  }, 120_000);

  it('identity takes the head-turn clip as its selfie: the challenge is judged, the best frame is matched with the document', async () => {
    const r = await t.json<IdentityResult>('POST', '/api/identity/v1/submit', { key: key.api_key, body: { selfie_b64: b64(await fx.headTurnClip('b')), id_front_b64: await erikaDocument() } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ verified: true, face_match: { is_match: true } });
    expect(r.body.selfie_analysis?.evidence).toMatchObject({ kind: 'head_turn_clip', weaker: false });
    expect(r.body.selfie_analysis?.challenge).toMatchObject({ asked: 'head_turn', passed: true });
    expect(row(r.body.verification_id)).toMatchObject({ liveness_evidence: 'head_turn_clip' });
    // A photo of the same person still verifies through the API, and says it is the weaker evidence.
    const photo = await t.json<IdentityResult>('POST', '/api/identity/v1/submit', { key: key.api_key, body: { selfie_b64: b64(await fx.selfie('b')), id_front_b64: await erikaDocument() } });
    expect(photo.body.selfie_analysis?.evidence).toMatchObject({ kind: 'still_photo', weaker: true });
  }, 120_000);

  it('a flat photo moved in front of the camera as the age selfie misses the head turn: no age is taken from it', async () => {
    const r = await t.json<AgeSelfieResponse>('POST', '/api/v1/verify-age/step2', { key: key.api_key, body: { image_selfie_b64: b64(await fx.clip(await fx.flatPhotoFrames('yaw', 'c'), 'webm')), min_age: 18 } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ verified: false, requires_id: true, reason: 'spoof_suspected' });
    expect(r.body.analysis?.challenge).toMatchObject({ passed: false, failed: 'head_turn' });
    expect(r.body.analysis?.evidence).toMatchObject({ kind: 'head_turn_clip' });
  }, 120_000);
});

describe('GET/PUT /api/settings/liveness: an organisation requires the clip of its API keys', () => {
  it('off by default; owners change it, audited; members read it and get 403 on a change; signed out 401', async () => {
    expect((await t.json<LivenessSettings>('GET', '/api/settings/liveness', { cookie: owner })).body).toEqual({ require_liveness_clip: false });
    await t.s.accounts.addUser({ orgId: t.orgId, email: 'member-liveness@example.test', name: 'Mem', password: 'member password 1', role: 'member' });
    const member = await t.login('member-liveness@example.test', 'member password 1');
    expect((await t.json('GET', '/api/settings/liveness', { cookie: member })).status).toBe(200);
    expect((await setting(true, member)).status).toBe(403);
    expect((await t.json('GET', '/api/settings/liveness')).status).toBe(401);
    expect((await t.json('PUT', '/api/settings/liveness', { cookie: owner, body: { require_liveness_clip: 'yes' } })).status).toBe(400);
    expect((await t.json('PUT', '/api/settings/liveness', { cookie: owner, body: { require_liveness_clip: true, extra: 1 } })).status).toBe(400);
    expect((await setting(true)).body).toEqual({ require_liveness_clip: true });
    expect((await setting(true)).body).toEqual({ require_liveness_clip: true });
    const audit = (await t.json<AuditPage>('GET', '/api/audit?action=settings.changed', { cookie: owner })).body.entries.filter((e) => e.setting === 'require_liveness_clip');
    // One entry: setting the same value again is no change.
    expect(audit).toMatchObject([{ from_value: 'false', to_value: 'true' }]);
    await setting(false);
  });

  it('while required: a still photo from an API key is a 400 naming the field, nothing recorded or charged (live key too); every clip is the head-turn challenge', async () => {
    await setting(true);
    try {
      const before = rows();
      const balance = (await t.s.credits.balance(t.orgId));
      const photo = await verify(await fx.selfie('a'));
      expect(photo.status).toBe(400);
      expect(photo.body).toMatchObject({ code: 'INVALID_PARAMETERS', fields: [{ field: 'file', issue: 'video_required' }] });
      expect((await verify(await fx.selfie('a'), {}, 'selfie.jpg', live.api_key)).status).toBe(400);
      const id = await t.json('POST', '/api/identity/v1/submit', { key: key.api_key, body: { selfie_b64: b64(await fx.selfie('b')), id_front_b64: await erikaDocument() } });
      expect(id.body).toMatchObject({ fields: [{ field: 'selfie_b64', issue: 'video_required' }] });
      const age = await t.json('POST', '/api/v1/verify-age/step2', { key: key.api_key, body: { image_selfie_b64: b64(await fx.selfie('a')) } });
      expect(age.body).toMatchObject({ fields: [{ field: 'image_selfie_b64', issue: 'video_required' }] });
      expect(rows()).toBe(before);
      expect((await t.s.credits.balance(t.orgId))).toBe(balance);
      // A clip sent without `challenge` is held to the head turn all the same: a filmed still fails it.
      const still = await verify(await fx.clip(await fx.flatPhotoFrames('pan', 'c'), 'webm'), {}, 'clip.webm');
      expect(still.body).toMatchObject({ status: 'FAIL', failure_reason: 'spoof_suspected' });
      expect(still.body.analysis?.challenge).toMatchObject({ asked: 'head_turn', passed: false });
      // The console's try panel is an analyst, not an API key: photos are still taken there.
      const tried = await t.app.request(`${ORIGIN}/api/console/try/liveness`, { method: 'POST', body: fx.form(await fx.selfie('a')), headers: { cookie: owner } });
      expect(tried.status).toBe(200);
    } finally {
      await setting(false);
    }
    expect((await verify(await fx.selfie('a'))).status).toBe(200);
  }, 120_000);

  it('another organisation\'s setting does not reach this one\'s keys', async () => {
    const other = await t.addOrg({ email: 'owner@other-liveness.test' });
    expect((await t.json('PUT', '/api/settings/liveness', { cookie: await other.login(), body: { require_liveness_clip: true } })).status).toBe(200);
    expect((await verify(await fx.selfie('a'))).status).toBe(200);
  }, 60_000);
});
