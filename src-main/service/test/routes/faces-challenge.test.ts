// The head-turn challenge on the real models (in-process), through the HTTP app: POST /api/verify
// with `challenge=head_turn`, hosted liveness sessions (which hold every clip to it), and the
// bounds a clip's header is held to before any frame is decoded. Head turns are rendered in 3D
// from the test selfies and flat photos are moved in front of a pinhole camera, both by code
// (test/head-turn.ts); the clips are encoded by the shipped ffmpeg.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LivenessResult } from '../../../../src-shared/contracts/faces';
import type { HostedCompleteResponse, HostedGenerateResponse, HostedPage } from '../../../../src-shared/contracts/hosted';
import { CHALLENGE_POLICY } from '../../core/faces/challenge';
import { ORIGIN, closeAll, testService, type TestService } from '../harness';
import * as fx from '../face-fixtures';
import { recordedModels } from '../recorded-models';

// The flows around the models are this file's subject: their outputs replay from a recording.
const models = recordedModels('faces-challenge');

afterAll(closeAll);

let t: TestService;
let key: string;
beforeAll(async () => {
  t = await testService({ plan: 'pro', models });
  key = (await t.key({ scopes: ['human'] })).api_key;
}, 60_000);

async function verify(file: Buffer, extra: Record<string, string> = {}, name = 'clip.webm') {
  const res = await t.app.request(`${ORIGIN}/api/verify`, { method: 'POST', body: fx.form(file, extra, name), headers: { 'X-API-Key': key } });
  return { status: res.status, body: (await res.json()) as LivenessResult & Record<string, unknown> };
}
const rule = (b: LivenessResult, name: string) => b.analysis?.challenge?.checks.find((c) => c.rule === name);

