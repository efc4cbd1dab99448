// Specimen identity documents rendered by code: TD3 passports, TD1 and TD2 cards, with the
// machine-readable zone in OCR-B (the public-domain font from Debian's fonts-ocr-b, copied into
// fixtures/fonts), printed (VIZ) fields in DejaVu Sans, and a face from the test photos pasted into
// the portrait area. Degraded copies (blur, rotation, JPEG q35, uneven light, a phone-photo
// perspective warp) and faulty variants (expired, a wrong check digit, printed fields that differ
// from the MRZ) are made by code too. The check digits here are computed independently of the
// service's parser (ICAO 9303 part 3: weights 7, 3, 1), so a test compares two implementations.
// Everything stays in memory.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createCanvas, GlobalFonts, loadImage, type SKRSContext2D } from '@napi-rs/canvas';
import sharp from 'sharp';
import { APP_ROOT } from '../paths';
import { selfie, type FaceId } from './face-fixtures';

const FONTS = join(APP_ROOT, 'src-main', 'service', 'test', 'fixtures', 'fonts');
GlobalFonts.registerFromPath(join(FONTS, 'OCRB.otf'), 'OCR-B');
const DEJAVU = '/usr/share/fonts/truetype/dejavu';
const PRINT = existsSync(join(DEJAVU, 'DejaVuSans.ttf')) ? 'DejaVu Sans' : 'OCR-B';
if (PRINT === 'DejaVu Sans') {
  GlobalFonts.registerFromPath(join(DEJAVU, 'DejaVuSans.ttf'), 'DejaVu Sans');
  GlobalFonts.registerFromPath(join(DEJAVU, 'DejaVuSans-Bold.ttf'), 'DejaVu Sans Bold');
}

export type DocKind = 'td3' | 'td1' | 'td2';

export interface Holder {
  surname: string;
  given: string;
  /** YYYY-MM-DD */
  dob: string;
  sex: 'M' | 'F' | 'X';
  nationality: string;
  issuing: string;
  number: string;
  /** YYYY-MM-DD */
  expiry: string;
  issued: string;
  place?: string;
  face?: FaceId;
}

export interface SpecimenOptions {
  kind?: DocKind;
  /** A check digit (of the document number) written wrong. */
  badCheckDigit?: boolean;
  /** The printed date of birth and surname differ from the MRZ. */
  vizMismatch?: boolean;
  /** No portrait pasted (a blank photo area). */
  noFace?: boolean;
  /** The surname printed on the page, where it differs from the MRZ's (a page read or edited apart). */
  printedSurname?: string;
  /** Dates printed with two-digit years (12 AUG 74), as some states print them. */
  twoDigitYears?: boolean;
}

const WEIGHTS = [7, 3, 1];
const charValue = (c: string): number => (c === '<' ? 0 : /\d/.test(c) ? Number(c) : c.charCodeAt(0) - 55);
export const checkDigit = (s: string): string =>
  String([...s].reduce((sum, c, i) => sum + charValue(c) * WEIGHTS[i % 3]!, 0) % 10);

/** Latin letters only, as ICAO transliterates (the holders here are written without accents). */
const mrzName = (s: string) => s.toUpperCase().replace(/[^A-Z]+/g, '<');
const pad = (s: string, n: number) => (s + '<'.repeat(n)).slice(0, n);
const yymmdd = (iso: string) => iso.slice(2, 4) + iso.slice(5, 7) + iso.slice(8, 10);
const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
/** Printed dates as passports print them: 12 AUG 1974 (or 12 AUG 74). */
export const printedDate = (iso: string, twoDigitYear = false) =>
  `${iso.slice(8, 10)} ${MONTHS[Number(iso.slice(5, 7)) - 1]} ${twoDigitYear ? iso.slice(2, 4) : iso.slice(0, 4)}`;

