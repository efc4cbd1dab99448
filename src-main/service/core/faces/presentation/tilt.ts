// The turns at which a picture's print and edges are searched. A document, card, print or phone is
// a rigid plane: its edges and lines of print run square to each other, at whatever angle it is
// held. Level comes first (the rules' limits were set there); then the face's own roll (a
// portrait stands upright on its card, so a card held askew turns the face with it) and the angle
// of the strongest straight edges around the face (a card held askew around a face that was
// itself tilted on it). A live face in a room adds nothing new: a tilted phone turns the room and
// the face alike, and the room's edges are the ones found level in an upright picture.
import type { FaceBox } from '../types';
import { shrink, type Plane, type Region } from './plane';

/** Largest turn searched (degrees): past it a picture's rows and columns trade places. */
const MAX_TILT = 40;
/** Turns closer than this (degrees) to one already searched add nothing: the searches span ±5° or more. */
const DISTINCT = 4;
/** Gradient that counts as an edge (grey levels over two pixels). */
const GRAD = 14;
/** A direction of straight edges counts when its share of the edge weight is this many times an even share. */
const PEAK = 3;

const rad = (deg: number) => (deg * Math.PI) / 180;

export function candidateTilts(full: Plane, face: FaceBox, region: Region, rollDeg: number): number[] {
  const out = [0];
  const add = (deg: number) => {
    if (!Number.isFinite(deg) || Math.abs(deg) > MAX_TILT) return;
    if (out.every((t) => Math.abs(rad(deg) - t) >= rad(DISTINCT))) out.push(rad(deg));
  };
  add(rollDeg);
  const edges = edgeDirection(full, face, region);
  if (edges !== null) add(edges);
  return out;
}

/**
 * The direction (degrees in (-45, 45], clockwise positive) that the straight edges outside the face
 * share, folded so that a rectangle's sides count together; null when no direction stands out.
 */
function edgeDirection(full: Plane, faceFull: FaceBox, regionFull: Region): number | null {
  const k = Math.max(1, Math.ceil(Math.max(full.width, full.height) / 200));
  const g = shrink(full, k);
  const W = g.width;
  const fx0 = faceFull.x / k;
  const fy0 = faceFull.y / k;
  const fx1 = (faceFull.x + faceFull.width) / k;
  const fy1 = (faceFull.y + faceFull.height) / k;
  const x0 = Math.max(1, Math.ceil(regionFull.x0 / k) + 1);
  const y0 = Math.max(1, Math.ceil(regionFull.y0 / k) + 1);
  const x1 = Math.min(W - 1, Math.floor(regionFull.x1 / k) - 2);
  const y1 = Math.min(g.height - 1, Math.floor(regionFull.y1 / k) - 2);
  const d = g.data;
  const bins = new Float64Array(90);
  let total = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      if (x >= fx0 && x < fx1 && y >= fy0 && y < fy1) continue;
      const i = y * W + x;
      // Sobel: a pixel's gradient from its whole 3×3 neighbourhood, so an edge stepping across the
      // pixel grid keeps its direction (two-pixel differences swing ±15° along a slanted edge).
      const gx = d[i - W + 1]! + 2 * d[i + 1]! + d[i + W + 1]! - d[i - W - 1]! - 2 * d[i - 1]! - d[i + W - 1]!;
      const gy = d[i + W - 1]! + 2 * d[i + W]! + d[i + W + 1]! - d[i - W - 1]! - 2 * d[i - W]! - d[i - W + 1]!;
      const m = Math.hypot(gx, gy) / 4;
      if (m < GRAD) continue;
      // The gradient's angle folded into [0°, 90°): an edge and the edge square to it share a bin.
      let a = (Math.atan2(gy, gx) * 180) / Math.PI;
      a = ((a % 90) + 90) % 90;
      bins[Math.min(89, Math.floor(a))]! += m;
      total += m;
    }
  }
  if (total === 0) return null;
  let best = 0;
  let bestAt = 0;
  for (let b = 0; b < 90; b++) {
    let s = 0;
    for (let d = -2; d <= 2; d++) s += bins[(b + d + 90) % 90]!;
    if (s > best) [best, bestAt] = [s, b];
  }
  if (best < (PEAK * 5 * total) / 90) return null;
  // The direction is the peak's weighted centre.
  let sum = 0;
  for (let d = -2; d <= 2; d++) sum += (bestAt + d + 0.5) * bins[(bestAt + d + 90) % 90]!;
  const deg = (((sum / best) % 90) + 90) % 90;
  return deg > 45 ? deg - 90 : deg;
}
