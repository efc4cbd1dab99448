// Finding the document in a photo and laying it flat, before the text is read. A phone photo shows
// the page on a desk, turned (up to ±15° and more), seen at a slant (the far edge shorter), with the
// desk around it; the reader reads such a page worse than a flat one (its lines are slanted and
// foreshortened, the desk adds text-like clutter). Here the page's four edges are found as straight
// lines on a small copy of the picture, the best quadrilateral among them is chosen by how well its
// sides follow real edges, its shape and its size, and the page is warped to an upright rectangle
// (a homography on the RGB buffer). Where no quadrilateral is convincing, or the page already fills
// the picture squarely (a flat scan), null is returned and the picture is read as it is.
//
// Pure computation on pixels: runs in the document reader's child process, on the request's image.
import sharp from 'sharp';
import type { RgbImage } from './ocr';

export type Point = [number, number];
export type Quad = [Point, Point, Point, Point];

export interface PageBoundary {
  /** Corners in the picture: top left, top right, bottom right, bottom left (of the page as it lies). */
  corners: Quad;
  /** How well the sides follow edges in the picture, 0-1 (the weakest side counts most). */
  support: number;
  /** The page's share of the picture. */
  area: number;
}

export interface LocatedPage {
  page: RgbImage;
  boundary: PageBoundary;
  /** Quarter turns applied after flattening so that the zone is at the bottom (0, 90, 180, 270). */
  turned: number;
}

/** The picture is searched at this size on its longer side: the page's edges are long and survive it. */
const WORK_SIDE = 420;
/** Edge pixels are the strongest gradients: above this percentile and this floor. */
const EDGE_PERCENTILE = 0.8;
const EDGE_FLOOR = 24;
/** Hough: one bin per degree and per working pixel. */
const THETA_BINS = 180;
/** Lines kept from the Hough accumulator. */
const MAX_LINES = 30;
/** A side must follow an edge along this share of its length at least, on average over the four... */
const MIN_MEAN_SUPPORT = 0.6;
/** ...and its weakest side along this share. */
const MIN_SIDE_SUPPORT = 0.4;
/** The page is at least this share of the picture (a portrait frame, the largest rectangle inside a page, is at most 0.15 of a scan). */
const MIN_AREA = 0.2;
/** ICAO formats: TD3 and TD2 are 1.42 wide for 1 high, TD1 1.585. Allowing for foreshortening. */
const MIN_ASPECT = 1.15;
const MAX_ASPECT = 2.0;
/** Strips this many working pixels either side of a side are compared... */
const SIDE_STRIP = 3;
/** ...and a colour difference of this much (RGB distance) is full contrast; under MIN_CONTRAST of it, no side. */
const FULL_CONTRAST = 40;
const MIN_CONTRAST = 0.15;
/** Text makes edges: inside a document at least this share of the pixels are edge pixels. */
const MIN_INTERIOR_EDGES = 0.025;

/** A small, lightly blurred copy (libvips): noise and print texture down, the page's edges kept. */
async function shrink(img: RgbImage, side: number): Promise<{ rgb: Uint8Array; w: number; h: number; scale: number }> {
  const k = Math.max(1, Math.max(img.width, img.height) / side);
  const { data, info } = await sharp(img.rgb, { raw: { width: img.width, height: img.height, channels: 3 } })
    .resize(Math.max(1, Math.round(img.width / k)), Math.max(1, Math.round(img.height / k)), { kernel: 'linear', fit: 'fill' })
    .blur(0.8)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { rgb: new Uint8Array(data.buffer, data.byteOffset, data.length), w: info.width, h: info.height, scale: img.width / info.width };
}

