// Reads one identity document image: text at about 1000 px, the MRZ found and parsed, the printed
// fields located. When the MRZ does not parse with every check digit, it tries again: turned by
// the skew of the long text lines (a photo taken at a slant), then sharpened and stretched in
// contrast (a blurred or dim picture), and keeps the best reading. (Other detector scales were
// tried and dropped: the lines are cut from the full-resolution image either way, so the reading
// came out the same.) Runs in the document reader's child process.
import anyAscii from 'any-ascii';
import sharp, { type Sharp } from 'sharp';
import { locatePage } from './locate';
import { confirmedReading, otherReadings } from './fields';
import { findMrz, LOW_CONFIDENCE_LIMIT, nameField, partsCut, unsureCharacters, type MrzReading } from './mrz';
import type { RgbImage, TextBox, TextReader } from './ocr';
import { letters, namesAgree, printedByValue, readPrinted, repairableName, type VizField } from './viz';

export interface DocumentReading {
  mrz: MrzReading | null;
  printed: Partial<Record<VizField, string>>;
  /** The fields whose zone value is printed somewhere on the page, label or not (viz.ts printedByValue). */
  valued?: Partial<Record<VizField, string>>;
  /** Text boxes found on the best attempt (a blank or non-document image has few). */
  textBoxes: number;
  attempts: string[];
  ms: number;
  /** True when retries stopped at READ_BUDGET_MS with the zone not settled: what was read is answered, and an unsettled zone is unreadable. */
  budgetSpent?: boolean;
}

/**
 * Wall time of one document by which its reading ends (issue 37: one zone had been retried for
 * 29 s): a retry starts only when it can end before it, as long as the document's slowest text
 * read so far took. A zone not settled by then is answered as read, and identity calls it
 * unreadable (send a sharper photo) rather than inconsistent.
 */
export const READ_BUDGET_MS = 6000;

const DET_SIDE = 960;
/** The sharpened retry enlarges a picture smaller than this on its longer side, by at most UPSCALE_MAX. */
const UPSCALE_SIDE = 1600;
const UPSCALE_MAX = 1.5;

type Printed = Partial<Record<VizField, string>>;
const namesOk = (m: MrzReading, p: Printed) => {
  const cut = partsCut(m, m);
  return namesAgree(p.surname, m.surname, cut.surname) !== 'mismatch' && namesAgree(p.given_names, m.givenNames, cut.givenNames) !== 'mismatch';
};
/**
 * Final: every check digit holds without a correction, and both state codes are codes (no check
 * digit covers the nationality: a letter lost there leaves every digit holding).
 */
const settled = (r: Attempt | null) =>
  Boolean(r?.mrz && r.mrz.checkDigits.length && r.mrz.checkDigits.every((c) => c.valid) && r.mrz.corrected === 0 && !r.mrz.unknownState);
/**
 * Names carry no check digit: a settled reading whose names differ from the print gets one more
 * look, the zone alone enlarged (the recogniser drops letters from a zone's names on photos), and
 * no more: the sharpened re-reads fixed as many names as they broke, at 2.5 s more at p90
 * (docs/documents.md). A name that still differs goes to review (fields.ts).
 */
const namesSettled = (r: Attempt | null) => Boolean(r?.mrz && namesOk(r.mrz, r.printed));
const quality = ({ mrz, printed }: Attempt) =>
  mrz ? mrz.checkDigits.filter((c) => c.valid).length * 10 - mrz.corrected * 3 + (namesOk(mrz, printed) ? 5 : 0) - (mrz.unknownState ? 4 : 0) - mrz.lowConfidence * 0.05 : -1;

interface Attempt {
  mrz: MrzReading | null;
  boxes: TextBox[];
  /** The printed fields found under their labels. */
  labelled: Printed;
  /** The fields whose zone value is printed somewhere on the page (printedByValue), for this attempt's zone. */
  valued: Printed;
  /** The labelled fields, and where a label was not found, the value found for it. */
  printed: Printed;
}

