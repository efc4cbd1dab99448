// Face alignment for the descriptor: the face is turned level, scaled and cropped to the chip the
// network was trained on, from the face mesh the detector path already computes (no second
// detector, no second landmark model).
//
// dlib trained its recognition network on "face chips": 150 × 150 crops in which landmarks sit
// where its mean face puts them, with a border of `padding` × the mean face's size on every side.
// dlib fits a similarity transform (rotation, uniform scale, shift) from its 68 landmarks to that
// mean face by least squares, leaving out the eyebrows and the lower lip. Human's face mesh has
// 468 points; the ones at the same places as dlib's landmarks are listed below, and the same fit is
// made with them. The warp itself is a small bilinear resampler over the decoded RGB, with a few
// samples per chip pixel when the face is larger than the chip (so a large face is averaged rather
// than aliased).

/** A face-mesh point in image pixels: x, y (and a depth, unused here). */
export type MeshPoint = readonly [number, number, (number | undefined)?];
export type Mesh = readonly MeshPoint[];

export interface Point {
  x: number;
  y: number;
}

/** A similarity transform from chip pixels to image pixels: x' = a·x − b·y + tx, y' = b·x + a·y + ty. */
export interface ChipTransform {
  a: number;
  b: number;
  tx: number;
  ty: number;
}

export interface ChipAlignment {
  /** Which landmarks are fitted: dlib's own choice, or only eye centres, nose tip and mouth corners. */
  landmarks: 'dlib' | 'five';
  /** Border around the mean face, as a fraction of its size (dlib's default chip: 0.25). */
  padding: number;
}

/** The alignment the descriptor runs with; chosen on the calibration pairs (docs/faces.md). */
export const DEFAULT_ALIGNMENT: ChipAlignment = { landmarks: 'dlib', padding: 0.2 };

// dlib's mean face (landmarks 17-67, normalised to 0-1), from dlib's get_face_chip_details.
const MEAN_X = [
  0.000213256, 0.0752622, 0.18113, 0.29077, 0.393397, 0.586856, 0.689483, 0.799124, 0.904991, 0.98004, 0.490127, 0.490127,
  0.490127, 0.490127, 0.36688, 0.426036, 0.490127, 0.554217, 0.613373, 0.121737, 0.187122, 0.265825, 0.334606, 0.260918,
  0.182743, 0.645647, 0.714428, 0.793132, 0.858516, 0.79751, 0.719335, 0.254149, 0.340985, 0.428858, 0.490127, 0.551395,
  0.639268, 0.726104, 0.642159, 0.556721, 0.490127, 0.423532, 0.338094, 0.290379, 0.428096, 0.490127, 0.552157, 0.689874,
  0.553364, 0.490127, 0.42689,
];
const MEAN_Y = [
  0.106454, 0.038915, 0.0187482, 0.0344891, 0.0773906, 0.0773906, 0.0344891, 0.0187482, 0.038915, 0.106454, 0.203352,
  0.307009, 0.409805, 0.515625, 0.587326, 0.609345, 0.628106, 0.609345, 0.587326, 0.216423, 0.178758, 0.179852, 0.231733,
  0.245099, 0.244077, 0.231733, 0.179852, 0.178758, 0.216423, 0.244077, 0.245099, 0.780233, 0.745405, 0.727388, 0.742578,
  0.727388, 0.745405, 0.780233, 0.864805, 0.902192, 0.909281, 0.902192, 0.864805, 0.784792, 0.778746, 0.785343, 0.778746,
  0.784792, 0.824182, 0.831803, 0.824182,
];

/**
 * The face-mesh point at each of dlib's landmarks 17-67 (the mesh follows MediaPipe's numbering):
 * eyebrows, nose bridge and nostrils, eyes, outer and inner lips.
 */
const MESH_AT_DLIB: readonly number[] = [
  70, 63, 105, 66, 107, 336, 296, 334, 293, 300, // 17-26 eyebrows
  168, 197, 5, 4, 75, 97, 2, 326, 305, // 27-35 nose
  33, 160, 158, 133, 153, 144, 362, 385, 387, 263, 373, 380, // 36-47 eyes
  61, 39, 37, 0, 267, 269, 291, 405, 314, 17, 84, 181, // 48-59 outer lips
  78, 82, 13, 312, 308, 317, 14, 87, // 60-67 inner lips
];

/** dlib fits without the eyebrows (17-26) and the lower lip (55-59, 65-67). */
const DLIB_FIT = Array.from({ length: 51 }, (_, i) => i + 17).filter((n) => !(n <= 26 || (n >= 55 && n <= 59) || n >= 65));

