// Finding and parsing the machine-readable zone (ICAO 9303: TD1 cards, TD2 cards, TD3 passports,
// and the French national ID card's 36-character zone) in what the text reader read. OCR text is
// mapped to the MRZ alphabet (A-Z, 0-9, <), the lines are found by shape (long, upper case, filler
// characters), their length is repaired where a run of fillers was read one short or long, and each
// field is held to its ICAO alphabet: names, nationality and issuing state are letters, so a digit
// read there is the letter it resembles; dates and check digits are digits, so a letter read there
// is the digit it resembles (the check digits then prove or refute the repair). The `mrz` package
// parses the repaired lines with their check digits. Where a check digit still fails, characters
// the reader confuses (O/0, I/1, S/5, B/8, Z/2, G/6, D/0) are tried one at a time in the document
// number until the digit and the composite agree, after the printed document number (the same
// number, read a second time). The lines answered are the repaired ones. The check digits prove
// the zone is consistent, not that it is authentic: see assess.ts for what is claimed from them.
import { parse, states, type ParseResult } from 'mrz';
import { toCountryCode } from '../screening/lists/countries';
import { lettersOnly } from '../../../../src-shared/misreadings';
import type { TextBox } from './ocr';

export type MrzFormat = 'TD1' | 'TD2' | 'TD3';
const LENGTH: Record<MrzFormat, number> = { TD1: 30, TD2: 36, TD3: 44 };
const LINES: Record<MrzFormat, number> = { TD1: 3, TD2: 2, TD3: 2 };

/** Characters the reader returns for `<` and the other MRZ characters. */
const TO_MRZ: Record<string, string> = {
  '«': '<', '‹': '<', '〈': '<', '＜': '<', 'く': '<', '≤': '<', '(': '<', '{': '<', '[': '<',
  '×': 'X', '✕': 'X', '╳': 'X', 'Ｏ': 'O', '０': '0',
};

export interface MrzChar {
  c: string;
  /** The reader's probability for this character; characters added by a length repair get 0. */
  p: number;
  /** What the reader read, where a rule took it for another character (an unsure K beside a filler, taken for one: unsureKs). */
  read?: string;
}

/**
 * OCR text in the MRZ alphabet, each character with its probability. Compatibility forms are
 * unfolded first (the reader returns ℃ for a C at times: NFKC makes it °C, and the C is kept).
 */
export function toMrzAlphabet(text: string, probs: number[]): MrzChar[] {
  const out: MrzChar[] = [];
  [...text].forEach((raw, i) => {
    for (const part of TO_MRZ[raw] ?? raw.normalize('NFKC')) {
      const c = TO_MRZ[part] ?? part.toUpperCase();
      if (/^[A-Z0-9<]$/.test(c)) out.push({ c, p: probs[i] ?? 0 });
    }
  });
  return out;
}

/** Other letters a digit may stand for, tried where a list decides (state codes) or a second reading does (printed names). */
export const DIGIT_AS_LETTERS: Readonly<Record<string, readonly string[]>> = {
  '0': ['O', 'D', 'Q'], '1': ['I', 'L'], '2': ['Z'], '4': ['A'], '5': ['S'], '6': ['G'], '8': ['B'],
};
/** The digit a letter read in a digits-only field stands for. */
export const LETTER_AS_DIGIT: Readonly<Record<string, string>> = { O: '0', D: '0', Q: '0', I: '1', L: '1', S: '5', B: '8', Z: '2', G: '6' };
const digitsOnly = (s: string) => s.replace(/[A-Z]/g, (c) => LETTER_AS_DIGIT[c] ?? c);

interface Row {
  chars: MrzChar[];
  y: number;
  height: number;
  x: number;
  /** The line the row lies on: a point's across, and the slant (dy/dx) of its widest box's top edge. */
  cx: number;
  slope: number;
  /** Its widest box's width (a short box's slant is the least sure). */
  widest: number;
  /** Made only of pieces that may join a zone line but not make one (short, without fillers). */
  joinOnly: boolean;
}

const midY = (b: TextBox) => b.box.reduce((s, [, y]) => s + y, 0) / b.box.length;
const midX = (b: TextBox) => b.box.reduce((s, [x]) => s + x, 0) / b.box.length;
const boxHeight = (b: TextBox) => Math.hypot(b.box[3]![0] - b.box[0]![0], b.box[3]![1] - b.box[0]![1]);
const slopeOf = (b: TextBox) => {
  const [[x0, y0], [x1, y1]] = [b.box[0]!, b.box[1]!];
  return Math.abs(x1 - x0) < 1 ? 0 : (y1 - y0) / (x1 - x0);
};

/**
 * Prose: more lower-case letters than capitals. A zone is printed in capitals and read so; the
 * lines of a letter or a form beside the document are not zone lines, whatever their length once
 * folded to the zone's alphabet.
 */
function isProse(text: string): boolean {
  const lower = text.match(/\p{Ll}/gu)?.length ?? 0;
  const upper = text.match(/\p{Lu}/gu)?.length ?? 0;
  return lower > upper;
}

