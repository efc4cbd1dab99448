// Image intake: the one place every product's images come in (liveness, age, identity). An image
// arrives as the bytes of a multipart file or as a base64 field; it is checked (type by its magic
// bytes, size, base64 form), decoded with sharp under a pixel limit, turned upright by its EXIF
// orientation, flattened onto white, scaled to at most ANALYSIS_MAX_SIDE and handed on as raw RGB.
//
// It lives in memory only: sharp's operation cache is off, nothing is written anywhere, and a
// refusal names the field and the reason, never a byte of what was sent.
import type { Metadata } from 'sharp';
import { loadSharp } from './sharp';
import { AppError } from '../../../../src-shared/errors';
import { createGate } from '../../jobs/gate';
import { MalformedImage, stripMetadata } from './metadata';

/** Spec: 10 MB per image. Read as 10 MiB (10,485,760 bytes) of decoded image bytes. */
export const IMAGE_MAX_BYTES = 10 * 1024 * 1024;
/** Decoded pixels refused beyond this (decompression bombs): 40 MP covers any phone camera. */
export const IMAGE_MAX_PIXELS = 40_000_000;
/** Images larger than this on their longer side are scaled down before analysis. */
export const ANALYSIS_MAX_SIDE = 1600;
/**
 * Selfies are analysed at most this large: a selfie's face is large, and the face models' cost
 * grows with the input (measured on this machine: 774 px ≈ 200 ms, 720 px ≈ 150 ms, 640 px ≈ 140 ms).
 */
export const SELFIE_MAX_SIDE = 640;
/** A JSON body's room for one base64 image of IMAGE_MAX_BYTES (base64 is 4/3 of the bytes), plus the other fields. */
export const IMAGE_JSON_BYTES = Math.ceil(IMAGE_MAX_BYTES * 1.4) + 64 * 1024;
/**
 * Longest a decode may take. An ordinary photo takes a tenth of a second; a file built to be slow
 * to decode (thousands of progressive scans) is refused as corrupt when its time is up.
 */
export const DECODE_DEADLINE_SECONDS = 2;
/** Below this on the shorter side there is nothing to analyse. */
export const IMAGE_MIN_SIDE = 32;

export type ImageFormat = 'jpeg' | 'png' | 'webp';
export type VideoFormat = 'mp4' | 'mov' | 'webm';

/** Why an image was refused; each is documented in docs/decisions.md and the OpenAPI text. */
export const IMAGE_PROBLEMS = {
  missing: 'is required',
  empty: 'is empty',
  not_base64: 'is not valid base64',
  too_large: 'is larger than 10 MB',
  unsupported_type: 'is not a JPEG, PNG or WebP image',
  video_not_accepted: 'is a video; this endpoint takes a JPEG, PNG or WebP image',
  corrupt: 'could not be decoded (corrupt or truncated)',
  too_many_pixels: 'has more pixels than the 40 megapixel limit',
  too_small: 'is smaller than 32 pixels on a side',
  too_slow: 'took too long to decode',
} as const;
export type ImageProblem = keyof typeof IMAGE_PROBLEMS;

export function imageError(field: string, problem: ImageProblem): AppError {
  return new AppError('invalid_image', { message: `${field} ${IMAGE_PROBLEMS[problem]}`, fields: [{ field, issue: problem }] });
}

/** An image as the face models take it: tightly packed 8-bit RGB, upright, no alpha. */
export interface DecodedImage {
  rgb: Uint8Array;
  width: number;
  height: number;
  format: ImageFormat;
  /** Size as sent (after EXIF rotation), before scaling for analysis. */
  sourceWidth: number;
  sourceHeight: number;
}

/**
 * Images decoded at once. A burst of uploads otherwise fills every thread of the pool with
 * decoding, and on a small machine the HTTP thread waits for a core behind them.
 */
const decoding = createGate(2);

/** What the first bytes say the file is. */
export function sniff(bytes: Uint8Array): ImageFormat | VideoFormat | null {
  const b = bytes;
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (b.length >= 8 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47 && b[4] === 0x0d && b[5] === 0x0a && b[6] === 0x1a && b[7] === 0x0a) return 'png';
  if (b.length >= 12 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP') return 'webp';
  if (b.length >= 4 && b[0] === 0x1a && b[1] === 0x45 && b[2] === 0xdf && b[3] === 0xa3) return 'webm';
  if (b.length >= 12 && ascii(b, 4, 8) === 'ftyp') return ascii(b, 8, 10) === 'qt' ? 'mov' : 'mp4';
  return null;
}

function ascii(b: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...b.subarray(from, to));
}

export function isVideo(f: ReturnType<typeof sniff>): f is VideoFormat {
  return f === 'mp4' || f === 'mov' || f === 'webm';
}

