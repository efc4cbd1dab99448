// A photo of an identity document sent where a selfie belongs is refused as spoof_suspected with
// the rule that saw it (document_presented, its value and limit), on every path that judges a
// selfie: liveness, the age selfie step, identity selfies and the hosted page. Real face models
// (in-process here), specimen documents rendered by code.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgeSelfieResponse } from '../../../../src-shared/contracts/age';
import type { IdentityResult } from '../../../../src-shared/contracts/documents';
import type { FaceAnalysisBlock, LivenessResult, PolicyCheck } from '../../../../src-shared/contracts/faces';
import type { HostedCompleteResponse, HostedGenerateResponse } from '../../../../src-shared/contracts/hosted';
import { PRESENTATION_POLICY } from '../../core/faces/policy';
import { ORIGIN, closeAll, testService, type TestService } from '../harness';
import { degrade, HOLDERS, renderSpecimen } from '../document-fixtures';
import * as fx from '../face-fixtures';

afterAll(closeAll);

let t: TestService;
let key: { id: string; api_key: string; secret: string };
beforeAll(async () => {
  t = await testService({ plan: 'pro' });
  key = await t.key({ scopes: ['human', 'age', 'identity'] });
}, 60_000);

const b64 = (b: Buffer) => b.toString('base64');
const passport = () => renderSpecimen(HOLDERS[1]!, { kind: 'td3' }).then((png) => degrade(png, 'clean'));
const cardPhoto = () => renderSpecimen(HOLDERS[3]!, { kind: 'td1' }).then((png) => degrade(png, 'perspective'));

/** The document rule in an analysis block: missed, with the measured print and the limit. */
function expectDocumentRule(analysis: FaceAnalysisBlock | undefined | null) {
  const rule = analysis?.checks.find((c: PolicyCheck) => c.policy === 'document_presented');
  expect(rule).toMatchObject({ passed: false, limit: PRESENTATION_POLICY.documentText });
  expect(rule!.value).toBeGreaterThanOrEqual(PRESENTATION_POLICY.documentText);
}

async function verify(bytes: Buffer) {
  const form = fx.form(bytes);
  const res = await t.app.request(`${ORIGIN}/api/verify`, { method: 'POST', body: form, headers: { 'X-API-Key': key.api_key } });
  return (await res.json()) as LivenessResult;
}