/** The MRZ lines of a holder's document. */
export function mrzLines(h: Holder, kind: DocKind, badCheckDigit = false): string[] {
  const num = pad(h.number, 9);
  let numCd = checkDigit(num);
  if (badCheckDigit) numCd = String((Number(numCd) + 3) % 10);
  const dob = yymmdd(h.dob);
  const exp = yymmdd(h.expiry);
  const names = `${mrzName(h.surname)}<<${mrzName(h.given)}`;
  // ICAO 9303 writes an unspecified sex as < in the zone (the page prints X).
  const sex = h.sex === 'X' ? '<' : h.sex;
  if (kind === 'td3') {
    const l1 = pad(`P<${h.issuing}${names}`, 44);
    const personal = pad('', 14);
    const body = `${num}${numCd}${h.nationality}${dob}${checkDigit(dob)}${sex}${exp}${checkDigit(exp)}${personal}${checkDigit(personal)}`;
    const composite = checkDigit(body.slice(0, 10) + body.slice(13, 20) + body.slice(21, 43));
    return [l1, body + composite];
  }
  if (kind === 'td2') {
    const l1 = pad(`I<${h.issuing}${names}`, 36);
    const optional = pad('', 7);
    const body = `${num}${numCd}${h.nationality}${dob}${checkDigit(dob)}${sex}${exp}${checkDigit(exp)}${optional}`;
    const composite = checkDigit(body.slice(0, 10) + body.slice(13, 20) + body.slice(21, 35));
    return [l1, body + composite];
  }
  const l1 = pad(`I<${h.issuing}${num}${numCd}`, 30);
  const l2head = `${dob}${checkDigit(dob)}${sex}${exp}${checkDigit(exp)}${h.nationality}${pad('', 11)}`;
  const composite = checkDigit(l1.slice(5, 30) + l2head.slice(0, 7) + l2head.slice(8, 15) + l2head.slice(18, 29));
  return [l1, l2head + composite, pad(names, 30)];
}

const COUNTRY: Record<string, string> = {
  UTO: 'UTOPIA',
  DEU: 'BUNDESREPUBLIK DEUTSCHLAND',
  FRA: 'REPUBLIQUE FRANCAISE',
  NLD: 'KINGDOM OF THE NETHERLANDS',
  GBR: 'UNITED KINGDOM',
  CAN: 'CANADA',
  ESP: 'REINO DE ESPANA',
  ITA: 'REPUBBLICA ITALIANA',
  SWE: 'SVERIGE',
  IRL: 'EIRE IRELAND',
  USA: 'UNITED STATES OF AMERICA',
  AUS: 'AUSTRALIA',
  POL: 'RZECZPOSPOLITA POLSKA',
  PRT: 'REPUBLICA PORTUGUESA',
};

function text(ctx: SKRSContext2D, s: string, x: number, y: number, size: number, font = PRINT, colour = '#1b1f2a') {
  ctx.fillStyle = colour;
  ctx.font = `${size}px "${font}"`;
  ctx.fillText(s, x, y);
}

/** A field: a small bilingual label with its value under it. */
function field(ctx: SKRSContext2D, label: string, value: string, x: number, y: number, scale: number) {
  text(ctx, label, x, y, 15 * scale, PRINT, '#4a5670');
  text(ctx, value, x, y + 30 * scale, 25 * scale, PRINT === 'DejaVu Sans' ? 'DejaVu Sans Bold' : PRINT);
}

