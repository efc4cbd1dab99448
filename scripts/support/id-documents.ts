// Identity documents of many layouts, made by code around real faces, for the presentation-attack
// evaluation: ID cards (TD1 fronts), driving licences of two styles, residence cards, TD2 cards and
// passport data pages, portrait or landscape, with security-print backgrounds (guilloche waves and
// rosettes), bilingual or numbered field labels, colour or laser-engraved grey portraits, ghost
// images, holograms and, where the layout has one, a machine-readable zone. Each is then shot as a
// customer or an attacker would: flat (the file itself), scanned on a flatbed, photographed on a
// desk, held in a hand, or held close so the portrait fills the frame; or held askew, turned
// further than any of those (a held-out way of shooting). Every parameter is drawn
// from a seeded generator; everything is made and kept in memory.
//
// The layouts are split: `id-card`, `eu-licence` and `passport-page` are development layouts;
// `us-licence`, `residence-card` and `td2-card` are held out (never used to set a limit).
import { createCanvas, GlobalFonts, loadImage, type SKRSContext2D } from '@napi-rs/canvas';
import { join } from 'node:path';
import sharp from 'sharp';
import { APP_ROOT } from '../../src-main/service/paths';
import { photographDocument, rng, type Rng } from './recapture';

const FONT_DIR = join(APP_ROOT, 'src-main/service/test/fixtures/fonts');
GlobalFonts.registerFromPath(join(FONT_DIR, 'OCRB.otf'), 'OCR-B');
GlobalFonts.registerFromPath(join(FONT_DIR, 'OpenSans-Regular.ttf'), 'Open Sans');
GlobalFonts.registerFromPath(join(FONT_DIR, 'OpenSans-Bold.ttf'), 'Open Sans Bold');
GlobalFonts.registerFromPath(join(FONT_DIR, 'OpenSans-CondBold.ttf'), 'Open Sans Cond');
GlobalFonts.registerFromPath(join(FONT_DIR, 'SpecimenSerif-Regular.ttf'), 'Specimen Serif');
GlobalFonts.registerFromPath(join(FONT_DIR, 'SpecimenSerif-Bold.ttf'), 'Specimen Serif Bold');

export const ID_LAYOUTS = ['id-card', 'eu-licence', 'passport-page', 'us-licence', 'residence-card', 'td2-card'] as const;
export type IdLayout = (typeof ID_LAYOUTS)[number];
export const HELD_OUT_LAYOUTS: ReadonlySet<IdLayout> = new Set(['us-licence', 'residence-card', 'td2-card']);
export const SHOTS = ['flat', 'scan', 'desk', 'hand', 'close'] as const;
/** `askew`: held in a hand or lying on a desk turned 15-40° (a held-out way of shooting, not in SHOTS). */
export type Shot = (typeof SHOTS)[number] | 'askew';

const between = (r: Rng, lo: number, hi: number) => lo + (hi - lo) * r();
const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

const SURNAMES = ['OKONKWO', 'NAKAMURA', 'FERREIRA DA SILVA', 'KOWALSKA', 'MÜLLER', 'HADDAD', 'NGUYEN', 'O\'BRIEN', 'SANTOS', 'PETROVA', 'ADEYEMI', 'LINDQVIST'];
const GIVEN = ['AMARA GRACE', 'KENJI', 'MARIA LUISA', 'ZOFIA', 'LUKAS', 'LEILA', 'THI MAI', 'SIOBHAN', 'JOÃO PEDRO', 'ELENA', 'TUNDE', 'INGRID'];
const PLACES = ['LAGOS', 'OSAKA', 'PORTO', 'KRAKÓW', 'GRAZ', 'BEIRUT', 'HUE', 'CORK', 'RECIFE', 'VARNA', 'IBADAN', 'UMEÅ'];
const LABELS: [string, string][] = [
  ['Surname', 'Nom'], ['Given names', 'Prénoms'], ['Date of birth', 'Date de naissance'], ['Sex', 'Sexe'], ['Nationality', 'Nationalité'],
  ['Place of birth', 'Lieu de naissance'], ['Date of expiry', "Date d'expiration"], ['Document No.', 'No du document'], ['Date of issue', 'Date de délivrance'],
];

