// Grey and colour planes of the analysed image, and the part of it that holds a picture. These
// are the inputs every presentation-attack signal reads; they live in the face worker for one job.
import type { FaceBox } from '../types';

/** A single-channel image, row-major. */
export interface Plane {
  data: Float32Array;
  width: number;
  height: number;
}

/** The rectangle of the image that holds a picture (uniform padding around it is not evidence). */
export interface Region {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export function luma(rgb: Uint8Array, width: number, height: number): Plane {
  const data = new Float32Array(width * height);
  for (let i = 0, p = 0; i < data.length; i++, p += 3) data[i] = 0.299 * rgb[p]! + 0.587 * rgb[p + 1]! + 0.114 * rgb[p + 2]!;
  return { data, width, height };
}

/**
 * The picture inside exact uniform padding. Clips are letterboxed onto white by the decoder and
 * some uploads carry flat borders; a camera never makes a row of identical pixels, so only rows
 * and columns equal to the corner colour are trimmed.
 */
export function pictureRegion(rgb: Uint8Array, width: number, height: number): Region {
  const same = (i: number, j: number) =>
    Math.abs(rgb[i]! - rgb[j]!) <= 2 && Math.abs(rgb[i + 1]! - rgb[j + 1]!) <= 2 && Math.abs(rgb[i + 2]! - rgb[j + 2]!) <= 2;
  const corner = 0;
  const rowUniform = (y: number) => {
    for (let x = 0; x < width; x++) if (!same((y * width + x) * 3, corner)) return false;
    return true;
  };
  const colUniform = (x: number, y0: number, y1: number) => {
    for (let y = y0; y < y1; y++) if (!same((y * width + x) * 3, corner)) return false;
    return true;
  };
  let y0 = 0;
  let y1 = height;
  let x0 = 0;
  let x1 = width;
  while (y0 < height - 1 && rowUniform(y0)) y0++;
  while (y1 > y0 + 1 && rowUniform(y1 - 1)) y1--;
  while (x0 < width - 1 && colUniform(x0, y0, y1)) x0++;
  while (x1 > x0 + 1 && colUniform(x1 - 1, y0, y1)) x1--;
  // Padding thinner than a few pixels is a border of the photo itself, not padding.
  if (y0 < 3) y0 = 0;
  if (height - y1 < 3) y1 = height;
  if (x0 < 3) x0 = 0;
  if (width - x1 < 3) x1 = width;
  return { x0, y0, x1, y1 };
}

/** Box-averaged copy of a plane at 1/k of its size (k an integer ≥ 1). */
export function shrink(p: Plane, k: number): Plane {
  if (k <= 1) return p;
  const w = Math.floor(p.width / k);
  const h = Math.floor(p.height / k);
  const data = new Float32Array(w * h);
  const inv = 1 / (k * k);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let s = 0;
      for (let dy = 0; dy < k; dy++) {
        const row = (y * k + dy) * p.width + x * k;
        for (let dx = 0; dx < k; dx++) s += p.data[row + dx]!;
      }
      data[y * w + x] = s * inv;
    }
  }
  return { data, width: w, height: h };
}

export function clampBox(b: FaceBox, r: Region): Region {
  return {
    x0: Math.max(r.x0, Math.round(b.x)), y0: Math.max(r.y0, Math.round(b.y)),
    x1: Math.min(r.x1, Math.round(b.x + b.width)), y1: Math.min(r.y1, Math.round(b.y + b.height)),
  };
}
