// A frame around the face: the edges of a held print or card, of a phone or monitor (its bezel),
// or of a photo lying on a desk. A live face is not surrounded by one long, straight edge of a
// single polarity on every side at a head's distance; a picture of a face is. Searched on a grey
// copy of at most 320 px, for near-level lines (±10°) on each side of the face.
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
const SLOPES = [-0.17, -0.12, -0.07, -0.035, 0, 0.035, 0.07, 0.12, 0.17];

export function frameAround(full: Plane, faceFull: FaceBox, regionFull: Region): Frame & { portrait: Frame } {
  const k = Math.max(1, Math.ceil(Math.max(full.width, full.height) / 320));
  const g = shrink(full, k);
  const f = { x: faceFull.x / k, y: faceFull.y / k, width: faceFull.width / k, height: faceFull.height / k };
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
  const cx = f.x + f.width / 2;
  const cy = f.y + f.height / 2;
  const reachX = 3 * f.width;
  const reachY = 3 * f.height;

  // Best coverage of a level line at offsets `from`..`to` (step ±1) along one axis, the line
  // running `reach` face sizes either side of the face's centre.
  const scan = (horizontal: boolean, from: number, to: number, reach = 0.9): number => {
    const span = horizontal ? reach * f.width : reach * f.height;
    const centre = horizontal ? cx : cy;
    const lo = Math.max(horizontal ? r.x0 : r.y0, Math.round(centre - span));
    const hi = Math.min(horizontal ? r.x1 : r.y1, Math.round(centre + span));
    const len = hi - lo;
    if (len < reach * (horizontal ? f.width : f.height)) return 0;
    const limA = horizontal ? r.y0 : r.x0;
    const limB = horizontal ? r.y1 : r.x1;
    let best = 0;
    const dir = to >= from ? 1 : -1;
    for (let o = from; dir > 0 ? o <= to : o >= to; o += dir) {
      for (const s of SLOPES) {
        let pos = 0;
        let neg = 0;
        for (let t = lo; t < hi; t++) {
          const off = Math.round(o + (t - centre) * s);
          if (off < limA || off >= limB) continue;
          const d = horizontal ? sy[off * W + t]! : sx[t * W + off]!;
          if (d > 0) pos++;
          else if (d < 0) neg++;
        }
        const c = Math.max(pos, neg) / len;
        if (c > best) best = c;
      }
    }
    return best;
  };
  const cover = [
    scan(true, Math.round(f.y - 0.3 * f.height), Math.max(r.y0, Math.round(f.y - reachY))),
    scan(true, Math.round(f.y + 1.15 * f.height), Math.min(r.y1 - 1, Math.round(f.y + f.height + reachY))),
    scan(false, Math.round(f.x - 0.15 * f.width), Math.max(r.x0, Math.round(f.x - reachX))),
    scan(false, Math.round(f.x + 1.15 * f.width), Math.min(r.x1 - 1, Math.round(f.x + f.width + reachX))),
  ];
  // A document's portrait: its photo's own edges close around the head (above the hair, beside
  // the ears, under the shoulders), each running at least the face's own size.
  const near = [
    scan(true, Math.round(f.y - 0.15 * f.height), Math.max(r.y0, Math.round(f.y - 0.9 * f.height)), 0.5),
    scan(true, Math.round(f.y + 1.1 * f.height), Math.min(r.y1 - 1, Math.round(f.y + 2.2 * f.height)), 0.5),
    scan(false, Math.round(f.x - 0.05 * f.width), Math.max(r.x0, Math.round(f.x - 0.8 * f.width)), 0.5),
    scan(false, Math.round(f.x + 1.05 * f.width), Math.min(r.x1 - 1, Math.round(f.x + 1.8 * f.width)), 0.5),
  ];
  const found = cover.filter((c) => c >= EDGE_COVERAGE);
  const close = near.filter((c) => c >= EDGE_COVERAGE);
  return {
    sides: found.length, coverage: found.length ? Math.min(...found) : Math.max(...cover),
    portrait: { sides: close.length, coverage: close.length ? Math.min(...close) : Math.max(...near) },
  };
}
