// Face-match calibration: measures cosine similarity of faceres embeddings on same-person and
// different-person pairs built from the test photos, and prints the distributions and the error
// rates at candidate thresholds. `npm run calibrate:faces`; the figures go in docs/faces.md.
//
// Pairs (all from dev dependencies, made here by code):
//   same person, other photo: the 11 photos of one man in @vladmandic/human's
//     assets/screenshot-facematch.jpg (first row; small thumbnails with text overlays);
//   same person, same photo altered: each of the 22 faces of @vladmandic/face-api's demo photos
//     against 5 alterations (mirror, JPEG q30 darker, 4× down- and upscaled, rotated 10°,
//     shifted crop);
//   different people: the 22 face-api faces pairwise (distinct women), and each of them against
//     each photo of the man.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { loadFaceEngine } from '../src-main/service/core/faces/engine';
import { cosine, FACE_MATCH_THRESHOLD } from '../src-main/service/core/faces/match';
import { decodeImage } from '../src-main/service/core/media/image';
import { APP_ROOT } from '../src-main/service/paths';

const NM = join(APP_ROOT, 'node_modules');
export const SAMPLE = (i: number) => join(NM, '@vladmandic/face-api/demo', `sample${i}.jpg`);
const SCREENSHOT = join(NM, '@vladmandic/human/assets/screenshot-facematch.jpg');

type Engine = Awaited<ReturnType<typeof loadFaceEngine>>;

async function embed(engine: Engine, bytes: Buffer): Promise<number[] | null> {
  const img = await decodeImage('image', bytes);
  const a = await engine.analyze(img);
  const f = [...a.faces].sort((x, y) => y.box.width - x.box.width)[0];
  return f && f.embedding.length ? f.embedding : null;
}

/** Every face of the face-api demo photos, cropped as a portrait (the face with a margin). */
export async function sampleCrops(engine: Engine): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for (let i = 1; i <= 6; i++) {
    const bytes = readFileSync(SAMPLE(i));
    const img = await decodeImage('image', bytes);
    const scale = (await sharp(bytes).metadata()).width! / img.width;
    for (const f of (await engine.analyze(img)).faces) {
      const m = f.box.width * 0.6;
      const left = Math.max(0, Math.round((f.box.x - m) * scale));
      const top = Math.max(0, Math.round((f.box.y - m) * scale));
      const side = Math.round((f.box.width + 2 * m) * scale);
      const meta = await sharp(bytes).metadata();
      const width = Math.min(side, meta.width! - left);
      const height = Math.min(side, meta.height! - top);
      out.push(await sharp(bytes).extract({ left, top, width, height }).resize(480, 480, { fit: 'inside' }).jpeg({ quality: 92 }).toBuffer());
    }
  }
  return out;
}

async function alterations(crop: Buffer): Promise<Buffer[]> {
  const meta = await sharp(crop).metadata();
  const w = meta.width!;
  const h = meta.height!;
  return Promise.all([
    sharp(crop).flop().jpeg().toBuffer(),
    sharp(crop).modulate({ brightness: 0.7 }).jpeg({ quality: 30 }).toBuffer(),
    sharp(crop).resize(Math.round(w / 4)).toBuffer().then((b) => sharp(b).resize(w).jpeg().toBuffer()),
    sharp(crop).rotate(10, { background: '#808080' }).jpeg().toBuffer(),
    sharp(crop).extract({ left: Math.round(w * 0.08), top: Math.round(h * 0.04), width: Math.round(w * 0.88), height: Math.round(h * 0.9) }).jpeg().toBuffer(),
  ]);
}

/** The man's 11 thumbnails: first row of the face-match screenshot, one tile every 106.7 px. */
async function manTiles(): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for (let i = 0; i < 11; i++) {
    out.push(await sharp(SCREENSHOT).extract({ left: Math.round(i * 106.7), top: 283, width: 100, height: 100 }).resize(320, 320).jpeg({ quality: 95 }).toBuffer());
  }
  return out;
}

function stats(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * (s.length - 1)))]!;
  return { n: s.length, min: s[0]!, p05: q(0.05), median: q(0.5), p95: q(0.95), max: s[s.length - 1]! };
}

async function main(): Promise<void> {
  const engine = await loadFaceEngine();
  const crops = await sampleCrops(engine);
  const base: number[][] = [];
  const samePhoto: number[] = [];
  for (const c of crops) {
    const e = await embed(engine, c);
    if (!e) continue;
    base.push(e);
    for (const alt of await alterations(c)) {
      const e2 = await embed(engine, alt);
      if (e2) samePhoto.push(cosine(e, e2));
    }
  }
  const man = (await Promise.all((await manTiles()).map((t) => embed(engine, t)))).filter((e): e is number[] => e !== null);
  const otherPhoto: number[] = [];
  for (let i = 0; i < man.length; i++) for (let j = i + 1; j < man.length; j++) otherPhoto.push(cosine(man[i]!, man[j]!));
  const different: number[] = [];
  for (let i = 0; i < base.length; i++) for (let j = i + 1; j < base.length; j++) different.push(cosine(base[i]!, base[j]!));
  for (const m of man) for (const b of base) different.push(cosine(m, b));

  const fmt = (o: ReturnType<typeof stats>) => `n=${o.n} min ${o.min.toFixed(3)} p05 ${o.p05.toFixed(3)} median ${o.median.toFixed(3)} p95 ${o.p95.toFixed(3)} max ${o.max.toFixed(3)}`;
  console.log(`faces: ${base.length} sample faces, ${man.length} photos of one man`);
  console.log(`same person, other photo:  ${fmt(stats(otherPhoto))}`);
  console.log(`same person, altered photo: ${fmt(stats(samePhoto))}`);
  console.log(`different people:          ${fmt(stats(different))}`);
  console.log('threshold  false-accept  false-reject(other photo)  false-reject(altered)');
  for (const t of [0.55, 0.6, 0.62, 0.65, 0.68, 0.7, 0.72, 0.75, 0.8]) {
    const far = different.filter((s) => s >= t).length / different.length;
    const frrO = otherPhoto.filter((s) => s < t).length / otherPhoto.length;
    const frrA = samePhoto.filter((s) => s < t).length / samePhoto.length;
    const mark = t === FACE_MATCH_THRESHOLD ? '  <- shipped' : '';
    console.log(`${t.toFixed(2).padStart(9)}  ${(100 * far).toFixed(2).padStart(11)}%  ${(100 * frrO).toFixed(1).padStart(24)}%  ${(100 * frrA).toFixed(1).padStart(20)}%${mark}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) void main();
