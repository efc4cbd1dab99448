// Image metadata is taken out before an image is decoded. EXIF, XMP, ICC profiles, comments and
// text chunks are what an attacker controls without touching a pixel: a JPEG of 100
// self-referencing EXIF blocks kept the decoder's EXIF parser busy for 30 s. One linear pass over
// the container's segments keeps the pixels and the few segments decoding needs, drops the rest
// unparsed, and reads one value from the first EXIF block, bounded: the orientation, which is put
// back as a minimal EXIF block of that one entry so the image is still turned upright.
//
// JPEG: APP0-APP15 and COM are dropped wherever they appear (APP14 "Adobe", 12 bytes, is kept:
// it says how to read the colour channels), as is anything after EOI. PNG: only IHDR, PLTE, tRNS,
// gAMA, sRGB, IDAT and IEND are kept. WebP: only VP8, VP8L, VP8X, ALPH, ANIM and ANMF.

export type StillFormat = 'jpeg' | 'png' | 'webp';

/** Entries of an EXIF directory read at most, looking for the orientation. */
const MAX_IFD_ENTRIES = 256;
const ORIENTATION_TAG = 0x0112;

export class MalformedImage extends Error {}

/** The image without its metadata (orientation kept), or MalformedImage when its container is broken. */
export function stripMetadata(bytes: Uint8Array, format: StillFormat): Uint8Array {
  switch (format) {
    case 'jpeg':
      return stripJpeg(bytes);
    case 'png':
      return stripPng(bytes);
    case 'webp':
      return stripWebp(bytes);
  }
}

/** The orientation (1-8) in a TIFF structure (EXIF's body) from `at`, or 1; never follows a pointer past IFD0. */
export function tiffOrientation(b: Uint8Array, at: number, end: number): number {
  if (end - at < 8) return 1;
  const little = b[at] === 0x49 && b[at + 1] === 0x49;
  const big = b[at] === 0x4d && b[at + 1] === 0x4d;
  if (!little && !big) return 1;
  const u16 = (o: number) => (little ? b[o]! | (b[o + 1]! << 8) : (b[o]! << 8) | b[o + 1]!);
  const u32 = (o: number) => (little ? (u16(o) | (u16(o + 2) << 16)) >>> 0 : ((u16(o) << 16) | u16(o + 2)) >>> 0);
  if (u16(at + 2) !== 42) return 1;
  const ifd = at + u32(at + 4);
  if (ifd < at + 8 || ifd + 2 > end) return 1;
  const count = Math.min(u16(ifd), MAX_IFD_ENTRIES);
  for (let i = 0; i < count; i++) {
    const e = ifd + 2 + i * 12;
    if (e + 12 > end) break;
    if (u16(e) === ORIENTATION_TAG && u16(e + 2) === 3) {
      const v = u16(e + 8);
      return v >= 1 && v <= 8 ? v : 1;
    }
  }
  return 1;
}

/** A little-endian TIFF structure holding IFD0 with the orientation only. */
function minimalTiff(orientation: number): Uint8Array {
  return Uint8Array.from([
    0x49, 0x49, 42, 0, 8, 0, 0, 0, // "II", 42, IFD0 at 8
    1, 0, // one entry
    0x12, 0x01, 3, 0, 1, 0, 0, 0, orientation, 0, 0, 0, // Orientation, SHORT, 1 value
    0, 0, 0, 0, // no next IFD
  ]);
}

const EXIF_HEADER = [0x45, 0x78, 0x69, 0x66, 0, 0]; // "Exif\0\0"

function startsWith(b: Uint8Array, at: number, sig: readonly number[]): boolean {
  if (at + sig.length > b.length) return false;
  for (let i = 0; i < sig.length; i++) if (b[at + i] !== sig[i]) return false;
  return true;
}

// ---------------------------------------------------------------------------------------- JPEG

function stripJpeg(b: Uint8Array): Uint8Array {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) throw new MalformedImage('no SOI');
  const kept: Uint8Array[] = [b.subarray(0, 2)];
  let orientation = 0; // 0: no EXIF block seen yet
  let at = 2;
  let inScan = false;
  let dataFrom = -1; // start of entropy-coded data not yet copied
  while (at < b.length) {
    if (inScan) {
      // Entropy-coded data runs to the next marker that is not a stuffed 0xFF00, a restart or fill.
      const ff = b.indexOf(0xff, at);
      if (ff < 0) break;
      at = ff;
      const next = b[at + 1];
      if (next === undefined) break;
      if (next === 0x00 || (next >= 0xd0 && next <= 0xd7) || next === 0xff) {
        at += next === 0xff ? 1 : 2;
        continue;
      }
      kept.push(b.subarray(dataFrom, at));
      inScan = false;
      continue;
    }
    if (b[at] !== 0xff) throw new MalformedImage('expected a marker');
    while (b[at + 1] === 0xff) at++; // fill bytes before a marker
    const marker = b[at + 1];
    if (marker === undefined) break;
    if (marker === 0xd9) {
      kept.push(b.subarray(at, at + 2)); // EOI: whatever follows it is not the image
      return finishJpeg(kept, orientation);
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      kept.push(b.subarray(at, at + 2));
      at += 2;
      continue;
    }
    if (at + 4 > b.length) throw new MalformedImage('truncated segment');
    const len = (b[at + 2]! << 8) | b[at + 3]!;
    if (len < 2 || at + 2 + len > b.length) throw new MalformedImage('segment past the end');
    const end = at + 2 + len;
    const app = marker >= 0xe0 && marker <= 0xef;
    if (app || marker === 0xfe) {
      if (marker === 0xe1 && orientation === 0 && startsWith(b, at + 4, EXIF_HEADER)) {
        orientation = tiffOrientation(b, at + 10, end);
      }
      const adobe = marker === 0xee && len === 14 && startsWith(b, at + 4, [0x41, 0x64, 0x6f, 0x62, 0x65]);
      if (adobe) kept.push(b.subarray(at, end));
    } else {
      kept.push(b.subarray(at, end));
      if (marker === 0xda) {
        inScan = true;
        dataFrom = end;
      }
    }
    at = end;
  }
  if (inScan && dataFrom >= 0) kept.push(b.subarray(dataFrom));
  return finishJpeg(kept, orientation);
}

