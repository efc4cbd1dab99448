// Short liveness clips (MP4, MOV, WebM): frames are decoded by the ffmpeg binary that ships inside
// the @ffmpeg-installer npm package (no download at install or run time). The clip never touches
// disk: ffmpeg reads it from a one-use loopback HTTP server that holds it in memory (MP4 and MOV
// keep their index at the end, so a pipe cannot be seeked) under an unguessable path, and writes
// raw frames to a pipe. Before any frame is decoded, the container's header is held to the
// bounds of video-bounds.ts. A few frames from the first seconds are analysed; head movement and
// blinking across them are the clip's own liveness signal, or, when a challenge was asked, the
// challenge's rules (core/faces/challenge.ts).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, constants } from 'node:fs';
import { availableParallelism } from 'node:os';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { AppError } from '../../../../src-shared/errors';
import { createGate } from '../../jobs/gate';
import { judgeChallenge, type ChallengeVerdict } from '../faces/challenge';
import type { FacePool } from '../faces/pool';
import { judgeSelfie, type SelfieVerdict } from '../faces/policy';
import type { FaceAnalysis } from '../faces/types';
import { imageError, sniff } from './image';
import { checkClipHeader, measurePackets, parseProbe, VIDEO_LIMITS, videoError } from './video-bounds';

/** How many frames are taken, at what rate from the start (the clip's first seconds). */
export interface Sampling {
  fps: number;
  frames: number;
}
/** A clip with no challenge asked: 6 frames from the first 3 s, enough to tell a filmed still. */
export const STILL_SAMPLING: Sampling = { fps: 2, frames: 6 };
/**
 * A challenge clip: 10 frames from the first 3.3 s, dense enough to catch the head at its turn and
 * eyes held shut for a moment (the page records 3.2 s). Each frame is described (the same-face
 * rule), so 10 is also what one request may cost the face worker (about 1.5-2 s).
 */
export const CHALLENGE_SAMPLING: Sampling = { fps: 3, frames: 10 };
const SIDE = 640;
/** Decoding a clip longer than this is a hostile clip: it is stopped and refused. */
const DECODE_TIMEOUT_MS = 15_000;
const PROBE_TIMEOUT_MS = 5_000;
/** The probe's packet list (about 50 bytes a packet): 512 KiB holds 10,000 packets, four times a 20 s clip at 120 fps. */
const PACKET_LIST_MAX = 512 * 1024;
/**
 * Clips decoded at once: one ffmpeg per core, each on one thread, so a burst of clips queues
 * instead of starting a decoder each (12 clips at once had started 12, 2.2 GB between them, and
 * an ordinary selfie waited 10 s for a core).
 */
export const VIDEO_DECODERS = Math.max(1, availableParallelism());
/** Clips waiting for a decoder past this are answered 503 ANALYSIS_BUSY (Retry-After) at once. */
export const VIDEO_QUEUE = 4 * VIDEO_DECODERS;
const decoders = createGate(VIDEO_DECODERS);
/** Below this head movement (degrees) and eye change, the clip is a still picture filmed. */
export const STILL_POSE_DEG = 1;
export const STILL_EYES = 0.08;

