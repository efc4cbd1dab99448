// Lines of print beside the face: what an identity document, a card or a printed page shows
// around its portrait, and a selfie does not. Measured on the grey image at the face's own
// scale, so it does not depend on the document's layout, resolution or distance: character
// strokes make dense horizontal-gradient edges; joining edges across the gap between characters
// (run-length smearing) turns a line of text into one long, flat component whose height is a
// small fraction of the face's. Lines inside the face are not counted.
import type { FaceBox } from '../types';
import { shrink, type Plane, type Region } from './plane';

export interface TextLines {
  /** Text-like line components found around the face. */
  lines: number;
  /** Their total length in face widths. */
  length: number;
}

/**
 * A text line's height as a fraction of the face's height: print beside a portrait is small (a
 * document's fields are about a tenth of its portrait's face, a TD1 card's MRZ under a third),
 * and print on a card held at a live face's distance is smaller than the lower limit.
 */
export const LINE_HEIGHT = { min: 0.035, max: 0.3 } as const;
/** Smallest length-to-height ratio of a line of text. */
const MIN_ASPECT = 3;
/** Horizontal gradient that counts as a stroke edge (grey levels over two pixels). */
const EDGE = 34;

/** Slants searched around the face's tilt (radians, about ±15° in 5° steps): a document photographed at an angle. */
const SLANTS = [0, -0.0875, 0.0875, -0.176, 0.176, -0.268, 0.268].map(Math.atan);
/** Print (face widths) beyond which the search stops: twice the policy's limit of 2.5. */
const ENOUGH = 5;

/**
 * Around the face's outline (its mesh's bounds), the surround that holds no print, in outline sizes:
 * the ears and hair beside it, the hair above, the chin and a beard below.
 */
const SURROUND = { side: 0.35, above: 0.6, below: 0.4 } as const;

/**
 * `tilts`: the turns (radians, clockwise positive) the print is searched around: level first (±15°),
 * then each other the image suggests (±5°). `outlineFull`: the face's own extent; without it the
 * surround is taken from the detector's box alone.
 */
export function textLines(full: Plane, faceFull: FaceBox, regionFull: Region, tilts: readonly number[] = [0], outlineFull?: FaceBox): TextLines {
  // Print is measured at the face's scale: a large face (a selfie) is read at half size, where its
  // smallest counted line is still 3 pixels high, at a quarter of the cost.
  const k = faceFull.height >= 170 ? 2 : 1;
  const g = shrink(full, k);
  const region = { x0: Math.ceil(regionFull.x0 / k), y0: Math.ceil(regionFull.y0 / k), x1: Math.floor(regionFull.x1 / k), y1: Math.floor(regionFull.y1 / k) };
  const { width: W } = g;
  const x0 = region.x0 + 1;
  const x1 = region.x1 - 1;
  const y0 = region.y0;
  const y1 = region.y1;
  const rw = x1 - x0;
  const rh = y1 - y0;
  if (rw < 8 || rh < 8) return { lines: 0, length: 0 };
  // Stroke edges, found once; each slant reads them along its own rows.
  const edge = new Uint8Array(rw * rh);
  for (let y = 0; y < rh; y++) {
    const row = (y + y0) * W + x0;
    for (let x = 0; x < rw; x++) {
      const i = row + x;
      if (Math.abs(g.data[i + 1]! - g.data[i - 1]!) >= EDGE) edge[y * rw + x] = 1;
    }
  }
  // The face and its outline in the edge grid's pixels (read at 1/k, from the region's corner).
  const inGrid = (b: FaceBox): FaceBox => ({ x: b.x / k - x0, y: b.y / k - y0, width: b.width / k, height: b.height / k });
  const face = inGrid(faceFull);
  const outline = outlineFull && inGrid(outlineFull);
  let best: TextLines = { lines: 0, length: 0 };
  const slants = tilts.flatMap((tilt, i) => (i === 0 ? SLANTS : SLANTS.slice(0, 3)).map((a) => tilt + a));
  for (const a of slants) {
    const found = linesAlong(edge, rw, rh, Math.tan(a), face, outline);
    if (found.length > best.length) best = found;
    // Past this much print no other slant can change what is decided (the rule's evidence is full).
    if (best.length >= ENOUGH) break;
  }
  return best;
}

