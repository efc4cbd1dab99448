// Presentation attacks made by code from real photos, for the presentation-attack evaluation and
// tests: a face re-photographed from a screen (sub-pixel grid, backlight, moiré from resampling,
// optional bezel), from a print (halftone or inkjet dots, paper tint and texture, reduced gamut,
// paper edges on a desk, glare), identity documents photographed flat, on a desk or in a hand,
// badges and pages with a face printed beside text. Every parameter is drawn from a seeded
// generator, so a set is the same on every run. Everything is made and kept in memory.
//
// Families: `screen-stripe` and `print-halftone` are the development families (limits were set
// on them); `screen-diamond` (a diamond sub-pixel mosaic seen at a keystone angle) and
// `print-inkjet` (stochastic dots, curled paper held in a hand) are kept aside as held-out
// families and reported separately.
import { createCanvas, loadImage, type SKRSContext2D } from '@napi-rs/canvas';
import sharp, { type Sharp } from 'sharp';
import { seededRandom, type Rng } from '../../src-main/service/core/random';

export type { Rng };
export const rng = seededRandom;

const between = (r: Rng, lo: number, hi: number) => lo + (hi - lo) * r();
const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

interface Raw { data: Uint8Array; width: number; height: number }

async function raw(img: Buffer | Sharp, width?: number, height?: number): Promise<Raw> {
  let s = Buffer.isBuffer(img) ? sharp(img) : img;
  if (width && height) s = s.resize(width, height, { fit: 'fill' });
  const { data, info } = await s.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
}

const fromRaw = (r: Raw) => sharp(Buffer.from(r.data.buffer, r.data.byteOffset, r.data.byteLength), { raw: { width: r.width, height: r.height, channels: 3 } });

/** The phone camera: blur, sensor noise, JPEG. */
async function camera(r: Rng, img: Raw, opts: { blur?: [number, number]; noise?: [number, number]; quality?: [number, number]; maxSide?: number } = {}): Promise<Buffer> {
  const noise = between(r, ...(opts.noise ?? [1, 5]));
  const d = img.data;
  // Sensor noise: the sum of three uniforms (close enough to Gaussian, and cheap).
  const k = noise * 2;
  for (let i = 0; i < d.length; i++) d[i] = Math.max(0, Math.min(255, Math.round(d[i]! + k * (r() + r() + r() - 1.5))));
  let s = fromRaw(img);
  const blur = between(r, ...(opts.blur ?? [0.35, 1.1]));
  if (blur >= 0.3) s = s.blur(blur);
  if (opts.maxSide) s = s.resize(opts.maxSide, opts.maxSide, { fit: 'inside', withoutEnlargement: true });
  return s.jpeg({ quality: Math.round(between(r, ...(opts.quality ?? [70, 92]))) }).toBuffer();
}

/** Room behind a held picture: a smooth two-colour gradient with mild texture. */
function background(r: Rng, width: number, height: number): Raw {
  const c1 = [between(r, 40, 220), between(r, 40, 220), between(r, 40, 220)];
  const c2 = [between(r, 40, 220), between(r, 40, 220), between(r, 40, 220)];
  const data = new Uint8Array(width * height * 3);
  const ang = between(r, 0, Math.PI);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const t = Math.min(1, Math.max(0, 0.5 + ((x / width - 0.5) * Math.cos(ang) + (y / height - 0.5) * Math.sin(ang))));
      for (let c = 0; c < 3; c++) data[(y * width + x) * 3 + c] = c1[c]! * (1 - t) + c2[c]! * t + 6 * (r() - 0.5);
    }
  }
  return { data, width, height };
}

export type ScreenFamily = 'screen-stripe' | 'screen-diamond';
/** Diamond mosaic: red, green, green, blue per display pixel, mirrored on every other pixel. */
const DIAMOND_A = [0, 1, 1, 2];
const DIAMOND_B = [2, 1, 1, 0];

/**
 * A face shown on a display and photographed. Each camera pixel averages 2×2 jittered samples of the
 * display's sub-pixels (red, green, blue stripes, or a diamond mosaic), at a random pitch (1.3-4.5
 * camera pixels a display pixel) and angle, so the display's grid beats with the camera's: moiré.
 */
