// The face descriptor: dlib's 128-d face recognition network (a ResNet-34 variant,
// dlib_face_recognition_resnet_model_v1, weights released to the public domain by dlib's author), as
// converted to tfjs weights by face-api.js and shipped in @vladmandic/face-api (MIT). Only the
// weights come from that package: its Node builds need the full @tensorflow/tfjs bundle, so the
// forward pass is written here on the tfjs ops of the tf instance Human already runs (WASM backend).
//
// The network takes a 150 × 150 aligned face chip (align.ts) and answers 128 values; two photos of
// one person lie close in Euclidean distance (match.ts). The weights are stored uint8-quantised;
// tfjs's own decoder restores them. Each convolution is followed by a bias and a per-channel
// scale (a frozen batch norm): both are folded into the filters once at load, so a forward pass is
// only convolutions, pools, additions and ReLUs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The side of the chip the network takes. */
export const CHIP_SIDE = 150;
/** Values in one descriptor. */
export const DESCRIPTOR_LENGTH = 128;
/** The training set's mean colour, subtracted before the network (dlib's input layer). */
const MEAN_RGB = [122.782, 117.001, 104.298] as const;

// Only the parts of tfjs used here.
export interface Tensor {
  shape: number[];
  dataSync(): ArrayLike<number>;
  dispose(): void;
}
type Padding = 'same' | 'valid';
export interface DescriptorTf {
  tensor(values: Float32Array, shape: number[], dtype: 'float32'): Tensor;
  tidy<T extends Tensor>(fn: () => T): T;
  conv2d(x: Tensor, filter: Tensor, strides: [number, number], pad: Padding): Tensor;
  maxPool(x: Tensor, size: number, strides: number, pad: Padding): Tensor;
  avgPool(x: Tensor, size: number, strides: number, pad: Padding): Tensor;
  add(a: Tensor, b: Tensor): Tensor;
  relu(x: Tensor): Tensor;
  pad(x: Tensor, paddings: [number, number][]): Tensor;
  mean(x: Tensor, axis: number[]): Tensor;
  matMul(a: Tensor, b: Tensor): Tensor;
  io: { decodeWeights(buffer: ArrayBuffer, specs: WeightSpec[]): Record<string, Tensor> };
}
export interface WeightSpec {
  name: string;
  shape: number[];
  dtype: string;
  quantization?: { dtype: string; scale?: number; min?: number };
}

interface Conv {
  filters: Tensor;
  bias: Tensor;
}
interface Block {
  conv1: Conv;
  conv2: Conv;
}

export interface DescriptorNet {
  /**
   * The face-match descriptor of one chip (CHIP_SIDE² RGB pixels, row by row, values 0-255): the
   * mean of the network's answers for the chip and for its mirror image, run as one batch of two.
   * A face is the same person in a mirror, but the network's answer is not quite the same: the
   * mean is steadier where the picture is poor (small, soft or turned faces), and lowered the
   * genuine pairs rejected at 0.1% false accepts from 4.7% to 3.8% (docs/faces.md).
   */
  describe(chip: Float32Array): number[];
  /** The network's answer for the chip alone, not mirrored (the calibration's comparisons). */
  describeOne(chip: Float32Array): number[];
  /** Runs the network once on a blank chip, so the first request does not pay the kernels' set-up. */
  warm(): void;
}

/** The weight files as @vladmandic/face-api ships them. */
export function descriptorWeightFiles(faceApiDir: string): { manifest: string; weights: string } {
  return {
    manifest: join(faceApiDir, 'model', 'face_recognition_model-weights_manifest.json'),
    weights: join(faceApiDir, 'model', 'face_recognition_model.bin'),
  };
}

