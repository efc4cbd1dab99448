// The printed (visual inspection zone) fields: surname, given names, date of birth and document
// number, located by their labels (English and the common European languages; bilingual labels
// such as "Surname / Nom" are the rule on passports) with the value under or beside the label.
// Each is compared with the MRZ. Where a label cannot be found the field is "not located":
// no claim is made either way.
import anyAscii from 'any-ascii';
import { levenshteinSimilarity } from '../screening/match/similarity';
import type { TextBox } from './ocr';

export type VizField = 'surname' | 'given_names' | 'date_of_birth' | 'document_number';

const fold = (s: string) => anyAscii(s).toLowerCase();

/** Label patterns, on accent-folded lower-case text. Place-of-birth labels are not date-of-birth labels. */
const LABELS: Record<VizField, { is: RegExp; not?: RegExp }> = {
  given_names: { is: /given\s*names?|first\s*names?|forenames?|prenoms?|vornamen?|nombres?|\bnome\b|voornamen|imiona|fornamn|\bnomes\b/ },
  surname: {
    is: /surname|sumame|last\s*name|family\s*name|\bnom\b|apellidos|nachname|familienname|cognome|achternaam|nazwisko|efternamn|apelido/,
    not: /given|first|prenom|vorname/,
  },
  date_of_birth: {
    is: /date\s*of\s*birth|dateofbirth|birth\s*date|naissance|geburtstag|geburtsdatum|fecha\s*de\s*nac|data\s*di\s*nascita|geboortedatum|data\s*urodzenia|fodelsedatum|\bdob\b/,
    not: /place|lieu|\bort\b|lugar|luogo|plaats|miejsce|ort\s*der/,
  },
  document_number: {
    is: /passport\s*no|document\s*no|doc\.?\s*no|card\s*no|passport\s*number|document\s*number|no\.?\s*du\s*(passeport|document)|passnummer|numero\s*de|n\.?\s*pasaporte|numer/,
    not: /personal|persoonsnummer|personnummer/,
  },
};

/** Any box that reads as some label (so it is never taken for a value). */
const ANY_LABEL = /\/|name|nom|date|birth|naissance|sex|nationality|nationalit|place|lieu|issue|expiry|expiration|authority|autorite|type|code|passport|passeport|document|card|signature|height|taille/;

interface Placed {
  b: TextBox;
  text: string;
  left: number;
  right: number;
  top: number;
  bottom: number;
  height: number;
}

function place(b: TextBox): Placed {
  const xs = b.box.map(([x]) => x);
  const ys = b.box.map(([, y]) => y);
  const top = Math.min(...ys);
  const bottom = Math.max(...ys);
  return { b, text: b.text.trim(), left: Math.min(...xs), right: Math.max(...xs), top, bottom, height: bottom - top };
}

const MONTHS: [RegExp, number][] = [
  [/^(JAN|GEN|STY|ENE)/, 1], [/^(FEB|FEV|FEV|LUT)/, 2], [/^(MAR|MRZ|MAA)/, 3], [/^(APR|AVR|ABR|KWI)/, 4],
  [/^(MAY|MAI|MAG|MEI|MAJ)/, 5], [/^(JUN|JUIN|GIU|CZE)/, 6], [/^(JUL|JUIL|LUG|LIP)/, 7], [/^(AUG|AOU|AGO|SIE)/, 8],
  [/^(SEP|SET|WRZ)/, 9], [/^(OCT|OKT|OTT|PAZ)/, 10], [/^(NOV|LIS)/, 11], [/^(DEC|DEZ|DIC|GRU)/, 12],
];

/** Digits as the reader sometimes returns them in a number position. */
const digitsOf = (s: string) => s.replace(/[OQD]/g, '0').replace(/[IL|]/g, '1').replace(/S/g, '5').replace(/B/g, '8').replace(/Z/g, '2');

export interface DateParts {
  y: number;
  m: number;
  d: number;
}

/** Dates as documents print them: 12 AUG 1974, 12.08.1974, 12/08/1974, 1974-08-12 (two-digit years too). Numeric day/month order is ambiguous, so both readings are returned. */
export function printedDates(text: string): DateParts[] {
  const t = anyAscii(text).toUpperCase().replace(/\s+/g, ' ');
  const out: DateParts[] = [];
  const year = (y: string) => {
    const n = Number(digitsOf(y));
    return y.length === 2 ? (n > (new Date().getUTCFullYear() % 100) + 10 ? 1900 + n : 2000 + n) : n;
  };
  const valid = (y: number, m: number, d: number) => {
    const dt = new Date(Date.UTC(y, m - 1, d));
    return y > 1880 && dt.getUTCMonth() === m - 1 && dt.getUTCDate() === d;
  };
  const named = /([0-9OIL]{1,2}) ?([A-Z]{3,5})(?:\/[A-Z]{3,5})? ?([0-9OIL]{4}|[0-9OIL]{2})\b/g;
  for (const m of t.matchAll(named)) {
    const month = MONTHS.find(([re]) => re.test(m[2]!))?.[1];
    const d = Number(digitsOf(m[1]!));
    const y = year(m[3]!);
    if (month && valid(y, month, d)) out.push({ y, m: month, d });
  }
  const iso = /\b(\d{4})[-./ ](\d{1,2})[-./ ](\d{1,2})\b/g;
  for (const m of t.matchAll(iso)) {
    const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    if (valid(y, mo, d)) out.push({ y, m: mo, d });
  }
  const numeric = /\b(\d{1,2})[-./ ](\d{1,2})[-./ ](\d{4}|\d{2})\b/g;
  for (const m of t.matchAll(numeric)) {
    const [a, b, y] = [Number(m[1]), Number(m[2]), year(m[3]!)];
    if (valid(y, b, a)) out.push({ y, m: b, d: a });
    if (a !== b && valid(y, a, b)) out.push({ y, m: a, d: b });
  }
  return out;
}

