// What paper and a lit screen do to the light of a photo: a print cannot be darker than its ink
// nor more saturated than its gamut, so its blacks sit well above a camera's; a flash or lamp
// on glossy paper or glass leaves one large clipped patch on the face.
import type { FaceBox } from '../types';
import type { Region } from './plane';

export interface Tone {
  /** The 2nd percentile of luma over the face box (0-255): how dark the darkest parts are. */
  darkFloor: number;
  /** The 98th percentile of saturation (max-min over max, 0-1) over the picture. */
  saturation: number;
  /** Share of the face box that is clipped white in every channel. */
  glare: number;
}

export function tone(rgb: Uint8Array, width: number, face: FaceBox, region: Region): Tone {
  const fx0 = Math.max(region.x0, Math.round(face.x));
  const fy0 = Math.max(region.y0, Math.round(face.y));
  const fx1 = Math.min(region.x1, Math.round(face.x + face.width));
  const fy1 = Math.min(region.y1, Math.round(face.y + face.height));
  const lum = new Uint32Array(256);
  let n = 0;
  let clipped = 0;
  for (let y = fy0; y < fy1; y++) {
    for (let x = fx0; x < fx1; x++) {
      const p = (y * width + x) * 3;
      const r = rgb[p]!;
      const g = rgb[p + 1]!;
      const b = rgb[p + 2]!;
      const l = Math.round(0.299 * r + 0.587 * g + 0.114 * b);
      lum[l] = lum[l]! + 1;
      n++;
      if (r >= 250 && g >= 250 && b >= 250) clipped++;
    }
  }
  const sat = new Uint32Array(101);
  let m = 0;
  const step = Math.max(1, Math.floor(Math.sqrt(((region.x1 - region.x0) * (region.y1 - region.y0)) / 40000)));
  for (let y = region.y0; y < region.y1; y += step) {
    for (let x = region.x0; x < region.x1; x += step) {
      const p = (y * width + x) * 3;
      const mx = Math.max(rgb[p]!, rgb[p + 1]!, rgb[p + 2]!);
      const mn = Math.min(rgb[p]!, rgb[p + 1]!, rgb[p + 2]!);
      if (mx >= 40) {
        const k = Math.round((100 * (mx - mn)) / mx);
        sat[k] = sat[k]! + 1;
        m++;
      }
    }
  }
  return {
    darkFloor: histogramQuantile(lum, n, 0.02),
    saturation: histogramQuantile(sat, m, 0.98) / 100,
    glare: n ? clipped / n : 0,
  };
}

function histogramQuantile(h: Uint32Array, total: number, q: number): number {
  if (!total) return 0;
  let cum = 0;
  for (let i = 0; i < h.length; i++) {
    cum += h[i]!;
    if (cum >= q * total) return i;
  }
  return h.length - 1;
}