/** Where a label was not found, the field is looked for by this zone's own value (viz.ts). */
function withValues(found: MrzReading | null, labelled: Printed, boxes: TextBox[]): Pick<Attempt, 'valued' | 'printed'> {
  const valued = found ? printedByValue(boxes, found, isMrzLike, () => otherReadings(found)) : {};
  return { valued, printed: { ...valued, ...labelled } };
}

/**
 * One attempt's reading: the zone with the names its print restores (restoreNames), and the page
 * searched for the zone's values as it was read. Not as restored: a name restored from a print
 * found by no label (the zone's MOLINA, MOLINAS somewhere on the page) would confirm itself, and
 * stays not located, for review.
 */
function attemptOf(found: MrzReading | null, labelled: Printed, boxes: TextBox[]): Attempt {
  return { mrz: found && restoreNames(found, labelled, boxes), boxes, labelled, ...withValues(found, labelled, boxes) };
}

/** A printed name in the MRZ's words: accents folded, apostrophes dropped (ICAO: O'CONNOR is OCONNOR), other separators a space. */
const icaoWords = (printed: string) => anyAscii(printed).toUpperCase().replace(/['’`´]/g, '').replace(/[^A-Z]+/g, ' ').trim();

/** Letters the recogniser may drop from a zone's name, beyond narrow and doubled ones: at most this many... */
const MAX_DROPPED = 3;

/**
 * The printed name, when the MRZ name is it with a few letters missing and nothing else changed
 * (its letters a subsequence of the printed ones, at most MAX_DROPPED fewer and never two side by
 * side, at least half kept):
 * on photos the recogniser drops letters from a zone's line (MCALLISTER read as MALLISTER, BAO as
 * BO). Null otherwise, and when the zone's name field is full (a truncated name is shorter too).
 */
function droppedLetters(mrz: string, printed: string | undefined): string | null {
  if (!printed) return null;
  const a = letters(mrz);
  const b = letters(printed);
  if (!a || b.length <= a.length || b.length - a.length > Math.min(MAX_DROPPED, Math.floor(a.length / 2)) || a.length * 2 < b.length) return null;
  // Letters dropped one here and one there; a run of missing letters is a different name (an
  // edited print: MUSTERMANN printed as MUSTERMANNSON), never taken.
  let i = 0;
  let run = 0;
  for (const ch of b) {
    if (i < a.length && a[i] === ch) {
      i++;
      run = 0;
    } else if (++run > 1) return null;
  }
  return i === a.length ? icaoWords(printed) : null;
}

/**
 * On a photo the labels are often too small to be found, while the values, larger and bold, are
 * read. The one printed word group that is the MRZ name with a few letters restored (as
 * droppedLetters) is then the name's print; none, or more than one, and null.
 */
function unlabelledName(mrz: string, boxes: TextBox[]): string | null {
  const found = new Set<string>();
  for (const b of boxes) {
    const text = b.text.trim();
    if (isMrzLike(b) || !/^[\p{L}][\p{L}'’ -]*$/u.test(text)) continue;
    const restored = droppedLetters(mrz, text);
    if (restored) found.add(restored);
  }
  return found.size === 1 ? [...found][0]! : null;
}

/**
 * The zone's lines with the name field holding the restored names, so that what is answered from
 * the lines (and the lines themselves) carries them; unchanged when they would not fit the field.
 */
function withNames(m: MrzReading, names: { surname: string; givenNames: string }): string[] {
  const field = nameField(m);
  if (field === null) return m.lines;
  const word = (s: string) => s.trim().replace(/[^A-Z]+/g, '<');
  const body = names.givenNames ? `${word(names.surname)}<<${word(names.givenNames)}` : word(names.surname);
  if (body.length > field.length) return m.lines;
  const next = body.padEnd(field.length, '<');
  return m.format === 'TD1' ? [m.lines[0]!, m.lines[1]!, next] : [m.lines[0]!.slice(0, 5) + next, ...m.lines.slice(1)];
}

/**
 * Names carry no check digit, and the recogniser drops letters from them: narrow OCR-B letters and
 * doubled ones (WILLEM read as WLEM), and on photos others. Where the printed name is the MRZ's with
 * only letters restored, the printed spelling is taken. Any other difference stays a mismatch.
 */
function restoreNames(m: MrzReading, p: Printed, boxes: TextBox[]): MrzReading {
  const field = nameField(m);
  const full = field !== null && !field.endsWith('<');
  const fix = (mrz: string, printed: string | undefined) => {
    if (repairableName(mrz, printed)) return icaoWords(printed!);
    if (full) return null;
    return printed === undefined ? unlabelledName(mrz, boxes) : droppedLetters(mrz, printed);
  };
  const surname = fix(m.surname, p.surname);
  const given = fix(m.givenNames, p.given_names);
  if (surname || given) {
    const names = { surname: surname ?? m.surname, givenNames: given ?? m.givenNames };
    return { ...m, ...names, lines: withNames(m, names) };
  }
  const same = (a: string | undefined, b: string) => a !== undefined && letters(a) === letters(b);
  // A filler between two words dropped (DEJONG for DE<JONG): the same letters, spaced as printed.
  const spaced = (mrz: string, printed: string | undefined) => {
    const words = printed === undefined ? '' : icaoWords(printed);
    return printed !== undefined && same(printed, mrz) && words.split(' ').length > mrz.split(' ').length ? words : mrz;
  };
  if (!field || !p.surname || (same(p.surname, m.surname) && (p.given_names === undefined || same(p.given_names, m.givenNames)))) {
    return { ...m, surname: spaced(m.surname, p.surname), givenNames: spaced(m.givenNames, p.given_names) };
  }
  // Other readings of the zone (fillers read as K, an unsure K taken for a filler, digits for letters) the print confirms.
  const zone = { surname: m.surname, givenNames: m.givenNames };
  const confirmed = confirmedReading(m, zone, p);
  return confirmed === zone ? m : { ...m, ...confirmed };
}

/**
 * The median slant, in degrees, of the long text lines (their top edges): of the zone's lines when
 * any is read (on a cluttered desk the lines of other papers lie at their own slants, and were the
 * median), else of all.
 */
function skewOf(boxes: TextBox[]): number {
  const slant = (b: TextBox) => {
    const [[x0, y0], [x1, y1]] = [b.box[0]!, b.box[1]!];
    return Math.hypot(x1 - x0, y1 - y0) > 200 ? (Math.atan2(y1 - y0, x1 - x0) * 180) / Math.PI : null;
  };
  const median = (of: TextBox[]) => {
    const angles = of.map(slant).filter((a): a is number => a !== null).sort((a, b) => a - b);
    return angles.length ? angles[Math.floor(angles.length / 2)]! : null;
  };
  return median(boxes.filter(isMrzLike)) ?? median(boxes) ?? 0;
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

/**
 * Reads a document picture. A photo is first searched for the page (locate.ts): when its boundary
 * is found, the page is flattened and read; when that reading finds no zone whose check digits all
 * hold, the picture is read as it came too (a boundary may be wrong: a desk's edge, another paper),
 * and the better reading is kept. A scan, or a picture without a convincing boundary, is read as it came.
 */
export async function readDocument(reader: TextReader, img: RgbImage, opts: { locate?: boolean; budgetMs?: number } = {}): Promise<DocumentReading> {
  const t0 = performance.now();
  const budget = new Budget(t0 + (opts.budgetMs ?? READ_BUDGET_MS));
  // Benches compare with and without the locating step.
  const located = opts.locate === false ? null : await locatePage(img);
  const attempts: string[] = [];
  let best: Attempt | null = null;
  let failedAlike = false;
  let heldAlike = false;
  if (located) {
    const b = located.boundary;
    attempts.push(`located(support ${b.support.toFixed(2)}, area ${b.area.toFixed(2)}${located.turned ? `, turned ${located.turned}` : ''})`);
    ({ best, failedAlike, heldAlike } = await readPicture(reader, located.page, attempts, budget));
  }
  // The picture as it came is read only when the flattened page gave no zone whose check digits
  // all hold: a page whose only doubt is a name would get the same name from the photo, at twice
  // the time. Nor when the page's zone was read alike twice, clearly, failing (failsAlike): the
  // boundary found the zone. Nor when it was read alike twice, every digit holding after the same
  // correction (holdsAlike).
  if (!located || (!settled(best) && !failedAlike && !heldAlike && budget.allows(attempts, 'whole'))) {
    const { best: whole } = await readPicture(reader, img, attempts, budget);
    if (!best || quality(whole) > quality(best)) best = whole;
  }
  const chosen: Attempt = best!;
  return {
    mrz: chosen.mrz,
    printed: chosen.printed,
    valued: chosen.valued,
    textBoxes: chosen.boxes.length,
    attempts,
    ms: Math.round(performance.now() - t0),
    ...(budget.spent && !settled(chosen) ? { budgetSpent: true } : {}),
  };
}

/**
 * The read's deadline: a retry starts only when it can end before it, as long as the slowest text
 * read of this document so far took (a retry started just before the deadline ran up to 3 s past
 * it); the first one refused is noted in the attempts.
 */
class Budget {
  spent = false;
  private slowest = 0;
  constructor(private readonly until: number) {}
  /** One text read took `ms`. */
  took(ms: number): void {
    if (ms > this.slowest) this.slowest = ms;
  }
  allows(attempts: string[], what: string): boolean {
    if (performance.now() + this.slowest < this.until) return true;
    if (!this.spent) attempts.push(`budget(no ${what})`);
    this.spent = true;
    return false;
  }
}

/**
 * What a zone's check digits cover, as an attempt read it: the lines with the digits (TD1's first
 * two, the others' second), fillers read as K or C beside fillers taken as fillers (attempts differ
 * there, and no check digit looks at them).
 */
const digitLines = (m: MrzReading) => (m.format === 'TD1' ? m.lines.slice(0, 2) : m.lines.slice(1)).join('\n').replace(/[KC](?=<)|(?<=<)[KC]/g, '<');

/**
 * Two attempts that read the zone alike and clearly (no more characters unsure or repaired than
 * `mrz_read_confidence` allows) with the same check digits failing: the zone says what it says, and
 * no further attempt is made. A forgery's wrong digit had been read again and again until the time
 * budget ended, then answered unreadable in time rather than inconsistent (docs/documents.md).
 */
function failsAlike(a: MrzReading | null, b: MrzReading | null): boolean {
  if (!a || !b || a.format !== b.format) return false;
  const failing = (m: MrzReading) => m.checkDigits.filter((c) => !c.valid).map((c) => c.field).join();
  const clear = (m: MrzReading) => unsureCharacters(m) <= LOW_CONFIDENCE_LIMIT;
  return failing(a) !== '' && failing(a) === failing(b) && clear(a) && clear(b) && digitLines(a) === digitLines(b);
}

/**
 * Two attempts that read what the check digits cover alike, every digit holding after a correction
 * (settled() wants none): the zone reads so however it is looked at, and the correction stays for
 * review to weigh (fields.ts). The digits are then final as a settled reading's are: the names get
 * their one look at the zone alone, and no more. Before, such a zone was read again until the time
 * budget ended (a card number's 0 read as O on every attempt: four readings alike, 6.8 s).
 */
function holdsAlike(a: MrzReading | null, b: MrzReading | null): boolean {
  if (!a || !b || a.format !== b.format) return false;
  const holds = (m: MrzReading) => m.checkDigits.length > 0 && m.checkDigits.every((c) => c.valid) && m.corrected > 0;
  return holds(a) && holds(b) && digitLines(a) === digitLines(b);
}

/**
 * One picture through the attempts below, until the reading is settled, two attempts fail alike
 * (failsAlike) or hold alike after a correction (holdsAlike), or the budget is spent; the best attempt.
 */
async function readPicture(reader: TextReader, img: RgbImage, attempts: string[], budget: Budget): Promise<{ best: Attempt; failedAlike: boolean; heldAlike: boolean }> {
  let best: Attempt | null = null;
  const zones: MrzReading[] = [];
  let failedAlike = false;
  let heldAlike = false;
  const saw = (found: MrzReading | null) => {
    if (!found) return;
    if (zones.some((z) => failsAlike(z, found))) failedAlike = true;
    if (zones.some((z) => holdsAlike(z, found))) heldAlike = true;
    zones.push(found);
  };
  const decided = () => settled(best) || failedAlike || heldAlike;
  const tryRead = async (image: RgbImage, label: string) => {
    const started = performance.now();
    const { boxes } = await reader.read(image, DET_SIDE);
    budget.took(performance.now() - started);
    const flat = levelled(boxes, skewOf(boxes));
    const cut = new Set(flat.filter((_, i) => cutByEdge(boxes[i]!, image)));
    const labelled = readPrinted(flat, (b) => isMrzLike(b) || cut.has(b));
    const found = findMrz(boxes, labelled.document_number);
    saw(found);
    const attempt = attemptOf(found, labelled, flat);
    attempts.push(`${label}:${found ? found.checkDigits.filter((c) => c.valid).length + '/' + found.checkDigits.length : 'none'}`);
    if (!best || quality(attempt) > quality(best)) best = attempt;
    return boxes;
  };
  const first = await tryRead(img, 'plain');
  // The pictures read so far with their boxes, for cutting the zone from (below).
  const views = [{ image: img, boxes: first }];
  if (!decided() && budget.allows(attempts, 'deskew')) {
    const skew = skewOf(first);
    if (Math.abs(skew) >= 1) {
      const level = await transform(img, (s) => s.rotate(-skew, { background: '#ffffff' }));
      views.push({ image: level, boxes: await tryRead(level, `deskew${skew.toFixed(1)}`) });
    }
  }
  // The zone alone, enlarged: its lines get the detector's and the recogniser's full attention (a
  // line lost under the portrait's edge, fillers merged on a slanted photo). The printed fields stay
  // the page's. It is cut from the picture whose reading saw most of the zone (characters on lines
  // with fillers), the levelled one on a tie: on a photo turned 14° the plain reading saw one line's
  // fillers, the levelled one all three; one levelled by a wrong slant sees the fillers' ends only.
  const { band, image: zoneSource } = views
    .map((v) => ({ band: mrzBand(v.boxes, v.image), image: v.image }))
    .reduce((a, b) => ((b.band?.seen ?? 0) >= (a.band?.seen ?? 0) ? b : a));
  const digitsFinal = () => settled(best) || heldAlike;
  if (band && !failedAlike && !(digitsFinal() && namesSettled(best))) {
    const page = best!;
    // A reading whose digits hold is looked at again for its names only, without sharpening.
    for (const sharpen of digitsFinal() ? [false] : [false, true]) {
      if (!budget.allows(attempts, sharpen ? 'zone-sharpened' : 'zone')) break;
      const zone = await transform(zoneSource, (s) => {
        const cut = s.extract(band.region).resize(Math.round(band.region.width * band.scale), Math.round(band.region.height * band.scale), { kernel: 'lanczos3' });
        return sharpen ? cut.normalise().sharpen({ sigma: 1.5, m1: 1.5, m2: 4 }) : cut;
      });
      const { boxes } = await reader.read(zone, Math.max(zone.width, zone.height));
      const found = findMrz(boxes, page.labelled.document_number);
      saw(found);
      const attempt = attemptOf(found, page.labelled, page.boxes);
      attempts.push(`zone${sharpen ? '-sharpened' : ''}:${found ? found.checkDigits.filter((c) => c.valid).length + '/' + found.checkDigits.length : 'none'}`);
      if (quality(attempt) > quality(best!)) best = attempt;
      if ((settled(best) && namesSettled(best)) || failedAlike || heldAlike) break;
    }
  }
  // A blurred or low-contrast picture: sharpened and stretched to the full range.
  // A small picture is enlarged first: the lines are cut from it, and a blurred MRZ line 33 px high
  // was read whole only after that (TD1 specimen, blur).
  if (!decided() && budget.allows(attempts, 'sharpened')) {
    const up = Math.min(UPSCALE_MAX, UPSCALE_SIDE / Math.max(img.width, img.height));
    await tryRead(await transform(img, (s) => up > 1.1
      ? s.resize(Math.round(img.width * up), Math.round(img.height * up), { kernel: 'lanczos3' }).normalise().sharpen({ sigma: 2, m1: 1.5, m2: 5 })
      : s.normalise().sharpen({ sigma: 1.6, m1: 1.5, m2: 3 })), up > 1.1 ? `sharpened×${up.toFixed(1)}` : 'sharpened');
  }
  if (failedAlike) attempts.push('failed alike');
  if (heldAlike) attempts.push('held alike');
  return { best: best!, failedAlike, heldAlike };
}

/** Lines of the zone as the recogniser sees them best: about this many pixels high. */
const ZONE_LINE_HEIGHT = 56;
/** The zone is cut this many line heights beyond the lines found (a lost line above or below them). */
const ZONE_MARGIN_LINES = 1.6;

/**
 * Where the zone is on the page: around the boxes with a run of fillers, widened by a line and a
 * half above and below, and the enlargement that brings its lines to ZONE_LINE_HEIGHT (at most 2.5×,
 * at most 1600 px wide), and how many characters its boxes with fillers hold. Null when no box has fillers.
 */
function mrzBand(boxes: TextBox[], img: RgbImage): { region: { left: number; top: number; width: number; height: number }; scale: number; seen: number } | null {
  const rows = boxes.filter((b) => (b.text.match(/[<«‹]/g)?.length ?? 0) >= 3);
  if (!rows.length) return null;
  const heights = rows.map((b) => Math.hypot(b.box[3]![0] - b.box[0]![0], b.box[3]![1] - b.box[0]![1])).sort((a, b) => a - b);
  const h = Math.max(8, heights[heights.length >> 1]!);
  const xs = rows.flatMap((b) => b.box.map(([x]) => x));
  const ys = rows.flatMap((b) => b.box.map(([, y]) => y));
  const left = Math.max(0, Math.floor(Math.min(...xs) - h));
  const right = Math.min(img.width, Math.ceil(Math.max(...xs) + h));
  const top = Math.max(0, Math.floor(Math.min(...ys) - ZONE_MARGIN_LINES * h));
  const bottom = Math.min(img.height, Math.ceil(Math.max(...ys) + ZONE_MARGIN_LINES * h));
  if (right - left < 32 || bottom - top < 16) return null;
  const scale = Math.max(1, Math.min(2.5, ZONE_LINE_HEIGHT / h, 1600 / (right - left)));
  return { region: { left, top, width: right - left, height: bottom - top }, scale, seen: rows.reduce((n, b) => n + b.text.length, 0) };
}

/**
 * Print the picture's edge cuts through: a box reaching within half its own height of an edge.
 * Its reading is the part of a line the picture kept (the foot of a surname under a located
 * page's top edge read as USSA for DOS SANTOS OLIVEIRA COUTINHO), so it is read as no printed
 * field, nor as a label: the field is then not located, never printed differently from its zone.
 * A page's fields stand a margin inside its edges; a phone's frame or a page found a little too
 * small is what cuts one.
 */
function cutByEdge(b: TextBox, img: { width: number; height: number }): boolean {
  const [tl, , , bl] = b.box;
  const margin = Math.max(2, (tl && bl ? Math.hypot(bl[0] - tl[0], bl[1] - tl[1]) : 0) / 2);
  return b.box.some(([x, y]) => x < margin || y < margin || x > img.width - 1 - margin || y > img.height - 1 - margin);
}

/**
 * MRZ lines are not printed fields: two fillers, or a long run of capitals and digits only. A long
 * trilingual label ("5. Nombres/Given names/Prenoms") has lower case and slashes, and stays a label.
 */
const isMrzLike = (b: TextBox) => {
  const t = b.text.replace(/\s/g, '');
  return (t.match(/[<«‹]/g)?.length ?? 0) >= 2 || (t.length >= 28 && /^[A-Z0-9<«‹]+$/.test(t));
};
