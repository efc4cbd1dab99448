// Test images made by code from the face-api demo photos (a dev dependency, adult faces): selfies
// cropped around one face, group photos, tiny faces, non-faces, and broken or hostile files.
// Nothing is written to disk; every fixture is bytes in memory.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { APP_ROOT } from '../paths';
import { faceMesh, headModel, toPng, toRgb, turnedHead, flatPhoto, type HeadModel } from './head-turn';

const DEMO = join(APP_ROOT, 'node_modules', '@vladmandic', 'face-api', 'demo');
export const samplePhoto = (i: number): Buffer => readFileSync(join(DEMO, `sample${i}.jpg`));

/** Face boxes (x, y, side) in the original 1920-px photos, as the detector finds them. */
const FACES: Record<string, [photo: number, x: number, y: number, side: number]> = {
  a: [1, 333, 316, 352],
  b: [2, 1379, 105, 347],
  c: [3, 515, 295, 361],
  d: [6, 1081, 280, 368],
  /** Nearly frontal (yaw about -4°): the face the head-turn renders start from. */
  e: [5, 278, 847, 368],
};
export type FaceId = keyof typeof FACES;

const cache = new Map<string, Promise<Buffer>>();
const once = (k: string, f: () => Promise<Buffer>) => {
  if (!cache.has(k)) cache.set(k, f());
  return cache.get(k)!;
};

/** A selfie: one face with a margin of 60% of its size, JPEG at about 560 px. */
export function selfie(id: FaceId = 'a', format: 'jpeg' | 'png' | 'webp' = 'jpeg'): Promise<Buffer> {
  return once(`selfie-${id}-${format}`, async () => {
    const [photo, x, y, side] = FACES[id]!;
    const src = samplePhoto(photo);
    const meta = await sharp(src).metadata();
    const m = Math.round(side * 0.6);
    const left = Math.max(0, x - m);
    const top = Math.max(0, y - m);
    const img = sharp(src)
      .extract({ left, top, width: Math.min(side + 2 * m, meta.width! - left), height: Math.min(side + 2 * m, meta.height! - top) })
      .resize(560, 560, { fit: 'inside' });
    return format === 'png' ? img.png().toBuffer() : format === 'webp' ? img.webp().toBuffer() : img.jpeg({ quality: 90 }).toBuffer();
  });
}

/** The selfie as a 560 × 420 landscape picture. */
const landscape = () => once('landscape', async () => sharp(await selfie('a')).resize(560, 420, { fit: 'cover' }).jpeg().toBuffer());

/** The landscape selfie stored sideways (420 × 560) with an EXIF orientation that turns it upright again. */
export function sidewaysWithExif(): Promise<Buffer> {
  return once('exif', async () => sharp(await sharp(await landscape()).rotate(-90).toBuffer()).withMetadata({ orientation: 6 }).jpeg().toBuffer());
}

/**
 * An EXIF bomb (issue 25): 100 EXIF blocks of
 * 5,400 entries each whose directories point at themselves (IFD0's next IFD, its EXIF and GPS
 * pointers), an XMP block and a comment before the selfie: 6.5 MB of metadata around an ordinary photo.
 */
export function exifBomb(): Promise<Buffer> {
  return once('exif-bomb', async () => exifBombAround(await selfie('a')));
}