/** Renders one document (PNG bytes), upright and clean. */
export async function renderSpecimen(h: Holder, opts: SpecimenOptions = {}): Promise<Buffer> {
  const kind = opts.kind ?? 'td3';
  const [W, H] = kind === 'td3' ? [1250, 880] : kind === 'td2' ? [1050, 740] : [856, 540];
  const s = kind === 'td1' ? 0.72 : kind === 'td2' ? 0.85 : 1;
  const canvas = createCanvas(W, H);
  const ctx = canvas.getContext('2d');
  // Paper with a faint guilloche-like wash.
  const bg = ctx.createLinearGradient(0, 0, W, H);
  bg.addColorStop(0, '#eef3f7');
  bg.addColorStop(0.5, '#f7f1e8');
  bg.addColorStop(1, '#e9f1ec');
  ctx.fillStyle = bg;
  ctx.fillRect(0, 0, W, H);
  ctx.strokeStyle = 'rgba(120,150,180,0.18)';
  ctx.lineWidth = 1;
  for (let i = -H; i < W; i += 18) {
    ctx.beginPath();
    ctx.moveTo(i, 0);
    ctx.quadraticCurveTo(i + 60, H / 2, i + H * 0.4, H);
    ctx.stroke();
  }
  const docTitle = kind === 'td3' ? 'PASSPORT / PASSEPORT' : 'IDENTITY CARD / CARTE D\'IDENTITE';
  text(ctx, COUNTRY[h.issuing] ?? h.issuing, 40 * s, 55 * s, 26 * s, PRINT === 'DejaVu Sans' ? 'DejaVu Sans Bold' : PRINT, '#24305e');
  text(ctx, docTitle, 40 * s, 92 * s, 20 * s, PRINT, '#24305e');

  // Portrait.
  const px = 40 * s;
  const py = 130 * s;
  const pw = 330 * s;
  const ph = 420 * s;
  ctx.fillStyle = '#d9dde3';
  ctx.fillRect(px, py, pw, ph);
  if (!opts.noFace) {
    const face = await sharp(await selfie(h.face ?? 'a')).resize(Math.round(pw), Math.round(ph), { fit: 'cover' }).png().toBuffer();
    ctx.drawImage(await loadImage(face), px, py, pw, ph);
  }

  const mismatch = opts.vizMismatch;
  // An edited page: another surname, not one a misreading would give (MUSTERMANNSON would be the zone's read cut short).
  const surname = opts.printedSurname ?? (mismatch ? (h.surname === 'WAGNER' ? 'BRANDT' : 'WAGNER') : h.surname);
  const date = (iso: string) => printedDate(iso, opts.twoDigitYears);
  const dob = mismatch ? `${String(Number(h.dob.slice(0, 4)) + 3)}${h.dob.slice(4)}` : h.dob;
  const col = px + pw + 40 * s;
  const col2 = col + 330 * s;
  const row = (i: number) => py + 10 * s + i * 70 * s;
  field(ctx, kind === 'td3' ? 'Type / Type' : 'Document / Document', kind === 'td3' ? 'P' : 'I', col, row(0), s);
  field(ctx, 'Code / Code', h.issuing, col + 160 * s, row(0), s);
  field(ctx, kind === 'td3' ? 'Passport No. / No. du passeport' : 'Document No. / No. du document', h.number, col2, row(0), s);
  field(ctx, 'Surname / Nom', surname.toUpperCase(), col, row(1), s);
  field(ctx, 'Given names / Prenoms', h.given.toUpperCase(), col, row(2), s);
  field(ctx, 'Nationality / Nationalite', h.nationality, col, row(3), s);
  field(ctx, 'Date of birth / Date de naissance', date(dob), col, row(4), s);
  field(ctx, 'Sex / Sexe', h.sex, col2 + 120 * s, row(3), s);
  field(ctx, 'Place of birth / Lieu de naissance', (h.place ?? 'ZENITH').toUpperCase(), col2, row(4), s);
  field(ctx, 'Date of issue / Date de delivrance', date(h.issued), col, row(5), s);
  field(ctx, 'Date of expiry / Date d\'expiration', date(h.expiry), col2, row(5), s);

  // The machine-readable zone: white band, OCR-B at the ICAO pitch (about 2.54 mm a character).
  const lines = mrzLines(h, kind, opts.badCheckDigit);
  const charCount = lines[0]!.length;
  const mrzTop = H - lines.length * 52 * s - 34 * s;
  ctx.fillStyle = 'rgba(255,255,255,0.75)';
  ctx.fillRect(0, mrzTop - 20 * s, W, H - mrzTop + 20 * s);
  const fontSize = Math.round(((W - 70 * s) / charCount) * 1.62);
  ctx.font = `${fontSize}px "OCR-B"`;
  const advance = (W - 70 * s) / charCount;
  lines.forEach((line, li) => {
    const y = mrzTop + 32 * s + li * 52 * s;
    [...line].forEach((c, ci) => {
      ctx.fillStyle = '#111';
      ctx.fillText(c, 35 * s + ci * advance, y);
    });
  });
  return canvas.toBuffer('image/png');
}

export type Degradation = 'clean' | 'blur' | 'rotate' | 'jpeg35' | 'light' | 'perspective';
export const DEGRADATIONS: Degradation[] = ['clean', 'blur', 'rotate', 'jpeg35', 'light', 'perspective'];