/** Colour gradients (Sobel on each channel, the strongest channel per pixel): a beige page on a brown desk differs more in hue than in brightness. */
function gradients(rgb: Uint8Array, w: number, h: number): { mag: Float32Array; gx: Float32Array; gy: Float32Array } {
  const mag = new Float32Array(w * h);
  const gx = new Float32Array(w * h);
  const gy = new Float32Array(w * h);
  const row = w * 3;
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = (y * w + x) * 3;
      let best = -1;
      for (let c = 0; c < 3; c++) {
        const j = i + c;
        const tl = rgb[j - row - 3]!, t = rgb[j - row]!, tr = rgb[j - row + 3]!;
        const l = rgb[j - 3]!, r = rgb[j + 3]!;
        const bl = rgb[j + row - 3]!, b = rgb[j + row]!, br = rgb[j + row + 3]!;
        const sx = tr + 2 * r + br - tl - 2 * l - bl;
        const sy = bl + 2 * b + br - tl - 2 * t - tr;
        const m = sx * sx + sy * sy;
        if (m > best) {
          best = m;
          gx[y * w + x] = sx;
          gy[y * w + x] = sy;
        }
      }
      mag[y * w + x] = Math.sqrt(best);
    }
  }
  return { mag, gx, gy };
}

interface Line {
  /** Normal angle, radians in [0, π). */
  theta: number;
  rho: number;
  votes: number;
}

/** Edge pixels: strong (above a percentile and an absolute floor) and a local maximum across the edge. */
function edgeMap(mag: Float32Array, gx: Float32Array, gy: Float32Array, w: number, h: number): { edge: Uint8Array; threshold: number } {
  // The percentile from a histogram (magnitudes are at most 4·255·√2 < 1500).
  const hist = new Uint32Array(1500);
  for (let i = 0; i < mag.length; i++) hist[Math.min(1499, mag[i]! | 0)]! += 1;
  let p = 0;
  let seen = 0;
  while (p < 1499 && seen + hist[p]! < mag.length * EDGE_PERCENTILE) seen += hist[p++]!;
  const threshold = Math.max(EDGE_FLOOR, p);
  const edge = new Uint8Array(w * h);
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      const m = mag[i]!;
      if (m < threshold) continue;
      // Thin the edge: keep the pixel only if it is the strongest of its neighbours across the edge.
      const ax = Math.abs(gx[i]!);
      const ay = Math.abs(gy[i]!);
      const [dx, dy] = ax > 2 * ay ? [1, 0] : ay > 2 * ax ? [0, 1] : gx[i]! * gy[i]! > 0 ? [1, 1] : [1, -1];
      if (m >= mag[i + dy * w + dx]! && m >= mag[i - dy * w - dx]!) edge[i] = 1;
    }
  }
  return { edge, threshold };
}

/** Straight lines through the edge pixels: each votes only near its own gradient direction. */
function houghLines(edge: Uint8Array, gx: Float32Array, gy: Float32Array, w: number, h: number): Line[] {
  const diag = Math.ceil(Math.hypot(w, h));
  const rhoBins = 2 * diag + 1;
  const acc = new Float32Array(THETA_BINS * rhoBins);
  const cos = Float64Array.from({ length: THETA_BINS }, (_, t) => Math.cos((t * Math.PI) / THETA_BINS));
  const sin = Float64Array.from({ length: THETA_BINS }, (_, t) => Math.sin((t * Math.PI) / THETA_BINS));
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (!edge[i]) continue;
      let a = Math.atan2(gy[i]!, gx[i]!);
      if (a < 0) a += Math.PI;
      const t0 = Math.round((a * THETA_BINS) / Math.PI);
      for (let dt = -5; dt <= 5; dt++) {
        // Past π the normal wraps round: the same line, written with the bin's own angle.
        const t = (((t0 + dt) % THETA_BINS) + THETA_BINS) % THETA_BINS;
        const bin = t * rhoBins + Math.round(x * cos[t]! + y * sin[t]!) + diag;
        acc[bin] = acc[bin]! + 1;
      }
    }
  }
  // Peaks, strongest first, none within 6° and 8 px of a stronger one.
  const peaks: Line[] = [];
  const floor = Math.min(w, h) * 0.12;
  const order: number[] = [];
  for (let i = 0; i < acc.length; i++) if (acc[i]! >= floor) order.push(i);
  order.sort((a, b) => acc[b]! - acc[a]!);
  for (const i of order) {
    const t = Math.floor(i / rhoBins);
    const rho = (i % rhoBins) - diag;
    const theta = (t * Math.PI) / THETA_BINS;
    const near = peaks.some((p) => {
      let d = Math.abs(p.theta - theta);
      let r = Math.abs(p.rho - rho);
      if (d > Math.PI / 2) {
        d = Math.PI - d;
        r = Math.abs(p.rho + rho);
      }
      return d < (6 * Math.PI) / 180 && r < 8;
    });
    if (near) continue;
    peaks.push({ theta, rho, votes: acc[i]! });
    if (peaks.length >= MAX_LINES) break;
  }
  return peaks;
}

