// Head-turn frames made by code, for the challenge's tests, the e2e fake camera and
// `npm run calibrate:challenge`. Two kinds of movement, which the challenge must tell apart:
//
//   - a real head turning: the face is given depth (Human's 478-point face mesh, whose z the mesh
//     model estimates, inside an ellipsoid for the rest of the head) and rendered rotated about the
//     head's vertical axis, so the nose moves across the cheeks and the far cheek narrows, as on a
//     real head (`turnedHead`);
//   - a flat photo moved in front of the camera: the whole picture is a plane, turned about its
//     vertical or horizontal axis in perspective, panned and zoomed (`flatPhoto`); every point of
//     the face keeps its place on the plane.
//
// Everything is raw RGB in memory. Human is loaded here directly (test code only), because the
// service's engine answers readings, not landmarks.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { packageFile } from '../core/faces/engine';

export interface Rgb {
  data: Uint8Array;
  width: number;
  height: number;
}

export async function toRgb(image: Buffer): Promise<Rgb> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
}

export function toPng(img: Rgb): Promise<Buffer> {
  return sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } }).png().toBuffer();
}

function sample(src: Rgb, x: number, y: number, out: Uint8Array, o: number): boolean {
  if (x < 0 || y < 0 || x > src.width - 1 || y > src.height - 1) return false;
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  const x1 = Math.min(src.width - 1, x0 + 1);
  const y1 = Math.min(src.height - 1, y0 + 1);
  const fx = x - x0;
  const fy = y - y0;
  for (let c = 0; c < 3; c++) {
    const a = src.data[(y0 * src.width + x0) * 3 + c]!;
    const b = src.data[(y0 * src.width + x1) * 3 + c]!;
    const d = src.data[(y1 * src.width + x0) * 3 + c]!;
    const e = src.data[(y1 * src.width + x1) * 3 + c]!;
    out[o + c] = Math.round((a * (1 - fx) + b * fx) * (1 - fy) + (d * (1 - fx) + e * fx) * fy);
  }
  return true;
}

export interface FlatMove {
  /** Turn of the photo about its vertical axis, degrees. */
  yaw?: number;
  /** Turn about its horizontal axis, degrees. */
  pitch?: number;
  /** Zoom (1 = as taken) and pan in pixels of the output. */
  scale?: number;
  dx?: number;
  dy?: number;
  /** Camera distance in units of the picture's width (a photo held about 40 cm away). */
  distance?: number;
  /** What is seen around the photo. */
  background?: [number, number, number];
}

/** The picture as a flat card turned, panned and zoomed in front of a pinhole camera. */
export function flatPhoto(src: Rgb, move: FlatMove): Rgb {
  const { width: w, height: h } = src;
  const out = new Uint8Array(w * h * 3);
  const bg = move.background ?? [96, 104, 112];
  const yaw = ((move.yaw ?? 0) * Math.PI) / 180;
  const pitch = ((move.pitch ?? 0) * Math.PI) / 180;
  const scale = move.scale ?? 1;
  const f = (move.distance ?? 2) * w;
  const cx = w / 2 + (move.dx ?? 0);
  const cy = h / 2 + (move.dy ?? 0);
  // R = Ry(yaw) · Rx(pitch); the card's normal and its in-plane axes in camera space.
  const [cyw, syw, cp, sp] = [Math.cos(yaw), Math.sin(yaw), Math.cos(pitch), Math.sin(pitch)];
  const ex = [cyw, 0, -syw];
  const ey = [syw * sp, cp, cyw * sp];
  const n = [syw * cp, -sp, cyw * cp];
  for (let v = 0; v < h; v++) {
    for (let u = 0; u < w; u++) {
      const dir = [(u - cx) / f, (v - cy) / f, 1];
      const denom = n[0]! * dir[0]! + n[1]! * dir[1]! + n[2]! * dir[2]!;
      const o = (v * w + u) * 3;
      let hit = false;
      if (Math.abs(denom) > 1e-6) {
        const t = (n[2]! * f) / denom;
        const p = [t * dir[0]!, t * dir[1]!, t * dir[2]! - f];
        const X = (p[0]! * ex[0]! + p[1]! * ex[1]! + p[2]! * ex[2]!) / scale;
        const Y = (p[0]! * ey[0]! + p[1]! * ey[1]! + p[2]! * ey[2]!) / scale;
        hit = sample(src, X + w / 2, Y + h / 2, out, o);
      }
      if (!hit) [out[o], out[o + 1], out[o + 2]] = bg;
    }
  }
  return { data: out, width: w, height: h };
}