export async function screenRecapture(photo: Buffer, seed: number, family: ScreenFamily = 'screen-stripe'): Promise<Buffer> {
  const r = rng(seed);
  const camW = Math.round(between(r, 560, 900));
  const camH = Math.round(camW * between(r, 1.0, 1.35));
  const bezel = r() < 0.45;
  const areaW = bezel ? Math.round(camW * between(r, 0.6, 0.85)) : camW;
  const meta = await sharp(photo).metadata();
  const areaH = bezel ? Math.round((areaW * meta.height!) / meta.width!) : camH;
  const pitch = between(r, 1.3, 4.5);
  const angle = (between(r, -7, 7) * Math.PI) / 180;
  const fill = between(r, 0.6, 0.92);
  const keystone = family === 'screen-diamond' ? between(r, 0.08, 0.2) : 0;
  const sw = Math.max(8, Math.ceil(areaW / pitch) + 4);
  const sh = Math.max(8, Math.ceil(areaH / pitch) + 4);
  const shown = await raw(photo, sw, sh);
  const gamma = between(r, 0.8, 1.25);
  const backlight = between(r, 0.85, 1.25);
  const tint = [between(r, 0.9, 1.0), between(r, 0.95, 1.02), between(r, 1.0, 1.12)];
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  // Which sub-pixel (channel), if any, lights a point of the display (in display pixels).
  const subpixel = (xs: number, ys: number): number => {
    const px = Math.floor(xs);
    const py = Math.floor(ys);
    const fx = xs - px;
    const fy = ys - py;
    if (family === 'screen-stripe') {
      const ch = Math.min(2, Math.floor(fx * 3));
      return fx * 3 - ch < fill && fy < 0.5 + fill / 2 ? ch : -1;
    }
    const q = (fx < 0.5 ? 0 : 1) + (fy < 0.5 ? 0 : 2);
    const ch = (px + py) % 2 === 0 ? DIAMOND_A[q]! : DIAMOND_B[q]!;
    const lx = (fx % 0.5) * 2 - 0.5;
    const ly = (fy % 0.5) * 2 - 0.5;
    return Math.abs(lx) + Math.abs(ly) < 0.5 * fill + 0.1 ? ch : -1;
  };
  // Each channel's share of the display's area, so a white screen shows white.
  const share = [0, 0, 0];
  for (let i = 0; i < 20000; i++) {
    const ch = subpixel(between(r, 0, 64), between(r, 0, 64));
    if (ch >= 0) share[ch] = share[ch]! + 1 / 20000;
  }
  const light = new Float32Array(areaW * areaH * 3);
  const out = new Uint8Array(areaW * areaH * 3);
  const acc = [0, 0, 0];
  for (let v = 0; v < areaH; v++) {
    for (let u = 0; u < areaW; u++) {
      acc[0] = acc[1] = acc[2] = 0;
      // The sensor integrates over its pixel: 2×2 jittered samples (regular ones would lock onto the grid).
      for (let sy = 0; sy < 2; sy++) {
        for (let sx = 0; sx < 2; sx++) {
          let cu = u + (sx + r()) / 2 - areaW / 2;
          const cv = v + (sy + r()) / 2 - areaH / 2;
          // A keystone: rows further up are narrower (the display tilted back).
          if (keystone) cu *= 1 + keystone * (0.5 - v / areaH);
          const xs = (cu * cos - cv * sin) / pitch + sw / 2;
          const ys = (cu * sin + cv * cos) / pitch + sh / 2;
          if (xs < 0 || ys < 0 || xs >= sw || ys >= sh) continue;
          const ch = subpixel(xs, ys);
          if (ch >= 0) acc[ch] = acc[ch]! + shown.data[(Math.floor(ys) * sw + Math.floor(xs)) * 3 + ch]!;
        }
      }
      for (let c = 0; c < 3; c++) light[(v * areaW + u) * 3 + c] = ((acc[c]! / 4 / Math.max(0.05, share[c]!)) * backlight * tint[c]!) / 255;
    }
  }
  // The lens spreads the light before the sensor clips it: a [1 2 1] blur in linear light, then gamma.
  const spread = new Float32Array(light.length);
  const row = areaW * 3;
  for (let v = 0; v < areaH; v++) {
    for (let u = 0; u < areaW; u++) {
      const i = v * row + u * 3;
      const l = u > 0 ? i - 3 : i;
      const rr = u < areaW - 1 ? i + 3 : i;
      for (let c = 0; c < 3; c++) spread[i + c] = (light[l + c]! + 2 * light[i + c]! + light[rr + c]!) / 4;
    }
  }
  for (let v = 0; v < areaH; v++) {
    const up = v > 0 ? -row : 0;
    const down = v < areaH - 1 ? row : 0;
    for (let i = v * row; i < (v + 1) * row; i++) {
      const lin = Math.min(1, (spread[i + up]! + 2 * spread[i]! + spread[i + down]!) / 4);
      out[i] = Math.round(255 * Math.pow(lin, gamma));
    }
  }
  let frame: Raw = { data: out, width: areaW, height: areaH };
  if (bezel) {
    const bg = background(r, camW, Math.max(camH, areaH + 80));
    const t = Math.round(between(r, 0.03, 0.08) * camW);
    const bw = areaW + 2 * t;
    const bh = areaH + 2 * t;
    const ox = Math.round((bg.width - bw) / 2 + between(r, -0.05, 0.05) * camW);
    const oy = Math.round((bg.height - bh) / 2 + between(r, -0.05, 0.05) * bg.height);
    const shade = between(r, 8, 45);
    for (let y = 0; y < bh; y++) {
      for (let x = 0; x < bw; x++) {
        const X = ox + x;
        const Y = oy + y;
        if (X < 0 || Y < 0 || X >= bg.width || Y >= bg.height) continue;
        const inside = x >= t && y >= t && x < t + areaW && y < t + areaH;
        for (let c = 0; c < 3; c++) {
          bg.data[(Y * bg.width + X) * 3 + c] = inside ? out[((y - t) * areaW + (x - t)) * 3 + c]! : shade;
        }
      }
    }
    frame = bg;
  }
  if (r() < 0.35) reflect(r, frame);
  return camera(r, frame, { blur: [0.3, 1.2], noise: [1, 5], quality: [68, 92] });
}