function ffmpegPath(): string | null {
  try {
    const p = (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path;
    accessSync(p, constants.X_OK);
    return p;
  } catch {
    return null;
  }
}

const FFMPEG = ffmpegPath();
/** True when the shipped decoder is present and runnable on this platform. */
export const VIDEO_SUPPORTED = FFMPEG !== null;

/** Serves the clip from memory to ffmpeg on loopback, under an unguessable path, for `use`. */
async function servedFromMemory<T>(bytes: Uint8Array, use: (url: string) => Promise<T>): Promise<T> {
  const path = `/${randomBytes(24).toString('hex')}`;
  const server = createServer((req, res) => {
    if (req.url !== path) return void res.writeHead(404).end();
    const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    const from = range ? Math.min(Number(range[1]), bytes.length) : 0;
    const to = range && range[2] ? Math.min(Number(range[2]), bytes.length - 1) : bytes.length - 1;
    res.writeHead(range ? 206 : 200, {
      'Content-Length': Math.max(0, to - from + 1), 'Accept-Ranges': 'bytes', ...(range ? { 'Content-Range': `bytes ${from}-${to}/${bytes.length}` } : {}),
    });
    res.end(Buffer.from(bytes.buffer, bytes.byteOffset + from, Math.max(0, to - from + 1)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await use(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`);
  } finally {
    server.close();
    server.closeAllConnections();
  }
}

/** One ffmpeg run: its exit code, stdout up to `maxOut` bytes (killed beyond), stderr up to 64 KiB. */
function runFfmpeg(args: string[], opts: { timeoutMs: number; maxOut: number }): Promise<{ code: number | null; out: Buffer; err: string }> {
  return new Promise((resolve, reject) => {
    const ff = spawn(FFMPEG!, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const parts: Buffer[] = [];
    let size = 0;
    let err = '';
    ff.stdout.on('data', (d: Buffer) => {
      size += d.length;
      if (size > opts.maxOut) {
        ff.kill('SIGKILL');
        parts.push(d.subarray(0, Math.max(0, opts.maxOut - (size - d.length))));
        return;
      }
      parts.push(d);
    });
    ff.stderr.on('data', (d: Buffer) => {
      if (err.length < 65_536) err += d.toString('latin1');
    });
    const timer = setTimeout(() => ff.kill('SIGKILL'), opts.timeoutMs);
    ff.on('error', reject);
    ff.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out: Buffer.concat(parts), err });
    });
  });
}

/** The demuxer ffmpeg must use for the container the magic bytes named (no guessing by ffmpeg). */
function demuxerOf(field: string, bytes: Uint8Array): string {
  const format = sniff(bytes);
  if (format === 'webm') return 'matroska';
  if (format === 'mov' || format === 'mp4') return 'mov';
  throw imageError(field, 'unsupported_type');
}

/** The clip's header as the container declares it, held to VIDEO_LIMITS; nothing decoded for analysis yet. */
async function probe(field: string, url: string, demuxer: string): Promise<void> {
  const run = await runFfmpeg([
    '-hide_banner', '-nostdin', '-protocol_whitelist', 'http,tcp', '-max_pixels', String(VIDEO_LIMITS.maxPixels),
    '-f', demuxer, '-i', url, '-map', '0:v:0?', '-c', 'copy', '-f', 'framecrc', 'pipe:1',
  ], { timeoutMs: PROBE_TIMEOUT_MS, maxOut: PACKET_LIST_MAX }).catch(() => null);
  if (!run) throw videoError(field, 'corrupt');
  // A packet list this long is tens of thousands of frames: no clip within the limits has them.
  if (run.out.length >= PACKET_LIST_MAX) throw videoError(field, 'too_long');
  if (run.code === null) throw videoError(field, 'corrupt');
  checkClipHeader(field, parseProbe(run.err, measurePackets(run.out.toString('latin1'))));
}

/**
 * Decodes up to `sampling.frames` frames, each SIDE×SIDE RGB (scaled to fit, padded), or refuses
 * the clip. Its header is checked first (size, rate, length, codec, streams: video-bounds.ts).
 */
export async function decodeFrames(field: string, bytes: Uint8Array, sampling: Sampling = STILL_SAMPLING): Promise<Uint8Array[]> {
  if (!FFMPEG) throw imageError(field, 'unsupported_type');
  const demuxer = demuxerOf(field, bytes);
  const frameBytes = SIDE * SIDE * 3;
  if (decoders.waiting() >= VIDEO_QUEUE) throw new AppError('analysis_busy', { retry_after: 2 });
  return decoders.run(() => servedFromMemory(bytes, async (url) => {
    await probe(field, url, demuxer);
    const run = await runFfmpeg([
      '-v', 'quiet', '-nostdin', '-threads', '1', '-filter_threads', '1', '-protocol_whitelist', 'http,tcp', '-max_pixels', String(VIDEO_LIMITS.maxPixels), '-f', demuxer, '-i', url,
      '-an', '-sn', '-dn', '-t', String(sampling.frames / sampling.fps + 1),
      '-vf', `fps=${sampling.fps},scale=${SIDE}:${SIDE}:force_original_aspect_ratio=decrease,pad=${SIDE}:${SIDE}:(ow-iw)/2:(oh-ih)/2:white`,
      '-frames:v', String(sampling.frames), '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1',
    ], { timeoutMs: DECODE_TIMEOUT_MS, maxOut: frameBytes * sampling.frames }).catch(() => null);
    if (!run || run.code !== 0) throw imageError(field, 'corrupt');
    const frames: Uint8Array[] = [];
    for (let o = 0; o + frameBytes <= run.out.length; o += frameBytes) frames.push(new Uint8Array(run.out.buffer, run.out.byteOffset + o, frameBytes));
    if (frames.length === 0) throw imageError(field, 'corrupt');
    return frames;
  }));
}

export interface VideoJudgement {
  verdict: SelfieVerdict;
  analysis: FaceAnalysis;
  frames: { analysed: number; with_face: number; pose_range: number; eye_range: number; yaw_range: number };
  /** Only when a challenge was asked. */
  challenge?: ChallengeVerdict;
  /** The frame the verdict is about (SIDE×SIDE RGB), for a product that reads more from it (age, face match); memory only. */
  best: { rgb: Uint8Array; width: number; height: number };
}

/**
 * A clip's verdict: the best frame held to the selfie rules, then the clip's own signal. Without
 * a challenge, a clip in which the face never moves or blinks is a still picture filmed. With the
 * head-turn challenge, the frames must meet it (core/faces/challenge.ts); a clip that does not
 * fails as `spoof_suspected` (or `multiple_faces`), the rule missed named in `challenge`.
 */
export async function analyseVideo(pool: FacePool, bytes: Uint8Array, opts: { challenge?: boolean; field?: string } = {}): Promise<VideoJudgement> {
  const challenge = opts.challenge === true;
  const frames = await decodeFrames(opts.field ?? 'file', bytes, challenge ? CHALLENGE_SAMPLING : STILL_SAMPLING);
  const judged: { a: FaceAnalysis; v: SelfieVerdict; rgb: Uint8Array }[] = [];
  for (const rgb of frames) {
    // The challenge compares the faces of its frames: each gets the face-match descriptor (no age model).
    const a = await pool.analyze({ rgb, width: SIDE, height: SIDE, describe: false, match: challenge });
    judged.push({ a, v: judgeSelfie(a), rgb });
  }
  const withFace = judged.filter((j) => j.v.face !== null);
  const best = [...judged].sort((x, y) => rank(y.v) - rank(x.v))[0]!;
  const range = (vals: number[]) => (vals.length ? Math.max(...vals) - Math.min(...vals) : 0);
  const yaw = range(withFace.map((j) => j.v.face!.pose.yaw));
  const pitch = range(withFace.map((j) => j.v.face!.pose.pitch));
  const eyes = range(withFace.map((j) => (j.v.face!.eyes.left + j.v.face!.eyes.right) / 2));
  const poseRange = Math.round(Math.max(yaw, pitch) * 10) / 10;
  const summary = {
    analysed: judged.length, with_face: withFace.length, pose_range: poseRange, eye_range: Math.round(eyes * 1000) / 1000, yaw_range: Math.round(yaw * 10) / 10,
  };
  // Descriptors are compared here and go no further than this function.
  const analysis = { ...best.a, faces: best.a.faces.map((f) => ({ ...f, embedding: [], descriptor: [] })) };
  let verdict = best.v;
  const frame = { rgb: best.rgb, width: SIDE, height: SIDE };
  if (challenge) {
    const c = judgeChallenge(judged.map((j) => j.v));
    if (!verdict.failure && !c.passed) verdict = { ...verdict, failure: c.failed === 'one_face' ? 'multiple_faces' : 'spoof_suspected' };
    return { verdict, analysis, frames: summary, challenge: c, best: frame };
  }
  const still = withFace.length >= 2 && poseRange < STILL_POSE_DEG && eyes < STILL_EYES;
  if (!verdict.failure && still) {
    verdict = {
      ...verdict, failure: 'spoof_suspected',
      checks: verdict.checks.map((c) => (c.policy === 'presentation_attack' ? { ...c, passed: false } : c)),
    };
  }
  return { verdict, analysis, frames: summary, best: frame };
}

/** Passing frames first, then by confidence. */
function rank(v: SelfieVerdict): number {
  return (v.failure ? 0 : 1000) + v.confidence;
}