/**
 * Text lines along rows slanted by `t` (tangent): row y' of the slanted grid holds the pixels at
 * y = y' + t·x (measured from the centre column). Gaps between strokes on a row are closed up to
 * a fraction of the face's height, and the closed runs are joined into components.
 */
function linesAlong(src: Uint8Array, rw: number, rh: number, t: number, face: FaceBox, outline?: FaceBox): TextLines {
  const hMin = Math.max(3, LINE_HEIGHT.min * face.height);
  const hMax = Math.max(hMin + 3, LINE_HEIGHT.max * face.height);
  const gap = Math.max(3, Math.round(0.09 * face.height));
  const drift = Math.ceil(Math.abs(t) * rw / 2);
  const sh = rh + 2 * drift;
  const cx = rw / 2;
  const edge = new Uint8Array(rw * sh);
  const mask = new Uint8Array(rw * sh);
  for (let x = 0; x < rw; x++) {
    const shift = drift - Math.round(t * (x - cx));
    for (let y = 0; y < rh; y++) if (src[y * rw + x]) edge[(y + shift) * rw + x] = 1;
  }
  const rhS = sh;
  for (let y = 0; y < rhS; y++) {
    let last = -1e9;
    for (let x = 0; x < rw; x++) {
      if (!edge[y * rw + x]) continue;
      if (x - last <= gap) mask.fill(1, y * rw + last, y * rw + x + 1);
      else mask[y * rw + x] = 1;
      last = x;
    }
  }
  // The face, in the slanted grid (shifted as its centre column is).
  const slant = (b: FaceBox): FaceBox => ({ ...b, y: b.y + drift - Math.round(t * (b.x + b.width / 2 - cx)) });
  return components(edge, mask, rw, rhS, slant(face), hMin, hMax, gap, outline && slant(outline));
}

function components(edge: Uint8Array, mask: Uint8Array, rw: number, rh: number, face: FaceBox, hMin: number, hMax: number, gap: number, outline?: FaceBox): TextLines {
  // Connected components of the smeared mask, by runs: union-find over run ids, each row's runs
  // merged with the previous row's in one pass (both are in x order).
  const parent: number[] = [];
  const find = (a: number): number => {
    while (parent[a] !== a) a = parent[a] = parent[parent[a]!]!;
    return a;
  };
  const runY: number[] = [];
  const runA: number[] = [];
  const runB: number[] = [];
  let prevFrom = 0;
  let prevTo = 0;
  for (let y = 0; y < rh; y++) {
    const from = runA.length;
    let x = 0;
    let j = prevFrom;
    while (x < rw) {
      if (!mask[y * rw + x]) { x++; continue; }
      const a = x;
      while (x < rw && mask[y * rw + x]) x++;
      const id = runA.length;
      runY.push(y);
      runA.push(a);
      runB.push(x);
      parent.push(id);
      while (j < prevTo && runB[j]! <= a) j++;
      for (let k = j; k < prevTo && runA[k]! < x; k++) {
        const ra = find(k);
        const rb = find(id);
        if (ra !== rb) parent[ra] = rb;
      }
    }
    prevFrom = from;
    prevTo = runA.length;
  }
  const count = runA.length;
  const xa = new Int32Array(count).fill(1 << 30);
  const xb = new Int32Array(count);
  const ya = new Int32Array(count).fill(1 << 30);
  const yb = new Int32Array(count);
  const fill = new Int32Array(count);
  const edges = new Int32Array(count);
  const roots: number[] = [];
  for (let i = 0; i < count; i++) {
    const root = find(i);
    if (root === i) roots.push(i);
    const a = runA[i]!;
    const b = runB[i]!;
    const y = runY[i]!;
    xa[root] = Math.min(xa[root]!, a);
    xb[root] = Math.max(xb[root]!, b);
    ya[root] = Math.min(ya[root]!, y);
    yb[root] = Math.max(yb[root]!, y + 1);
    fill[root] = fill[root]! + b - a;
    let e = 0;
    for (let x = a; x < b; x++) e += edge[y * rw + x]!;
    edges[root] = edges[root]! + e;
  }

  // The face and its immediate surround (hair, ears) hold no print. The detector's box is half as
  // large again as the face, more when it was cut at the picture's edge: around the face's outline
  // the surround ends where it does, so print set close beside a portrait still counts.
  let fx0 = face.x - 0.1 * face.width;
  let fx1 = face.x + 1.1 * face.width;
  let fy0 = face.y - 0.25 * face.height;
  let fy1 = face.y + 1.1 * face.height;
  if (outline) {
    fx0 = Math.max(fx0, outline.x - SURROUND.side * outline.width);
    fx1 = Math.min(fx1, outline.x + (1 + SURROUND.side) * outline.width);
    fy0 = Math.max(fy0, outline.y - SURROUND.above * outline.height);
    fy1 = Math.min(fy1, outline.y + (1 + SURROUND.below) * outline.height);
  }
  let lines = 0;
  let length = 0;
  const clearOfFace = (x0: number, y0: number, x1: number, y1: number) => Math.min(x1, fx1) - Math.max(x0, fx0) <= 0 || Math.min(y1, fy1) - Math.max(y0, fy0) <= 0;
  for (const c of roots) {
    const w = xb[c]! - xa[c]!;
    const h = yb[c]! - ya[c]!;
    if (w < 2 * gap || w < MIN_ASPECT * hMin) continue;
    if (h > hMax) {
      // Lines set close together (a label over its value, a two-line header) are smeared into
      // one block: it is read row by row and counted line by line.
      for (const band of stackedLines(edge, mask, rw, xa[c]!, xb[c]!, ya[c]!, yb[c]!, hMin, hMax)) {
        if (!clearOfFace(band.x0, band.y0, band.x1, band.y1)) continue;
        lines += 1;
        length += band.x1 - band.x0;
      }
      continue;
    }
    if (h < hMin || w < MIN_ASPECT * h) continue;
    const area = w * h;
    if (fill[c]! < 0.5 * area || edges[c]! < 0.12 * area) continue;
    if (!clearOfFace(xa[c]!, ya[c]!, xb[c]!, yb[c]!)) continue;
    lines += 1;
    length += w;
  }
  return { lines, length: length / Math.max(1, face.width) };
}