/** A soft reflection of a window or lamp across the glass. */
function reflect(r: Rng, img: Raw): void {
  const cx = between(r, 0, img.width);
  const cy = between(r, 0, img.height);
  const rad = between(r, 0.2, 0.6) * img.width;
  const k = between(r, 0.15, 0.45);
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      const w = k * Math.max(0, 1 - Math.hypot(x - cx, y - cy) / rad);
      if (w <= 0) continue;
      for (let c = 0; c < 3; c++) {
        const i = (y * img.width + x) * 3 + c;
        img.data[i] = img.data[i]! + (255 - img.data[i]!) * w;
      }
    }
  }
}

export type PrintFamily = 'print-halftone' | 'print-inkjet';

/**
 * A face printed and photographed: reduced gamut and lifted blacks, paper tint and texture,
 * halftone dots (rotated screens per ink at a random pitch) or stochastic inkjet dots, paper
 * edges on a desk or a hand holding a curled print, sometimes a flash glare; then the camera.
 */
export async function printRecapture(photo: Buffer, seed: number, family: PrintFamily = 'print-halftone'): Promise<Buffer> {
  const r = rng(seed);
  const printW = Math.round(between(r, 500, 1100));
  const meta = await sharp(photo).metadata();
  const printH = Math.round((printW * meta.height!) / meta.width!);
  const img = await raw(photo, printW, printH);
  const black = between(r, 18, 55);
  const white = between(r, 215, 245);
  const chroma = between(r, 0.55, 0.9);
  const paper = [between(r, 0.97, 1.0), between(r, 0.95, 0.99), between(r, 0.86, 0.96)];
  const period = between(r, 2.6, 6.5);
  const angles = [15, 75, 0].map((a) => ((a + between(r, -5, 5)) * Math.PI) / 180);
  const d = img.data;
  for (let y = 0; y < printH; y++) {
    for (let x = 0; x < printW; x++) {
      const i = (y * printW + x) * 3;
      const m = (d[i]! + d[i + 1]! + d[i + 2]!) / 3;
      for (let c = 0; c < 3; c++) {
        let v = (m + chroma * (d[i + c]! - m)) / 255;
        // Ink coverage of this channel's complementary ink, as dots.
        const ink = 1 - v;
        let dot: number;
        if (family === 'print-halftone') {
          const a = angles[c]!;
          const u = (x * Math.cos(a) + y * Math.sin(a)) / period;
          const w = (-x * Math.sin(a) + y * Math.cos(a)) / period;
          const spot = (Math.cos(2 * Math.PI * u) + Math.cos(2 * Math.PI * w)) / 4 + 0.5;
          dot = spot < ink ? 1 : 0;
        } else {
          dot = r() < ink ? 1 : 0;
        }
        v = 1 - dot;
        d[i + c] = (black + (white - black) * v) * paper[c]!;
      }
    }
  }
  // Paper texture: a slow multiplicative grain.
  const grain = await raw(sharp(Buffer.from(Array.from({ length: 32 * 32 * 3 }, () => 128 + 40 * (r() - 0.5))), { raw: { width: 32, height: 32, channels: 3 } }).resize(printW, printH));
  for (let i = 0; i < d.length; i++) d[i] = Math.min(255, d[i]! * (0.94 + (0.12 * grain.data[i]!) / 255));
  // The print as the camera sees it: slightly smaller or larger, slightly turned.
  const scale = between(r, 0.45, 1.0);
  const turned = await raw(
    fromRaw(img).resize(Math.round(printW * scale), Math.round(printH * scale)).rotate(between(r, -6, 6), { background: { r: 0, g: 0, b: 0, alpha: 0 } }).png(),
  );
  // A white paper margin around the printed photo, then the desk (or, held, a hand).
  const margin = Math.round(between(r, 0.02, 0.1) * turned.width);
  const sheetW = turned.width + 2 * margin;
  const sheetH = turned.height + 2 * margin;
  const onDesk = r() < 0.7;
  const fillFrame = !onDesk && family === 'print-halftone' && r() < 0.4;
  const bgW = fillFrame ? turned.width : Math.round(sheetW * between(r, 1.1, 1.5));
  const bgH = fillFrame ? turned.height : Math.round(sheetH * between(r, 1.1, 1.4));
  const bg = background(r, bgW, bgH);
  const ox = fillFrame ? 0 : Math.round((bgW - sheetW) * between(r, 0.2, 0.8));
  const oy = fillFrame ? 0 : Math.round((bgH - sheetH) * between(r, 0.2, 0.8));
  const curl = family === 'print-inkjet' ? between(r, 2, 8) : 0;
  for (let y = 0; y < sheetH; y++) {
    for (let x = 0; x < sheetW; x++) {
      const bend = Math.round(curl * Math.sin((Math.PI * x) / sheetW));
      const X = ox + x;
      const Y = oy + y + bend;
      if (X < 0 || Y < 0 || X >= bgW || Y >= bgH) continue;
      const tx = x - margin;
      const ty = y - margin;
      const o = (Y * bgW + X) * 3;
      const inPhoto = tx >= 0 && ty >= 0 && tx < turned.width && ty < turned.height;
      const p = (ty * turned.width + tx) * 3;
      // Rotation corners come back black: paper there.
      const isPaper = !inPhoto || (turned.data[p]! + turned.data[p + 1]! + turned.data[p + 2]! === 0);
      for (let c = 0; c < 3; c++) bg.data[o + c] = isPaper ? white * paper[c]! : turned.data[p + c]!;
    }
  }
  if (!onDesk && family === 'print-inkjet') thumb(r, bg);
  if (r() < 0.4) glare(r, bg);
  return camera(r, bg, { blur: [0.35, 1.3], noise: [1, 4], quality: [70, 92] });
}