/** A degraded copy, as a scanner or a phone would deliver it (JPEG bytes). */
export async function degrade(png: Buffer, how: Degradation, seed = 1): Promise<Buffer> {
  const meta = await sharp(png).metadata();
  const W = meta.width!;
  const H = meta.height!;
  switch (how) {
    case 'clean':
      return sharp(png).jpeg({ quality: 90 }).toBuffer();
    case 'blur':
      return sharp(png).blur(1.3).jpeg({ quality: 80 }).toBuffer();
    case 'rotate': {
      const deg = (seed % 2 ? 1 : -1) * (3 + (seed % 3));
      return sharp(png).rotate(deg, { background: '#8a8f96' }).jpeg({ quality: 85 }).toBuffer();
    }
    case 'jpeg35':
      return sharp(png).jpeg({ quality: 35 }).toBuffer();
    case 'light': {
      // A lamp at one corner: brightness falls from 1.15 to 0.55 across the page.
      const shade = createCanvas(W, H);
      const g = shade.getContext('2d');
      const grad = g.createRadialGradient(W * 0.15, H * 0.1, 10, W * 0.15, H * 0.1, Math.hypot(W, H));
      grad.addColorStop(0, 'rgb(255,255,255)');
      grad.addColorStop(1, 'rgb(120,120,120)');
      g.fillStyle = grad;
      g.fillRect(0, 0, W, H);
      return sharp(png)
        .composite([{ input: shade.toBuffer('image/png'), blend: 'multiply' }])
        .modulate({ brightness: 1.08 })
        .jpeg({ quality: 80 })
        .toBuffer();
    }
    case 'perspective': {
      // A phone held at an angle: the far edge shorter than the near one, on a desk.
      const out = createCanvas(Math.round(W * 1.12), Math.round(H * 1.16));
      const g = out.getContext('2d');
      g.fillStyle = '#6f5a46';
      g.fillRect(0, 0, out.width, out.height);
      const img = await loadImage(png);
      const top = 0.9;
      const bottom = 1.0;
      for (let y = 0; y < H; y += 2) {
        const k = top + ((bottom - top) * y) / H;
        const w = W * k;
        const x = (out.width - w) / 2;
        const yy = out.height * 0.07 + y * 0.97;
        g.drawImage(img, 0, y, W, 2, x, yy, w, 2.2);
      }
      return sharp(out.toBuffer('image/png')).jpeg({ quality: 82 }).toBuffer();
    }
  }
}

/** A few holders, varied in name length, country and dates (all adults unless said). */
export const HOLDERS: Holder[] = [
  { surname: 'ERIKSSON', given: 'ANNA MARIA', dob: '1974-08-12', sex: 'F', nationality: 'UTO', issuing: 'UTO', number: 'L898902C3', expiry: '2031-04-15', issued: '2021-04-16', face: 'a' },
  { surname: 'MUSTERMANN', given: 'ERIKA', dob: '1964-08-12', sex: 'F', nationality: 'DEU', issuing: 'DEU', number: 'C01X00T47', expiry: '2030-10-31', issued: '2020-11-01', face: 'b' },
  { surname: 'DE JONG', given: 'WILLEM', dob: '1988-02-29', sex: 'M', nationality: 'NLD', issuing: 'NLD', number: 'SPECI2014', expiry: '2029-03-09', issued: '2019-03-10', face: 'c' },
  { surname: 'MARTIN', given: 'CAMILLE LOUISE', dob: '1992-11-03', sex: 'F', nationality: 'FRA', issuing: 'FRA', number: '18RF42291', expiry: '2033-06-30', issued: '2023-07-01', face: 'd' },
  { surname: 'OKAFOR', given: 'CHINEDU', dob: '1979-05-21', sex: 'M', nationality: 'GBR', issuing: 'GBR', number: '533401372', expiry: '2028-01-19', issued: '2018-01-20', face: 'a' },
  { surname: 'GARCIA LOPEZ', given: 'JAVIER', dob: '2001-12-07', sex: 'M', nationality: 'ESP', issuing: 'ESP', number: 'PAA123456', expiry: '2032-12-06', issued: '2022-12-07', face: 'c' },
  { surname: 'NOWAK', given: 'ZOFIA', dob: '1995-07-15', sex: 'F', nationality: 'POL', issuing: 'POL', number: 'ZS0123456', expiry: '2034-09-01', issued: '2024-09-02', face: 'b' },
  { surname: 'TREMBLAY', given: 'LUC', dob: '1969-01-30', sex: 'M', nationality: 'CAN', issuing: 'CAN', number: 'HK718293', expiry: '2030-05-14', issued: '2020-05-15', face: 'd' },
  { surname: 'ROSSI', given: 'GIULIA', dob: '2009-03-18', sex: 'F', nationality: 'ITA', issuing: 'ITA', number: 'YA4455667', expiry: '2029-03-17', issued: '2024-03-18', face: 'a' },
  { surname: 'OSULLIVAN', given: 'AOIFE', dob: '1983-10-09', sex: 'F', nationality: 'IRL', issuing: 'IRL', number: 'PX9081726', expiry: '2026-01-31', issued: '2016-02-01', face: 'b' },
];