function intersect(a: Line, b: Line): Point | null {
  const [c1, s1, c2, s2] = [Math.cos(a.theta), Math.sin(a.theta), Math.cos(b.theta), Math.sin(b.theta)];
  const det = c1 * s2 - s1 * c2;
  if (Math.abs(det) < 1e-6) return null;
  return [(a.rho * s2 - b.rho * s1) / det, (c1 * b.rho - c2 * a.rho) / det];
}

const sub = (a: Point, b: Point): Point => [a[0] - b[0], a[1] - b[1]];
const cross = (a: Point, b: Point) => a[0] * b[1] - a[1] * b[0];
const len = (a: Point) => Math.hypot(a[0], a[1]);

function quadArea(q: Quad): number {
  let s = 0;
  for (let i = 0; i < 4; i++) s += cross(q[i]!, q[(i + 1) % 4]!);
  return Math.abs(s) / 2;
}

/** Convex, corners between 55° and 125°. */
function wellShaped(q: Quad): boolean {
  let sign = 0;
  for (let i = 0; i < 4; i++) {
    const a = sub(q[(i + 1) % 4]!, q[i]!);
    const b = sub(q[(i + 2) % 4]!, q[(i + 1) % 4]!);
    const c = cross(a, b);
    if (sign === 0) sign = Math.sign(c);
    else if (Math.sign(c) !== sign) return false;
    const cosAngle = -(a[0] * b[0] + a[1] * b[1]) / (len(a) * len(b));
    if (Math.abs(cosAngle) > Math.cos((55 * Math.PI) / 180)) return false;
  }
  return true;
}

/** The share of a segment along which an edge pixel, facing across the segment, lies within a pixel. */
function sideSupport(a: Point, b: Point, edge: Uint8Array, gx: Float32Array, gy: Float32Array, w: number, h: number): number {
  const d = sub(b, a);
  const L = len(d);
  if (L < 4) return 0;
  const [ux, uy] = [d[0] / L, d[1] / L];
  let hits = 0;
  let n = 0;
  // The ends are left out: a corner may be cut or lie outside the picture.
  for (let s = L * 0.04; s <= L * 0.96; s += 1) {
    n++;
    const px = a[0] + ux * s;
    const py = a[1] + uy * s;
    let hit = false;
    for (let o = -1; o <= 1 && !hit; o += 1) {
      const x = Math.round(px - uy * o);
      const y = Math.round(py + ux * o);
      if (x < 0 || y < 0 || x >= w || y >= h) continue;
      const i = y * w + x;
      if (!edge[i]) continue;
      // The gradient must cross the side (within 25°), not run along it.
      const g = Math.hypot(gx[i]!, gy[i]!);
      if (g > 0 && Math.abs(gx[i]! * -uy + gy[i]! * ux) / g > 0.9) hit = true;
    }
    if (hit) hits++;
  }
  return n ? hits / n : 0;
}

/**
 * How different the picture is on the two sides of a segment, 0-1: the mean colour of a strip just
 * inside against one just outside. A page's side parts the page from the desk; a line of wood grain
 * or a ruled line has the same surface on both sides.
 */