/** A thumb over the lower edge: a skin-coloured ellipse. */
function thumb(r: Rng, img: Raw): void {
  const cx = between(r, 0.2, 0.8) * img.width;
  const cy = img.height * between(r, 0.92, 1.02);
  const rx = between(r, 0.06, 0.12) * img.width;
  const ry = rx * 1.6;
  const skin = [between(r, 150, 230), between(r, 105, 170), between(r, 80, 140)];
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      if (((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 > 1) continue;
      for (let c = 0; c < 3; c++) img.data[(y * img.width + x) * 3 + c] = skin[c]! + 8 * (r() - 0.5);
    }
  }
}

/** A flash or lamp on glossy paper: a bright spot fading out. */
function glare(r: Rng, img: Raw): void {
  const cx = between(r, 0.2, 0.8) * img.width;
  const cy = between(r, 0.2, 0.8) * img.height;
  const rad = between(r, 0.05, 0.2) * img.width;
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      const dist = Math.hypot(x - cx, y - cy) / rad;
      if (dist > 2) continue;
      const w = dist < 1 ? 1 : 2 - dist;
      for (let c = 0; c < 3; c++) {
        const i = (y * img.width + x) * 3 + c;
        img.data[i] = Math.min(255, img.data[i]! + (255 - img.data[i]!) * w * 0.95);
      }
    }
  }
}