function date(r: Rng): string {
  const d = String(1 + Math.floor(r() * 28)).padStart(2, '0');
  const m = String(1 + Math.floor(r() * 12)).padStart(2, '0');
  return `${d}.${m}.${1950 + Math.floor(r() * 55)}`;
}
const digits = (r: Rng, n: number) => Array.from({ length: n }, () => Math.floor(r() * 10)).join('');
const letters = (r: Rng, n: number) => Array.from({ length: n }, () => String.fromCharCode(65 + Math.floor(r() * 26))).join('');

function text(ctx: SKRSContext2D, s: string, x: number, y: number, size: number, font: string, colour: string) {
  ctx.fillStyle = colour;
  ctx.font = `${Math.max(5, Math.round(size))}px "${font}"`;
  ctx.fillText(s, x, y);
}

/** Security print: fine sine waves across the card and a rosette, a few grey levels off the paper. */
function securityPrint(ctx: SKRSContext2D, r: Rng, W: number, H: number, hue: number) {
  const base = ctx.createLinearGradient(0, 0, W, H);
  base.addColorStop(0, `hsl(${hue}, ${Math.round(between(r, 15, 45))}%, ${Math.round(between(r, 86, 95))}%)`);
  base.addColorStop(1, `hsl(${(hue + between(r, 20, 90)) % 360}, ${Math.round(between(r, 15, 45))}%, ${Math.round(between(r, 84, 95))}%)`);
  ctx.fillStyle = base;
  ctx.fillRect(0, 0, W, H);
  const alpha = between(r, 0.12, 0.45);
  ctx.lineWidth = between(r, 0.6, 1.4);
  ctx.strokeStyle = `hsla(${(hue + 180 * r()) % 360}, 45%, 45%, ${alpha})`;
  const waves = Math.floor(between(r, 8, 40));
  const lambda = between(r, 0.08, 0.3) * W;
  const amp = between(r, 0.01, 0.06) * H;
  for (let k = 0; k < waves; k++) {
    const y0 = (k / waves) * H * 1.2 - 0.1 * H;
    ctx.beginPath();
    for (let x = 0; x <= W; x += 4) {
      const y = y0 + amp * Math.sin((2 * Math.PI * x) / lambda + k * 0.35);
      if (x === 0) ctx.moveTo(x, y);
      else ctx.lineTo(x, y);
    }
    ctx.stroke();
  }
  if (r() < 0.7) {
    const cx = between(r, 0.3, 0.8) * W;
    const cy = between(r, 0.3, 0.7) * H;
    const R = between(r, 0.12, 0.3) * H;
    const petals = Math.floor(between(r, 6, 18));
    for (let ring = 0; ring < 6; ring++) {
      ctx.beginPath();
      for (let t = 0; t <= 2 * Math.PI + 0.01; t += 0.02) {
        const rad = R * (0.55 + 0.08 * ring + 0.25 * Math.sin(petals * t + ring));
        const x = cx + rad * Math.cos(t);
        const y = cy + rad * Math.sin(t);
        if (t === 0) ctx.moveTo(x, y);
        else ctx.lineTo(x, y);
      }
      ctx.stroke();
    }
  }
}

/** A portrait cut for a document: head and shoulders, colour or laser-engraved grey. */
async function portraitImage(face: Buffer, r: Rng, pw: number, ph: number): Promise<{ img: Awaited<ReturnType<typeof loadImage>>; grey: Buffer }> {
  let s = sharp(face).resize(pw, ph, { fit: 'cover', position: 'top' });
  const engraved = r() < 0.35;
  if (engraved) s = s.greyscale().linear(between(r, 0.6, 0.85), between(r, 25, 60));
  const png = await s.png().toBuffer();
  const grey = await sharp(face).resize(Math.round(pw * 0.4), Math.round(ph * 0.4), { fit: 'cover', position: 'top' }).greyscale().png().toBuffer();
  return { img: await loadImage(png), grey };
}

interface Field { label: string; value: string }