// --- The face mesh of a photo (Human, loaded once) --------------------------------------------

interface HumanLite {
  load(): Promise<void>;
  detect(input: unknown): Promise<{ face: { mesh: [number, number, number][]; box: [number, number, number, number] }[] }>;
  tf: { tensor3d(v: Uint8Array, s: [number, number, number], d: 'int32'): unknown; dispose(t: unknown): void; io: { registerLoadRouter(r: (u: string | string[]) => unknown): void } };
  faceTriangulation: number[];
}

const load = createRequire(import.meta.url);

/**
 * Models are read through an IO router of their own scheme: the service's engine registers one
 * for `file://` in the same process, and tfjs refuses a URL that two routers claim.
 */
const SCHEME = 'head-turn-model://';
let human: Promise<HumanLite> | null = null;
function meshModel(): Promise<HumanLite> {
  human ??= (async () => {
    const humanPath = packageFile('@vladmandic/human', 'dist/human.node-wasm.js');
    const modelDir = join(dirname(humanPath), '..', 'models');
    const wasmDir = dirname(packageFile('@tensorflow/tfjs-backend-wasm', 'dist/tfjs-backend-wasm.wasm')) + '/';
    const { Human } = load(humanPath) as { Human: new (cfg: unknown) => HumanLite };
    const h = new Human({
      backend: 'wasm', wasmPath: wasmDir, modelBasePath: `${SCHEME}${modelDir}/`, debug: false, async: false, warmup: 'none', cacheSensitivity: 0,
      filter: { enabled: false },
      face: {
        enabled: true, detector: { rotation: false, maxDetected: 1, skipFrames: 0 }, mesh: { enabled: true }, iris: { enabled: true },
        description: { enabled: false }, emotion: { enabled: false }, antispoof: { enabled: false }, liveness: { enabled: false },
      },
      body: { enabled: false }, hand: { enabled: false }, object: { enabled: false }, gesture: { enabled: false }, segmentation: { enabled: false },
    });
    h.tf.io.registerLoadRouter((url) => {
      if (typeof url !== 'string' || !url.startsWith(SCHEME)) return null;
      const path = url.slice(SCHEME.length);
      return {
        async load() {
          const json = JSON.parse(readFileSync(path, 'utf8')) as { modelTopology: unknown; weightsManifest: { paths: string[]; weights: unknown[] }[] };
          const weights = json.weightsManifest.flatMap((g) => g.weights);
          const all = Buffer.concat(json.weightsManifest.flatMap((g) => g.paths.map((p) => readFileSync(join(dirname(path), p)))));
          return { modelTopology: json.modelTopology, weightSpecs: weights, weightData: all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength) };
        },
      };
    });
    await h.load();
    return h;
  })();
  return human;
}

export interface FaceMesh {
  points: [number, number, number][];
  triangles: number[];
}

/** The largest face's mesh in the picture (pixels; z as Human estimates it, smaller is nearer). */
export async function faceMesh(img: Rgb): Promise<FaceMesh> {
  const h = await meshModel();
  const t = h.tf.tensor3d(img.data, [img.height, img.width, 3], 'int32');
  try {
    const r = await h.detect(t);
    const face = r.face.sort((a, b) => b.box[2] - a.box[2])[0];
    if (!face || face.mesh.length < 468) throw new Error('no face mesh');
    return { points: face.mesh.map((p) => [p[0], p[1], p[2] ?? 0]), triangles: h.faceTriangulation };
  } finally {
    h.tf.dispose(t);
  }
}

// --- A head turned in 3D ------------------------------------------------------------------------

/** Face-oval indices of the 468-point mesh (forehead, cheeks, chin), where the face meets the head. */
const OVAL = [10, 338, 297, 332, 284, 251, 389, 356, 454, 323, 361, 288, 397, 365, 379, 378, 400, 377, 152, 148, 176, 149, 150, 136, 172, 58, 132, 93, 234, 127, 162, 21, 54, 103, 67, 109];

