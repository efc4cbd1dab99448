// A frame around the face: the edges of a held print or card, of a phone or monitor (its bezel),
// or of a photo lying on a desk. A live face is not surrounded by one long, straight edge of a
// single polarity on every side at a head's distance; a picture of a face is. Searched on a grey
// copy of at most 320 px, for lines within ±10° of square to the face (at its tilt) on each side.
import type { FaceBox } from '../types';
import { shrink, type Plane, type Region } from './plane';

export interface Frame {
  /** Sides of the face (0-4) with a straight edge around it. */
  sides: number;
  /** The weakest of the edges found on those sides: the share of the edge's length that is edge. */
  coverage: number;
}

/** Share of a line's length that must be a same-polarity edge for the line to count. */
export const EDGE_COVERAGE = 0.85;
const GRAD = 14;
/** Angles searched either side of square to the face (radians, to about ±10°). */
const ANGLES = [-0.17, -0.12, -0.07, -0.035, 0, 0.035, 0.07, 0.12, 0.17].map(Math.atan);

/** How far out (face sizes) a held picture's edges are searched. */
const REACH = 3;
/** Half the length of a line searched around the face's outline, in outline sizes. */
const OUTLINE_REACH = 0.65;

/** Finer turns tried around the best coarse angle (radians: ±0.5°, ±1°, ±1.5°). */
const REFINE = [-1.5, -1, -0.5, 0.5, 1, 1.5].map((d) => (d * Math.PI) / 180);

/**
 * `tilts`: the turns (radians, clockwise positive) the picture's edges are searched around: level,
 * and whatever else the image suggests (the face's roll, its strongest straight edges). The best
 * tilt is taken for the frame and for the portrait, each on its own. `outlineFull`: the face's own
 * extent (its mesh's bounds), around which a document portrait's edges are searched as well.
 */