function sideContrast(a: Point, b: Point, inward: Point, rgb: Uint8Array, w: number, h: number): number {
  const d = sub(b, a);
  const L = len(d);
  if (L < 4) return 0;
  const [ux, uy] = [d[0] / L, d[1] / L];
  // The normal that points into the quadrilateral.
  let [nx, ny] = [-uy, ux];
  if (nx * inward[0] + ny * inward[1] < 0) [nx, ny] = [-nx, -ny];
  const inside = [0, 0, 0];
  const outside = [0, 0, 0];
  let n = 0;
  for (let s = L * 0.06; s <= L * 0.94; s += 1) {
    const px = a[0] + ux * s;
    const py = a[1] + uy * s;
    const xi = Math.round(px + nx * SIDE_STRIP);
    const yi = Math.round(py + ny * SIDE_STRIP);
    const xo = Math.round(px - nx * SIDE_STRIP);
    const yo = Math.round(py - ny * SIDE_STRIP);
    if (xi < 0 || yi < 0 || xi >= w || yi >= h || xo < 0 || yo < 0 || xo >= w || yo >= h) continue;
    for (let c = 0; c < 3; c++) {
      inside[c]! += rgb[(yi * w + xi) * 3 + c]!;
      outside[c]! += rgb[(yo * w + xo) * 3 + c]!;
    }
    n++;
  }
  // A side along the picture's border has nothing outside: it is judged by its edge alone.
  if (n < (L * 0.88) / 2) return 1;
  const dist = Math.hypot(inside[0]! - outside[0]!, inside[1]! - outside[1]!, inside[2]! - outside[2]!) / n;
  return Math.min(1, dist / FULL_CONTRAST);
}

/** The share of edge pixels inside the quadrilateral (shrunk by a tenth: its own edges left out). */
function interiorEdges(q: Quad, edge: Uint8Array, w: number, h: number): number {
  const c: Point = [(q[0][0] + q[1][0] + q[2][0] + q[3][0]) / 4, (q[0][1] + q[1][1] + q[2][1] + q[3][1]) / 4];
  const inner = q.map(([x, y]): Point => [c[0] + (x - c[0]) * 0.85, c[1] + (y - c[1]) * 0.85]) as Quad;
  const xs = inner.map(([x]) => x);
  const ys = inner.map(([, y]) => y);
  let inside = 0;
  let edges = 0;
  for (let y = Math.max(0, Math.floor(Math.min(...ys))); y <= Math.min(h - 1, Math.ceil(Math.max(...ys))); y++) {
    for (let x = Math.max(0, Math.floor(Math.min(...xs))); x <= Math.min(w - 1, Math.ceil(Math.max(...xs))); x++) {
      let ok = true;
      for (let i = 0; i < 4 && ok; i++) if (cross(sub(inner[(i + 1) % 4]!, inner[i]!), sub([x, y], inner[i]!)) < 0) ok = false;
      if (!ok) continue;
      inside++;
      edges += edge[y * w + x]!;
    }
  }
  return inside ? edges / inside : 0;
}