/** `photo` (a JPEG) after `blocks` self-referencing EXIF blocks, an XMP block and a comment (exifBomb). */
export function exifBombAround(photo: Buffer, blocks = 100): Buffer {
  const segments: Buffer[] = [];
  const segment = (marker: number, body: Buffer) => Buffer.concat([Buffer.from([0xff, marker, (body.length + 2) >> 8, (body.length + 2) & 0xff]), body]);
  for (let n = 0; n < blocks; n++) {
    const entries = 5_400;
    const tiff = Buffer.alloc(8 + 2 + entries * 12 + 4);
    tiff.write('II', 0, 'latin1');
    tiff.writeUInt16LE(42, 2);
    tiff.writeUInt32LE(8, 4);
    tiff.writeUInt16LE(entries, 8);
    for (let i = 0; i < entries; i++) {
      const e = 10 + i * 12;
      const tag = i % 3 === 0 ? 0x8769 : i % 3 === 1 ? 0x8825 : 0x010e; // EXIF pointer, GPS pointer, a description
      tiff.writeUInt16LE(tag, e);
      tiff.writeUInt16LE(tag === 0x010e ? 2 : 4, e + 2); // ASCII or LONG
      tiff.writeUInt32LE(tag === 0x010e ? 60_000 : 1, e + 4);
      tiff.writeUInt32LE(8, e + 8); // every pointer and every string lead back to IFD0
    }
    tiff.writeUInt32LE(8, 10 + entries * 12); // next IFD: itself
    segments.push(segment(0xe1, Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff])));
  }
  segments.push(segment(0xe1, Buffer.from('http://ns.adobe.com/xap/1.0/\0<x:xmpmeta xmlns:x="adobe:ns:meta/"/>', 'latin1')));
  segments.push(segment(0xfe, Buffer.from('a comment', 'latin1')));
  // First in the file, as the attack had them: the decoder's EXIF parser reads the first block (~4 s
  // of CPU here, 30 s for the attack's own).
  return Buffer.concat([photo.subarray(0, 2), ...segments, photo.subarray(2)]);
}

/** The landscape selfie stored sideways without any orientation tag. */
export function sidewaysNoExif(): Promise<Buffer> {
  return once('sideways', async () => sharp(await landscape()).rotate(-90).jpeg().toBuffer());
}

/** A PNG with an alpha channel: the selfie on a half-transparent layer. */
export function withAlpha(): Promise<Buffer> {
  return once('alpha', async () => sharp(await selfie('b')).ensureAlpha(0.6).png().toBuffer());
}

/** A group photo: three faces of about the same size. */
export function groupPhoto(): Promise<Buffer> {
  return once('group', async () => sharp(samplePhoto(1)).resize(1280).jpeg().toBuffer());
}

/** One face about 50 px wide in a large plain frame. */
export function tinyFace(): Promise<Buffer> {
  return once('tiny', async () => {
    const small = await sharp(await selfie('a')).resize(90).toBuffer();
    return sharp({ create: { width: 900, height: 900, channels: 3, background: '#c8c8c8' } }).composite([{ input: small, left: 400, top: 400 }]).jpeg().toBuffer();
  });
}