/** Text boxes that look like MRZ: mostly MRZ characters, long, with fillers or all caps and digits. */
function candidateRows(boxes: TextBox[]): Row[] {
  const parts = boxes
    .filter((b) => !isProse(b.text))
    .map((b) => {
      const chars = toMrzAlphabet(b.text, b.probs);
      const compact = b.text.replace(/\s+/g, '');
      return { b, chars, share: compact.length ? chars.length / compact.length : 0 };
    })
    .filter(({ chars, share }) => share >= 0.9 && chars.length >= 2)
    .map(({ b, chars }): Row => {
      const xs = b.box.map(([x]) => x);
      // A piece without fillers shorter than 20 is no zone line on its own (a printed value, a
      // heading), but it is one's data where glare or a fold cut the line: 7502189M3407297BR, then
      // a gap, then <<<<<<<8 (a TD1 photo whose middle line was lost so, and the zone with it).
      // Nor is a piece under 8 characters, but it may be a line's end cut off by glare over its
      // fillers: <<<<8, the composite check digit, beside 4705200M3003220IRL<<<<.
      const joinOnly = chars.length < 8 || (!chars.some((ch) => ch.c === '<') && chars.length < 20);
      return { chars, y: midY(b), height: boxHeight(b), x: Math.min(...xs), cx: midX(b), slope: slopeOf(b), widest: Math.max(...xs) - Math.min(...xs), joinOnly };
    });
  // Boxes on one line (a line split where a gap was read) are joined left to right: each lies on
  // the other's line carried on at its slant (on a page photographed askew, the line of another
  // paper beside the zone passes at a zone line's height where they meet, not along it).
  parts.sort((a, b) => a.y - b.y);
  const rows: Row[] = [];
  const along = (a: Row, b: Row) => Math.abs(a.y + a.slope * (b.cx - a.cx) - b.y) < Math.max(a.height, b.height) * 0.6;
  for (const p of parts) {
    const row = rows.find((r) => along(r, p) && along(p, r));
    if (row) {
      const [a, b] = [row, p].sort((u, v) => u.x - v.x);
      row.chars = [...a!.chars, ...b!.chars];
      row.x = a!.x;
      row.joinOnly &&= p.joinOnly;
      if (p.widest > row.widest) Object.assign(row, { y: p.y, cx: p.cx, slope: p.slope, widest: p.widest });
    } else rows.push({ ...p });
  }
  return rows.filter((r) => !r.joinOnly && (r.chars.length >= 24 || (r.chars.length >= 18 && hasFillerRun(r.chars)))).sort((a, b) => a.y - b.y);
}

/**
 * The reader takes a squeezed filler `<` for a `K` at times (a phone photo at a slant). A `K` it was
 * unsure of (probability under 0.8) next to a filler is a filler; a certain `K` is left alone. On a
 * zone's first line, a K after the document code's filler that starts a state code with the two
 * letters after it (P<KOR, I<KEN) is that state's K: fillers stand there only in a state code's tail.
 * A K after two fillers and before a letter starts the given names (SMITH<<KARL) and stays.
 */
export function unsureKs(chars: MrzChar[], firstLine = false): MrzChar[] {
  const out = chars.map((ch) => ({ ...ch }));
  const startsState = (i: number) => firstLine && (i === 1 || i === 2) && out[i - 1]?.c === '<' && stateAt(out, i);
  // After a name's `<<` separator and before a letter, a K starts the given names (SMITH<<KARL): a
  // squeezed separator read with a K is `<K` before the letter, one filler, not two. Asked again as
  // the fillers around it are read (<<KK<<: the second K is a filler, then so is the first).
  const startsGivenName = (i: number) => i >= 2 && out[i - 1]?.c === '<' && out[i - 2]?.c === '<' && /[A-Z]/.test(out[i + 1]?.c ?? '');
  let changed = true;
  while (changed) {
    changed = false;
    out.forEach((ch, i) => {
      if (ch.c !== 'K' || ch.p >= 0.8 || startsState(i) || startsGivenName(i)) return;
      if (out[i - 1]?.c === '<' || out[i + 1]?.c === '<') {
        ch.read = ch.c;
        ch.c = '<';
        changed = true;
      }
    });
  }
  return out;
}

const hasFillerRun = (chars: MrzChar[]) => chars.some((c, i) => c.c === '<' && chars[i + 1]?.c === '<');
function fitsLength(chars: MrzChar[], len: number): boolean {
  const off = chars.length - len;
  return Math.abs(off) <= Math.max(3, len * 0.12) || (off < 0 && chars.length >= len * 0.6 && hasFillerRun(chars));
}

/** ICAO state codes (and the specimen state UTO), as they stand in a zone without fillers. */
/** A state code ICAO or ISO 3166 knows (UTO, the ICAO specimen state, included). */
export const isState = (code: string) => code === 'UTO' || code in (states as Record<string, string>);
const stateAt = (chars: MrzChar[], at: number) => isState(lettersOnly(chars.slice(at, at + 3).map((c) => c.c).join('')).replace(/</g, ''));