export interface HeadModel {
  src: Rgb;
  /** Depth of each pixel of the head (NaN outside it), same units as x and y; smaller is nearer. */
  depth: Float32Array;
  cx: number;
  cy: number;
}

/** Depth for a photo's head: the mesh inside the face oval, an ellipsoid around it (hair, ears, jaw). */
export function headModel(src: Rgb, mesh: FaceMesh): HeadModel {
  const { width: w, height: h } = src;
  const pts = mesh.points;
  const ov = OVAL.map((i) => pts[i]!);
  const minX = Math.min(...ov.map((p) => p[0]));
  const maxX = Math.max(...ov.map((p) => p[0]));
  const minY = Math.min(...ov.map((p) => p[1]));
  const maxY = Math.max(...ov.map((p) => p[1]));
  const cx = (minX + maxX) / 2;
  const cy = (minY + maxY) / 2 - 0.05 * (maxY - minY);
  const a = ((maxX - minX) / 2) * 1.18;
  const b = ((maxY - minY) / 2) * 1.32;
  const c = a * 1.05;
  const ellipsoid = (x: number, y: number) => {
    const r = ((x - cx) / a) ** 2 + ((y - cy) / b) ** 2;
    return r >= 1 ? Number.NaN : -c * Math.sqrt(1 - r);
  };
  // The mesh's z is relative: shift it so the face oval lies on the ellipsoid on average, and bend
  // the ellipsoid near the oval to meet the mesh there (no step between face and head).
  const shift = ov.reduce((s, p) => s + (ellipsoid(p[0], p[1]) || 0) - p[2], 0) / ov.length;
  const corr = ov.map((p) => p[2] + shift - (ellipsoid(p[0], p[1]) || 0));
  const reach = (maxX - minX) * 0.25;
  const depth = new Float32Array(w * h).fill(Number.NaN);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const e = ellipsoid(x, y);
      if (Number.isNaN(e)) continue;
      let wsum = 0;
      let csum = 0;
      let near = Number.POSITIVE_INFINITY;
      ov.forEach((p, i) => {
        const d = Math.hypot(p[0] - x, p[1] - y);
        near = Math.min(near, d);
        const wt = 1 / (d * d + 1);
        wsum += wt;
        csum += wt * corr[i]!;
      });
      depth[y * w + x] = e + (csum / wsum) * Math.exp(-near / reach);
    }
  }
  const tri = mesh.triangles;
  for (let i = 0; i + 2 < tri.length; i += 3) {
    const [p, q, r] = [pts[tri[i]!]!, pts[tri[i + 1]!]!, pts[tri[i + 2]!]!];
    const x0 = Math.max(0, Math.floor(Math.min(p[0], q[0], r[0])));
    const x1 = Math.min(w - 1, Math.ceil(Math.max(p[0], q[0], r[0])));
    const y0 = Math.max(0, Math.floor(Math.min(p[1], q[1], r[1])));
    const y1 = Math.min(h - 1, Math.ceil(Math.max(p[1], q[1], r[1])));
    const area = (q[0] - p[0]) * (r[1] - p[1]) - (r[0] - p[0]) * (q[1] - p[1]);
    if (Math.abs(area) < 1e-6) continue;
    for (let y = y0; y <= y1; y++) {
      for (let x = x0; x <= x1; x++) {
        const l1 = ((q[0] - x) * (r[1] - y) - (r[0] - x) * (q[1] - y)) / area;
        const l2 = ((r[0] - x) * (p[1] - y) - (p[0] - x) * (r[1] - y)) / area;
        const l3 = 1 - l1 - l2;
        if (l1 < -0.01 || l2 < -0.01 || l3 < -0.01) continue;
        depth[y * w + x] = l1 * p[2] + l2 * q[2] + l3 * r[2] + shift;
      }
    }
  }
  return { src, depth, cx, cy };
}

/**
 * The head rotated `yaw` degrees about its vertical axis (positive: the face turns towards the
 * picture's right) and `pitch` about the horizontal one, then `dx`, `dy` moved; orthographic. The
 * picture around the head stays where it was.
 */