export function frameAround(
  full: Plane, faceFull: FaceBox, regionFull: Region, tilts: readonly number[] = [0], outlineFull?: FaceBox,
): Frame & { portrait: Frame } {
  const k = Math.max(1, Math.ceil(Math.max(full.width, full.height) / 320));
  const g = shrink(full, k);
  const scaled = (b: FaceBox): FaceBox => ({ x: b.x / k, y: b.y / k, width: b.width / k, height: b.height / k });
  const f = scaled(faceFull);
  const r = {
    x0: Math.ceil(regionFull.x0 / k) + 1, y0: Math.ceil(regionFull.y0 / k) + 1,
    x1: Math.floor(regionFull.x1 / k) - 2, y1: Math.floor(regionFull.y1 / k) - 2,
  };
  const W = g.width;
  // Signs of strong vertical and horizontal gradients (+1, -1, 0), computed once.
  const sy = new Int8Array(g.data.length);
  const sx = new Int8Array(g.data.length);
  for (let y = 1; y < g.height - 1; y++) {
    for (let x = 1; x < W - 1; x++) {
      const i = y * W + x;
      const dy = g.data[i + W]! - g.data[i - W]!;
      const dx = g.data[i + 1]! - g.data[i - 1]!;
      sy[i] = dy >= GRAD ? 1 : dy <= -GRAD ? -1 : 0;
      sx[i] = dx >= GRAD ? 1 : dx <= -GRAD ? -1 : 0;
    }
  }

  // Best coverage of a line square to the face at offsets `from`..`to` (step ±1) along one axis,
  // the line running `reach` sizes of `box` either side of its centre. A line across the
  // face's up direction runs at slope tan(tilt + a) in the image (y grows down); a line along it,
  // as x over y, at −tan(tilt + a).
  const scan = (tilt: number, horizontal: boolean, from: number, to: number, reach = 0.9, box: FaceBox = f): number => {
    const sign = horizontal ? 1 : -1;
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    // The stretch read along the axis (the line's own length times the cosine of its turn), centred
    // where a line at the searched turn passes closest to the face's centre.
    const span = (horizontal ? reach * box.width : reach * box.height) * Math.cos(tilt);
    const centre = horizontal ? cx : cy;
    const across = horizontal ? cy : cx;
    const base = sign * Math.tan(tilt);
    const first = horizontal ? r.x0 : r.y0;
    const last = horizontal ? r.x1 : r.y1;
    const limA = horizontal ? r.y0 : r.x0;
    const limB = horizontal ? r.y1 : r.x1;
    const coverage = (o: number, slope: number): number => {
      const mid = centre - (base * (o - across)) / (1 + base * base);
      const lo = Math.max(first, Math.round(mid - span));
      const hi = Math.min(last, Math.round(mid + span));
      const len = hi - lo;
      // At least half the line must lie in the picture.
      if (len < span) return 0;
      let pos = 0;
      let neg = 0;
      for (let t = lo; t < hi; t++) {
        const off = Math.round(o + (t - centre) * slope);
        if (off < limA || off >= limB) continue;
        const d = horizontal ? sy[off * W + t]! : sx[t * W + off]!;
        if (d > 0) pos++;
        else if (d < 0) neg++;
      }
      return Math.max(pos, neg) / len;
    };
    let best = 0;
    let bestO = from;
    let bestA = 0;
    const dir = to >= from ? 1 : -1;
    for (let o = from; dir > 0 ? o <= to : o >= to; o += dir) {
      for (const a of ANGLES) {
        const c = coverage(o, sign * Math.tan(tilt + a));
        if (c > best) [best, bestO, bestA] = [c, o, a];
      }
    }
    // The coarse angles are ~2.5° apart, too far for a long edge to lie on one of them: the best
    // line found is turned in finer steps around its angle and moved a pixel either way.
    for (const da of REFINE) {
      for (let dO = -1; dO <= 1; dO++) {
        const c = coverage(bestO + dO, sign * Math.tan(tilt + bestA + da));
        if (c > best) best = c;
      }
    }
    return best;
  };
  /**
   * The four sides of `box`, each searched from `[near, far]` box sizes out from it (above, below,
   * beside), with lines `reach` box sizes either side of its centre.
   */
  type Range = readonly [number, number];
  const sides = (tilt: number, box: FaceBox, reach: number, above: Range, below: Range, beside: Range) => [
    scan(tilt, true, Math.round(box.y - above[0] * box.height), Math.max(r.y0, Math.round(box.y - above[1] * box.height)), reach, box),
    scan(tilt, true, Math.round(box.y + (1 + below[0]) * box.height), Math.min(r.y1 - 1, Math.round(box.y + (1 + below[1]) * box.height)), reach, box),
    scan(tilt, false, Math.round(box.x - beside[0] * box.width), Math.max(r.x0, Math.round(box.x - beside[1] * box.width)), reach, box),
    scan(tilt, false, Math.round(box.x + (1 + beside[0]) * box.width), Math.min(r.x1 - 1, Math.round(box.x + (1 + beside[1]) * box.width)), reach, box),
  ];
  const o = outlineFull ? scaled(outlineFull) : null;
  let frame: Frame = { sides: 0, coverage: 0 };
  let portrait: Frame = { sides: 0, coverage: 0 };
  for (const tilt of tilts) {
    // A held print's, card's or phone's edges: long lines up to three face sizes out.
    frame = better(frame, sidesOf(sides(tilt, f, 0.9, [0.3, REACH], [0.15, REACH], [0.15, REACH])));
    // A document's portrait: its photo's own edges close around the head (above the hair, beside
    // the ears, under the shoulders), each running at least the face's own size.
    portrait = better(portrait, sidesOf(sides(tilt, f, 0.5, [0.15, 0.9], [0.1, 1.2], [0.05, 0.8])));
    // The same edges around the face's own outline (the mesh's extent, forehead to chin and cheek
    // to cheek), for a portrait the head fills: its edges then lie inside the detector's box,
    // which is half as large again as the face, where the search above does not look. Each line
    // runs 1.3 outline sizes (shorter lines are closed more often by a live room's edges).
    if (o) portrait = better(portrait, sidesOf(sides(tilt, o, OUTLINE_REACH, [0.1, 0.9], [0.1, 1], [0.1, 0.8])));
  }
  return { ...frame, portrait };
}

function sidesOf(cover: number[]): Frame {
  const found = cover.filter((c) => c >= EDGE_COVERAGE);
  return { sides: found.length, coverage: found.length ? Math.min(...found) : Math.max(...cover) };
}

const better = (a: Frame, b: Frame): Frame => (b.sides > a.sides || (b.sides === a.sides && b.coverage > a.coverage) ? b : a);