/**
 * The first line of a zone starts with the document code (a letter, then a letter or filler) and
 * the issuing state. The reader drops the narrow code letter I at times, or the filler after it,
 * which shifts the whole line. Where the state code stands one place early, the dropped character
 * is put back: a filler after a letter, else the format's usual code letter (P for passports, I
 * for cards). The check digits then prove the rest of the line.
 */
export function realignFirstLine(chars: MrzChar[], format: MrzFormat): { chars: MrzChar[]; repaired: number } {
  if (chars.length < 6 || stateAt(chars, 2) || !stateAt(chars, 1)) return { chars, repaired: 0 };
  const first = chars[0]!.c;
  const inserted: MrzChar = first === '<' ? { c: format === 'TD3' ? 'P' : 'I', p: 0 } : { c: '<', p: 0 };
  const at = first === '<' ? 0 : 1;
  return { chars: [...chars.slice(0, at), inserted, ...chars.slice(at)], repaired: 1 };
}

/** Brings a line to its format's length by growing or shrinking its longest run of fillers. */
export function fitLength(chars: MrzChar[], n: number): { chars: MrzChar[]; repaired: number } {
  if (chars.length === n) return { chars, repaired: 0 };
  let best = { start: -1, len: 0 };
  for (let i = 0; i < chars.length; ) {
    if (chars[i]!.c !== '<') {
      i++;
      continue;
    }
    let j = i;
    while (j < chars.length && chars[j]!.c === '<') j++;
    if (j - i >= best.len) best = { start: i, len: j - i };
    i = j;
  }
  const diff = n - chars.length;
  if (best.start < 0) {
    return diff > 0
      ? { chars: [...chars, ...Array.from({ length: diff }, () => ({ c: '<', p: 0 }))], repaired: diff }
      : { chars: chars.slice(0, n), repaired: -diff };
  }
  const out = [...chars];
  if (diff > 0) out.splice(best.start, 0, ...Array.from({ length: diff }, () => ({ c: '<', p: 0 })));
  else out.splice(best.start, Math.min(-diff, Math.max(0, best.len - 1)));
  return out.length === n ? { chars: out, repaired: Math.abs(diff) } : { chars: out.slice(0, n).concat(Array.from({ length: Math.max(0, n - out.length) }, () => ({ c: '<', p: 0 }))), repaired: Math.abs(diff) };
}

/** The layouts a zone is parsed as: the three ICAO formats and the French national ID card. */
export type MrzLayout = MrzFormat | 'FRENCH_NATIONAL_ID';

type Alphabet = 'letters' | 'state' | 'digits';
interface Span {
  line: number;
  start: number;
  end: number;
  alphabet: Alphabet;
}
const span = (line: number, start: number, end: number, alphabet: Alphabet): Span => ({ line, start, end, alphabet });

/**
 * Where each ICAO 9303 field of one alphabet lies (part 4 for TD3, part 5 for TD1, part 6 for TD2;
 * the French card after the `mrz` package's layout). Letters: document code, issuing state, names,
 * nationality. Digits: dates, their check digits, the document number's and the personal number's
 * check digits (a filler there stays a filler: a long TD1 number moves its digit into the optional
 * data) and the composite. The document number and optional data may hold either and are not
 * touched here; the sex is M, F or < and is read as it is.
 */
const SPANS: Record<MrzLayout, Span[]> = {
  TD3: [
    span(0, 0, 2, 'letters'), span(0, 2, 5, 'state'), span(0, 5, 44, 'letters'),
    span(1, 9, 10, 'digits'), span(1, 10, 13, 'state'), span(1, 13, 20, 'digits'), span(1, 21, 28, 'digits'), span(1, 42, 44, 'digits'),
  ],
  TD2: [
    span(0, 0, 2, 'letters'), span(0, 2, 5, 'state'), span(0, 5, 36, 'letters'),
    span(1, 9, 10, 'digits'), span(1, 10, 13, 'state'), span(1, 13, 20, 'digits'), span(1, 21, 28, 'digits'), span(1, 35, 36, 'digits'),
  ],
  TD1: [
    span(0, 0, 2, 'letters'), span(0, 2, 5, 'state'), span(0, 14, 15, 'digits'),
    span(1, 0, 7, 'digits'), span(1, 8, 15, 'digits'), span(1, 15, 18, 'state'), span(1, 29, 30, 'digits'),
    span(2, 0, 30, 'letters'),
  ],
  FRENCH_NATIONAL_ID: [
    span(0, 0, 2, 'letters'), span(0, 2, 5, 'state'), span(0, 5, 30, 'letters'),
    span(1, 0, 4, 'digits'), span(1, 12, 13, 'digits'), span(1, 13, 27, 'letters'), span(1, 27, 34, 'digits'), span(1, 35, 36, 'digits'),
  ],
};

/** Where the sex is: M, F or < (unspecified). */
const SEX_AT: Record<MrzLayout, [number, number]> = { TD3: [1, 20], TD2: [1, 20], TD1: [1, 7], FRENCH_NATIONAL_ID: [1, 34] };

