// Real photos of faces for the presentation-attack evaluation: every face found in a set of
// photos, cropped as a single-face picture, in three forms a customer or a public photo comes in
// (a phone-sized crop; a 250 px LFW-like JPEG; a small, heavily compressed copy). In memory only.
//
// Sources: the face-api demo photos (a dev dependency), and any
// photos in a folder passed by the caller (for example public sample photos of face-recognition
// projects; docs/faces.md names the ones used for the published figures). Human's sample
// collage is left out: it is a screenshot of thumbnails with borders and captions, not a photo.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import type { FaceEngine } from '../../src-main/service/core/faces/engine';
import { decodeImage } from '../../src-main/service/core/media/image';
import { APP_ROOT } from '../../src-main/service/paths';
import { rng } from './recapture';

const NM = join(APP_ROOT, 'node_modules');

export interface Photo { source: string; name: string; bytes: Buffer }

export function packagedPhotos(): Photo[] {
  const out: Photo[] = [];
  for (let i = 1; i <= 6; i++) out.push({ source: 'face-api-demo', name: `sample${i}`, bytes: readFileSync(join(NM, '@vladmandic/face-api/demo', `sample${i}.jpg`)) });
  return out;
}

/** Photos in a folder; the source is the file name's prefix up to its first '-'. */
export function folderPhotos(dir: string): Photo[] {
  return readdirSync(dir)
    .filter((f) => /\.(jpe?g|png|webp)$/i.test(f))
    .sort()
    .map((f) => ({ source: f.split('-')[0]!, name: f, bytes: readFileSync(join(dir, f)) }));
}

export type RealForm = 'phone' | 'lfw' | 'heavy' | 'tilted';
export interface RealCrop { source: string; name: string; form: RealForm; bytes: Buffer }

/** Each face of at least 48 px in a photo, cropped with a random margin, in the three forms. */
export async function cropFaces(engine: FaceEngine, photo: Photo, seed: number): Promise<RealCrop[]> {
  const r = rng(seed);
  const meta = await sharp(photo.bytes).rotate().metadata();
  const img = await decodeImage('image', photo.bytes);
  const W = meta.autoOrient?.width ?? meta.width!;
  const H = meta.autoOrient?.height ?? meta.height!;
  const scale = W / img.width;
  const faces = (await engine.analyze({ ...img, describe: false })).faces.filter((f) => f.score >= 0.6 && f.box.width * scale >= 48);
  const out: RealCrop[] = [];
  let k = 0;
  for (const f of faces) {
    const side = f.box.width * scale;
    // The crop holds this face only: it stops short of any other face the detector found.
    const others = faces.filter((o) => o !== f).map((o) => ({ x: o.box.x * scale, y: o.box.y * scale, w: o.box.width * scale, h: o.box.height * scale }));
    let m = side * (0.45 + 0.6 * r());
    const tall = 1 + 0.3 * r();
    const boxOf = (mm: number) => {
      const left = Math.max(0, Math.round(f.box.x * scale - mm));
      const top = Math.max(0, Math.round(f.box.y * scale - mm * 0.9));
      return { left, top, width: Math.min(Math.round(side + 2 * mm), W - left), height: Math.min(Math.round((side + 2 * mm) * tall), H - top) };
    };
    const hits = (b: ReturnType<typeof boxOf>) => others.some((o) => o.x < b.left + b.width && b.left < o.x + o.w && o.y < b.top + b.height && b.top < o.y + o.h);
    while (m > side * 0.2 && hits(boxOf(m))) m *= 0.85;
    const { left, top, width, height } = boxOf(m);
    if (hits({ left, top, width, height }) || width < 64 || height < 64) continue;
    const crop = await sharp(photo.bytes).rotate().extract({ left, top, width, height }).png().toBuffer();
    const name = `${photo.name}#${k++}`;
    out.push(
      { source: photo.source, name, form: 'phone', bytes: await sharp(crop).resize(900, 900, { fit: 'inside', withoutEnlargement: true }).jpeg({ quality: 88 }).toBuffer() },
      { source: photo.source, name, form: 'lfw', bytes: await sharp(crop).resize(250, 250, { fit: 'cover' }).jpeg({ quality: 72 }).toBuffer() },
      { source: photo.source, name, form: 'heavy', bytes: await sharp(crop).resize(180, 180, { fit: 'inside' }).jpeg({ quality: 30 }).toBuffer() },
      { source: photo.source, name, form: 'tilted', bytes: await tilted(crop, seed * 31 + k) },
    );
  }
  return out;
}

/**
 * The crop as a phone held askew takes it: turned 10-35° either way (the room turns with the face)
 * and cut to the largest upright rectangle inside, so no filled corner adds an edge.
 */
async function tilted(crop: Buffer, seed: number): Promise<Buffer> {
  const r = rng(seed);
  const deg = (r() < 0.5 ? -1 : 1) * (10 + 25 * r());
  const { width: w, height: h } = await sharp(crop).metadata();
  const a = (Math.abs(deg) * Math.PI) / 180;
  const turned = sharp(await sharp(crop).rotate(deg).png().toBuffer());
  const { width: W, height: H } = await turned.metadata();
  // The largest axis-aligned rectangle of the crop's proportions inside the turned crop.
  const s = 0.98 / (Math.cos(a) + Math.sin(a) * Math.max(w! / h!, h! / w!));
  const iw = Math.floor(w! * s);
  const ih = Math.floor(h! * s);
  return turned.extract({ left: Math.floor((W! - iw) / 2), top: Math.floor((H! - ih) / 2), width: iw, height: ih })
    .resize(900, 900, { fit: 'inside', withoutEnlargement: true }).jpeg({ quality: 88 }).toBuffer();
}
