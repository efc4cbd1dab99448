// Periodic structure that a face does not have: a screen's pixel grid and the moiré it makes with
// the camera's sensor, and a print's halftone dots. Both put isolated peaks into the spatial
// spectrum of the face region. Skin, hair and the camera's own noise have a smooth spectrum, and
// JPEG's 8-pixel blocks put energy along whole rows and columns of the spectrum, not at points,
// so a peak counts only when it stands above its neighbours along both axes (and the block
// lattice's own points, multiples of an eighth on both axes, are skipped). The spectrum is
// averaged over overlapping windows (Welch) so that noise alone does not make peaks.
//
// The colour signal reads the same region: a screen's red, green and blue sub-pixels, resampled by
// the camera, leave colour fringes at fine scales; a camera photo of a face has its fine detail
// in brightness, and JPEG keeps colour at half resolution.
import type { FaceBox } from '../types';
import type { Plane, Region } from './plane';

/** Bit-reversal order and twiddle factors of a radix-2 FFT of length n, computed once per n. */
interface Plan { rev: Uint16Array; cos: Float64Array; sin: Float64Array }
const plans = new Map<number, Plan>();
function planOf(n: number): Plan {
  let p = plans.get(n);
  if (p) return p;
  const rev = new Uint16Array(n);
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    rev[i] = j;
  }
  const cos = new Float64Array(n / 2);
  const sin = new Float64Array(n / 2);
  for (let k = 0; k < n / 2; k++) {
    cos[k] = Math.cos((-2 * Math.PI * k) / n);
    sin[k] = Math.sin((-2 * Math.PI * k) / n);
  }
  plans.set(n, (p = { rev, cos, sin }));
  return p;
}

/** In-place radix-2 FFT of one complex row (length a power of two). */
function fft(re: Float64Array, im: Float64Array, plan: Plan): void {
  const n = re.length;
  const { rev, cos, sin } = plan;
  for (let i = 1; i < n; i++) {
    const j = rev[i]!;
    if (i < j) {
      const tr = re[i]!;
      re[i] = re[j]!;
      re[j] = tr;
      const ti = im[i]!;
      im[i] = im[j]!;
      im[j] = ti;
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const half = len >> 1;
    const stride = n / len;
    for (let i = 0; i < n; i += len) {
      for (let k = 0; k < half; k++) {
        const cr = cos[k * stride]!;
        const ci = sin[k * stride]!;
        const a = i + k;
        const b = a + half;
        const xr = re[b]! * cr - im[b]! * ci;
        const xi = re[b]! * ci + im[b]! * cr;
        re[b] = re[a]! - xr;
        im[b] = im[a]! - xi;
        re[a] = re[a]! + xr;
        im[a] = im[a]! + xi;
      }
    }
  }
}

/** Scratch buffers for one tile size, reused across the tiles of one image. */
interface Scratch { re: Float64Array; im: Float64Array; rr: Float64Array; ri: Float64Array }
const scratchOf = (n: number): Scratch => ({ re: new Float64Array(n * n), im: new Float64Array(n * n), rr: new Float64Array(n), ri: new Float64Array(n) });

/** Power spectrum of an n×n tile (Hann-windowed, mean removed), added into `acc` (n×n, DC at 0). */
function addTile(g: Plane, x0: number, y0: number, n: number, hann: Float64Array, acc: Float64Array, scratch: Scratch): void {
  const { re, im, rr, ri } = scratch;
  const plan = planOf(n);
  im.fill(0);
  let mean = 0;
  for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) mean += g.data[(y0 + y) * g.width + x0 + x]!;
  mean /= n * n;
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) re[y * n + x] = (g.data[(y0 + y) * g.width + x0 + x]! - mean) * hann[x]! * hann[y]!;
  }
  for (let y = 0; y < n; y++) {
    rr.set(re.subarray(y * n, y * n + n));
    ri.set(im.subarray(y * n, y * n + n));
    fft(rr, ri, plan);
    re.set(rr, y * n);
    im.set(ri, y * n);
  }
  for (let x = 0; x < n; x++) {
    for (let y = 0; y < n; y++) {
      rr[y] = re[y * n + x]!;
      ri[y] = im[y * n + x]!;
    }
    fft(rr, ri, plan);
    for (let y = 0; y < n; y++) acc[y * n + x] = acc[y * n + x]! + rr[y]! * rr[y]! + ri[y]! * ri[y]!;
  }
}