/** A character of a field held to its alphabet: what was read at (line, at) and what it stands for. */
export interface AlphabetRepair {
  line: number;
  at: number;
  read: string;
  as: string;
  /** The reader's probability for the character it read. */
  p: number;
}

/** The French card's zone is 36 characters like TD2's and starts IDFRA (its first letters held to letters). */
const layoutOf = (format: MrzFormat, lines: string[]): MrzLayout =>
  format === 'TD2' && lettersOnly(lines[0]!.slice(0, 5)) === 'IDFRA' ? 'FRENCH_NATIONAL_ID' : format;

/**
 * A state code with its digits read as letters: the first reading that is a known code (0 may be
 * O, D or Q; 1 may be I or L), else the usual letters.
 */
function stateLetters(code: string): string {
  const options = [...code].map((c) => DIGIT_AS_LETTERS[c] ?? [c]);
  let readings = [''];
  for (const o of options) readings = readings.flatMap((r) => o.map((c) => r + c));
  return readings.find((r) => isState(r.replace(/</g, ''))) ?? lettersOnly(code);
}

/**
 * Every field held to its alphabet: the repaired lines and each character changed. A visa (code V,
 * ICAO part 7) has optional data where a passport has its personal number's check digit and the
 * composite: those are left as read.
 */
export function holdToAlphabets(chars: MrzChar[][], layout: MrzLayout): { lines: string[]; repairs: AlphabetRepair[] } {
  const lines = chars.map((l) => l.map((c) => c.c));
  const repairs: AlphabetRepair[] = [];
  const visa = lines[0]?.[0] === 'V';
  for (const f of SPANS[layout].filter((x) => !(visa && x.line === 1 && x.start >= 28))) {
    const line = lines[f.line];
    if (!line) continue;
    const read = line.slice(f.start, f.end).join('');
    const fixed = f.alphabet === 'letters' ? lettersOnly(read) : f.alphabet === 'state' ? stateLetters(read) : digitsOnly(read);
    [...fixed].forEach((c, i) => {
      const at = f.start + i;
      if (c === line[at]) return;
      repairs.push({ line: f.line, at, read: line[at]!, as: c, p: chars[f.line]![at]?.p ?? 0 });
      line[at] = c;
    });
  }
  return { lines: lines.map((l) => l.join('')), repairs };
}

/**
 * The characters a document number's character may have been read for. C and 0 blur into each
 * other in a small, soft copy (the C's opening closes): L898902C3 was read L89890203.
 */
const SWAPS: Record<string, string[]> = {
  O: ['0'], '0': ['O', 'D', 'C'], D: ['0'], Q: ['0'], C: ['0'], I: ['1'], '1': ['I'], L: ['1'], S: ['5'], '5': ['S'],
  B: ['8'], '8': ['B'], Z: ['2'], '2': ['Z'], G: ['6'], '6': ['G'],
};

export interface CheckDigit {
  field: 'document_number' | 'date_of_birth' | 'expiry_date' | 'personal_number' | 'composite';
  valid: boolean;
}

/** More than this many MRZ characters read with low confidence (or repaired) sends the document to review. */
export const LOW_CONFIDENCE_LIMIT = 3;

/**
 * The zone's characters read unsure, corrected by a check digit, or held to their field's alphabet
 * (a misread: one the reader was already unsure of is counted once).
 */
export const unsureCharacters = (m: Pick<MrzReading, 'lowConfidence' | 'corrected' | 'alphabetRepairs'>): number =>
  m.lowConfidence + m.corrected + m.alphabetRepairs.filter((r) => r.p >= 0.5).length;

export interface MrzReading {
  format: MrzLayout;
  /** The zone as answered: lengths repaired, every field held to its alphabet, corrections the check digits proved. */
  lines: string[];
  /** The zone as the reader read it (lengths repaired only, an unsure K beside a filler kept as read): the source of the other readings of a repaired character. */
  readLines: string[];
  documentCode: string;
  issuingState: string;
  nationality: string | null;
  surname: string;
  givenNames: string;
  documentNumber: string;
  /** The document number as read, before a correction (`corrected`) changed it. */
  numberAsRead: string;
  /** YYMMDD as printed in the zone. */
  birthDate: string;
  expiryDate: string | null;
  /** ICAO: M, F, or X for the zone's < (unspecified); null when the character is none of these. */
  sex: 'M' | 'F' | 'X' | null;
  checkDigits: CheckDigit[];
  /** Characters the reader was unsure of (probability under 0.5), and characters a repair added. */
  lowConfidence: number;
  repaired: number;
  /** Document-number characters changed so its check digit and the composite agree. */
  corrected: number;
  /** The number's check digit itself was among them (computed for the printed number): nothing printed shows it. */
  correctedDigit: boolean;
  /** Characters held to their field's alphabet (a digit in a name, a letter in a date). */
  alphabetRepairs: AlphabetRepair[];
  /** The state code is not an ISO 3166 code (for example the ICAO specimen code UTO). */
  unknownState: boolean;
  /**
   * Characters read with a probability under UNSURE_P, by field (surname, given names; the document
   * number with its check digit): what the zone alone cannot vouch for where no print confirms it.
   * A name part read empty counts 1 where its name line was grown with fillers to its length; a
   * surname whose field begins with a filler counts 1 more.
   */
  unsure: { surname: number; givenNames: number; documentNumber: number };
}