export function loadDescriptorNet(tf: DescriptorTf, faceApiDir: string): DescriptorNet {
  const files = descriptorWeightFiles(faceApiDir);
  const manifest = JSON.parse(readFileSync(files.manifest, 'utf8')) as { paths: string[]; weights: WeightSpec[] }[];
  const specs = manifest.flatMap((g) => g.weights);
  const bin = readFileSync(files.weights);
  const map = tf.io.decodeWeights(bin.buffer.slice(bin.byteOffset, bin.byteOffset + bin.byteLength) as ArrayBuffer, specs);
  const take = (name: string): Tensor => {
    const t = map[name];
    if (!t) throw new Error(`descriptor weight ${name} missing`);
    return t;
  };

  /** conv → + bias → × scale + shift, folded into one convolution and one bias. */
  const conv = (prefix: string): Conv => {
    const filters = take(`${prefix}/conv/filters`);
    const bias = take(`${prefix}/conv/bias`).dataSync();
    const scale = take(`${prefix}/scale/weights`).dataSync();
    const shift = take(`${prefix}/scale/biases`).dataSync();
    const out = filters.shape[3]!;
    const w = Float32Array.from(filters.dataSync());
    for (let i = 0; i < w.length; i++) w[i]! *= scale[i % out]!;
    const b = new Float32Array(out);
    for (let c = 0; c < out; c++) b[c] = bias[c]! * scale[c]! + shift[c]!;
    return { filters: tf.tensor(w, filters.shape, 'float32'), bias: tf.tensor(b, [out], 'float32') };
  };
  const block = (prefix: string): Block => ({ conv1: conv(`${prefix}/conv1`), conv2: conv(`${prefix}/conv2`) });

  const stem = conv('conv32_down');
  const stages: { down: boolean; block: Block }[] = [
    ...['conv32_1', 'conv32_2', 'conv32_3'].map((p) => ({ down: false, block: block(p) })),
    { down: true, block: block('conv64_down') },
    ...['conv64_1', 'conv64_2', 'conv64_3'].map((p) => ({ down: false, block: block(p) })),
    { down: true, block: block('conv128_down') },
    ...['conv128_1', 'conv128_2'].map((p) => ({ down: false, block: block(p) })),
    { down: true, block: block('conv256_down') },
    ...['conv256_1', 'conv256_2'].map((p) => ({ down: false, block: block(p) })),
    { down: true, block: block('conv256_down_out') },
  ];
  const fc = take('fc');
  // The folded copies replace the decoded tensors (fc stays as decoded).
  for (const [name, t] of Object.entries(map)) if (name !== 'fc') t.dispose();

  const apply = (x: Tensor, c: Conv, stride: 1 | 2, relu: boolean): Tensor => {
    const y = tf.add(tf.conv2d(x, c.filters, [stride, stride], stride === 2 ? 'valid' : 'same'), c.bias);
    return relu ? tf.relu(y) : y;
  };
  const residual = (x: Tensor, b: Block): Tensor => tf.relu(tf.add(apply(apply(x, b.conv1, 1, true), b.conv2, 1, false), x));
  // A downsampling block: the shortcut is a 2 × 2 average pool, widened with zero channels; a
  // strided 'valid' convolution can come out one row and column short of the pool (odd sides),
  // and is then padded with zeros at the bottom and right, as dlib's network does.
  const residualDown = (x: Tensor, b: Block): Tensor => {
    let out = apply(apply(x, b.conv1, 2, true), b.conv2, 1, false);
    let pooled = tf.avgPool(x, 2, 2, 'valid');
    const [, ph, pw, pc] = pooled.shape as [number, number, number, number];
    const [, oh, ow, oc] = out.shape as [number, number, number, number];
    if (oh !== ph || ow !== pw) out = tf.pad(out, [[0, 0], [0, ph - oh], [0, pw - ow], [0, 0]]);
    if (pc !== oc) pooled = tf.pad(pooled, [[0, 0], [0, 0], [0, 0], [0, oc - pc]]);
    return tf.relu(tf.add(pooled, out));
  };

  /** The network's answers for a batch of chips, one row each. */
  const forward = (chips: readonly Float32Array[]): number[][] => {
    const n = chips.length;
    const side = CHIP_SIDE * CHIP_SIDE * 3;
    const input = new Float32Array(n * side);
    chips.forEach((chip, k) => {
      if (chip.length !== side) throw new Error('descriptor chip has the wrong size');
      for (let i = 0; i < side; i++) input[k * side + i] = (chip[i]! - MEAN_RGB[i % 3]!) / 256;
    });
    const result = tf.tidy(() => {
      let x = tf.tensor(input, [n, CHIP_SIDE, CHIP_SIDE, 3], 'float32');
      x = apply(x, stem, 2, true);
      x = tf.maxPool(x, 3, 2, 'valid');
      for (const s of stages) x = s.down ? residualDown(x, s.block) : residual(x, s.block);
      return tf.matMul(tf.mean(x, [1, 2]), fc);
    });
    try {
      const values = result.dataSync();
      return chips.map((_, k) => Array.from({ length: DESCRIPTOR_LENGTH }, (_v, i) => values[k * DESCRIPTOR_LENGTH + i]!));
    } finally {
      result.dispose();
    }
  };

  return {
    describe(chip) {
      const [plain, mirrored] = forward([chip, mirrorChip(chip)]) as [number[], number[]];
      return plain.map((v, i) => (v + mirrored[i]!) / 2);
    },
    describeOne: (chip) => forward([chip])[0]!,
    warm() {
      const blank = new Float32Array(CHIP_SIDE * CHIP_SIDE * 3).fill(128);
      forward([blank, blank]);
    },
  };
}

/** The chip seen in a mirror: each row reversed. */
function mirrorChip(chip: Float32Array): Float32Array {
  const out = new Float32Array(chip.length);
  for (let y = 0; y < CHIP_SIDE; y++) {
    for (let x = 0; x < CHIP_SIDE; x++) {
      const a = (y * CHIP_SIDE + x) * 3;
      const b = (y * CHIP_SIDE + (CHIP_SIDE - 1 - x)) * 3;
      out[b] = chip[a]!;
      out[b + 1] = chip[a + 1]!;
      out[b + 2] = chip[a + 2]!;
    }
  }
  return out;
}