describe('a document photo as a selfie', () => {
  it('POST /api/verify: FAIL as spoof_suspected naming the document, with document_presented, its value and limit; a confident refusal', async () => {
    for (const doc of [await passport(), await cardPhoto()]) {
      const body = await verify(doc);
      expect(body).toMatchObject({ status: 'FAIL', failure_reason: 'spoof_suspected', face_detected: true });
      expect(body.error).toMatch(/identity document/);
      expect(body.token).toBeUndefined();
      expectDocumentRule(body.analysis);
      expect(body.confidence).toBeGreaterThanOrEqual(50);
      expect((await t.s.ledger.get(body.verification_id))).toMatchObject({ status: 'FAIL', error_code: 'spoof_suspected' });
    }
    // The same service passes a real selfie, every image rule reported and met.
    const real = await verify(await fx.selfie('a'));
    expect(real.status).toBe('PASS');
    expect(real.analysis!.checks.map((c) => c.policy)).toEqual(expect.arrayContaining(['document_presented', 'screen_pattern', 'colour_fringes', 'frame_around_face']));
    expect(real.analysis!.checks.every((c) => c.passed)).toBe(true);
  }, 60_000);

  it('age step 2: no age by estimate; an ID is asked for with spoof_suspected as the reason and the rule in the analysis', async () => {
    const { status, body } = await t.json<AgeSelfieResponse & { analysis?: FaceAnalysisBlock }>('POST', '/api/v1/verify-age/step2', {
      key: key.api_key, body: { image_selfie_b64: b64(await passport()), min_age: 18 },
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ verified: false, requires_id: true, proceed_to_step3: true, reason: 'spoof_suspected', is_real_person: false });
    expect(body.message).toMatch(/identity document/);
    expectDocumentRule(body.analysis);
  }, 60_000);

  it('identity: the selfie that is a document fails the check as spoof_suspected, with the rule in selfie_analysis', async () => {
    const doc = b64(await passport());
    const { status, body } = await t.json<IdentityResult>('POST', '/api/identity/v1/submit', { key: key.api_key, body: { selfie_b64: doc, id_front_b64: doc } });
    expect({ status, code: (body as unknown as { code?: string }).code }).toEqual({ status: 200, code: undefined });
    expect(body).toMatchObject({ verified: false, failure_reason: 'spoof_suspected' });
    expect(body.error).toMatch(/^Selfie: .*identity document/);
    expectDocumentRule(body.selfie_analysis);
    // The selfie is the document's own picture (issue 37: the card photo sent as both), whatever its layout: missed too.
    const same = body.selfie_analysis?.checks.find((c) => c.policy === 'not_the_document');
    expect(same).toMatchObject({ passed: false, limit: 10 });
    expect(same!.value).toBeLessThanOrEqual(5);
    // A card photographed at a slant, sent as both: the same picture.
    const card = b64(await cardPhoto());
    const both = await t.json<IdentityResult>('POST', '/api/identity/v1/submit', { key: key.api_key, body: { selfie_b64: card, id_front_b64: card } });
    expect(both.body.selfie_analysis?.checks.find((c) => c.policy === 'not_the_document')).toMatchObject({ passed: false });
    expect(both.body).toMatchObject({ verified: false });
    // A real selfie with the document: far from its picture (about half of the 64 bits).
    const real = await t.json<IdentityResult>('POST', '/api/identity/v1/submit', { key: key.api_key, body: { selfie_b64: b64(await fx.selfie('b')), id_front_b64: doc } });
    const apart = real.body.selfie_analysis?.checks.find((c) => c.policy === 'not_the_document');
    expect(apart).toMatchObject({ passed: true });
    expect(apart!.value).toBeGreaterThan(20);
  }, 120_000);

  it('hosted page: an age session takes no document photo as the selfie; a document held up to the camera misses the head turn and is to be recorded again', async () => {
    // Every hosted selfie is the head-turn clip (issue 37): a photo is 400 video_required before anything runs.
    const g = await t.json<HostedGenerateResponse>('POST', '/hosted/generate', {
      body: { product: 'age', redirect_url: 'https://shop.example/done' }, headers: { Authorization: `Bearer ${key.api_key}` },
    });
    expect(g.status).toBe(200);
    const photo = await t.json<HostedCompleteResponse>('POST', `/hosted/complete/${g.body.token}`, { body: { date_of_birth: '1980-04-02', selfie_b64: b64(await passport()) } });
    expect(photo.status).toBe(400);
    expect(photo.body).toMatchObject({ fields: [{ field: 'selfie_b64', issue: 'video_required' }] });
    const frame = await sharp(await passport()).resize(480, 480, { fit: 'contain', background: '#ffffff' }).png().toBuffer();
    const held = await fx.clip(Array<Buffer>(12).fill(frame), 'webm');
    const r = await t.json<HostedCompleteResponse>('POST', `/hosted/complete/${g.body.token}`, { body: { date_of_birth: '1980-04-02', selfie_b64: b64(held) } });
    expect(r.body).toMatchObject({ status: 'retry', reason: 'spoof_suspected', challenge: { failed: expect.any(String) } });
    // That attempt's flow ends, failed: its row does not wait for an ID that will not come.
    expect((await t.s.ledger.get(r.body.verification_id!))).toMatchObject({ status: 'failed', error_code: 'spoof_suspected', liveness_evidence: 'head_turn_clip' });
  }, 60_000);
});