/** A character read with less probability than this is a guess the zone cannot vouch for on its own. */
export const UNSURE_P = 0.5;

const CHECK_FIELDS: Record<string, CheckDigit['field']> = {
  documentNumberCheckDigit: 'document_number',
  birthDateCheckDigit: 'date_of_birth',
  expirationDateCheckDigit: 'expiry_date',
  personalNumberCheckDigit: 'personal_number',
  compositeCheckDigit: 'composite',
};

/**
 * The check digits the zone carries. A visa's (code V, ICAO 9303 part 7) second line ends in
 * optional data after the expiry date's check digit: what the parser, reading it as a passport's or
 * a card's zone, takes for a personal number's check digit and a composite is none.
 */
function checksOf(r: ParseResult, lines: readonly string[]): CheckDigit[] {
  const visa = lines[0]?.[0] === 'V';
  return r.details
    .filter((d) => d.field && CHECK_FIELDS[d.field])
    .map((d) => ({ field: CHECK_FIELDS[d.field!]!, valid: d.valid }))
    .filter((c) => !(visa && (c.field === 'personal_number' || c.field === 'composite')));
}

const allValid = (r: ParseResult, lines: readonly string[]) => checksOf(r, lines).every((c) => c.valid);

/** Tries each confusable character of the document number in turn until every check digit holds. */
function correctDocumentNumber(lines: string[], r: ParseResult): { lines: string[]; result: ParseResult; changed: number; digitChanged: boolean } | null {
  const d = r.details.find((x) => x.field === 'documentNumber');
  if (!d || d.line === undefined || d.start === undefined || d.end === undefined) return null;
  const line = lines[d.line]!;
  const positions: number[] = [];
  for (let i = d.start; i < d.end; i++) if (SWAPS[line[i]!]) positions.push(i);
  const attempt = (changes: [number, string][]) => {
    const chars = [...line];
    for (const [i, c] of changes) chars[i] = c;
    const next = [...lines];
    next[d.line!] = chars.join('');
    const result = parse(next, { autocorrect: true });
    return allValid(result, next) ? { lines: next, result, changed: changes.length, digitChanged: false } : null;
  };
  for (const i of positions) for (const c of SWAPS[line[i]!]!) {
    const ok = attempt([[i, c]]);
    if (ok) return ok;
  }
  // Two changes are not tried: with 0, <, A, K and U weighing alike, two changes satisfy a check digit by chance too often.
  return null;
}

/** ICAO 9303's value of a zone character: the filler 0, digits as themselves, letters 10-35. */
export const zoneValue = (c: string) => (c === '<' ? 0 : /\d/.test(c) ? Number(c) : c.charCodeAt(0) - 55);

/** A document number's letters and digits, upper case, as written (spaces and punctuation dropped). */
export const numberCharacters = (s: string) => s.toUpperCase().replace(/[^A-Z0-9]/g, '');

/** ICAO 9303 check digit: weights 7, 3, 1; `<` is 0, letters are 10-35. */
export function checkDigitOf(s: string): string {
  let sum = 0;
  [...s].forEach((c, i) => {
    sum += zoneValue(c) * [7, 3, 1][i % 3]!;
  });
  return String(sum % 10);
}

/**
 * The printed document number, when the MRZ's fails its check digit: the two are the same
 * number, so a printed one that makes every check digit hold is the better reading.
 */
function numberFromPrinted(lines: string[], r: ParseResult, printed: string | undefined): { lines: string[]; result: ParseResult; changed: number; digitChanged: boolean } | null {
  const d = r.details.find((x) => x.field === 'documentNumber');
  const number = printed === undefined ? undefined : numberCharacters(printed);
  if (!number || number.length > 9 || !d || d.line === undefined || d.start === undefined) return null;
  const line = lines[d.line]!;
  const padded = (number + '<<<<<<<<<').slice(0, 9);
  // The number alone, then with its own check digit: the composite check digit (another line's
  // last character) still has to hold, so a wrong printed number is not taken.
  for (const digit of [line[d.start + 9]!, checkDigitOf(padded)]) {
    const next = [...lines];
    next[d.line] = line.slice(0, d.start) + padded + digit + line.slice(d.start + 10);
    if (next[d.line]!.length !== line.length) return null;
    const result = parse(next, { autocorrect: true });
    if (!allValid(result, next)) continue;
    const digitChanged = digit !== line[d.start + 9];
    let changed = digitChanged ? 1 : 0;
    for (let i = 0; i < 9; i++) if (line[d.start + i] !== padded[i]) changed++;
    return { lines: next, result, changed, digitChanged };
  }
  return null;
}

/**
 * ICAO 9303: a card's (TD1, TD2) document code starts with A, C or I. A first letter the reader
 * took for something else that looks like an I (T, L, J, 1) is an I.
 */