export function turnedHead(m: HeadModel, yaw: number, opts: { pitch?: number; dx?: number; dy?: number } = {}): Rgb {
  const { src, depth, cx, cy } = m;
  const { width: w, height: h } = src;
  const out = new Uint8Array(src.data);
  const zbuf = new Float32Array(w * h).fill(Number.POSITIVE_INFINITY);
  const ty = (yaw * Math.PI) / 180;
  const tp = ((opts.pitch ?? 0) * Math.PI) / 180;
  const [cyw, syw, cp, sp] = [Math.cos(ty), Math.sin(ty), Math.cos(tp), Math.sin(tp)];
  const dx = opts.dx ?? 0;
  const dy = opts.dy ?? 0;
  const STEP = 2;
  const gw = Math.floor((w - 1) / STEP) + 1;
  const gh = Math.floor((h - 1) / STEP) + 1;
  // Every grid vertex of the head, moved: [x', y', z', source x, source y].
  const vx = new Float32Array(gw * gh * 3).fill(Number.NaN);
  for (let j = 0; j < gh; j++) {
    for (let i = 0; i < gw; i++) {
      const x = i * STEP;
      const y = j * STEP;
      const z = depth[y * w + x]!;
      if (Number.isNaN(z)) continue;
      const X = x - cx;
      const Y = y - cy;
      const x1 = X * cyw - z * syw;
      const z1 = X * syw + z * cyw;
      const y2 = Y * cp - z1 * sp;
      const z2 = Y * sp + z1 * cp;
      const k = (j * gw + i) * 3;
      vx[k] = x1 + cx + dx;
      vx[k + 1] = y2 + cy + dy;
      vx[k + 2] = z2;
    }
  }
  const col = new Uint8Array(3);
  const raster = (a: number, b: number, c: number, sa: [number, number], sb: [number, number], sc: [number, number]) => {
    const [ax, ay, az, bx, by, bz, qx, qy, qz] = [vx[a]!, vx[a + 1]!, vx[a + 2]!, vx[b]!, vx[b + 1]!, vx[b + 2]!, vx[c]!, vx[c + 1]!, vx[c + 2]!];
    if (Number.isNaN(ax) || Number.isNaN(bx) || Number.isNaN(qx)) return;
    const area = (bx - ax) * (qy - ay) - (qx - ax) * (by - ay);
    // The source grid is wound one way; a triangle seen from behind is on the far side of the head.
    if (area <= 1e-6) return;
    const x0 = Math.max(0, Math.floor(Math.min(ax, bx, qx)));
    const x1 = Math.min(w - 1, Math.ceil(Math.max(ax, bx, qx)));
    const y0 = Math.max(0, Math.floor(Math.min(ay, by, qy)));
    const y1 = Math.min(h - 1, Math.ceil(Math.max(ay, by, qy)));
    for (let y = y0; y <= y1; y++) {
      for (let x = x0; x <= x1; x++) {
        const l1 = ((bx - x) * (qy - y) - (qx - x) * (by - y)) / area;
        const l2 = ((qx - x) * (ay - y) - (ax - x) * (qy - y)) / area;
        const l3 = 1 - l1 - l2;
        if (l1 < -0.001 || l2 < -0.001 || l3 < -0.001) continue;
        const z = l1 * az + l2 * bz + l3 * qz;
        const p = y * w + x;
        if (z >= zbuf[p]!) continue;
        if (!sample(src, l1 * sa[0] + l2 * sb[0] + l3 * sc[0], l1 * sa[1] + l2 * sb[1] + l3 * sc[1], col, 0)) continue;
        zbuf[p] = z;
        out[p * 3] = col[0]!;
        out[p * 3 + 1] = col[1]!;
        out[p * 3 + 2] = col[2]!;
      }
    }
  };
  for (let j = 0; j + 1 < gh; j++) {
    for (let i = 0; i + 1 < gw; i++) {
      const k00 = (j * gw + i) * 3;
      const k10 = k00 + 3;
      const k01 = k00 + gw * 3;
      const k11 = k01 + 3;
      const s00: [number, number] = [i * STEP, j * STEP];
      const s10: [number, number] = [(i + 1) * STEP, j * STEP];
      const s01: [number, number] = [i * STEP, (j + 1) * STEP];
      const s11: [number, number] = [(i + 1) * STEP, (j + 1) * STEP];
      raster(k00, k10, k01, s00, s10, s01);
      raster(k10, k11, k01, s10, s11, s01);
    }
  }
  return { data: out, width: w, height: h };
}

