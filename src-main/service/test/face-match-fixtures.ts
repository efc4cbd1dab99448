// Face-match fixtures made by code from photos that ship in npm packages (dev dependencies), and
// ID documents carrying any portrait. Nothing is written to disk.
//   - The man: the first row of @vladmandic/human's assets/screenshot-facematch.jpg, eleven
//     small photos of one man (100 px tiles; text overlays, one with face paint).
//   - Demo faces: the women of @vladmandic/face-api's demo photos (one photo each).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { APP_ROOT } from '../paths';
import { renderSpecimen, type Holder, type SpecimenOptions } from './document-fixtures';
import { samplePhoto } from './face-fixtures';

const SCREENSHOT = join(APP_ROOT, 'node_modules', '@vladmandic', 'human', 'assets', 'screenshot-facematch.jpg');

/** Photo `i` (0-10) of the man, upscaled to 320 px. */
export async function manPhoto(i: number): Promise<Buffer> {
  return sharp(readFileSync(SCREENSHOT))
    .extract({ left: Math.round(i * 106.7), top: 283, width: 100, height: 100 })
    .resize(320, 320)
    .jpeg({ quality: 95 })
    .toBuffer();
}

/** A face of a face-api demo photo: the square (x, y, side) of the 1920-px photo with a 60% margin, at 480 px. */
export async function demoFace(photo: number, x: number, y: number, side: number): Promise<Buffer> {
  const src = samplePhoto(photo);
  const meta = await sharp(src).metadata();
  const m = Math.round(side * 0.6);
  const left = Math.max(0, x - m);
  const top = Math.max(0, y - m);
  return sharp(src)
    .extract({ left, top, width: Math.min(side + 2 * m, meta.width! - left), height: Math.min(side + 2 * m, meta.height! - top) })
    .resize(480, 480, { fit: 'inside' })
    .jpeg({ quality: 92 })
    .toBuffer();
}

/** The grey of the specimen's empty photo area (document-fixtures, `noFace`). */
const PHOTO_AREA = [0xd9, 0xdd, 0xe3] as const;

/**
 * A specimen document (document-fixtures' renderer, unchanged) whose portrait is the given photo:
 * the document is drawn without a face and the photo is set into its empty photo area, found by
 * its colour, so the layout can change without this code knowing.
 */
export async function documentWithPortrait(h: Holder, portrait: Buffer, opts: SpecimenOptions = {}): Promise<Buffer> {
  const blank = await renderSpecimen(h, { ...opts, noFace: true });
  const { data, info } = await sharp(blank).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let x0 = info.width, y0 = info.height, x1 = -1, y1 = -1;
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      const i = (y * info.width + x) * 3;
      if (data[i] === PHOTO_AREA[0] && data[i + 1] === PHOTO_AREA[1] && data[i + 2] === PHOTO_AREA[2]) {
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
      }
    }
  }
  if (x1 < 0) throw new Error('the specimen has no empty photo area');
  const width = x1 - x0 + 1;
  const height = y1 - y0 + 1;
  const photo = await sharp(portrait).resize(width, height, { fit: 'cover' }).png().toBuffer();
  return sharp(blank).composite([{ input: photo, left: x0, top: y0 }]).png().toBuffer();
}