function documentCodeOf(format: MrzFormat, code: string): string {
  return format !== 'TD3' && code.length > 0 && !'ACIPV'.includes(code[0]!) && 'TLJ1'.includes(code[0]!) ? `I${code.slice(1)}` : code;
}

/**
 * A state code that is no state code, one letter away from the zone's other state code (the
 * issuing state and the holder's nationality, read on different lines), is that code: ERA next to
 * FRA is France, OMZ next to OMN is Oman, either way round. Any other unknown code is kept as read
 * (and reported by the `issuing_state_known` check).
 */
function stateNextTo(code: string, other: string | null): string {
  if (isState(code) || !other || !isState(other) || code.length !== other.length) return code;
  let differ = 0;
  for (let i = 0; i < code.length; i++) if (code[i] !== other[i]) differ++;
  return differ === 1 ? other : code;
}

/** The sex character as ICAO's letter: the zone's < (unspecified) is X, as the printed page shows it. */
function sexOf(c: string | undefined): MrzReading['sex'] {
  return c === 'M' || c === 'F' ? c : c === '<' || c === 'X' ? 'X' : null;
}

function interpret(format: MrzFormat, chars: MrzChar[][], repaired: number, printedNumber?: string): MrzReading | null {
  const readLines = chars.map((l) => l.map((c) => c.read ?? c.c).join(''));
  const layout = layoutOf(format, chars.map((l) => l.map((c) => c.c).join('')));
  const held = holdToAlphabets(chars, layout);
  const lines = held.lines;
  let result = parse(lines, { autocorrect: true });
  let corrected = 0;
  let correctedDigit = false;
  const numberAsRead = result.fields.documentNumber;
  if (!allValid(result, lines)) {
    const fixed = numberFromPrinted(lines, result, printedNumber) ?? correctDocumentNumber(lines, result);
    if (fixed) {
      result = fixed.result;
      corrected = fixed.changed;
      correctedDigit = fixed.digitChanged;
      lines.splice(0, lines.length, ...fixed.lines);
    }
  }
  const f = result.fields;
  if (!f.documentNumber || !f.birthDate) return null;
  const stateError = (field: string) => result.details.find((d) => d.field === field && !d.valid && /state code/i.test(d.error ?? ''));
  const raw = (field: string) => {
    const d = result.details.find((x) => x.field === field);
    return d && d.start !== undefined && d.end !== undefined ? lines[d.line]!.slice(d.start, d.end).replace(/</g, '') : '';
  };
  const readNationality = f.nationality ?? (raw('nationality') || null);
  const readState = f.issuingState ?? raw('issuingState');
  const issuingState = stateNextTo(readState, readNationality);
  const nationality = readNationality && stateNextTo(readNationality, readState);
  // A code taken from the other is written into the zone, so the lines say what is answered.
  if (issuingState !== readState && lines[0]!.slice(2, 5) === readState) lines[0] = lines[0]!.slice(0, 2) + issuingState + lines[0]!.slice(5);
  const at = result.details.find((d) => d.field === 'nationality');
  if (nationality !== readNationality && at && at.start !== undefined && lines[at.line]!.slice(at.start, at.start + 3) === readNationality) {
    lines[at.line] = lines[at.line]!.slice(0, at.start) + nationality + lines[at.line]!.slice(at.start + 3);
  }
  const french = result.format === 'FRENCH_NATIONAL_ID';
  const [sexLine, sexAt] = SEX_AT[french ? 'FRENCH_NATIONAL_ID' : layout];
  // Unsure characters by field, from the positions the parser gives each field (a check digit with its field).
  const unsureIn = (...fields: string[]) => result.details
    .filter((d) => d.field && fields.includes(d.field) && d.line !== undefined && d.start !== undefined && d.end !== undefined)
    .reduce((n, d) => n + (chars[d.line!] ?? []).slice(d.start!, d.end!).filter((c) => c.p < UNSURE_P).length, 0);
  // A name part read empty on a name line that was grown to its length (characters lost: glare, a
  // cut) may be a part the zone lost, not a holder with one name: the zone does not vouch for it.
  const names = zoneNames({ format: french ? 'FRENCH_NATIONAL_ID' : format, lines });
  const field = nameFieldAt(french ? 'FRENCH_NATIONAL_ID' : format);
  const nameChars = field ? (chars[field.line] ?? []).slice(field.start) : [];
  const lost = nameChars.some((c) => c.c === '<' && c.p === 0) ? 1 : 0;
  // A name field never begins with a filler: one read there is a letter the reader lost ([ or ( for L).
  const firstLost = nameChars[0]?.c === '<' ? 1 : 0;
  return {
    format: french ? 'FRENCH_NATIONAL_ID' : format,
    lines,
    readLines,
    documentCode: documentCodeOf(format, f.documentCode ?? lines[0]!.slice(0, 2).replace(/</g, '')),
    issuingState,
    nationality,
    ...names,
    documentNumber: f.documentNumber.replace(/<+/g, ''),
    numberAsRead: (numberAsRead ?? f.documentNumber).replace(/<+/g, ''),
    birthDate: f.birthDate,
    expiryDate: f.expirationDate ?? null,
    sex: sexOf(lines[sexLine]?.[sexAt]),
    checkDigits: checksOf(result, lines),
    lowConfidence: chars.flat().filter((c) => c.p < 0.5).length,
    repaired,
    corrected,
    correctedDigit,
    alphabetRepairs: held.repairs,
    unknownState: Boolean((stateError('issuingState') && issuingState === readState) || (stateError('nationality') && nationality === readNationality)),
    unsure: {
      surname: names.surname ? unsureIn('lastName') + firstLost : lost,
      givenNames: names.givenNames ? unsureIn('firstName') : lost,
      documentNumber: unsureIn('documentNumber', 'documentNumberCheckDigit'),
    },
  };
}

