// The face models: @vladmandic/human on the tfjs WASM backend, offline, with the models that ship
// inside the package. Runs in a faces worker (workers/faces-worker.ts), or in-process when the
// service runs from source (tests). Three things make Human work on Node here (ARCHITECTURE.md,
// "Faces: what was measured here"):
//   1. its `exports` map is malformed, so dist/human.node-wasm.js is required by its full path;
//   2. Node's fetch cannot read file:// URLs, so a tfjs IO handler reads model.json and weights;
//   3. the WASM binaries are found through `wasmPath`, set to tfjs-backend-wasm's own dist/.
// The age read-out also needs more than Human returns: faceres gives a distribution over ages
// 0-99, and Human keeps only one number; the model's `execute` is wrapped to read the whole
// distribution, from which the estimate and an 80% range are taken.
// Face match does not use faceres: it uses dlib's descriptor network (descriptor.ts) on a chip
// aligned from the same face mesh (align.ts), run on the same tf instance, for the largest face.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { chipTransform, DEFAULT_ALIGNMENT, hasAlignmentMesh, warpChip, type ChipAlignment, type Mesh } from './align';
import { CHIP_SIDE, loadDescriptorNet, type DescriptorNet, type DescriptorTf } from './descriptor';
import { measurePresentation } from './presentation';
import type { FaceAnalysis, FaceJob, FaceReading } from './types';

const load = createRequire(import.meta.url);

/** A package file by its path inside the package, found where Node would look for the package. */
export function packageFile(pkg: string, file: string): string {
  for (const base of load.resolve.paths(pkg) ?? []) {
    const p = join(base, pkg, file);
    if (existsSync(p)) return p;
  }
  throw new Error(`${pkg}/${file} is not installed`);
}

// Only the parts of Human's and tfjs's surface used here.
interface Tensor { shape: number[]; dataSync(): ArrayLike<number> }
interface GraphModel { execute(x: unknown, outputs?: unknown): Tensor[] | Tensor }
interface Tf {
  tensor3d(values: Uint8Array, shape: [number, number, number], dtype: 'int32'): Tensor;
  zeros(shape: number[], dtype?: string): Tensor;
  dispose(t: unknown): void;
  getBackend(): string;
  io: { registerLoadRouter(router: (url: string | string[]) => unknown): void };
}
interface HumanFace {
  box: [number, number, number, number];
  score: number;
  age?: number;
  gender?: string;
  genderScore?: number;
  real?: number;
  live?: number;
  embedding?: number[];
  mesh?: [number, number, number?][];
  rotation?: { angle?: { yaw: number; pitch: number; roll: number } } | null;
}
interface HumanInstance {
  tf: Tf;
  load(): Promise<void>;
  detect(input: unknown, config?: unknown): Promise<{ face: HumanFace[]; error?: string | null }>;
  models: { models: Record<string, GraphModel | null> };
}

/** Human's configuration: faces only, no frame caching (each request is a new image), no filters. */
function config(modelDir: string, wasmDir: string) {
  return {
    backend: 'wasm',
    wasmPath: wasmDir,
    modelBasePath: `file://${modelDir}/`,
    debug: false,
    async: false,
    warmup: 'none',
    cacheSensitivity: 0,
    filter: { enabled: false },
    face: {
      enabled: true,
      detector: { rotation: false, maxDetected: 10, minConfidence: 0.2, skipFrames: 0, return: false },
      mesh: { enabled: true },
      iris: { enabled: false },
      description: { enabled: true, skipFrames: 0 },
      emotion: { enabled: false },
      antispoof: { enabled: true, skipFrames: 0 },
      liveness: { enabled: true, skipFrames: 0 },
    },
    body: { enabled: false },
    hand: { enabled: false },
    object: { enabled: false },
    gesture: { enabled: false },
    segmentation: { enabled: false },
  };
}

/** tfjs IO for `file://` model URLs: model.json and its weight shards from disk. */
function fileLoader(url: string | string[]) {
  if (typeof url !== 'string' || !url.startsWith('file://')) return null;
  const path = url.slice('file://'.length);
  return {
    async load() {
      const json = JSON.parse(readFileSync(path, 'utf8')) as {
        modelTopology: unknown; format?: string; generatedBy?: string; convertedBy?: string; signature?: unknown;
        userDefinedMetadata?: unknown; weightsManifest: { paths: string[]; weights: unknown[] }[];
      };
      const specs: unknown[] = [];
      const parts: Buffer[] = [];
      for (const group of json.weightsManifest) {
        specs.push(...group.weights);
        for (const file of group.paths) parts.push(readFileSync(join(dirname(path), file)));
      }
      const all = Buffer.concat(parts);
      return {
        modelTopology: json.modelTopology, format: json.format, generatedBy: json.generatedBy, convertedBy: json.convertedBy,
        signature: json.signature, userDefinedMetadata: json.userDefinedMetadata, weightSpecs: specs,
        weightData: all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength),
      };
    },
  };
}

