// Head-turn challenge calibration: how far the face mesh's estimated yaw moves when a real head
// turns, and when a flat photo is turned, tilted, panned or zoomed in front of the camera; and how
// alike the faces of one clip stay. Prints the figures and the margins of the limits in
// core/faces/challenge.ts. `npm run calibrate:challenge [-- --pointing04 DIR] [-- --clips DIR]`;
// the figures go in docs/faces.md ("Video").
//
// Sets:
//   real head turns (with --pointing04): the Head Pose Image Database (Gourier, Hall and Crowley,
//     "Pointing'04", INRIA): 15 people, 2 series each, photographed at pan angles 0, ±15 ... ±90°.
//     A turn to θ and back is the person's photos at 0, 15, ... θ. Not in the repo (its terms allow
//     research use; it is read from DIR/PersonNN/personNN<series><index><tilt><pan>.jpg);
//   real clips (with --clips): short face videos (MP4/WebM) of people talking, making faces and
//     closing their eyes, without a head turn: every 3.3 s window, as the challenge samples it;
//   3D head turns (always): the test selfies rendered rotated about the head's vertical axis with
//     depth from Human's face mesh (src-main/service/test/head-turn.ts), 15-45° to each side;
//   flat photos (always; with --pointing04 also each person's frontal photo): the picture as a card
//     turned about its vertical or horizontal axis by 30 or 60° with the camera at one or two card
//     widths (one to two times nearer than a selfie camera is to a face), panned and zoomed.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { blinkDrop, CHALLENGE_POLICY } from '../src-main/service/core/faces/challenge';
import { faceSimilarity, SAME_FACE_MIN } from '../src-main/service/core/faces/challenge-identity';
import { loadFaceEngine } from '../src-main/service/core/faces/engine';
import type { FaceReading } from '../src-main/service/core/faces/types';
import { CHALLENGE_SAMPLING, decodeFrames } from '../src-main/service/core/media/video';
import { selfie, turnProfile, type FaceId } from '../src-main/service/test/face-fixtures';
import { faceMesh, flatPhoto, headModel, toPng, toRgb, turnedHead, type Rgb } from '../src-main/service/test/head-turn';

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const POINTING04 = arg('--pointing04');
const CLIPS = arg('--clips');

const engine = await loadFaceEngine();
const SIDE = 640;

/** The largest face of a picture, analysed as a decoded clip frame is (fitted into 640 × 640, padded white). */
async function readFace(image: Buffer | Rgb, describe = true): Promise<FaceReading | null> {
  const input = Buffer.isBuffer(image) ? sharp(image) : sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } });
  const { data } = await input.resize(SIDE, SIDE, { fit: 'contain', background: '#ffffff' }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return readFrame(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), describe);
}
/** `describe`: the face-match descriptor too (the same-face figures). */
async function readFrame(rgb: Uint8Array, describe = true): Promise<FaceReading | null> {
  const a = await engine.analyze({ rgb, width: SIDE, height: SIDE, describe: false, match: describe });
  return [...a.faces].filter((f) => f.score >= 0.5).sort((x, y) => y.box.width - x.box.width)[0] ?? null;
}

const yawRange = (faces: FaceReading[]) => (faces.length ? Math.max(...faces.map((f) => f.pose.yaw)) - Math.min(...faces.map((f) => f.pose.yaw)) : 0);
const drop = (faces: FaceReading[]) => blinkDrop(faces.map((f) => ({ eyes: (f.eyes.left + f.eyes.right) / 2, aspect: f.box.height / f.box.width })));

function stats(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * (s.length - 1)))] ?? Number.NaN;
  return { n: s.length, min: s[0] ?? Number.NaN, p10: q(0.1), median: q(0.5), p90: q(0.9), max: s[s.length - 1] ?? Number.NaN };
}
const f1 = (v: number) => (Number.isNaN(v) ? '-' : v.toFixed(1));
const f3 = (v: number) => (Number.isNaN(v) ? '-' : v.toFixed(3));
function table(title: string, rows: [string, number[]][], fmt = f1, limit?: { value: number; passAbove: boolean }) {
  console.log(`\n${title}`);
  console.log(`| set | n | min | p10 | median | p90 | max |${limit ? ' pass at the limit |' : ''}`);
  console.log(`|---|---|---|---|---|---|---|${limit ? '---|' : ''}`);
  for (const [name, xs] of rows) {
    const s = stats(xs);
    const pass = limit ? ` ${xs.filter((x) => (limit.passAbove ? x >= limit.value : x < limit.value)).length}/${xs.length} |` : '';
    console.log(`| ${name} | ${s.n} | ${fmt(s.min)} | ${fmt(s.p10)} | ${fmt(s.median)} | ${fmt(s.p90)} | ${fmt(s.max)} |${pass}`);
  }
}