function fieldsFor(r: Rng, n: number): Field[] {
  const i = Math.floor(r() * SURNAMES.length);
  const values: Record<string, string> = {
    Surname: SURNAMES[i]!, 'Given names': GIVEN[(i + Math.floor(r() * 3)) % GIVEN.length]!, 'Date of birth': date(r), Sex: pick(r, ['F', 'M']),
    Nationality: pick(r, ['NGA', 'JPN', 'PRT', 'POL', 'AUT', 'LBN', 'VNM', 'IRL', 'BRA', 'BGR']), 'Place of birth': pick(r, PLACES),
    'Date of expiry': date(r), 'Document No.': `${letters(r, 2)}${digits(r, 7)}`, 'Date of issue': date(r),
  };
  return LABELS.slice(0, n).map(([en, fr]) => ({ label: r() < 0.6 ? `${en} / ${fr}` : en, value: values[en]! }));
}

function mrz(r: Rng, chars: number, rows: number): string[] {
  const out: string[] = [];
  for (let k = 0; k < rows; k++) {
    let s = k === 0 ? `${pick(r, ['ID', 'IR', 'P<', 'AC'])}${letters(r, 3)}${letters(r, 2)}${digits(r, 7)}` : `${digits(r, 7)}${pick(r, ['M', 'F'])}${digits(r, 7)}${letters(r, 3)}`;
    s += k === rows - 1 ? `${SURNAMES[Math.floor(r() * SURNAMES.length)]!.replace(/[^A-Z]/g, '<')}<<${letters(r, 5)}` : '';
    out.push(s.padEnd(chars, '<').slice(0, chars));
  }
  return out;
}

export interface IdDocument { png: Buffer; portrait: { x: number; y: number; width: number; height: number } }