const DATA_URL = /^data:[a-z0-9.+/-]+;base64,/i;

/**
 * The bytes of a base64 field. A data URL prefix is taken, as are line breaks and the URL-safe
 * alphabet; anything else that is not base64 is refused, and so is a value whose decoded size
 * would exceed the limit (checked before decoding).
 */
export function bytesOfBase64(field: string, value: unknown): Uint8Array {
  if (value === undefined || value === null) throw imageError(field, 'missing');
  if (typeof value !== 'string') throw imageError(field, 'not_base64');
  let text = value.length < 200 ? value.trim() : value;
  const prefix = DATA_URL.exec(text.slice(0, 100));
  if (prefix) text = text.slice(prefix[0].length);
  if (/[\r\n\t ]/.test(text)) text = text.replace(/[\r\n\t ]+/g, '');
  if (text.length === 0) throw imageError(field, 'empty');
  if (Math.floor((text.length * 3) / 4) - 2 > IMAGE_MAX_BYTES) throw imageError(field, 'too_large');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(text) || text.length % 4 === 1) throw imageError(field, 'not_base64');
  const bytes = Buffer.from(text, text.includes('-') || text.includes('_') ? 'base64url' : 'base64');
  if (bytes.length === 0) throw imageError(field, 'empty');
  if (bytes.length > IMAGE_MAX_BYTES) throw imageError(field, 'too_large');
  return bytes;
}

/** The size and type checks every image gets before it is decoded. */
export function checkImageBytes(field: string, bytes: Uint8Array, opts: { allowVideo?: boolean } = {}): ImageFormat | VideoFormat {
  if (bytes.length === 0) throw imageError(field, 'empty');
  if (bytes.length > IMAGE_MAX_BYTES) throw imageError(field, 'too_large');
  const format = sniff(bytes);
  if (format === null) throw imageError(field, 'unsupported_type');
  if (isVideo(format) && !opts.allowVideo) throw imageError(field, 'video_not_accepted');
  return format;
}

/** Decodes an image for analysis (upright, flattened, scaled, RGB), or refuses it as a 400. */
export function decodeImage(field: string, bytes: Uint8Array, opts: { maxSide?: number } = {}): Promise<DecodedImage> {
  return decoding.run(() => decode(field, bytes, opts.maxSide ?? ANALYSIS_MAX_SIDE));
}

/** A decoded image scaled down to at most `maxSide` (no second decode of the file). */
export function scaleDecoded(img: DecodedImage, maxSide: number): Promise<DecodedImage> {
  if (Math.max(img.width, img.height) <= maxSide) return Promise.resolve(img);
  return decoding.run(async () => {
    const sharp = await loadSharp();
    const { data, info } = await sharp(img.rgb, { raw: { width: img.width, height: img.height, channels: 3 } })
      .resize({ width: maxSide, height: maxSide, fit: 'inside' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { ...img, rgb: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
  });
}

async function decode(field: string, bytes: Uint8Array, maxSide: number): Promise<DecodedImage> {
  const format = checkImageBytes(field, bytes);
  if (isVideo(format)) throw imageError(field, 'video_not_accepted');
  // Metadata never reaches the decoder (core/media/metadata.ts): only the orientation, rewritten.
  let clean: Uint8Array;
  try {
    clean = stripMetadata(bytes, format);
  } catch (e) {
    if (e instanceof MalformedImage) throw imageError(field, 'corrupt');
    throw e;
  }
  const sharp = await loadSharp();
  let meta: Metadata;
  try {
    meta = await sharp(clean, { limitInputPixels: false }).metadata();
  } catch {
    throw imageError(field, 'corrupt');
  }
  // The container must agree with the magic bytes (a PNG signature on a JPEG body is corrupt).
  if (meta.format !== format) throw imageError(field, 'corrupt');
  const w = meta.width ?? 0;
  const h = meta.height ?? 0;
  if (w * h > IMAGE_MAX_PIXELS) throw imageError(field, 'too_many_pixels');
  if (Math.min(w, h) < IMAGE_MIN_SIDE) throw imageError(field, 'too_small');
  try {
    const upright = (meta.orientation ?? 1) >= 5;
    const { data, info } = await sharp(clean, { limitInputPixels: IMAGE_MAX_PIXELS, failOn: 'error', pages: 1 })
      .timeout({ seconds: DECODE_DEADLINE_SECONDS })
      .rotate()
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 3) throw new Error('channels');
    return {
      rgb: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
      width: info.width, height: info.height, format,
      sourceWidth: upright ? h : w, sourceHeight: upright ? w : h,
    };
  } catch (e) {
    throw imageError(field, /^timeout/i.test((e as Error)?.message ?? '') ? 'too_slow' : 'corrupt');
  }
}