const looksLike: Record<VizField, (s: string) => boolean> = {
  surname: (s) => /^[\p{L}][\p{L}' -]*$/u.test(s) && !ANY_LABEL.test(fold(s)),
  given_names: (s) => /^[\p{L}][\p{L}' -]*$/u.test(s) && !ANY_LABEL.test(fold(s)),
  date_of_birth: (s) => printedDates(s).length > 0,
  document_number: (s) => /^[A-Z0-9<]{5,12}$/i.test(s.replace(/\s+/g, '')) && /\d/.test(s),
};

/** The printed value of each field, found under (or beside) its label. */
export function readPrinted(boxes: TextBox[], exclude: (b: TextBox) => boolean = () => false): Partial<Record<VizField, string>> {
  const placed = boxes.filter((b) => !exclude(b)).map(place);
  const out: Partial<Record<VizField, string>> = {};
  for (const field of Object.keys(LABELS) as VizField[]) {
    const rule = LABELS[field];
    // Labels are bilingual and neighbouring labels may be read as one box: any one part of it may be the label.
    const labels = placed.filter((p) =>
      fold(p.text)
        .split(/\/|\s{2,}|(?<=[a-z])\s+(?=(?:date|place|lieu|sex|nationality|given|surname)\b)/)
        .some((part) => rule.is.test(part) && !rule.not?.test(part)),
    );
    for (const label of labels) {
      // A label box that also holds the neighbouring label ("Date of birth / … Place of birth / …") spans both columns;
      // a value is taken only from the label's own side.
      const candidates = placed.filter((v) => v !== label && looksLike[field](v.text));
      const below = candidates
        .filter((v) => v.top >= label.bottom - label.height * 0.3 && v.top - label.bottom < label.height * 2.6)
        .filter((v) => v.left < label.right && v.right > label.left - label.height)
        .sort((a, b) => a.top - b.top || Math.abs(a.left - label.left) - Math.abs(b.left - label.left));
      const beside = candidates
        .filter((v) => Math.abs((v.top + v.bottom) / 2 - (label.top + label.bottom) / 2) < label.height * 0.6 && v.left > label.right)
        .sort((a, b) => a.left - b.left);
      const value = below[0] ?? beside[0];
      if (value) {
        out[field] = value.text;
        break;
      }
    }
  }
  return out;
}

/** A name's letters only, upper case, accents folded. */
export const letters = (s: string) => anyAscii(s).toUpperCase().replace(/[^A-Z]+/g, '');

export type Agreement = 'match' | 'mismatch' | 'not_located';

/** Names as printed and in the MRZ: the MRZ transliterates and may truncate; reading noise of a letter is tolerated. */
export function namesAgree(printed: string | undefined, mrz: string): Agreement {
  if (printed === undefined) return 'not_located';
  const a = letters(printed);
  const b = letters(mrz);
  if (!a || !b) return 'not_located';
  if (a === b || (b.length >= 20 && a.startsWith(b))) return 'match';
  return levenshteinSimilarity(a, b) >= 0.85 ? 'match' : 'mismatch';
}

/** The printed date of birth against the MRZ's. */
export function datesAgree(printed: string | undefined, mrz: DateParts | null): Agreement {
  if (printed === undefined || !mrz) return 'not_located';
  const dates = printedDates(printed);
  if (!dates.length) return 'not_located';
  return dates.some((d) => d.y === mrz.y && d.m === mrz.m && d.d === mrz.d) ? 'match' : 'mismatch';
}

/** Document numbers, with the letters and digits the reader confuses treated as one. */
export function numbersAgree(printed: string | undefined, mrz: string): Agreement {
  if (printed === undefined) return 'not_located';
  const norm = (s: string) => digitsOf(s.toUpperCase().replace(/[^A-Z0-9]/g, ''));
  return norm(printed) === norm(mrz) ? 'match' : 'mismatch';
}

/**
 * The printed name, when the MRZ name is it with only letters the recogniser drops removed:
 * narrow ones (I, L, 1) or one of a doubled pair. Otherwise null.
 */
export function repairableName(mrz: string, printed: string | undefined): string | null {
  if (!printed) return null;
  const a = letters(mrz);
  const b = letters(printed);
  if (!a || a === b || b.length <= a.length || b.length - a.length > 3) return null;
  let i = 0;
  for (let j = 0; j < b.length; j++) {
    if (i < a.length && a[i] === b[j]) {
      i++;
      continue;
    }
    const droppable = 'IL'.includes(b[j]!) || b[j] === b[j - 1] || b[j] === b[j + 1];
    if (!droppable) return null;
  }
  return i === a.length ? anyAscii(printed).toUpperCase().replace(/[^A-Z]+/g, ' ').trim() : null;
}