export interface FaceEngine {
  analyze(job: FaceJob): Promise<FaceAnalysis>;
  /** Runs Human's models once on blank input, so the first real request does not pay the compile. */
  warm(): Promise<void>;
  /**
   * Loads and warms the face-match descriptor network (≈ 0.25 s). Otherwise the first job that
   * matches does: liveness and age never need it, so the worker says it is ready without it.
   */
  warmMatch(): void;
}

/** A face as the descriptor sees it, for the calibration script's comparisons of alignments. */
export interface InspectedFace {
  rgb: Uint8Array;
  width: number;
  height: number;
  box: FaceReading['box'];
  mesh: Mesh;
  /** The service's descriptor of any 150 × 150 chip (with its mirror image: descriptor.ts describe). */
  describe(chip: Float32Array): number[];
  /** The network's answer for the chip alone (descriptor.ts describeOne). */
  describeOne(chip: Float32Array): number[];
}

export interface FaceEngineOptions {
  /** How the chip is cut for the descriptor (calibration compares others; the service uses the default). */
  alignment?: ChipAlignment;
  /** Calibration only, in-process: called with each face a descriptor was computed for. */
  inspect?: (face: InspectedFace) => void;
}

export async function loadFaceEngine(opts: FaceEngineOptions = {}): Promise<FaceEngine> {
  const humanPath = packageFile('@vladmandic/human', 'dist/human.node-wasm.js');
  const modelDir = join(dirname(humanPath), '..', 'models');
  const wasmDir = dirname(packageFile('@tensorflow/tfjs-backend-wasm', 'dist/tfjs-backend-wasm.wasm')) + '/';
  const faceApiDir = join(dirname(packageFile('@vladmandic/face-api', 'model/face_recognition_model.bin')), '..');
  const { Human } = load(humanPath) as { Human: new (cfg: unknown) => HumanInstance };
  const human = new Human(config(modelDir, wasmDir));
  human.tf.io.registerLoadRouter(fileLoader);
  await human.load();
  let loadedNet: DescriptorNet | null = null;
  const descriptorNet = (): DescriptorNet => {
    if (!loadedNet) {
      loadedNet = loadDescriptorNet(human.tf as unknown as DescriptorTf, faceApiDir);
      loadedNet.warm();
    }
    return loadedNet;
  };
  const alignment = opts.alignment ?? DEFAULT_ALIGNMENT;

  // The age distribution of each face, in the order faceres ran (matched to faces by Human's own
  // age number, computed the same way from the same distribution).
  const faceres = human.models.models.faceres;
  if (!faceres) throw new Error('faceres model missing');
  let ageRuns: { bins: number[]; age: number }[] = [];
  const execute = faceres.execute.bind(faceres);
  faceres.execute = (x, outputs) => {
    const out = execute(x, outputs);
    const ageTensor = (Array.isArray(out) ? out : [out]).find((t) => t.shape[1] === 100);
    if (ageTensor) {
      const bins = Array.from(ageTensor.dataSync());
      ageRuns.push({ bins, age: humanAge(bins) });
    }
    return out;
  };

  return {
    async analyze(job) {
      const started = performance.now();
      const input = human.tf.tensor3d(job.rgb, [job.height, job.width, 3], 'int32');
      ageRuns = [];
      const describe = job.describe !== false;
      let result: Awaited<ReturnType<HumanInstance['detect']>>;
      try {
        const live = job.portrait !== true;
        result = await human.detect(input, { face: { description: { enabled: describe }, antispoof: { enabled: live }, liveness: { enabled: live } } });
      } finally {
        human.tf.dispose(input);
      }
      if (result.error) throw new Error('face detection failed');
      const runs = ageRuns;
      ageRuns = [];
      const faces = result.face.map((f) => reading(f, describe ? takeRun(runs, f.age) : null, describe));
      // The descriptor for the one face a match is about: the largest with a usable detection.
      const matched = job.match ? largestUsable(result.face) : -1;
      const f = result.face[matched];
      if (f && hasAlignmentMesh(f.mesh)) {
        const chip = warpChip(job.rgb, job.width, job.height, chipTransform(f.mesh, CHIP_SIDE, alignment), CHIP_SIDE);
        const net = descriptorNet();
        faces[matched]!.descriptor = net.describe(chip);
        opts.inspect?.({ rgb: job.rgb, width: job.width, height: job.height, box: faces[matched]!.box, mesh: f.mesh, describe: net.describe, describeOne: net.describeOne });
      }
      // The presentation-attack signals read the pixels here, in the worker, next to the models.
      const subject = [...faces].sort((a, b) => b.box.width - a.box.width)[0];
      const outline = subject ? outlineOf(result.face[faces.indexOf(subject)]?.mesh) : undefined;
      const presentation = subject && job.portrait !== true ? measurePresentation(job, subject.box, subject.pose.roll, outline) : null;
      return { width: job.width, height: job.height, faces, presentation, inferenceMs: Math.round(performance.now() - started) };
    },
    warmMatch() {
      descriptorNet();
    },
    async warm() {
      for (const model of Object.values(human.models.models)) {
        if (!model) continue;
        const inputs = (model as unknown as { inputs?: { shape?: number[] }[] }).inputs ?? [];
        const shape = inputs[0]?.shape?.map((d) => (d > 0 ? d : 1));
        if (!shape) continue;
        const zeros = human.tf.zeros(shape, 'float32');
        try {
          human.tf.dispose(model.execute(zeros));
        } catch {
          // A model that needs more than one input is warmed by its first real use.
        } finally {
          human.tf.dispose(zeros);
        }
      }
    },
  };
}