export type DocumentSetting = 'flat' | 'desk' | 'hand';

/** A rendered document photographed flat (as it is), on a desk, or held in a hand. */
export async function photographDocument(doc: Buffer, seed: number, setting: DocumentSetting, turn?: [number, number]): Promise<Buffer> {
  const r = rng(seed);
  if (setting === 'flat') return sharp(doc).jpeg({ quality: Math.round(between(r, 60, 92)) }).toBuffer();
  const meta = await sharp(doc).metadata();
  const docW = Math.round(between(r, 600, 1000));
  const docH = Math.round((docW * meta.height!) / meta.width!);
  // Turned by up to 15° either way, or by `turn` degrees (either way) when given.
  const angle = turn ? (r() < 0.5 ? -1 : 1) * between(r, turn[0], turn[1]) : between(r, -15, 15);
  const turned = await raw(sharp(doc).resize(docW, docH).rotate(angle, { background: { r: 0, g: 0, b: 0, alpha: 0 } }).png());
  const bgW = Math.round(turned.width * between(r, 1.05, 1.5));
  const bgH = Math.round(turned.height * between(r, 1.05, 1.5));
  const bg = background(r, bgW, bgH);
  const ox = Math.round((bgW - turned.width) * between(r, 0.1, 0.9));
  const oy = Math.round((bgH - turned.height) * between(r, 0.1, 0.9));
  for (let y = 0; y < turned.height; y++) {
    for (let x = 0; x < turned.width; x++) {
      const p = (y * turned.width + x) * 3;
      if (turned.data[p]! + turned.data[p + 1]! + turned.data[p + 2]! === 0) continue;
      const o = ((oy + y) * bgW + ox + x) * 3;
      for (let c = 0; c < 3; c++) bg.data[o + c] = turned.data[p + c]!;
    }
  }
  if (setting === 'hand') thumb(r, bg);
  if (r() < 0.3) glare(r, bg);
  return camera(r, bg, { blur: [0.3, 1.2], noise: [1, 4], quality: [60, 90] });
}

const WORDS = ('lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua ' +
  'enim ad minim veniam quis nostrud exercitation ullamco laboris nisi aliquip ex ea commodo consequat duis aute irure in reprehenderit').split(' ');
const FONTS = ['DejaVu Sans', 'Liberation Serif', 'Liberation Sans', 'Open Sans'] as const;

function words(r: Rng, n: number): string {
  return Array.from({ length: n }, () => pick(r, WORDS)).join(' ');
}

function line(ctx: SKRSContext2D, s: string, x: number, y: number, size: number, font: string, colour: string) {
  ctx.fillStyle = colour;
  ctx.font = `${Math.round(size)}px "${font}"`;
  ctx.fillText(s, x, y);
}

/**
 * A face printed on a card (staff badge, membership or loyalty card, a foreign ID of another
 * layout): header band, portrait, 3-7 lines of text, sometimes a barcode. Landscape or portrait.
 */
