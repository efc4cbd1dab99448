// Reads one identity document image: text at about 1000 px, the MRZ found and parsed, the printed
// fields located. When the MRZ does not parse with every check digit, it tries again: turned by
// the skew of the long text lines (a photo taken at a slant), then sharpened and stretched in
// contrast (a blurred or dim picture), and keeps the best reading. (Other detector scales were
// tried and dropped: the lines are cut from the full-resolution image either way, so the reading
// came out the same.) Runs in the document reader's child process.
import sharp, { type Sharp } from 'sharp';
import { fillerKVariants, findMrz, nameField, type MrzReading } from './mrz';
import type { RgbImage, TextBox, TextReader } from './ocr';
import { letters, namesAgree, readPrinted, repairableName, type VizField } from './viz';

export interface DocumentReading {
  mrz: MrzReading | null;
  printed: Partial<Record<VizField, string>>;
  /** Text boxes found on the best attempt (a blank or non-document image has few). */
  textBoxes: number;
  attempts: string[];
  ms: number;
}

const DET_SIDE = 960;
/** The sharpened retry enlarges a picture smaller than this on its longer side, by at most UPSCALE_MAX. */
const UPSCALE_SIDE = 1600;
const UPSCALE_MAX = 1.5;

type Printed = Partial<Record<VizField, string>>;
const namesOk = (m: MrzReading, p: Printed) => namesAgree(p.surname, m.surname) !== 'mismatch' && namesAgree(p.given_names, m.givenNames) !== 'mismatch';
/** Final: every check digit holds without a correction, and the names agree with the printed ones where those were found. */
const settled = (r: Attempt | null) => Boolean(r?.mrz && r.mrz.checkDigits.length && r.mrz.checkDigits.every((c) => c.valid) && r.mrz.corrected === 0 && namesOk(r.mrz, r.printed));
const quality = ({ mrz, printed }: Attempt) =>
  mrz ? mrz.checkDigits.filter((c) => c.valid).length * 10 - mrz.corrected * 3 + (namesOk(mrz, printed) ? 5 : 0) - mrz.lowConfidence * 0.05 : -1;

interface Attempt {
  mrz: MrzReading | null;
  boxes: TextBox[];
  printed: Printed;
}

/**
 * The recogniser drops narrow OCR-B letters and doubled letters from MRZ names at times (WILLEM
 * read as WLEM); names have no check digit. Where the printed name is the MRZ's with only such
 * letters restored, the printed spelling is taken. Any other difference stays a mismatch.
 */
function restoreNames(m: MrzReading, p: Printed): MrzReading {
  const surname = repairableName(m.surname, p.surname);
  const given = repairableName(m.givenNames, p.given_names);
  if (surname || given) return { ...m, surname: surname ?? m.surname, givenNames: given ?? m.givenNames };
  // Fillers read as K (ERIKSSONKKANNA): taken only when the printed surname and given names are then exactly the MRZ's.
  const field = nameField(m);
  if (!field || !p.surname || namesOk(m, p)) return m;
  const same = (a: string | undefined, b: string) => a !== undefined && letters(a) === letters(b);
  const fixed = fillerKVariants(field).find((v) => same(p.surname, v.surname) && (p.given_names === undefined || same(p.given_names, v.givenNames)));
  return fixed ? { ...m, ...fixed } : m;
}

/** The median slant, in degrees, of the long text lines (their top edges). */
function skewOf(boxes: TextBox[]): number {
  const angles = boxes
    .map((b) => {
      const [[x0, y0], [x1, y1]] = [b.box[0]!, b.box[1]!];
      const w = Math.hypot(x1 - x0, y1 - y0);
      return w > 200 ? (Math.atan2(y1 - y0, x1 - x0) * 180) / Math.PI : null;
    })
    .filter((a): a is number => a !== null)
    .sort((a, b) => a - b);
  return angles.length ? angles[Math.floor(angles.length / 2)]! : 0;
}

/** The boxes as they would lie on the page turned upright (for finding what is under a label). */
function levelled(boxes: TextBox[], degrees: number): TextBox[] {
  if (Math.abs(degrees) < 0.5) return boxes;
  const r = (-degrees * Math.PI) / 180;
  const [cos, sin] = [Math.cos(r), Math.sin(r)];
  return boxes.map((b) => ({ ...b, box: b.box.map(([x, y]) => [x * cos - y * sin, x * sin + y * cos] as [number, number]) }));
}

async function transform(img: RgbImage, f: (s: Sharp) => Sharp): Promise<RgbImage> {
  const { data, info } = await f(sharp(img.rgb, { raw: { width: img.width, height: img.height, channels: 3 } }))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { rgb: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}

export async function readDocument(reader: TextReader, img: RgbImage): Promise<DocumentReading> {
  const t0 = performance.now();
  const attempts: string[] = [];
  let best: Attempt | null = null;
  const tryRead = async (image: RgbImage, label: string) => {
    const { boxes } = await reader.read(image, DET_SIDE);
    const flat = levelled(boxes, skewOf(boxes));
    const printed = readPrinted(flat, isMrzLike);
    const found = findMrz(boxes, printed.document_number);
    const attempt: Attempt = { mrz: found && restoreNames(found, printed), boxes: flat, printed };
    attempts.push(`${label}:${found ? found.checkDigits.filter((c) => c.valid).length + '/' + found.checkDigits.length : 'none'}`);
    if (!best || quality(attempt) > quality(best)) best = attempt;
    return boxes;
  };
  const first = await tryRead(img, 'plain');
  if (!settled(best)) {
    const skew = skewOf(first);
    if (Math.abs(skew) >= 1) await tryRead(await transform(img, (s) => s.rotate(-skew, { background: '#ffffff' })), `deskew${skew.toFixed(1)}`);
  }
  // A blurred or low-contrast picture: sharpened and stretched to the full range.
  // A small picture is enlarged first: the lines are cut from it, and a blurred MRZ line 33 px high
  // was read whole only after that (TD1 specimen, blur).
  if (!settled(best)) {
    const up = Math.min(UPSCALE_MAX, UPSCALE_SIDE / Math.max(img.width, img.height));
    await tryRead(await transform(img, (s) => up > 1.1
      ? s.resize(Math.round(img.width * up), Math.round(img.height * up), { kernel: 'lanczos3' }).normalise().sharpen({ sigma: 2, m1: 1.5, m2: 5 })
      : s.normalise().sharpen({ sigma: 1.6, m1: 1.5, m2: 3 })), up > 1.1 ? `sharpened×${up.toFixed(1)}` : 'sharpened');
  }
  const chosen: Attempt = best!;
  return {
    mrz: chosen.mrz,
    printed: chosen.printed,
    textBoxes: chosen.boxes.length,
    attempts,
    ms: Math.round(performance.now() - t0),
  };
}

/** MRZ lines are not printed fields. */
const isMrzLike = (b: TextBox) => (b.text.match(/[<«‹]/g)?.length ?? 0) >= 2 || b.text.replace(/\s/g, '').length >= 28;