/**
 * The lines of a block taller than one line: bands of rows dense with stroke edges, each parted
 * from the next by rows with almost none (the space between lines of print), each as tall as one
 * line, wide and full like one. Textures (hair, leaves, a patterned shirt) have no empty rows
 * between their bands, so they give none.
 */
function stackedLines(edge: Uint8Array, mask: Uint8Array, rw: number, x0: number, x1: number, y0: number, y1: number, hMin: number, hMax: number) {
  const rows = new Int32Array(y1 - y0);
  let peak = 0;
  for (let y = y0; y < y1; y++) {
    let n = 0;
    for (let x = x0; x < x1; x++) n += edge[y * rw + x]!;
    rows[y - y0] = n;
    if (n > peak) peak = n;
  }
  const out: { x0: number; y0: number; x1: number; y1: number }[] = [];
  const empty = Math.max(1, 0.1 * peak);
  let y = 0;
  while (y < rows.length) {
    if (rows[y]! < empty) { y++; continue; }
    const a = y;
    while (y < rows.length && rows[y]! >= empty) y++;
    const b = y;
    // A band must be parted from what is above and below it by an empty row (or the block's edge).
    if ((a > 0 && rows[a - 1]! >= empty) || b - a < hMin || b - a > hMax) continue;
    let bx0 = x1;
    let bx1 = x0;
    let edges = 0;
    for (let yy = y0 + a; yy < y0 + b; yy++) {
      for (let x = x0; x < x1; x++) {
        if (!edge[yy * rw + x]) continue;
        edges++;
        if (x < bx0) bx0 = x;
        if (x + 1 > bx1) bx1 = x + 1;
      }
    }
    const bw = bx1 - bx0;
    const bh = b - a;
    if (bw < MIN_ASPECT * bh) continue;
    let filled = 0;
    for (let yy = y0 + a; yy < y0 + b; yy++) for (let x = bx0; x < bx1; x++) filled += mask[yy * rw + x]!;
    if (filled < 0.5 * bw * bh || edges < 0.12 * bw * bh) continue;
    out.push({ x0: bx0, y0: y0 + a, x1: bx1, y1: y0 + b });
  }
  return out;
}