/**
 * An empty personal number's check digit holds over nothing: it proves no reading. (A TD2 card's
 * lines padded to TD3 length hold every TD2 check digit and that one too, and would otherwise be
 * taken for a passport.)
 */
const proves = (r: MrzReading, c: CheckDigit) => c.valid && !(c.field === 'personal_number' && /^<*$/.test(r.lines[1]?.slice(28, 42) ?? ''));
// A reading that needed its alphabets repaired is a little less likely to be the zone's right window and format.
const score = (r: MrzReading) =>
  r.checkDigits.filter((c) => proves(r, c)).length * 10 - r.corrected - r.repaired * 0.1 - r.alphabetRepairs.length * 0.05 - r.lowConfidence * 0.01;

/**
 * A zone's lines start at one left edge (they are printed in one monospaced font, left-aligned). A
 * line read from more than two characters' width right of the others lost its start (glare over the
 * left of the first line: "<<COLN<<<…" read for I<ZWEOCONNOR<<COLIN<<<…). Fitted to the format's
 * length it would be taken for another document code, state and name: a correct document would
 * be refused as inconsistent, or answered with another state. Such a window is no reading.
 */
function cutOnTheLeft(window: Row[]): boolean {
  // A line's width over its characters: the widest, as joined parts measure only their widest part.
  const pitch = Math.max(...window.map((r) => r.widest / r.chars.length));
  const left = Math.min(...window.map((r) => r.x));
  return window.some((r) => r.x - left > 2.5 * pitch);
}

/** The best MRZ among the text boxes, or null when none parses. */
export function findMrz(boxes: TextBox[], printedNumber?: string): MrzReading | null {
  const rows = candidateRows(boxes);
  let best: MrzReading | null = null;
  for (const format of ['TD3', 'TD2', 'TD1'] as MrzFormat[]) {
    const n = LINES[format];
    const len = LENGTH[format];
    for (let i = 0; i + n <= rows.length; i++) {
      const window = rows.slice(i, i + n);
      // Lines of one zone are about the same length, near the format's; a line with a run of
      // fillers may be shorter by up to 40%: CTC merges repeated characters, and squeezed fillers
      // (a photo at a slant) come out as a few.
      if (window.some((r) => !fitsLength(r.chars, len)) || cutOnTheLeft(window)) continue;
      let repaired = 0;
      const fitted = window.map((r, line) => {
        const aligned = line === 0 ? realignFirstLine(unsureKs(r.chars, true), format) : { chars: unsureKs(r.chars), repaired: 0 };
        const f = fitLength(aligned.chars, len);
        repaired += f.repaired + aligned.repaired;
        return f.chars;
      });
      const reading = interpret(format, fitted, repaired, printedNumber);
      if (reading && (!best || score(reading) > score(best))) best = reading;
    }
  }
  return best;
}

/** Where a zone's name field starts: TD1 on its third line, TD2 and TD3 after the state code; none for the French card, which splits it. */
function nameFieldAt(format: MrzLayout): { line: number; start: number } | null {
  return format === 'TD1' ? { line: 2, start: 0 } : format === 'FRENCH_NATIONAL_ID' ? null : { line: 0, start: 5 };
}

/** The name field of a zone (nameFieldAt). */
export function nameField(m: Pick<MrzReading, 'format' | 'lines'>): string | null {
  const at = nameFieldAt(m.format);
  return (at && m.lines[at.line]?.slice(at.start)) ?? null;
}

/**
 * Whether the issuer cut the name to fit the field: the field is full, its last character a letter,
 * not a filler. ICAO 9303 truncates a long name at the field's end, so its last part (the given
 * names, or the surname where there are none) may stop short; a reading that lost letters would
 * leave fillers there instead.
 */
function cutByIssuer(m: Pick<MrzReading, 'format' | 'lines'>): boolean {
  return /[A-Z]$/.test(nameField(m) ?? '');
}

/** Which of `names` (the zone's, or a reading of them) the issuer may have cut: the last part (cutByIssuer). */
export function partsCut(m: Pick<MrzReading, 'format' | 'lines'>, names: { givenNames: string }): { surname: boolean; givenNames: boolean } {
  const cut = cutByIssuer(m);
  return { surname: cut && !names.givenNames, givenNames: cut };
}