/** The page's boundary in the picture, or null when no quadrilateral is convincing. */
export async function findPageBoundary(img: RgbImage): Promise<PageBoundary | null> {
  const small = await shrink(img, WORK_SIDE);
  const { w, h } = small;
  const { mag, gx, gy } = gradients(small.rgb, w, h);
  const { edge } = edgeMap(mag, gx, gy, w, h);
  const lines = houghLines(edge, gx, gy, w, h);
  // Sides across the page (normal near vertical) and along it (normal near horizontal), allowing
  // for ±15° of turn and the slant of perspective; a page turned a quarter is a tall quadrilateral.
  const angleFromVertical = (l: Line) => Math.abs(l.theta - Math.PI / 2);
  const across = lines.filter((l) => angleFromVertical(l) < (40 * Math.PI) / 180);
  const along = lines.filter((l) => angleFromVertical(l) > (50 * Math.PI) / 180);
  // Where a line crosses the middle of the picture, to put a pair in order.
  const yAtMid = (l: Line) => (l.rho - (w / 2) * Math.cos(l.theta)) / Math.sin(l.theta);
  const xAtMid = (l: Line) => (l.rho - (h / 2) * Math.sin(l.theta)) / Math.cos(l.theta);
  const total = w * h;
  let best: { q: Quad; score: number; support: number; area: number } | null = null;
  const supportCache = new Map<string, number>();
  for (let i = 0; i < across.length; i++) {
    for (let j = i + 1; j < across.length; j++) {
      const [top, bottom] = yAtMid(across[i]!) < yAtMid(across[j]!) ? [across[i]!, across[j]!] : [across[j]!, across[i]!];
      if (Math.abs(top.theta - bottom.theta) > (25 * Math.PI) / 180) continue;
      for (let k = 0; k < along.length; k++) {
        for (let m = k + 1; m < along.length; m++) {
          const [left, right] = xAtMid(along[k]!) < xAtMid(along[m]!) ? [along[k]!, along[m]!] : [along[m]!, along[k]!];
          const parallel = Math.min(Math.abs(left.theta - right.theta), Math.PI - Math.abs(left.theta - right.theta));
          if (parallel > (25 * Math.PI) / 180) continue;
          const corners = [intersect(top, left), intersect(top, right), intersect(bottom, right), intersect(bottom, left)];
          if (corners.some((c) => !c || c[0] < -0.03 * w || c[1] < -0.03 * h || c[0] > 1.03 * w || c[1] > 1.03 * h)) continue;
          const q = corners as Quad;
          const area = quadArea(q) / total;
          if (area < MIN_AREA || !wellShaped(q)) continue;
          const wide = (len(sub(q[1], q[0])) + len(sub(q[2], q[3]))) / 2;
          const high = (len(sub(q[3], q[0])) + len(sub(q[2], q[1]))) / 2;
          const aspect = Math.max(wide, high) / Math.min(wide, high);
          if (aspect < MIN_ASPECT || aspect > MAX_ASPECT) continue;
          // Sides are shared by many candidates: each is measured once.
          const centre: Point = [(q[0][0] + q[1][0] + q[2][0] + q[3][0]) / 4, (q[0][1] + q[1][1] + q[2][1] + q[3][1]) / 4];
          const [t, b, l, r] = [lines.indexOf(top), lines.indexOf(bottom), lines.indexOf(left), lines.indexOf(right)];
          const ids = [`${t}|${l}|${r}`, `${r}|${t}|${b}`, `${b}|${l}|${r}`, `${l}|${t}|${b}`];
          const sides = [0, 1, 2, 3].map((s) => {
            const key = ids[s]!;
            let v = supportCache.get(key);
            if (v === undefined) {
              const [a, b] = [q[s]!, q[(s + 1) % 4]!];
              const inward = sub(centre, [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2]);
              const contrast = sideContrast(a, b, inward, small.rgb, w, h);
              // A side without contrast is no page side, however straight its edge.
              v = contrast < MIN_CONTRAST ? 0 : sideSupport(a, b, edge, gx, gy, w, h) * (0.6 + 0.4 * contrast);
              supportCache.set(key, v);
            }
            return v;
          });
          const mean = sides.reduce((a, b) => a + b, 0) / 4;
          const weakest = Math.min(...sides);
          if (mean < MIN_MEAN_SUPPORT || weakest < MIN_SIDE_SUPPORT) continue;
          // Edges followed all round count most; among well-followed quadrilaterals the larger is the
          // page (the portrait's frame and the zone's band are rectangles inside it).
          const support = 0.3 * mean + 0.7 * weakest;
          const score = support * support * Math.sqrt(area);
          if (!best || score > best.score) best = { q, score, support, area };
        }
      }
    }
  }
  if (!best || interiorEdges(best.q, edge, w, h) < MIN_INTERIOR_EDGES) return null;
  const s = small.scale;
  // A working pixel stands for a block of the picture: its centre is half a block in.
  const corners = best.q.map(([x, y]): Point => [
    Math.min(img.width, Math.max(0, (x + 0.5) * s)), Math.min(img.height, Math.max(0, (y + 0.5) * s)),
  ]) as Quad;
  return { corners, support: best.support, area: best.area };
}

/**
 * The homography taking (u, v) in the output rectangle to (x, y) in the picture, from four point
 * pairs (the eight equations solved by Gaussian elimination with partial pivoting).
 */