/** A clip made by the shipped ffmpeg from a lavfi source (no frames of ours): for hostile headers. */
async function synthetic(args: string[]): Promise<Buffer> {
  const ffmpeg = (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path;
  const ff = spawn(ffmpeg, ['-v', 'quiet', ...args, 'pipe:1'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const parts: Buffer[] = [];
  ff.stdout.on('data', (d: Buffer) => parts.push(d));
  await new Promise((resolve) => ff.on('close', resolve));
  return Buffer.concat(parts);
}

describe('POST /api/verify with challenge=head_turn', () => {
  it('a head turning (3D render) passes, with the yaw range over the limit, one face and the same face', async () => {
    const r = await verify(await fx.clip(await fx.headTurnFrames('c'), 'webm'), { challenge: 'head_turn' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'PASS', token: expect.any(String) });
    expect(r.body.analysis?.challenge).toMatchObject({ asked: 'head_turn', passed: true, failed: null });
    expect(rule(r.body, 'head_turn')).toMatchObject({ passed: true, limit: CHALLENGE_POLICY.minYawRange });
    expect(rule(r.body, 'head_turn')!.value).toBeGreaterThanOrEqual(CHALLENGE_POLICY.minYawRange);
    expect(rule(r.body, 'same_face')).toMatchObject({ passed: true });
    expect(r.body.analysis!.frames!.analysed).toBeGreaterThanOrEqual(8);
    expect(r.body.analysis!.frames!.with_face).toBe(r.body.analysis!.frames!.analysed);
    expect(JSON.stringify(r.body)).not.toMatch(/embedding|descriptor|mesh/);
  }, 120_000);

  it('a flat photo turned about either axis, panned or zoomed fails as spoof_suspected on head_turn, its value and limit reported', async () => {
    for (const move of ['yaw', 'pitch', 'pan', 'zoom'] as const) {
      const r = await verify(await fx.clip(await fx.flatPhotoFrames(move, 'c'), 'mp4'), { challenge: 'head_turn' }, 'clip.mp4');
      expect(r.body, move).toMatchObject({ status: 'FAIL', failure_reason: 'spoof_suspected', face_detected: true });
      expect(r.body.analysis?.challenge, move).toMatchObject({ passed: false, failed: 'head_turn' });
      expect(rule(r.body, 'head_turn')!.value, move).toBeLessThan(CHALLENGE_POLICY.minYawRange);
      expect(rule(r.body, 'blink'), move).toMatchObject({ passed: false });
      expect((await t.s.ledger.get(r.body.verification_id))).toMatchObject({ status: 'FAIL', error_code: 'spoof_suspected' });
    }
  }, 240_000);

  it('a face swapped for another half-way through fails on same_face, although the head turned', async () => {
    const r = await verify(await fx.clip(await fx.swappedFaceFrames(), 'webm'), { challenge: 'head_turn' });
    expect(r.body).toMatchObject({ status: 'FAIL', failure_reason: 'spoof_suspected' });
    expect(r.body.analysis?.challenge).toMatchObject({ passed: false, failed: 'same_face' });
    expect(rule(r.body, 'same_face')!.value).toBeLessThan(CHALLENGE_POLICY.sameFaceMin);
  }, 120_000);

  it('without a challenge a clip keeps the still rule only (docs/decisions.md): a filmed still fails, nothing about a challenge is reported', async () => {
    const still = await verify(await fx.clip(await fx.selfieFrames(false), 'webm'));
    expect(still.body).toMatchObject({ status: 'FAIL', failure_reason: 'spoof_suspected' });
    expect(still.body.analysis?.challenge).toBeUndefined();
    expect(still.body.analysis?.frames).toMatchObject({ analysed: 6 });
  }, 120_000);

  it('a challenge on a single picture, or an unknown challenge, is a 400 before any model runs or any row is written', async () => {
    const rows = () => t.s.db.prepare('SELECT COUNT(*) AS n FROM verifications').get() as { n: number };
    const before = rows().n;
    const photo = await verify(await fx.selfie('c'), { challenge: 'head_turn' }, 'selfie.jpg');
    expect(photo.status).toBe(400);
    expect(photo.body).toMatchObject({ code: 'INVALID_PARAMETERS', fields: [{ field: 'file', issue: 'video_required' }] });
    const unknown = await verify(await fx.clip(await fx.selfieFrames(false, 4), 'webm'), { challenge: 'smile' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ fields: [{ field: 'challenge', issue: 'unsupported' }] });
    expect(rows().n).toBe(before);
  });
});

describe('clips are bounded by their header before any frame is decoded', () => {
  const cases: [string, string[], string][] = [
    ['4096 × 4096 frames', ['-f', 'lavfi', '-i', 'color=c=gray:s=4096x4096:r=2:d=0.5', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-movflags', 'frag_keyframe+empty_moov', '-f', 'mp4'], 'too_many_pixels'],
    ['1000 frames per second (MP4 declares it)', ['-f', 'lavfi', '-i', 'color=c=gray:s=64x64:r=1000:d=2', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-movflags', 'frag_keyframe+empty_moov', '-f', 'mp4'], 'frame_rate_too_high'],
    ['1000 frames per second (WebM declares no rate: the packets are counted)', ['-f', 'lavfi', '-i', 'color=c=gray:s=64x64:r=1000:d=2', '-c:v', 'libvpx', '-f', 'webm'], 'frame_rate_too_high'],
    ['an hour long', ['-f', 'lavfi', '-i', 'color=c=gray:s=32x32:r=1:d=3600', '-c:v', 'libvpx', '-f', 'webm'], 'too_long'],
    ['MPEG-4 Part 2 video', ['-f', 'lavfi', '-i', 'color=c=gray:s=64x64:r=6:d=1', '-c:v', 'mpeg4', '-movflags', 'frag_keyframe+empty_moov', '-f', 'mp4'], 'unsupported_codec'],
    ['two video streams', ['-f', 'lavfi', '-i', 'color=c=gray:s=64x64:r=6:d=1', '-f', 'lavfi', '-i', 'color=c=red:s=64x64:r=6:d=1', '-map', '0', '-map', '1', '-c:v', 'libvpx', '-f', 'webm'], 'too_many_streams'],
    ['sound only', ['-f', 'lavfi', '-i', 'sine=d=1', '-c:a', 'libopus', '-f', 'webm'], 'too_many_streams'],
  ];
  for (const [name, args, issue] of cases) {
    it(`${name}: 400 INVALID_IMAGE ${issue}, no row, nothing echoed`, async () => {
      const bytes = await synthetic(args);
      expect(bytes.length).toBeGreaterThan(100);
      const rows = () => (t.s.db.prepare('SELECT COUNT(*) AS n FROM verifications').get() as { n: number }).n;
      const before = rows();
      const r = await verify(bytes, { challenge: 'head_turn' });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: 'INVALID_IMAGE', fields: [{ field: 'file', issue }] });
      expect(r.body.error).toMatch(/^file /);
      expect(rows()).toBe(before);
    }, 60_000);
  }
});

describe('hosted liveness sessions hold a recorded clip to the challenge', () => {
  const generate = (body: Record<string, unknown>) =>
    t.json<HostedGenerateResponse>('POST', '/hosted/generate', { body, headers: { Authorization: `Bearer ${key}` } });
  const complete = (token: string, clip: Buffer) => t.json<HostedCompleteResponse>('POST', `/hosted/complete/${token}`, { body: { selfie_b64: clip.toString('base64') } });

  it('the page is told the challenge; a head turn passes and completes the session', async () => {
    const g = await generate({ product: 'human' });
    const page = await t.json<HostedPage>('GET', `/hosted/session/${g.body.token}`);
    expect(page.body.challenge).toEqual({ kind: 'head_turn', clip_seconds: 3.2, attempts_left: 3 });
    const r = await complete(g.body.token, await fx.clip(await fx.headTurnFrames('e', { degrees: -35 }), 'webm'));
    expect(r.body).toMatchObject({ status: 'passed', reason: null, challenge: { failed: null } });
    expect((await t.json<HostedPage>('GET', `/hosted/session/${g.body.token}`)).body.state).toBe('completed');
  }, 120_000);

  it('a flat photo turned in front of the camera asks for another recording twice, then fails the session on head_turn', async () => {
    const g = await generate({ product: 'human', failure_redirect_url: 'https://shop.example/failed' });
    const flat = await fx.clip(await fx.flatPhotoFrames('yaw', 'e'), 'webm');
    for (const left of [2, 1]) {
      const r = await complete(g.body.token, flat);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ status: 'retry', reason: 'spoof_suspected', redirect_url: null, challenge: { failed: 'head_turn', attempts_left: left } });
      const page = await t.json<HostedPage>('GET', `/hosted/session/${g.body.token}`);
      expect(page.body).toMatchObject({ state: 'opened', challenge: { attempts_left: left } });
    }
    const last = await complete(g.body.token, flat);
    expect(last.body).toMatchObject({ status: 'failed', reason: 'spoof_suspected', challenge: { failed: 'head_turn', attempts_left: 0 } });
    expect(last.body.redirect_url).toMatch(/^https:\/\/shop\.example\/failed\?/);
    expect((await complete(g.body.token, flat)).status).toBe(410);
  }, 240_000);
});