/** The square inside the face box where the spectrum is read (cheeks, eyes, nose, mouth). */
function faceSquare(face: FaceBox, region: Region): { x: number; y: number; side: number } | null {
  const side = Math.floor(Math.min(face.width, face.height) * 0.8);
  const cx = face.x + face.width / 2;
  const cy = face.y + face.height * 0.55;
  const x = Math.max(region.x0, Math.round(cx - side / 2));
  const y = Math.max(region.y0, Math.round(cy - side / 2));
  const s = Math.min(side, region.x1 - x, region.y1 - y);
  return s >= 32 ? { x, y, side: s } : null;
}

/**
 * The strongest periodic peak in the face region: log10 of its power over the larger of the
 * medians of its neighbours along the spectrum's row and column (a point, not a line). Periods of
 * 2.2 to 12 pixels are searched: coarser structure is the face itself.
 */
export function periodicPeak(g: Plane, face: FaceBox, region: Region): number {
  const sq = faceSquare(face, region);
  if (!sq) return 0;
  const n = sq.side >= 192 ? 64 : 32;
  const hann = new Float64Array(n);
  for (let i = 0; i < n; i++) hann[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * (i + 0.5)) / n);
  const acc = new Float64Array(n * n);
  const scratch = scratchOf(n);
  // Half-overlapping windows, or fewer on a large face (a few dozen windows settle the noise).
  const step = Math.max(n / 2, Math.floor((sq.side - n) / 5));
  let tiles = 0;
  for (let y = sq.y; y + n <= sq.y + sq.side; y += step) {
    for (let x = sq.x; x + n <= sq.x + sq.side; x += step) {
      addTile(g, x, y, n, hann, acc, scratch);
      tiles++;
    }
  }
  if (tiles < 2) return 0;
  const at = (u: number, v: number) => acc[(((v % n) + n) % n) * n + (((u % n) + n) % n)]!;
  const rMin = n / 12;
  const rMax = n / 2.2;
  let best = 0;
  const row = [0, 0, 0, 0];
  const col = [0, 0, 0, 0];
  const med4 = (a: number[]) => {
    const s = [...a].sort((p, q) => p - q);
    return (s[1]! + s[2]!) / 2;
  };
  // Half the plane: the spectrum of a real image is symmetric.
  for (let v = 0; v <= n / 2; v++) {
    for (let u = -n / 2 + 1; u <= n / 2; u++) {
      const r = Math.hypot(u, v);
      if (r < rMin || r > rMax) continue;
      // JPEG's 8×8 blocks, held flat, repeat the spectrum at multiples of an eighth: not evidence.
      if (u % (n / 8) === 0 && v % (n / 8) === 0) continue;
      const p = at(u, v);
      row[0] = at(u - 2, v); row[1] = at(u - 3, v); row[2] = at(u + 2, v); row[3] = at(u + 3, v);
      col[0] = at(u, v - 2); col[1] = at(u, v - 3); col[2] = at(u, v + 2); col[3] = at(u, v + 3);
      const ref = Math.max(med4(row), med4(col), 1e-9);
      const score = Math.log10(p / ref);
      if (score > best) best = score;
    }
  }
  return best;
}

/**
 * Colour detail over brightness detail in the face region: the energy of the fine (3×3 box)
 * residual of the two colour-difference planes over that of the luma plane.
 */
export function colourFringes(rgb: Uint8Array, width: number, face: FaceBox, region: Region): number {
  const sq = faceSquare(face, region);
  if (!sq) return 0;
  const { x: x0, y: y0, side } = sq;
  const Y = new Float32Array(side * side);
  const Cb = new Float32Array(side * side);
  const Cr = new Float32Array(side * side);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const p = ((y0 + y) * width + x0 + x) * 3;
      const r = rgb[p]!;
      const gg = rgb[p + 1]!;
      const b = rgb[p + 2]!;
      const l = 0.299 * r + 0.587 * gg + 0.114 * b;
      Y[y * side + x] = l;
      Cb[y * side + x] = 0.564 * (b - l);
      Cr[y * side + x] = 0.713 * (r - l);
    }
  }
  // On a large face every other pixel is enough for an energy ratio.
  const stride = side > 200 ? 2 : 1;
  const residual = (a: Float32Array) => {
    let e = 0;
    for (let y = 1; y < side - 1; y += stride) {
      for (let x = 1; x < side - 1; x += stride) {
        let s = 0;
        for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) s += a[(y + dy) * side + x + dx]!;
        const d = a[y * side + x]! - s / 9;
        e += d * d;
      }
    }
    return e;
  };
  const luma = residual(Y);
  return luma > 0 ? (residual(Cb) + residual(Cr)) / luma : 0;
}