export function homography(from: Quad, to: Quad): { map: (u: number, v: number) => Point; m: [number, number, number, number, number, number, number, number] } {
  const A: number[][] = [];
  for (let i = 0; i < 4; i++) {
    const [u, v] = from[i]!;
    const [x, y] = to[i]!;
    A.push([u, v, 1, 0, 0, 0, -u * x, -v * x, x]);
    A.push([0, 0, 0, u, v, 1, -u * y, -v * y, y]);
  }
  for (let c = 0; c < 8; c++) {
    let p = c;
    for (let r = c + 1; r < 8; r++) if (Math.abs(A[r]![c]!) > Math.abs(A[p]![c]!)) p = r;
    [A[c], A[p]] = [A[p]!, A[c]!];
    const pivot = A[c]![c]!;
    if (Math.abs(pivot) < 1e-12) throw new Error('degenerate quadrilateral');
    for (let r = 0; r < 8; r++) {
      if (r === c) continue;
      const f = A[r]![c]! / pivot;
      for (let k = c; k < 9; k++) A[r]![k]! -= f * A[c]![k]!;
    }
  }
  const hm = A.map((row, i) => row[8]! / row[i]!);
  const [a, b, c, d, e, f, g, hh] = hm as [number, number, number, number, number, number, number, number];
  return {
    m: [a, b, c, d, e, f, g, hh],
    map: (u, v) => {
      const z = g * u + hh * v + 1;
      return [(a * u + b * v + c) / z, (d * u + e * v + f) / z];
    },
  };
}

/** The quadrilateral warped to an upright `width` × `height` page (bilinear sampling). */
export function warpToRect(img: RgbImage, corners: Quad, width: number, height: number): RgbImage {
  const m = homography([[0, 0], [width, 0], [width, height], [0, height]], corners).m;
  const out = new Uint8Array(width * height * 3);
  const { rgb, width: W, height: H } = img;
  const [m0, m1, m2, m3, m4, m5, m6, m7] = m;
  const maxX = W - 1.001;
  const maxY = H - 1.001;
  let o = 0;
  for (let v = 0; v < height; v++) {
    const vv = v + 0.5;
    // The three projective terms are linear in u: stepped along the row instead of recomputed.
    let xn = m0 * 0.5 + m1 * vv + m2;
    let yn = m3 * 0.5 + m4 * vv + m5;
    let zn = m6 * 0.5 + m7 * vv + 1;
    for (let u = 0; u < width; u++, xn += m0, yn += m3, zn += m6, o += 3) {
      const fx = Math.min(maxX, Math.max(0, xn / zn - 0.5));
      const fy = Math.min(maxY, Math.max(0, yn / zn - 0.5));
      const ix = fx | 0;
      const iy = fy | 0;
      const ax = fx - ix;
      const ay = fy - iy;
      const w00 = (1 - ax) * (1 - ay);
      const w10 = ax * (1 - ay);
      const w01 = (1 - ax) * ay;
      const w11 = ax * ay;
      const i00 = (iy * W + ix) * 3;
      const i01 = i00 + W * 3;
      out[o] = rgb[i00]! * w00 + rgb[i00 + 3]! * w10 + rgb[i01]! * w01 + rgb[i01 + 3]! * w11 + 0.5;
      out[o + 1] = rgb[i00 + 1]! * w00 + rgb[i00 + 4]! * w10 + rgb[i01 + 1]! * w01 + rgb[i01 + 4]! * w11 + 0.5;
      out[o + 2] = rgb[i00 + 2]! * w00 + rgb[i00 + 5]! * w10 + rgb[i01 + 2]! * w01 + rgb[i01 + 5]! * w11 + 0.5;
    }
  }
  return { rgb: out, width, height };
}

/** A quarter-turned page's zone must be at least this zone-like (zoneLikeness) along one long side. */
const MIN_TURNED_ZONE = 0.6;
/** ICAO page shapes (width over height): TD3 and TD2 1.42, TD1 1.585. */
const SHAPES = [125 / 88, 85.6 / 54];

/**
 * How strongly a band along one side of the page looks like an MRZ: rows parallel to that side
 * whose dark/light changes run the whole length, evenly (OCR-B at a fixed pitch). 0-1.
 */