/** Pairs of (mesh points averaged, mean-face point) for the chosen landmark set. */
function correspondences(kind: ChipAlignment['landmarks']): { mesh: number[]; at: Point }[] {
  const mean = (n: number): Point => ({ x: MEAN_X[n - 17]!, y: MEAN_Y[n - 17]! });
  const avg = (ns: number[]): Point => ({ x: ns.reduce((s, n) => s + mean(n).x, 0) / ns.length, y: ns.reduce((s, n) => s + mean(n).y, 0) / ns.length });
  if (kind === 'dlib') return DLIB_FIT.map((n) => ({ mesh: [MESH_AT_DLIB[n - 17]!], at: mean(n) }));
  const eye = (from: number) => Array.from({ length: 6 }, (_, i) => from + i);
  const meshOf = (ns: number[]) => ns.map((n) => MESH_AT_DLIB[n - 17]!);
  return [
    { mesh: meshOf(eye(36)), at: avg(eye(36)) },
    { mesh: meshOf(eye(42)), at: avg(eye(42)) },
    { mesh: meshOf([30]), at: mean(30) },
    { mesh: meshOf([48]), at: mean(48) },
    { mesh: meshOf([54]), at: mean(54) },
  ];
}

/** Enough of the mesh for alignment (Human gives 468 points, 478 with the irises). */
export function hasAlignmentMesh(mesh: Mesh | undefined): mesh is Mesh {
  return !!mesh && mesh.length >= 468;
}

/** The transform that puts the face's landmarks where the mean face has them in a `side`-pixel chip. */
export function chipTransform(mesh: Mesh, side: number, alignment: ChipAlignment = DEFAULT_ALIGNMENT): ChipTransform {
  const { padding } = alignment;
  const from: Point[] = [];
  const to: Point[] = [];
  for (const c of correspondences(alignment.landmarks)) {
    let x = 0;
    let y = 0;
    for (const m of c.mesh) {
      x += mesh[m]![0];
      y += mesh[m]![1];
    }
    from.push({ x: ((padding + c.at.x) / (2 * padding + 1)) * side, y: ((padding + c.at.y) / (2 * padding + 1)) * side });
    to.push({ x: x / c.mesh.length, y: y / c.mesh.length });
  }
  return fitSimilarity(from, to);
}

/** Least-squares similarity transform taking each `from` point to its `to` point. */
export function fitSimilarity(from: readonly Point[], to: readonly Point[]): ChipTransform {
  const n = from.length;
  let fx = 0, fy = 0, tx = 0, ty = 0;
  for (let i = 0; i < n; i++) {
    fx += from[i]!.x; fy += from[i]!.y; tx += to[i]!.x; ty += to[i]!.y;
  }
  fx /= n; fy /= n; tx /= n; ty /= n;
  let sxx = 0, sxy = 0, norm = 0;
  for (let i = 0; i < n; i++) {
    const px = from[i]!.x - fx, py = from[i]!.y - fy;
    const qx = to[i]!.x - tx, qy = to[i]!.y - ty;
    sxx += px * qx + py * qy;
    sxy += px * qy - py * qx;
    norm += px * px + py * py;
  }
  const a = norm === 0 ? 1 : sxx / norm;
  const b = norm === 0 ? 0 : sxy / norm;
  return { a, b, tx: tx - (a * fx - b * fy), ty: ty - (b * fx + a * fy) };
}

/**
 * The chip: `side` × `side` RGB values (0-255, as floats) sampled from the image through the
 * transform. Outside the image the nearest edge pixel is repeated.
 */
export function warpChip(rgb: Uint8Array, width: number, height: number, t: ChipTransform, side: number): Float32Array {
  const out = new Float32Array(side * side * 3);
  // Image pixels per chip pixel: above 1, several samples per chip pixel average the face down.
  const scale = Math.hypot(t.a, t.b);
  const n = Math.min(4, Math.max(1, Math.ceil(scale - 0.25)));
  const weight = 1 / (n * n);
  const sample = [0, 0, 0];
  for (let cy = 0; cy < side; cy++) {
    for (let cx = 0; cx < side; cx++) {
      let r = 0, g = 0, b = 0;
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const u = cx + (sx + 0.5) / n - 0.5;
          const v = cy + (sy + 0.5) / n - 0.5;
          bilinear(rgb, width, height, t.a * u - t.b * v + t.tx, t.b * u + t.a * v + t.ty, sample);
          r += sample[0]!; g += sample[1]!; b += sample[2]!;
        }
      }
      const o = (cy * side + cx) * 3;
      out[o] = r * weight;
      out[o + 1] = g * weight;
      out[o + 2] = b * weight;
    }
  }
  return out;
}

function bilinear(rgb: Uint8Array, width: number, height: number, x: number, y: number, into: number[]): void {
  const cx = Math.min(width - 1, Math.max(0, x));
  const cy = Math.min(height - 1, Math.max(0, y));
  const x0 = Math.floor(cx), y0 = Math.floor(cy);
  const x1 = Math.min(width - 1, x0 + 1), y1 = Math.min(height - 1, y0 + 1);
  const fx = cx - x0, fy = cy - y0;
  const i00 = (y0 * width + x0) * 3, i01 = (y0 * width + x1) * 3, i10 = (y1 * width + x0) * 3, i11 = (y1 * width + x1) * 3;
  for (let c = 0; c < 3; c++) {
    const top = rgb[i00 + c]! + (rgb[i01 + c]! - rgb[i00 + c]!) * fx;
    const bottom = rgb[i10 + c]! + (rgb[i11 + c]! - rgb[i10 + c]!) * fx;
    into[c] = top + (bottom - top) * fy;
  }
}