const turnRows: [string, number[]][] = [];
const flatRows: [string, number[]][] = [];
const flatDrops: number[] = [];
const sameFace: number[] = [];
const otherFace: number[] = [];

// --- Real head turns: Pointing'04 ----------------------------------------------------------------
const frontals: Buffer[] = [];
if (POINTING04) {
  const byAngle: Record<number, number[]> = { 15: [], 30: [], 45: [], 60: [] };
  const people: { id: string; front: FaceReading | null; turned: FaceReading[] }[] = [];
  for (const person of readdirSync(POINTING04).filter((d) => /^Person\d\d$/.test(d)).sort()) {
    for (const series of ['1', '2']) {
      const at = new Map<number, FaceReading>();
      for (const file of readdirSync(join(POINTING04, person))) {
        const m = /^person\d\d(\d)\d\d([+-]\d+)([+-]\d+)\.jpg$/.exec(file);
        if (!m || m[1] !== series || Number(m[2]) !== 0 || Math.abs(Number(m[3])) > 60) continue;
        const bytes = readFileSync(join(POINTING04, person, file));
        if (Number(m[3]) === 0 && series === '1') frontals.push(bytes);
        const face = await readFace(bytes);
        if (face) at.set(Number(m[3]), face);
      }
      for (const side of [-1, 1]) {
        for (const theta of [15, 30, 45, 60]) {
          const seq: FaceReading[] = [];
          for (let p = 0; p <= theta; p += 15) if (at.has(side * p)) seq.push(at.get(side * p)!);
          if (seq.length >= 2) byAngle[theta]!.push(yawRange(seq));
        }
      }
      people.push({ id: person, front: at.get(0) ?? null, turned: [15, 30, 45].flatMap((p) => [at.get(p), at.get(-p)]).filter((f): f is FaceReading => !!f) });
    }
  }
  for (const theta of [15, 30, 45, 60]) turnRows.push([`real, Pointing'04, turned ${theta}° and back`, byAngle[theta]!]);
  for (const p of people) {
    if (!p.front) continue;
    for (const t of p.turned) sameFace.push(faceSimilarity(p.front, t));
    for (const q of people) if (q.id !== p.id) for (const t of q.turned) otherFace.push(faceSimilarity(p.front, t));
  }
  console.log(`Pointing'04: ${people.length} series of ${new Set(people.map((p) => p.id)).size} people`);
}

// --- Real clips without a head turn ---------------------------------------------------------------
if (CLIPS) {
  const ranges: number[] = [];
  const drops: number[] = [];
  for (const file of readdirSync(CLIPS).filter((f) => /\.(mp4|webm|mov)$/i.test(f)).sort()) {
    const frames = await decodeFrames('file', readFileSync(join(CLIPS, file)), { fps: CHALLENGE_SAMPLING.fps, frames: 3 * CHALLENGE_SAMPLING.frames }).catch(() => []);
    for (let start = 0; start + CHALLENGE_SAMPLING.frames <= frames.length; start += CHALLENGE_SAMPLING.frames) {
      const faces: FaceReading[] = [];
      for (const rgb of frames.slice(start, start + CHALLENGE_SAMPLING.frames)) {
        const f = await readFrame(rgb);
        if (f) faces.push(f);
      }
      if (faces.length < 2) continue;
      ranges.push(yawRange(faces));
      drops.push(drop(faces));
      for (const f of faces.slice(1)) sameFace.push(faceSimilarity(faces[0]!, f));
    }
  }
  turnRows.push(['real clips, talking and making faces (no turn asked), per 3.3 s window', ranges]);
  table('Eye-openness drop (blink rule), real clips per 3.3 s window', [['real clips', drops]], (v) => v.toFixed(2), { value: CHALLENGE_POLICY.minBlinkDrop, passAbove: true });
}

