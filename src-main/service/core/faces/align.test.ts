// The chip alignment as pure geometry: the fitted transform, the landmarks it is fitted to, and the
// warp. (Whether the chips it cuts make good descriptors is measured by scripts/calibrate-faces.ts
// and pinned by the face-match tests on real photos.)
import { describe, expect, it } from 'vitest';
import { chipTransform, fitSimilarity, warpChip, type Mesh, type MeshPoint } from './align';

const apply = (t: { a: number; b: number; tx: number; ty: number }, x: number, y: number) => ({ x: t.a * x - t.b * y + t.tx, y: t.b * x + t.a * y + t.ty });

describe('fitSimilarity', () => {
  it('recovers a rotation, scale and shift exactly from clean points', () => {
    const truth = { a: 2 * Math.cos(0.3), b: 2 * Math.sin(0.3), tx: 40, ty: -7 };
    const from = [{ x: 0, y: 0 }, { x: 10, y: 3 }, { x: -4, y: 8 }, { x: 6, y: -9 }];
    const t = fitSimilarity(from, from.map((p) => apply(truth, p.x, p.y)));
    expect(t.a).toBeCloseTo(truth.a, 9);
    expect(t.b).toBeCloseTo(truth.b, 9);
    expect(t.tx).toBeCloseTo(truth.tx, 9);
    expect(t.ty).toBeCloseTo(truth.ty, 9);
  });
});

describe('chipTransform', () => {
  // A face mesh made by moving a reference mesh: only the points the alignment reads matter, so a
  // mesh is built where every point is where the transform puts one made-up face.
  function meshFrom(place: (x: number, y: number) => { x: number; y: number }): Mesh {
    const points: MeshPoint[] = [];
    for (let i = 0; i < 478; i++) {
      // A deterministic spread of points over a unit face: each index its own spot.
      const p = place((i * 37) % 101 / 100, (i * 61) % 97 / 96);
      points.push([p.x, p.y, 0]);
    }
    return points;
  }

  it('levels a tilted face: the fitted transform turns by the tilt and scales by the size', () => {
    const upright = chipTransform(meshFrom((x, y) => ({ x: 300 + 200 * x, y: 200 + 200 * y })), 150);
    const angle = (20 * Math.PI) / 180;
    const tilted = chipTransform(meshFrom((x, y) => {
      const u = 200 * x - 100;
      const v = 200 * y - 100;
      return { x: 400 + u * Math.cos(angle) - v * Math.sin(angle), y: 300 + u * Math.sin(angle) + v * Math.cos(angle) };
    }), 150);
    expect(Math.atan2(tilted.b, tilted.a) - Math.atan2(upright.b, upright.a)).toBeCloseTo(angle, 6);
    expect(Math.hypot(tilted.a, tilted.b)).toBeCloseTo(Math.hypot(upright.a, upright.b), 6);
  });

  it('a larger padding takes more of the image around the same face into the chip', () => {
    const mesh = meshFrom((x, y) => ({ x: 300 + 200 * x, y: 200 + 200 * y }));
    const tight = chipTransform(mesh, 150, { landmarks: 'dlib', padding: 0.1 });
    const loose = chipTransform(mesh, 150, { landmarks: 'dlib', padding: 0.4 });
    expect(Math.hypot(loose.a, loose.b) / Math.hypot(tight.a, tight.b)).toBeCloseTo((1 + 2 * 0.4) / (1 + 2 * 0.1), 6);
  });
});

describe('warpChip', () => {
  it('samples the image through the transform: a 90° turn of a known image reads back turned', () => {
    const w = 8, h = 8;
    const rgb = new Uint8Array(w * h * 3);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) rgb.set([x * 30, y * 30, 7], (y * w + x) * 3);
    // Chip (cx, cy) reads image (7 - cy, cx): the chip is the image turned a quarter.
    const chip = warpChip(rgb, w, h, { a: 0, b: 1, tx: 7, ty: 0 }, 8);
    for (const [cx, cy] of [[0, 0], [3, 5], [7, 2]] as const) {
      const o = (cy * 8 + cx) * 3;
      expect([chip[o], chip[o + 1], chip[o + 2]]).toEqual([(7 - cy) * 30, cx * 30, 7]);
    }
  });

  it('averages a face larger than the chip instead of picking single pixels', () => {
    // A fine black-and-white checkerboard, halved: every chip pixel covers two image pixels a side.
    const w = 64, h = 64;
    const rgb = new Uint8Array(w * h * 3);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) rgb.fill((x + y) % 2 ? 255 : 0, (y * w + x) * 3, (y * w + x) * 3 + 3);
    // One sample per chip pixel would land on pixel centres, all of one colour (black).
    const chip = warpChip(rgb, w, h, { a: 2, b: 0, tx: 0, ty: 0 }, 32);
    for (let cy = 1; cy < 31; cy++) for (let cx = 1; cx < 31; cx++) expect(chip[(cy * 32 + cx) * 3]).toBeCloseTo(127.5, 6);
  });
});