function zoneLikeness(page: RgbImage, side: 'top' | 'bottom' | 'left' | 'right'): number {
  const { rgb, width: W, height: H } = page;
  const horizontal = side === 'top' || side === 'bottom';
  const length = horizontal ? W : H;
  const depth = horizontal ? H : W;
  const band = Math.round(depth * 0.28);
  const step = Math.max(1, Math.round(band / 60));
  const lum = (x: number, y: number) => {
    const i = (y * W + x) * 3;
    return 0.3 * rgb[i]! + 0.59 * rgb[i + 1]! + 0.11 * rgb[i + 2]!;
  };
  let best = 0;
  const segments = 12;
  for (let d = Math.round(depth * 0.02); d < band; d += step) {
    const row = side === 'top' || side === 'left' ? d : depth - 1 - d;
    const seg = new Array<number>(segments).fill(0);
    let prev = -1;
    let mean = 0;
    for (let t = 0; t < length; t++) mean += horizontal ? lum(t, row) : lum(row, t);
    mean /= length;
    for (let t = Math.round(length * 0.04); t < length * 0.96; t++) {
      const v = (horizontal ? lum(t, row) : lum(row, t)) < mean * 0.7 ? 1 : 0;
      if (prev >= 0 && v !== prev) seg[Math.min(segments - 1, Math.floor((t / length) * segments))]! += 1;
      prev = v;
    }
    const covered = seg.filter((n) => n >= 3).length / segments;
    if (covered > best) best = covered;
  }
  return best;
}

/** Quarter turns of an RGB buffer, clockwise. */
function turn(img: RgbImage, quarters: number): RgbImage {
  const q = ((quarters % 4) + 4) % 4;
  if (q === 0) return img;
  const { rgb, width: W, height: H } = img;
  const [w, h] = q === 2 ? [W, H] : [H, W];
  const out = new Uint8Array(rgb.length);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const [nx, ny] = q === 1 ? [H - 1 - y, x] : q === 2 ? [W - 1 - x, H - 1 - y] : [y, W - 1 - x];
      const s = (y * W + x) * 3;
      const d = (ny * w + nx) * 3;
      out[d] = rgb[s]!;
      out[d + 1] = rgb[s + 1]!;
      out[d + 2] = rgb[s + 2]!;
    }
  }
  return { rgb: out, width: w, height: h };
}

/**
 * The page found in a photo, flattened and upright; null when none was found with confidence or
 * when the picture is already the page, square to the frame (a scan: it is read as it is).
 */
export async function locatePage(img: RgbImage): Promise<LocatedPage | null> {
  const boundary = await findPageBoundary(img);
  if (!boundary) return null;
  const c = boundary.corners;
  const topW = len(sub(c[1], c[0]));
  const bottomW = len(sub(c[2], c[3]));
  const leftH = len(sub(c[3], c[0]));
  const rightH = len(sub(c[2], c[1]));
  const tilt = Math.atan2(c[1][1] - c[0][1], c[1][0] - c[0][0]) * (180 / Math.PI);
  const square = Math.abs(tilt) < 2 && Math.abs(topW / bottomW - 1) < 0.03 && Math.abs(leftH / rightH - 1) < 0.03;
  if (square && boundary.area > 0.8) return null;
  let width = Math.max(topW, bottomW);
  let height = Math.max(leftH, rightH);
  const tall = height > width;
  // Foreshortening shortens one dimension: the nearest ICAO shape is the page's own (within 15%).
  const ratio = tall ? height / width : width / height;
  const shape = SHAPES.reduce((a, b) => (Math.abs(b / ratio - 1) < Math.abs(a / ratio - 1) ? b : a));
  if (Math.abs(shape / ratio - 1) < 0.15) {
    if (tall) width = height / shape;
    else height = width / shape;
  }
  // No larger than the picture's own resolution of the page (no invented detail).
  const page = warpToRect(img, c, Math.round(width), Math.round(height));
  // The zone belongs at the bottom: a tall page is turned a quarter towards it; a page upside down
  // (the zone clearly on top) is turned round.
  let quarters = 0;
  if (tall) {
    // A tall quadrilateral is a page turned a quarter only if its zone runs along a long side; a
    // portrait's frame joined to the picture's border is tall too.
    const [right, left] = [zoneLikeness(page, 'right'), zoneLikeness(page, 'left')];
    if (Math.max(right, left) < MIN_TURNED_ZONE) return null;
    quarters = right >= left ? 1 : 3;
  }
  let upright = turn(page, quarters);
  const top = zoneLikeness(upright, 'top');
  const bottom = zoneLikeness(upright, 'bottom');
  if (top >= 0.75 && top > bottom + 0.25) {
    upright = turn(upright, 2);
    quarters += 2;
  }
  return { page: upright, boundary, turned: (quarters % 4) * 90 };
}