export async function faceCard(face: Buffer, seed: number): Promise<Buffer> {
  const r = rng(seed);
  const portrait = r() < 0.4;
  const [W, H] = portrait ? [540, 856] : [856, 540];
  const canvas = createCanvas(W, H);
  const ctx = canvas.getContext('2d');
  const hue = Math.round(between(r, 0, 360));
  ctx.fillStyle = `hsl(${hue}, ${Math.round(between(r, 5, 40))}%, ${Math.round(between(r, 85, 97))}%)`;
  ctx.fillRect(0, 0, W, H);
  ctx.fillStyle = `hsl(${hue}, 55%, ${Math.round(between(r, 20, 45))}%)`;
  const band = Math.round(between(r, 0.1, 0.18) * H);
  ctx.fillRect(0, 0, W, band);
  const font = pick(r, FONTS);
  line(ctx, words(r, 2).toUpperCase(), 0.05 * W, band * 0.65, band * 0.45, font, '#fff');
  const pw = Math.round((portrait ? 0.55 : 0.3) * W);
  const ph = Math.round(pw * 1.28);
  const px = portrait ? Math.round((W - pw) / 2) : Math.round(0.05 * W);
  const py = band + Math.round(0.06 * H);
  const img = await loadImage(await sharp(face).resize(pw, ph, { fit: 'cover' }).png().toBuffer());
  ctx.drawImage(img, px, py, pw, ph);
  const tx = portrait ? 0.08 * W : px + pw + 0.05 * W;
  let ty = portrait ? py + ph + 0.07 * H : py + 0.08 * H;
  const size = between(r, 0.035, 0.055) * H;
  const n = Math.floor(between(r, 3, 8));
  for (let i = 0; i < n && ty < H - 0.04 * H; i++) {
    const label = i % 2 === 0 && r() < 0.6;
    line(ctx, label ? words(r, 2) : words(r, Math.ceil(between(r, 1, 4))).toUpperCase(), tx, ty, label ? size * 0.65 : size, font, label ? '#556' : '#111');
    ty += (label ? 0.9 : 1.5) * size;
  }
  if (r() < 0.5) {
    const bx = portrait ? 0.1 * W : px + pw + 0.05 * W;
    const by = H - 0.16 * H;
    for (let x = bx; x < Math.min(W - 0.05 * W, bx + 0.5 * W); x += 2 + Math.floor(r() * 4)) {
      ctx.fillStyle = '#111';
      ctx.fillRect(x, by, 1 + Math.floor(r() * 3), 0.1 * H);
    }
  }
  return photographDocument(canvas.toBuffer('image/png'), seed + 7, pick(r, ['flat', 'desk', 'hand'] as const));
}

/** A page (newsletter, CV, web page) with a small photo of a face beside paragraphs of text. */
export async function facePage(face: Buffer, seed: number): Promise<Buffer> {
  const r = rng(seed);
  const W = Math.round(between(r, 800, 1100));
  const H = Math.round(W * between(r, 0.7, 1.3));
  const canvas = createCanvas(W, H);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = `hsl(${Math.round(between(r, 0, 360))}, 10%, ${Math.round(between(r, 90, 99))}%)`;
  ctx.fillRect(0, 0, W, H);
  const font = pick(r, FONTS);
  const size = between(r, 14, 24);
  const pw = Math.round(between(r, 0.18, 0.32) * W);
  const ph = Math.round(pw * between(r, 1.0, 1.35));
  const left = r() < 0.5;
  const px = left ? Math.round(0.06 * W) : Math.round(W - 0.06 * W - pw);
  const py = Math.round(between(r, 0.08, 0.3) * H);
  ctx.drawImage(await loadImage(await sharp(face).resize(pw, ph, { fit: 'cover' }).png().toBuffer()), px, py, pw, ph);
  line(ctx, words(r, 4).toUpperCase(), 0.06 * W, 0.06 * H, size * 1.6, font, '#112');
  for (let y = 0.06 * H + size * 2.5; y < H - size; y += size * 1.45) {
    const besidePhoto = y > py - size && y < py + ph + size;
    const x = besidePhoto && left ? px + pw + 0.03 * W : 0.06 * W;
    const xEnd = besidePhoto && !left ? px - 0.03 * W : W - 0.06 * W;
    let s = '';
    ctx.font = `${Math.round(size)}px "${font}"`;
    while (ctx.measureText(`${s} lorem`).width < xEnd - x) s += ` ${pick(r, WORDS)}`;
    line(ctx, s.trim(), x, y, size, font, '#222');
  }
  return photographDocument(canvas.toBuffer('image/png'), seed + 11, pick(r, ['flat', 'desk', 'hand'] as const));
}