/** The face's own extent, forehead to chin and cheek to cheek: the bounds of its mesh. */
function outlineOf(mesh: HumanFace['mesh']): FaceReading['box'] | undefined {
  if (!mesh || mesh.length < 468) return undefined;
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let i = 0; i < 468; i++) {
    const [x, y] = mesh[i]!;
    x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y);
  }
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/** The faces' index of the largest face detected with a score of at least 0.5 (-1: none). */
function largestUsable(faces: HumanFace[]): number {
  let best = -1;
  faces.forEach((f, i) => {
    if (f.score >= 0.5 && (best < 0 || f.box[2] > faces[best]!.box[2])) best = i;
  });
  return best;
}

/** Human's own age number from faceres's distribution (to pair each distribution with its face). */
function humanAge(k: number[]): number {
  let p = 0;
  for (let i = 1; i < k.length; i++) if (k[i]! > k[p]!) p = i;
  const before = k[p - 1] ?? 0;
  const after = k[p + 1] ?? 0;
  return Math.round(before > after ? 10 * p - 100 * before : 10 * p + 100 * after) / 10;
}

function takeRun(runs: { bins: number[]; age: number }[], age: number | undefined): number[] | null {
  const i = runs.findIndex((r) => age !== undefined && Math.abs(r.age - age) < 0.05);
  if (i < 0) return null;
  return runs.splice(i, 1)[0]!.bins;
}

/** Estimate (expected value) and the 10th/90th percentiles of an age distribution. */
export function ageOf(bins: number[] | null, fallback: number | undefined): FaceReading['age'] {
  if (!bins) {
    const a = fallback ?? 0;
    return { estimate: Math.round(a), low: Math.round(a), high: Math.round(a) };
  }
  const total = bins.reduce((s, v) => s + v, 0) || 1;
  let mean = 0;
  let cum = 0;
  let low = -1;
  let high = -1;
  bins.forEach((v, age) => {
    mean += (v / total) * age;
    cum += v / total;
    if (low < 0 && cum >= 0.1) low = age;
    if (high < 0 && cum >= 0.9) high = age;
  });
  return { estimate: Math.round(mean), low: Math.max(0, low), high: high < 0 ? 99 : high };
}

const DEG = 180 / Math.PI;

function reading(f: HumanFace, bins: number[] | null, described: boolean): FaceReading {
  const [x, y, width, height] = f.box;
  const angle = f.rotation?.angle;
  const gender = f.gender === 'female' || f.gender === 'male' ? f.gender : 'unknown';
  return {
    box: { x: Math.round(x), y: Math.round(y), width: Math.round(width), height: Math.round(height) },
    score: round(f.score, 3),
    age: described ? ageOf(bins, f.age) : null,
    gender: described ? { value: gender, score: round(f.genderScore ?? 0, 2) } : null,
    antispoof: round(f.real ?? 0, 3),
    liveness: round(f.live ?? 0, 3),
    pose: angle
      ? { yaw: round(angle.yaw * DEG, 1), pitch: round(angle.pitch * DEG, 1), roll: round(angle.roll * DEG, 1) }
      : { yaw: 0, pitch: 0, roll: 0 },
    eyes: eyesOf(f.mesh),
    embedding: described ? (f.embedding ?? []) : [],
    descriptor: [],
  };
}

/** Eye openness (lid gap over eye width) from the 478-point face mesh. */
function eyesOf(mesh: HumanFace['mesh']): FaceReading['eyes'] {
  if (!mesh || mesh.length < 468) return { left: 0, right: 0 };
  const d = (a: number, b: number) => Math.hypot(mesh[a]![0] - mesh[b]![0], mesh[a]![1] - mesh[b]![1]);
  const open = (top: number, bottom: number, inner: number, outer: number) => round(d(top, bottom) / (d(inner, outer) || 1), 3);
  return { left: open(159, 145, 133, 33), right: open(386, 374, 362, 263) };
}

function round(v: number, places: number): number {
  const m = 10 ** places;
  return Math.round(v * m) / m;
}