// --- 3D head turns and flat photos of the test selfies --------------------------------------------
const render: Record<number, number[]> = { 15: [], 30: [], 45: [] };
const ids: FaceId[] = ['a', 'b', 'c', 'd', 'e'];
const sources: Rgb[] = [];
for (const id of ids) sources.push(await toRgb(await sharp(await selfie(id)).resize(480, 480).png().toBuffer()));
for (const [i, src] of sources.entries()) {
  const m = headModel(src, await faceMesh(src));
  for (const theta of [15, 30, 45]) {
    for (const side of [-1, 1]) {
      const seq: FaceReading[] = [];
      // Look, half-way, turned, half-way back, look: the frames a 3 fps sampling sees of a turn.
      for (let k = 0; k < 7; k++) {
        const f = await readFace(turnedHead(m, turnProfile(k, 7, side * theta)));
        if (f) seq.push(f);
      }
      render[theta]!.push(yawRange(seq));
      for (const f of seq.slice(1)) sameFace.push(faceSimilarity(seq[0]!, f));
    }
  }
  console.log(`3D renders of selfie ${ids[i]} measured`);
}
for (const theta of [15, 30, 45]) turnRows.push([`3D render, turned ${theta}° and back`, render[theta]!]);

const flatSources = [...sources, ...(await Promise.all(frontals.map(async (b) => toRgb(await sharp(b).resize(480, 360).png().toBuffer()))))];
const moves: [string, (k: number) => Parameters<typeof flatPhoto>[1]][] = [];
for (const theta of [30, 60]) {
  for (const distance of [1, 2]) {
    moves.push([`turned ${theta}° about its vertical axis, camera at ${distance} card width${distance > 1 ? 's' : ''}`, (k) => ({ yaw: k * theta, distance, scale: 0.85 })]);
    moves.push([`tilted ${theta}° about its horizontal axis, camera at ${distance} card width${distance > 1 ? 's' : ''}`, (k) => ({ pitch: k * theta, distance, scale: 0.85 })]);
  }
}
moves.push(['panned across the frame', (k) => ({ dx: 100 * (k - 0.5), dy: 40 * (0.5 - k), scale: 0.7 })]);
moves.push(['zoomed from 0.6× to 1.1×', (k) => ({ scale: 0.6 + 0.5 * k })]);
for (const [name, move] of moves) {
  const ranges: number[] = [];
  // One side: a card turned left or right is the same card mirrored.
  for (const src of flatSources) {
    const seq: FaceReading[] = [];
    for (const k of [0, 0.5, 1]) {
      const f = await readFace(await toPng(flatPhoto(src, move(k))), false);
      if (f) seq.push(f);
    }
    if (seq.length < 2) continue;
    ranges.push(yawRange(seq));
    flatDrops.push(drop(seq));
  }
  flatRows.push([`flat photo ${name}`, ranges]);
}
for (let i = 0; i < sources.length; i++) {
  const a = await readFace(sources[i]!);
  for (let j = i + 1; j < sources.length; j++) {
    const b = await readFace(sources[j]!);
    if (a && b) otherFace.push(faceSimilarity(a, b));
  }
}

const limit = { value: CHALLENGE_POLICY.minYawRange, passAbove: true };
table('Yaw range over the frames (degrees): real and rendered head turns', turnRows, f1, limit);
table('Yaw range over the frames (degrees): flat photos moved in front of the camera', flatRows, f1, limit);
table('Eye-openness drop (blink rule), flat photos', [['flat photos, every move', flatDrops]], (v) => v.toFixed(2), { value: CHALLENGE_POLICY.minBlinkDrop, passAbove: true });
table('Face similarity to the first frame (same_face rule)', [['same person, turned or moved', sameFace], ['different people', otherFace]], f3, { value: SAME_FACE_MIN, passAbove: true });

const worstFlat = Math.max(...flatRows.flatMap(([, xs]) => xs));
console.log(`\nhead_turn limit ${CHALLENGE_POLICY.minYawRange}°: worst flat photo ${worstFlat.toFixed(1)}° (margin ${(CHALLENGE_POLICY.minYawRange - worstFlat).toFixed(1)}°)`);
for (const [name, xs] of turnRows) console.log(`  ${name}: lowest ${f1(stats(xs).min)}°, ${xs.filter((x) => x >= CHALLENGE_POLICY.minYawRange).length}/${xs.length} pass`);
console.log(`same_face floor ${SAME_FACE_MIN}: lowest same person ${f3(stats(sameFace).min)}, highest different people ${f3(stats(otherFace).max)}`);
process.exit(0);