/** One rendered document, upright and clean, and where its portrait is. */
export async function renderIdDocument(face: Buffer, seed: number, layout: IdLayout): Promise<IdDocument> {
  const r = rng(seed);
  const size: Record<IdLayout, [number, number]> = {
    'id-card': [1012, 638], 'eu-licence': [1012, 638], 'us-licence': [1012, 638], 'residence-card': [1012, 638], 'td2-card': [1050, 740], 'passport-page': [1250, 880],
  };
  let [W, H] = size[layout];
  const upright = (layout === 'id-card' || layout === 'residence-card') && r() < 0.25;
  if (upright) [W, H] = [H, W];
  const canvas = createCanvas(W, H);
  const ctx = canvas.getContext('2d');
  const hue = Math.round(between(r, 0, 360));
  securityPrint(ctx, r, W, H, hue);
  const font = pick(r, ['Open Sans', 'DejaVu Sans', 'Liberation Sans', 'Specimen Serif', 'Liberation Serif']);
  const bold = pick(r, ['Open Sans Bold', 'Open Sans Cond', 'DejaVu Sans Bold', 'Specimen Serif Bold', 'OCR-B']);
  const ink = pick(r, ['#111', '#1b1b3a', '#202020', '#2a1a10']);
  const labelInk = `hsl(${(hue + 200) % 360}, ${Math.round(between(r, 30, 70))}%, ${Math.round(between(r, 25, 50))}%)`;

  // Header: country and the document's name, on a band or on the paper.
  const band = r() < 0.5;
  const headH = between(r, 0.1, 0.16) * H;
  if (band) {
    ctx.fillStyle = `hsl(${hue}, ${Math.round(between(r, 40, 75))}%, ${Math.round(between(r, 25, 45))}%)`;
    ctx.fillRect(0, 0, W, headH);
  }
  const title: Record<IdLayout, string> = {
    'id-card': 'IDENTITY CARD', 'eu-licence': 'DRIVING LICENCE', 'passport-page': 'PASSPORT', 'us-licence': 'DRIVER LICENSE', 'residence-card': 'RESIDENCE PERMIT', 'td2-card': 'IDENTITY CARD',
  };
  const headInk = band ? '#fff' : `hsl(${hue}, 60%, 25%)`;
  text(ctx, `${pick(r, ['REPUBLIC OF', 'KINGDOM OF', 'STATE OF', 'FEDERAL REPUBLIC OF'])} ${pick(r, ['ZENITH', 'UTOPIA', 'ARCADIA', 'NORLAND'])}`, 0.04 * W, headH * 0.45, headH * 0.32, bold, headInk);
  text(ctx, layout === 'us-licence' ? title[layout] : `${title[layout]} / ${pick(r, ['CARTE', 'PERMIS', 'DOCUMENT', 'AUSWEIS'])}`, 0.04 * W, headH * 0.85, headH * 0.26, font, headInk);

  // Portrait: left on most layouts, right on some; its size varies with the layout.
  const mrzRows = layout === 'passport-page' || layout === 'td2-card' ? 2 : layout === 'residence-card' && r() < 0.4 ? 3 : 0;
  const mrzH = mrzRows ? mrzRows * 0.075 * H + 0.05 * H : 0;
  const pw = Math.round((upright ? between(r, 0.45, 0.6) : layout === 'us-licence' ? between(r, 0.28, 0.36) : between(r, 0.24, 0.32)) * W);
  const ph = Math.round(pw * between(r, 1.22, 1.34));
  const right = !upright && r() < 0.25;
  const px = upright ? Math.round((W - pw) / 2) : right ? Math.round(W - pw - between(r, 0.03, 0.06) * W) : Math.round(between(r, 0.03, 0.06) * W);
  const py = Math.round(headH + between(r, 0.03, 0.07) * H);
  const { img, grey } = await portraitImage(face, r, pw, Math.min(ph, Math.round(H - py - mrzH - 0.04 * H)));
  ctx.drawImage(img, px, py);
  const phReal = img.height;
  if (r() < 0.6) {
    ctx.strokeStyle = 'rgba(40,40,60,0.6)';
    ctx.lineWidth = 1;
    ctx.strokeRect(px, py, pw, phReal);
  }

  // Fields beside (or under) the portrait.
  const fields = fieldsFor(r, Math.floor(between(r, 5, 10)));
  const numbered = layout === 'eu-licence';
  const tx = upright ? 0.07 * W : right ? 0.05 * W : px + pw + between(r, 0.03, 0.06) * W;
  const tw = upright ? 0.86 * W : right ? px - 0.08 * W : W - tx - 0.04 * W;
  let ty = upright ? py + phReal + 0.05 * H : py + between(r, 0.03, 0.08) * H;
  const bottom = H - mrzH - 0.03 * H;
  const valueSize = between(r, 0.032, 0.05) * (upright ? W * 0.8 : H);
  const labelSize = valueSize * between(r, 0.5, 0.7);
  const twoColumns = tw > 0.45 * W && r() < 0.5;
  const colW = twoColumns ? tw / 2 : tw;
  let col = 0;
  for (const [i, f] of fields.entries()) {
    const x = tx + col * colW;
    if (ty + valueSize > bottom) break;
    if (numbered) {
      text(ctx, `${i + 1}.`, x, ty + valueSize, valueSize * 0.8, font, labelInk);
      text(ctx, f.value, x + valueSize * 1.6, ty + valueSize, valueSize, bold, ink);
      ty += valueSize * between(r, 1.25, 1.6);
    } else if (layout === 'us-licence') {
      text(ctx, f.label.split(' / ')[0]!.toUpperCase().slice(0, 3), x, ty + valueSize, labelSize, font, i === 2 ? '#b01010' : labelInk);
      text(ctx, f.value, x + labelSize * 2.6, ty + valueSize, valueSize * (i === 2 ? 1.2 : 1), bold, i === 2 ? '#b01010' : ink);
      ty += valueSize * between(r, 1.3, 1.7);
    } else {
      text(ctx, f.label, x, ty + labelSize, labelSize, font, labelInk);
      text(ctx, f.value, x, ty + labelSize + valueSize * 1.1, valueSize, bold, ink);
      ty += (labelSize + valueSize) * between(r, 1.2, 1.5);
    }
    if (twoColumns && i % 2 === 0) { col = 1; ty -= numbered ? valueSize * 1.4 : (labelSize + valueSize) * 1.35; } else col = 0;
  }
  // Signature.
  if (r() < 0.7) {
    ctx.strokeStyle = 'rgba(20,20,60,0.85)';
    ctx.lineWidth = between(r, 1, 2.5);
    ctx.beginPath();
    const sx = upright ? 0.1 * W : right ? 0.06 * W : px;
    const sy = upright ? Math.min(bottom, ty + 0.04 * H) : Math.min(bottom - 0.01 * H, py + phReal + 0.07 * H);
    for (let t = 0; t < 1; t += 0.02) ctx.lineTo(sx + t * 0.22 * W, sy + 0.025 * H * Math.sin(t * 19) * Math.cos(t * 7));
    ctx.stroke();
  }
  // Ghost image and hologram.
  if (r() < 0.5) {
    ctx.globalAlpha = between(r, 0.2, 0.45);
    const ghost = await loadImage(grey);
    ctx.drawImage(ghost, upright ? 0.7 * W : right ? 0.62 * W : W - ghost.width - 0.05 * W, bottom - ghost.height - 0.02 * H);
    ctx.globalAlpha = 1;
  }
  if (r() < 0.4) {
    const g = ctx.createRadialGradient(px + pw, py + phReal * 0.8, 2, px + pw, py + phReal * 0.8, 0.12 * W);
    g.addColorStop(0, 'rgba(255,120,200,0.25)');
    g.addColorStop(0.5, 'rgba(120,255,220,0.2)');
    g.addColorStop(1, 'rgba(255,255,255,0)');
    ctx.fillStyle = g;
    ctx.fillRect(0, 0, W, H);
  }
  // The machine-readable zone.
  if (mrzRows) {
    const chars = layout === 'passport-page' ? 44 : layout === 'td2-card' ? 36 : 30;
    const top = H - mrzH + 0.02 * H;
    if (r() < 0.5) {
      ctx.fillStyle = 'rgba(255,255,255,0.6)';
      ctx.fillRect(0, top - 0.02 * H, W, H - top + 0.02 * H);
    }
    const advance = (W - 0.07 * W) / chars;
    ctx.font = `${Math.round(advance * 1.62)}px "OCR-B"`;
    ctx.fillStyle = '#111';
    mrz(r, chars, mrzRows).forEach((l, k) => [...l].forEach((c, j) => ctx.fillText(c, 0.035 * W + j * advance, top + (k + 1) * 0.075 * H)));
  }
  return { png: canvas.toBuffer('image/png'), portrait: { x: px, y: py, width: pw, height: phReal } };
}

