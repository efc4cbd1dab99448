// Metadata is taken out before decoding (issue 25: an EXIF bomb kept the decoder busy 30 s).
// The pixels are untouched, the orientation is kept as a one-entry EXIF block, and everything
// else (EXIF, XMP, ICC, comments, text chunks) never reaches the decoder.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import * as fx from '../../test/face-fixtures';
import { decodeImage } from './image';
import { MalformedImage, stripMetadata } from './metadata';

/** The JPEG's marker segments before its first scan: [marker, length]. */
function jpegSegments(b: Uint8Array): [number, number][] {
  const out: [number, number][] = [];
  let at = 2;
  while (at + 4 <= b.length && b[at] === 0xff) {
    const marker = b[at + 1]!;
    const len = (b[at + 2]! << 8) | b[at + 3]!;
    out.push([marker, len]);
    if (marker === 0xda) break;
    at += 2 + len;
  }
  return out;
}

function pngChunks(b: Uint8Array): string[] {
  const out: string[] = [];
  for (let at = 8; at + 12 <= b.length; ) {
    const len = Buffer.from(b).readUInt32BE(at);
    out.push(Buffer.from(b.subarray(at + 4, at + 8)).toString('latin1'));
    at += 12 + len;
  }
  return out;
}

function webpChunks(b: Uint8Array): string[] {
  const out: string[] = [];
  for (let at = 12; at + 8 <= b.length; ) {
    const len = Buffer.from(b).readUInt32LE(at + 4);
    out.push(Buffer.from(b.subarray(at, at + 4)).toString('latin1'));
    at += 8 + len + (len & 1);
  }
  return out;
}

const pixels = async (b: Uint8Array) => (await sharp(b).raw().toBuffer()).toString('base64');

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length);
  head.write(type, 4, 'latin1');
  // A wrong CRC on an ancillary chunk: decoders skip it with a warning; this one never gets to.
  return Buffer.concat([head, data, Buffer.alloc(4)]);
}

describe('stripMetadata', () => {
  it('JPEG: an EXIF bomb (100 self-referencing blocks, XMP, a comment) leaves only the photo, pixel for pixel', async () => {
    const bomb = await fx.exifBomb();
    const clean = stripMetadata(bomb, 'jpeg');
    const markers = jpegSegments(clean).map(([m]) => m);
    expect(markers.filter((m) => (m >= 0xe0 && m <= 0xef) || m === 0xfe)).toEqual([]);
    expect(clean.length).toBeLessThanOrEqual((await fx.selfie('a')).length);
    expect(await pixels(clean)).toBe(await pixels(await fx.selfie('a')));
  });

  it('JPEG: the orientation is kept as one EXIF block of one entry, so the photo is still turned upright', async () => {
    const sideways = await fx.sidewaysWithExif();
    const clean = stripMetadata(sideways, 'jpeg');
    const app = jpegSegments(clean).filter(([m]) => m >= 0xe0 && m <= 0xef);
    expect(app).toEqual([[0xe1, 34]]);
    expect((await sharp(clean).metadata()).orientation).toBe(6);
    const img = await decodeImage('file', sideways);
    expect([img.sourceWidth, img.sourceHeight]).toEqual([560, 420]);
    expect(await pixels(clean)).toBe(await pixels(sideways));
  });

  it('PNG: text, compressed text, ICC and EXIF chunks go; the orientation comes back right after IHDR', async () => {
    const png = await sharp(await fx.selfie('a')).png().toBuffer();
    const exif = Buffer.from(stripMetadata(await fx.sidewaysWithExif(), 'jpeg')).subarray(2 + 4 + 6, 2 + 34); // its TIFF
    const extra = [
      pngChunk('tEXt', Buffer.from('Comment\0hello', 'latin1')),
      pngChunk('zTXt', Buffer.from('Comment\0\0xxxx', 'latin1')),
      pngChunk('iCCP', Buffer.from('icc\0\0xxxx', 'latin1')),
      pngChunk('eXIf', exif),
    ];
    const dressed = Buffer.concat([png.subarray(0, 33), ...extra, png.subarray(33)]);
    const clean = stripMetadata(dressed, 'png');
    expect(pngChunks(clean).filter((t) => t !== 'IDAT')).toEqual(['IHDR', 'eXIf', 'IEND']);
    expect(await pixels(clean)).toBe(await pixels(png));
    expect((await sharp(clean).metadata()).orientation).toBe(6);
  });

  it('WebP: EXIF, XMP and ICC chunks go and their flags are cleared; the orientation is kept', async () => {
    const webp = await sharp(await fx.selfie('a')).withMetadata({ orientation: 6 }).withIccProfile('p3').webp().toBuffer();
    expect(webpChunks(webp)).toEqual(expect.arrayContaining(['VP8X', 'ICCP', 'EXIF']));
    const clean = stripMetadata(webp, 'webp');
    expect(webpChunks(clean).filter((t) => !['VP8 ', 'VP8L', 'ALPH'].includes(t))).toEqual(['VP8X', 'EXIF']);
    expect(clean[20]! & 0x20).toBe(0); // VP8X: no ICC
    const meta = await sharp(clean).metadata();
    expect(meta.orientation).toBe(6);
    expect(meta.icc).toBeUndefined();
    expect(Buffer.from(clean).readUInt32LE(4)).toBe(clean.length - 8);
  });

  it('the decoder never sees what was taken out: an embedded colour profile changes no pixel of the analysed image', async () => {
    const plain = await sharp(await fx.selfie('a')).jpeg({ quality: 95 }).toBuffer();
    // The same JPEG with the ICC segments of a Display P3 encoding put in front of its tables.
    const p3 = await sharp(await fx.selfie('a')).withIccProfile('p3').jpeg({ quality: 95 }).toBuffer();
    const icc: Buffer[] = [];
    for (let at = 2; p3[at] === 0xff && p3[at + 1] !== 0xda; at += 2 + p3.readUInt16BE(at + 2)) {
      if (p3[at + 1] === 0xe2) icc.push(p3.subarray(at, at + 2 + p3.readUInt16BE(at + 2)));
    }
    const tagged = Buffer.concat([plain.subarray(0, 2), ...icc, plain.subarray(2)]);
    expect((await sharp(tagged).metadata()).icc).toBeDefined();
    const a = await decodeImage('file', plain);
    const b = await decodeImage('file', tagged);
    expect(Buffer.from(b.rgb).equals(Buffer.from(a.rgb))).toBe(true);
  });

  it('a broken container is refused before decoding, not walked past its end', async () => {
    const photo = Buffer.from(await fx.selfie('a'));
    const broken = Buffer.concat([photo.subarray(0, 2), Buffer.from([0xff, 0xe1, 0xff, 0xff, 0x45]), photo.subarray(2, 40)]);
    expect(() => stripMetadata(broken, 'jpeg')).toThrow(MalformedImage);
    await expect(decodeImage('file', broken)).rejects.toMatchObject({ code: 'invalid_image' });
  });
});