function finishJpeg(kept: Uint8Array[], orientation: number): Uint8Array {
  if (orientation > 1) {
    const tiff = minimalTiff(orientation);
    const len = 2 + EXIF_HEADER.length + tiff.length;
    const app1 = Uint8Array.from([0xff, 0xe1, len >> 8, len & 0xff, ...EXIF_HEADER, ...tiff]);
    kept.splice(1, 0, app1);
  }
  return Buffer.concat(kept);
}

// ----------------------------------------------------------------------------------------- PNG

const PNG_KEEP = new Set(['IHDR', 'PLTE', 'tRNS', 'gAMA', 'sRGB', 'IDAT', 'IEND']);

function stripPng(b: Uint8Array): Uint8Array {
  const kept: Uint8Array[] = [b.subarray(0, 8)];
  let orientation = 0;
  let at = 8;
  let sawHeader = false;
  while (at + 12 <= b.length) {
    const len = ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
    const end = at + 12 + len;
    if (end > b.length) throw new MalformedImage('chunk past the end');
    const type = String.fromCharCode(b[at + 4]!, b[at + 5]!, b[at + 6]!, b[at + 7]!);
    if (type === 'eXIf' && orientation === 0) orientation = tiffOrientation(b, at + 8, at + 8 + len);
    if (PNG_KEEP.has(type)) {
      kept.push(b.subarray(at, end));
      if (type === 'IHDR') sawHeader = kept.length === 2;
      if (type === 'IEND') break;
    }
    at = end;
  }
  if (!sawHeader) throw new MalformedImage('IHDR is not the first chunk');
  // The orientation goes back right after IHDR, wherever its eXIf chunk was.
  if (orientation > 1) kept.splice(2, 0, pngChunk('eXIf', minimalTiff(orientation)));
  return Buffer.concat(kept);
}

function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const v = new DataView(out.buffer);
  v.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  v.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

let CRC_TABLE: Uint32Array | undefined;
function crc32(b: Uint8Array): number {
  if (!CRC_TABLE) {
    CRC_TABLE = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      CRC_TABLE[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (const x of b) c = CRC_TABLE[(c ^ x) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

// ---------------------------------------------------------------------------------------- WebP

const WEBP_KEEP = new Set(['VP8 ', 'VP8L', 'VP8X', 'ALPH', 'ANIM', 'ANMF']);
const VP8X_ICC = 0x20;
const VP8X_EXIF = 0x08;
const VP8X_XMP = 0x04;

function stripWebp(b: Uint8Array): Uint8Array {
  if (b.length < 12) throw new MalformedImage('too short');
  const kept: Uint8Array[] = [];
  let orientation = 0;
  let vp8x: Uint8Array | undefined;
  let at = 12;
  while (at + 8 <= b.length) {
    const type = String.fromCharCode(b[at]!, b[at + 1]!, b[at + 2]!, b[at + 3]!);
    const len = (b[at + 4]! | (b[at + 5]! << 8) | (b[at + 6]! << 16) | (b[at + 7]! << 24)) >>> 0;
    const end = at + 8 + len + (len & 1);
    if (at + 8 + len > b.length) throw new MalformedImage('chunk past the end');
    if (type === 'EXIF' && orientation === 0) {
      const from = startsWith(b, at + 8, EXIF_HEADER) ? at + 8 + EXIF_HEADER.length : at + 8;
      orientation = tiffOrientation(b, from, at + 8 + len);
    }
    if (WEBP_KEEP.has(type)) {
      const chunk = Uint8Array.from(b.subarray(at, Math.min(end, b.length)));
      if (type === 'VP8X' && len >= 10) {
        chunk[8] = chunk[8]! & ~(VP8X_ICC | VP8X_EXIF | VP8X_XMP);
        vp8x = chunk;
      }
      kept.push(chunk);
    }
    at = end;
  }
  if (kept.length === 0) throw new MalformedImage('no image chunk');
  if (orientation > 1 && vp8x) {
    vp8x[8] = vp8x[8]! | VP8X_EXIF;
    const tiff = minimalTiff(orientation);
    const head = new Uint8Array(8);
    head.set([0x45, 0x58, 0x49, 0x46]); // "EXIF"
    new DataView(head.buffer).setUint32(4, tiff.length, true);
    kept.push(head, tiff);
  }
  const body = Buffer.concat(kept);
  const riff = new Uint8Array(12);
  riff.set([0x52, 0x49, 0x46, 0x46]); // "RIFF"
  new DataView(riff.buffer).setUint32(4, 4 + body.length, true);
  riff.set([0x57, 0x45, 0x42, 0x50], 8); // "WEBP"
  return Buffer.concat([riff, body]);
}