/** A rendered document as a customer or attacker presents it. */
export async function shootIdDocument(rendered: IdDocument, seed: number, shot: Shot): Promise<Buffer> {
  const r = rng(seed);
  const doc = rendered.png;
  const meta = await sharp(doc).metadata();
  const W = meta.width!;
  const H = meta.height!;
  if (shot === 'flat') {
    return sharp(doc).resize(Math.round(between(r, 480, 1400)), null).jpeg({ quality: Math.round(between(r, 60, 95)) }).toBuffer();
  }
  if (shot === 'scan') {
    const m = Math.round(between(r, 0.03, 0.25) * W);
    const turned = await sharp(doc).rotate(between(r, -3, 3), { background: '#fafafa' }).png().toBuffer();
    return sharp(turned).extend({ top: m, bottom: Math.round(m * between(r, 0.5, 2)), left: m, right: Math.round(m * between(r, 0.5, 2)), background: pick(r, ['#ffffff', '#f2f2ef', '#e8e8e8']) })
      .resize(Math.round(between(r, 700, 1400)), null).jpeg({ quality: Math.round(between(r, 70, 92)) }).toBuffer();
  }
  if (shot === 'close') {
    // Held close: the frame holds the portrait and a part of the card around it.
    const cw = Math.round(between(r, 0.45, 0.8) * W);
    const ch = Math.round(Math.min(H, cw * between(r, 0.9, 1.35)));
    const p = rendered.portrait;
    const left = Math.round(Math.max(0, Math.min(W - cw, p.x + p.width / 2 - cw * between(r, 0.2, 0.8))));
    const top = Math.round(Math.max(0, Math.min(H - ch, p.y + p.height / 2 - ch * between(r, 0.3, 0.7))));
    const crop = await sharp(doc).extract({ left, top, width: cw, height: ch }).png().toBuffer();
    return photographDocument(crop, seed + 3, r() < 0.5 ? 'hand' : 'desk');
  }
  if (shot === 'askew') return photographDocument(doc, seed + 7, r() < 0.5 ? 'hand' : 'desk', [15, 40]);
  return photographDocument(doc, seed + 5, shot);
}