/** Surname and given names from the zone's lines (the French card has its surname on the first line, its given names on the second). */
export function zoneNames(m: Pick<MrzReading, 'format' | 'lines'>): { surname: string; givenNames: string } {
  if (m.format !== 'FRENCH_NATIONAL_ID') return splitNameField(nameField(m) ?? '');
  const part = (x: string) => lettersOnly(x).replace(/<+/g, ' ').trim();
  return { surname: part(m.lines[0]?.slice(5, 30) ?? ''), givenNames: part(m.lines[1]?.slice(13, 27) ?? '') };
}

/** ICAO name field to surname and given names: `<<` separates them, `<` is a space. */
export function splitNameField(field: string): { surname: string; givenNames: string } {
  const s = lettersOnly(field).replace(/<+$/, '');
  const at = s.indexOf('<<');
  const part = (x: string) => x.replace(/<+/g, ' ').trim();
  return at < 0 ? { surname: part(s), givenNames: '' } : { surname: part(s.slice(0, at)), givenNames: part(s.slice(at + 2)) };
}

/**
 * Name fields where some `K` or `KK` runs are fillers read as K (squeezed `<` on a slanted photo),
 * at most two runs at a time: the candidates, for a caller that can confirm one against the
 * printed name.
 */
export function fillerKVariants(raw: string): { surname: string; givenNames: string }[] {
  // The field's tail is fillers: a run of K and < there with two or more K is fillers read as K.
  const field = raw.replace(/[K<]+$/, (tail) => ((tail.match(/K/g)?.length ?? 0) >= 2 ? '<'.repeat(tail.length) : tail));
  const runs = [...field.matchAll(/K{1,2}/g)].map((x) => ({ at: x.index, n: x[0].length }));
  if (runs.length > 8 || (runs.length === 0 && field === raw)) return [];
  const out: { surname: string; givenNames: string }[] = field === raw ? [] : [splitNameField(field)];
  for (let mask = 1; mask < 1 << runs.length; mask++) {
    const chosen = runs.filter((_, i) => mask & (1 << i));
    if (chosen.length > 2) continue;
    const chars = [...field];
    for (const r of chosen) for (let k = 0; k < r.n; k++) chars[r.at + k] = '<';
    out.push(splitNameField(chars.join('')));
  }
  return out;
}

/**
 * The name field with K's read back as fillers so that it spells `surname`, two fillers or more,
 * then `givenNames` (each in the MRZ's words: one filler between words, none inside one), and only
 * fillers after, or the given names cut by the field's end (ICAO truncation): null when no choice
 * of K's does. Any number of fillers may have been read as K (a slanted photo squeezes every `<`),
 * so the printed names, not a bound on how many, choose which K's are letters; a K they spell is
 * kept, and where a word ends in K beside a filler read as K, the word's length says which is which.
 */
export function fillersAsKFor(raw: string, surname: string, givenNames: string): string | null {
  const words = (part: string) => part.split(' ').filter(Boolean);
  const [sur, given] = [words(surname), words(givenNames)];
  if (!sur.length || !given.length || ![...sur, ...given].every((w) => /^[A-Z]+$/.test(w))) return null;
  // The fillers each target letter needs before it: [least, most] (2 stands for two or more).
  const need: [number, number][] = [];
  sur.forEach((w, k) => [...w].forEach((_, i) => need.push(i > 0 ? [0, 0] : k === 0 ? [0, 0] : [1, 1])));
  given.forEach((w, k) => [...w].forEach((_, i) => need.push(i > 0 ? [0, 0] : k === 0 ? [2, 2] : [1, 2])));
  const target = [...sur, ...given].join('');
  const at = sur.join('').length;
  const memo = new Map<number, string | null>();
  // The rest of the field from character i, with target letter j next after `run` fillers (2: two or more).
  const rest = (i: number, j: number, run: number): string | null => {
    const key = (i * 64 + j) * 3 + run;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let out: string | null = null;
    if (j === target.length) out = /^[<K]*$/.test(raw.slice(i)) ? '<'.repeat(raw.length - i) : null;
    else if (i === raw.length) out = j > at && run === 0 ? '' : null;
    else {
      const c = raw[i]!;
      const asFiller = () => { const r = rest(i + 1, j, Math.min(2, run + 1)); return r === null ? null : `<${r}`; };
      const fits = c === target[j] && run >= need[j]![0] && run <= need[j]![1];
      const asLetter = () => { const r = fits ? rest(i + 1, j + 1, 0) : null; return r === null ? null : c + r; };
      out = c === '<' ? asFiller() : c === 'K' ? asLetter() ?? asFiller() : asLetter();
    }
    memo.set(key, out);
    return out;
  };
  return rest(0, 0, 0);
}

/** ISO alpha-2 of an MRZ nationality code (screening's country qualifier); the British variants are GB. */
export function nationalityAlpha2(code: string | null): string | undefined {
  if (!code) return undefined;
  if (code.startsWith('GB')) return 'GB';
  const name = (states as Record<string, string>)[code];
  return name ? toCountryCode(name) : undefined;
}
