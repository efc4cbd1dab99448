// Short liveness clips (MP4, MOV, WebM): frames are decoded by the ffmpeg binary that ships inside
// the @ffmpeg-installer npm package (no download at install or run time). The clip never touches
// disk: ffmpeg reads it from a one-use loopback HTTP server that holds it in memory (MP4 and MOV
// keep their index at the end, so a pipe cannot be seeked) under an unguessable path, and writes
// raw frames to a pipe. Up to FRAMES frames from the first seconds are analysed; head movement
// and blinking across them are the clip's own liveness signal.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, constants } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import type { FacePool } from '../faces/pool';
import { judgeSelfie, type SelfieVerdict } from '../faces/policy';
import type { FaceAnalysis } from '../faces/types';
import { imageError, sniff } from './image';

/** Frames analysed per clip, taken at FPS from the start (3 s of video). */
export const FRAMES = 6;
const FPS = 2;
const SIDE = 640;
/** Decoding a clip longer than this is a hostile clip: it is stopped and refused. */
const DECODE_TIMEOUT_MS = 15_000;
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

/** Decodes up to FRAMES frames, each SIDE×SIDE RGB (scaled to fit, padded), or refuses the clip. */
export async function decodeFrames(field: string, bytes: Uint8Array): Promise<Uint8Array[]> {
  if (!FFMPEG) throw imageError(field, 'unsupported_type');
  const format = sniff(bytes);
  const demuxer = format === 'webm' ? 'matroska,webm' : format === 'mov' || format === 'mp4' ? 'mov,mp4,m4a,3gp,3g2,mj2' : null;
  if (!demuxer) throw imageError(field, 'unsupported_type');
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
  const port = (server.address() as AddressInfo).port;
  const frameBytes = SIDE * SIDE * 3;
  try {
    const out = await new Promise<Buffer>((resolve, reject) => {
      const ff = spawn(FFMPEG, [
        '-v', 'quiet', '-nostdin', '-protocol_whitelist', 'http,tcp', '-f', demuxer.split(',')[0]!, '-i', `http://127.0.0.1:${port}${path}`,
        '-an', '-sn', '-dn', '-t', String(FRAMES / FPS + 1),
        '-vf', `fps=${FPS},scale=${SIDE}:${SIDE}:force_original_aspect_ratio=decrease,pad=${SIDE}:${SIDE}:(ow-iw)/2:(oh-ih)/2:white`,
        '-frames:v', String(FRAMES), '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1',
      ], { stdio: ['ignore', 'pipe', 'ignore'] });
      const parts: Buffer[] = [];
      let size = 0;
      ff.stdout.on('data', (d: Buffer) => {
        size += d.length;
        if (size > frameBytes * FRAMES) return void ff.kill('SIGKILL');
        parts.push(d);
      });
      const timer = setTimeout(() => ff.kill('SIGKILL'), DECODE_TIMEOUT_MS);
      ff.on('error', () => reject(imageError(field, 'corrupt')));
      ff.on('close', (code) => {
        clearTimeout(timer);
        if (code !== 0) reject(imageError(field, 'corrupt'));
        else resolve(Buffer.concat(parts));
      });
    });
    const frames: Uint8Array[] = [];
    for (let o = 0; o + frameBytes <= out.length; o += frameBytes) frames.push(new Uint8Array(out.buffer, out.byteOffset + o, frameBytes));
    if (frames.length === 0) throw imageError(field, 'corrupt');
    return frames;
  } finally {
    server.close();
    server.closeAllConnections();
  }
}

export interface VideoJudgement {
  verdict: SelfieVerdict;
  analysis: FaceAnalysis;
  frames: { analysed: number; with_face: number; pose_range: number; eye_range: number };
}

/**
 * A clip's verdict: the best frame held to the selfie rules, then the clip's own signal. A clip in
 * which the face never moves or blinks is a still picture filmed: `spoof_suspected`.
 */
export async function analyseVideo(pool: FacePool, bytes: Uint8Array): Promise<VideoJudgement> {
  const frames = await decodeFrames('file', bytes);
  const judged: { a: FaceAnalysis; v: SelfieVerdict }[] = [];
  for (const rgb of frames) {
    const a = await pool.analyze({ rgb, width: SIDE, height: SIDE, describe: false });
    judged.push({ a, v: judgeSelfie(a) });
  }
  const withFace = judged.filter((j) => j.v.face !== null);
  const best = [...judged].sort((x, y) => rank(y.v) - rank(x.v))[0]!;
  const range = (vals: number[]) => (vals.length ? Math.max(...vals) - Math.min(...vals) : 0);
  const yaw = range(withFace.map((j) => j.v.face!.pose.yaw));
  const pitch = range(withFace.map((j) => j.v.face!.pose.pitch));
  const eyes = range(withFace.map((j) => (j.v.face!.eyes.left + j.v.face!.eyes.right) / 2));
  const poseRange = Math.round(Math.max(yaw, pitch) * 10) / 10;
  const summary = { analysed: judged.length, with_face: withFace.length, pose_range: poseRange, eye_range: Math.round(eyes * 1000) / 1000 };
  let verdict = best.v;
  const still = withFace.length >= 2 && poseRange < STILL_POSE_DEG && eyes < STILL_EYES;
  if (!verdict.failure && still) {
    verdict = {
      ...verdict, failure: 'spoof_suspected',
      checks: verdict.checks.map((c) => (c.policy === 'presentation_attack' ? { ...c, passed: false } : c)),
    };
  }
  return { verdict, analysis: best.a, frames: summary };
}

/** Passing frames first, then by confidence. */
function rank(v: SelfieVerdict): number {
  return (v.failure ? 0 : 1000) + v.confidence;
}