/** No face: a smooth gradient with shapes. */
export function noFace(): Promise<Buffer> {
  return once('noface', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="480"><defs><linearGradient id="g"><stop offset="0" stop-color="#3a6"/><stop offset="1" stop-color="#fd4"/></linearGradient></defs><rect width="640" height="480" fill="url(#g)"/><rect x="80" y="90" width="200" height="140" fill="#235"/><circle cx="460" cy="300" r="90" fill="#c33"/></svg>`;
    return sharp(Buffer.from(svg)).jpeg().toBuffer();
  });
}

/** A PNG whose header claims 20,000 × 20,000 pixels (400 MP): a decompression bomb. */
export function pixelBomb(): Promise<Buffer> {
  return once('bomb', async () => {
    const png = Buffer.from(await sharp({ create: { width: 64, height: 64, channels: 3, background: '#000' } }).png().toBuffer());
    // IHDR starts at byte 8: length(4) type(4) width(4) height(4) ... crc over type+data.
    png.writeUInt32BE(20000, 16);
    png.writeUInt32BE(20000, 20);
    png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
    return png;
  });
}

function crc32(b: Uint8Array): number {
  let c = ~0;
  for (const byte of b) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

/** Valid JPEG bytes larger than 10 MB (the selfie followed by padding after its end marker). */
export async function oversize(): Promise<Buffer> {
  const s = await selfie('a');
  return Buffer.concat([s, Buffer.alloc(10 * 1024 * 1024 + 1 - s.length + 10, 0)]);
}

/** The first half of a JPEG. */
export async function truncated(): Promise<Buffer> {
  const s = await selfie('a');
  return s.subarray(0, Math.floor(s.length / 2));
}

/** JPEG magic bytes followed by noise. */
export function corrupt(): Buffer {
  const b = Buffer.alloc(4096);
  for (let i = 0; i < b.length; i++) b[i] = (i * 7919) % 251;
  b[0] = 0xff;
  b[1] = 0xd8;
  b[2] = 0xff;
  return b;
}

/** A GIF: a real image, of a type the spec does not take. */
export const gif = (): Buffer => Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

/** A multipart body with `file` (and optionally `clientKey`). */
export function form(file: Uint8Array | string | null, extra: Record<string, string> = {}, name = 'selfie.jpg'): FormData {
  const f = new FormData();
  if (typeof file === 'string') f.append('file', file);
  else if (file !== null) f.append('file', new Blob([file as Uint8Array<ArrayBuffer>]), name);
  for (const [k, v] of Object.entries(extra)) f.append(k, v);
  return f;
}

/**
 * Canaries whose image is a real selfie (so every face product accepts it) made unique by a patch
 * of random pixels: its bytes and their base64 occur nowhere else.
 */
export async function withFaceImage<C extends { image: Buffer; imageB64: string }>(c: C): Promise<C> {
  const noise = await sharp(randomBytes(48 * 48 * 3), { raw: { width: 48, height: 48, channels: 3 } }).png().toBuffer();
  const image = await sharp(await selfie('a')).composite([{ input: noise, left: 4, top: 4 }]).png().toBuffer();
  return { ...c, image, imageB64: image.toString('base64') };
}

/**
 * A short clip made from frames, encoded by the ffmpeg that ships in @ffmpeg-installer (PNG
 * frames in on stdin, the clip out on stdout: nothing on disk). MP4 is written fragmented, as
 * a pipe cannot be seeked back to write its index.
 */
export async function clip(frames: Buffer[], format: 'webm' | 'mp4', fps = 6): Promise<Buffer> {
  const { spawn } = await import('node:child_process');
  const { createRequire } = await import('node:module');
  const ffmpeg = (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path;
  const out = format === 'webm' ? ['-c:v', 'libvpx', '-b:v', '1M', '-f', 'webm'] : ['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-movflags', 'frag_keyframe+empty_moov', '-f', 'mp4'];
  const ff = spawn(ffmpeg, ['-v', 'quiet', '-f', 'image2pipe', '-framerate', String(fps), '-c:v', 'png', '-i', 'pipe:0', ...out, 'pipe:1'], { stdio: ['pipe', 'pipe', 'ignore'] });
  const parts: Buffer[] = [];
  ff.stdout.on('data', (d: Buffer) => parts.push(d));
  for (const f of frames) ff.stdin.write(f);
  ff.stdin.end();
  await new Promise((resolve) => ff.on('close', resolve));
  return Buffer.concat(parts);
}

/** Frames of the selfie standing still, or panning and zooming a little (a face that moves). */
export async function selfieFrames(moving: boolean, n = 18): Promise<Buffer[]> {
  const base = await sharp(await selfie('a')).resize(560, 560).png().toBuffer();
  const out: Buffer[] = [];
  for (let i = 0; i < n; i++) {
    if (!moving) {
      out.push(base);
      continue;
    }
    const zoom = 1.12 + 0.08 * Math.sin(i / 2);
    const side = Math.round(560 / zoom);
    const left = Math.round((560 - side) / 2 + 20 * Math.sin(i / 1.5));
    const top = Math.round((560 - side) / 2 + 12 * Math.cos(i / 1.7));
    out.push(await sharp(base).extract({ left: Math.min(560 - side, Math.max(0, left)), top: Math.min(560 - side, Math.max(0, top)), width: side, height: side }).resize(480, 480).png().toBuffer());
  }
  return out;
}

/**
 * Where a head is turned at frame i of n: looking at the camera for the first sixth, turning to
 * `degrees` by the middle, back to the camera by the last sixth (as the hosted page cues it).
 */
export function turnProfile(i: number, n: number, degrees: number): number {
  const t = n <= 1 ? 0 : i / (n - 1);
  if (t <= 1 / 6 || t >= 5 / 6) return 0;
  return degrees * Math.sin(((t - 1 / 6) / (4 / 6)) * Math.PI);
}

const models = new Map<string, Promise<HeadModel>>();
async function headOf(id: FaceId): Promise<HeadModel> {
  if (!models.has(id)) {
    models.set(id, (async () => {
      const src = await toRgb(await sharp(await selfie(id)).resize(480, 480).png().toBuffer());
      return headModel(src, await faceMesh(src));
    })());
  }
  return models.get(id)!;
}

/**
 * A head turning, rendered in 3D from one selfie (its depth from Human's face mesh, the rest of
 * the head an ellipsoid: test/head-turn.ts): looks at the camera, turns `degrees` to one side
 * (negative: the other) and back. 480 × 480 PNG frames.
 */
export async function headTurnFrames(id: FaceId = 'c', opts: { degrees?: number; n?: number } = {}): Promise<Buffer[]> {
  const n = opts.n ?? 18;
  const m = await headOf(id);
  const out: Buffer[] = [];
  for (let i = 0; i < n; i++) out.push(await toPng(turnedHead(m, turnProfile(i, n, opts.degrees ?? 35))));
  return out;
}

/**
 * A flat photo of the selfie held in front of the camera and moved as an attacker would: turned
 * about its vertical axis (`yaw`) or horizontal axis (`pitch`) by up to `degrees` and back,
 * panned across the frame (`pan`), or brought nearer and away (`zoom`). 480 × 480 PNG frames.
 */
export async function flatPhotoFrames(move: 'yaw' | 'pitch' | 'pan' | 'zoom', id: FaceId = 'c', opts: { degrees?: number; n?: number } = {}): Promise<Buffer[]> {
  const n = opts.n ?? 18;
  const src = await toRgb(await sharp(await selfie(id)).resize(480, 480).png().toBuffer());
  const out: Buffer[] = [];
  for (let i = 0; i < n; i++) {
    const k = turnProfile(i, n, 1);
    const moved = move === 'yaw' ? { yaw: k * (opts.degrees ?? 60), scale: 0.85 }
      : move === 'pitch' ? { pitch: k * (opts.degrees ?? 60), scale: 0.85 }
        : move === 'pan' ? { dx: 90 * Math.sin((i / n) * 2 * Math.PI), dy: 30 * Math.cos((i / n) * 2 * Math.PI), scale: 0.7 }
          : { scale: 0.6 + 0.5 * k };
    out.push(await toPng(flatPhoto(src, moved)));
  }
  return out;
}

/** A head turning that becomes another person half-way (a photo swapped in front of the camera). */
export async function swappedFaceFrames(n = 18): Promise<Buffer[]> {
  const first = await headTurnFrames('c', { n });
  const second = await headTurnFrames('e', { n, degrees: -35 });
  return [...first.slice(0, Math.floor(n / 2)), ...second.slice(Math.floor(n / 2))];
}

/**
 * A head turning (a 3D render of a selfie, by default e's, 35° and back), as the hosted page
 * records it: passes the head-turn challenge.
 */
export function headTurnClip(id: FaceId = 'e'): Promise<Buffer> {
  return once(`clip-head-turn-${id}`, async () => clip(await headTurnFrames(id, { degrees: -35 }), 'webm'));
}

/** A WebM clip with no face in it: misses the challenge on `face_in_view` (no_face_detected), and is quick to analyse. */
export function noFaceClip(): Promise<Buffer> {
  return once('clip-no-face', async () => clip(Array<Buffer>(12).fill(await sharp(await noFace()).resize(480, 480).png().toBuffer()), 'webm'));
}
