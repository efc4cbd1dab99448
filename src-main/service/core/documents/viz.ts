// The printed (visual inspection zone) fields: surname, given names, date of birth and document
// number, located by their labels (English and the common European languages; bilingual labels
// such as "Surname / Nom" are the rule on passports) with the value under or beside the label.
// Each is compared with the MRZ. Where a label cannot be found the field is "not located":
// no claim is made either way. A printed name is letters only, as the MRZ's is: a digit the reader
// returned in it is the letter it resembles (M0LIN is MOLIN).
import anyAscii from 'any-ascii';
import { centuriesApart, readPrintedDate, parsePrintedDates, sameDate, type CalendarDate } from '../../../../src-shared/dates';
import { levenshteinSimilarity } from '../screening/match/similarity';
import { asDigits, DIGIT_AS_LETTER, lettersOnly } from '../../../../src-shared/misreadings';
import { numberCharacters, partsCut, zoneValue, type MrzReading } from './mrz';
import type { TextBox } from './ocr';

export type VizField = 'surname' | 'given_names' | 'date_of_birth' | 'document_number' | 'nationality';

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
  nationality: { is: /nationality|nationalite|staatsangehorigkeit|nacionalidad|nazionalita|nationaliteit|obywatelstwo|nacionalidade|medborgarskap/ },
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

/**
 * A printed name value: letters, spaces, apostrophes and hyphens, where a few digits the reader
 * returned for letters may stand (at most a third of it, each one that resembles a letter). A date
 * or a document number is no name. Nor is a lone letter (a speck or a stroke of the guilloche read
 * as L or I), or text with no capital letter at all (a document prints a name in capitals, or
 * at least with them; lower-case text under a label is the print of a paper beside the document):
 * taken as the name, either would refuse a genuine page as printed differently from its zone.
 */
function looksLikeName(s: string): boolean {
  if (!/^[\p{L}0-9][\p{L}0-9' -]*$/u.test(s) || ANY_LABEL.test(fold(s))) return false;
  if ((s.match(/[\p{L}0-9]/gu)?.length ?? 0) < 2 || !/\p{Lu}/u.test(s)) return false;
  const digits = s.match(/[0-9]/g) ?? [];
  const letterCount = s.match(/\p{L}/gu)?.length ?? 0;
  return digits.length === 0 || (letterCount >= 2 && digits.length * 2 <= letterCount && digits.every((d) => d in DIGIT_AS_LETTER) && readPrintedDate(s).length === 0);
}

const looksLike: Record<VizField, (s: string) => boolean> = {
  surname: looksLikeName,
  given_names: looksLikeName,
  date_of_birth: (s) => readPrintedDate(s).length > 0,
  document_number: (s) => /^[A-Z0-9<]{5,12}$/i.test(s.replace(/\s+/g, '')) && /\d/.test(s),
  // A code (CAN) or a word (CANADIAN, DEUTSCH); only a code is compared with the zone's.
  nationality: (s) => /^[\p{L}]{3,}( ?\/ ?[\p{L}]{3,})?$/u.test(s.trim()) && !ANY_LABEL.test(fold(s).replace(/\//g, '')),
};

/**
 * The rest of a label read as a box of its own: on the label's line, starting right after its end
 * (within a label's height and a half), and no taller than it. A bilingual label's second language
 * ("Surname / Nom" read as "Surname" and "NC") is small print the reader garbles past knowing.
 */
function labelsRest(b: Placed, label: Placed): boolean {
  const middle = (b.top + b.bottom) / 2;
  return middle > label.top && middle < label.bottom && b.left >= label.right - label.height * 0.5
    && b.left - label.right <= label.height * 1.5 && b.height <= label.height;
}

/**
 * A box read under a label's line that sits under other text on that line: text that is no label
 * (a label's unread part is not read at all; its garbled rest, labelsRest, is the label's), above
 * the box and over it, no lower than the label's top. The box is that text's neighbour, not the
 * label's value: the print of a paper under the document beside a label, another column's value.
 */
function underOther(v: Placed, b: Placed, label: Placed): boolean {
  if (b === v || b === label || ANY_LABEL.test(fold(b.text)) || labelsRest(b, label)) return false;
  const middle = (b.top + b.bottom) / 2;
  return b.left < v.right && b.right > v.left && middle > label.top && middle < v.top;
}

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
        .filter((v) => !placed.some((b) => underOther(v, b, label)))
        .sort((a, b) => a.top - b.top || Math.abs(a.left - label.left) - Math.abs(b.left - label.left));
      const beside = candidates
        .filter((v) => Math.abs((v.top + v.bottom) / 2 - (label.top + label.bottom) / 2) < label.height * 0.6 && v.left > label.right)
        .sort((a, b) => a.left - b.left);
      // Where values stand beside their labels, the box under a label is the next label, in print
      // of a label's size: the value is the larger print beside it, not that label.
      const labelSized = (v: Placed) => v.height <= label.height * 1.1;
      const value = below[0] && beside[0] && labelSized(below[0]) && !labelSized(beside[0]) ? beside[0] : below[0] ?? beside[0];
      if (value) {
        out[field] = value.text;
        break;
      }
    }
  }
  return out;
}

/**
 * Printed fields found by their value where their label was not: a box of the page (never the
 * zone's own lines, never a label) that carries the MRZ's own value of the field, letter for
 * letter (a name, as whole words, either ICAO spelling), day for day (a date of birth, any
 * printed format and century) or character for character (a document number, letters and digits
 * the reader confuses as one, or read cut short: numbersAgree). Labels are small and are the first print a phone photo loses; the
 * values are larger. A value found this way can only agree with the zone; a field whose value
 * is nowhere on the page stays "not located", never "differs". Where neither name is printed as
 * the zone reads them, `otherNames` (the zone's other readings, fields.ts otherReadings: a `<<`
 * read as K<; asked for only then) are looked for in turn, and the first whose surname and given
 * names are both printed gives them.
 */
export function printedByValue(
  boxes: TextBox[], mrz: Pick<MrzReading, 'format' | 'lines' | 'surname' | 'givenNames' | 'birthDate' | 'documentNumber'>, exclude: (b: TextBox) => boolean = () => false,
  otherNames: () => readonly { surname: string; givenNames: string }[] = () => [],
): Partial<Record<VizField, string>> {
  const out: Partial<Record<VizField, string>> = {};
  const texts = boxes.filter((b) => !exclude(b)).map((b) => b.text.trim()).filter(Boolean);
  // A label is never a name; a bilingual date ("14 FEV/FEB 85") has a label's slash, so dates and numbers read every box.
  const unlabelled = texts.filter((t) => !ANY_LABEL.test(fold(t)));
  const nameIn = (target: string, cut: boolean): string | undefined => {
    const want = letters(target);
    if (want.length < 2) return undefined;
    // The zone's name as nameAgreement matches a printed one (ICAO's spellings, an accent the
    // recogniser dropped: SØREN read as SOREN for the zone's SOEREN), so that a value found here
    // is one a label would have led to. Only the match is asked for: every run of every box is tried.
    const matches = (printed: string) => sameName(printedSpellings(printed).filter(Boolean), want, cut);
    for (const t of unlabelled) {
      const words = nameWords(t).split(' ').filter(Boolean);
      for (let i = 0; i < words.length; i++) {
        for (let j = i + 1; j <= Math.min(words.length, i + 6); j++) {
          const run = words.slice(i, j).join(' ');
          if (matches(run)) return run;
        }
      }
      // The print's own accented spelling (MÜLLER for MUELLER) is read through printedSpellings whole.
      if (matches(t) && looksLikeName(t)) return t;
    }
    return undefined;
  };
  // The part the issuer may have cut to fit the zone (mrz.ts partsCut) matches the print it starts.
  const cutOf = (n: { givenNames: string }) => partsCut(mrz, n);
  const namesIn = (n: { surname: string; givenNames: string }) => ({ surname: nameIn(n.surname, cutOf(n).surname), given: nameIn(n.givenNames, cutOf(n).givenNames) });
  let names = namesIn(mrz);
  if (!names.surname && !names.given) {
    for (const n of otherNames()) {
      const found = namesIn(n);
      if (found.surname && found.given) {
        names = found;
        break;
      }
    }
  }
  if (names.surname) out.surname = names.surname;
  if (names.given) out.given_names = names.given;
  const yy = Number(mrz.birthDate.slice(0, 2));
  const mm = Number(mrz.birthDate.slice(2, 4));
  const dd = Number(mrz.birthDate.slice(4, 6));
  const dob = texts.find((t) => readPrintedDate(t).some((p) => p.m === mm && p.d === dd && p.y % 100 === yy));
  if (dob) out.date_of_birth = dob;
  if (mrz.documentNumber.replace(/[^A-Z0-9]/gi, '').length >= 5) {
    // A fragment of the number (`short`), or the number with a character dropped, found anywhere on the page does not locate it.
    const agrees = (w: string) => !['mismatch', 'short', 'dropped'].includes(numbersAgree(w, mrz.documentNumber));
    const found = texts.find((t) => [t, ...t.split(/\s+/)].some(agrees));
    if (found) out.document_number = found;
  }
  return out;
}

/** A name's letters only, upper case, accents folded, digits read as the letters they resemble. */
export const letters = (s: string) => lettersOnly(anyAscii(s).toUpperCase()).replace(/[^A-Z]+/g, '');

/** A printed name in the MRZ's words: letters only, an apostrophe dropped as ICAO drops it (O'CONNOR is OCONNOR). */
export const nameWords = (s: string) => lettersOnly(anyAscii(s).toUpperCase().replace(/['’`]/g, '')).replace(/[^A-Z]+/g, ' ').trim();

/**
 * ICAO 9303 part 3 writes some letters as two in the MRZ (Ä as AE, Ø as OE, ß as SS, Þ as TH); a
 * state may also drop the accent (Ä as A), as `letters` and `nameWords` do.
 */
const icaoSpelling = (printed: string) =>
  printed
    .toUpperCase()
    .replace(/[ÄÆ]/g, 'AE').replace(/[ÖØŒ]/g, 'OE').replace(/Ü/g, 'UE').replace(/Å/g, 'AA').replace(/ß|ẞ/g, 'SS').replace(/Þ/g, 'TH').replace(/Ĳ/g, 'IJ');

/** Both spellings of a printed name, in letters. */
function printedSpellings(printed: string): string[] {
  return [...new Set([letters(printed), letters(icaoSpelling(printed))])];
}

/** Both spellings of a printed name, in the MRZ's words (a space between words). */
export function printedWordSpellings(printed: string): string[] {
  return [...new Set([nameWords(printed), nameWords(icaoSpelling(printed))])].filter(Boolean);
}

export type Agreement = 'match' | 'mismatch' | 'not_located';
/**
 * A printed name against the MRZ's: the same, close (a letter or two apart, or one reading the other
 * cut short or with letters dropped: reading noise, or an edit), or different.
 */
export type NameAgreement = 'match' | 'close' | 'different' | 'not_located';

/**
 * One reading the other with letters lost at its end (OISIN read as O in the zone, its cells taken
 * for fillers; a printed box cut at the page's edge), at its start (BAL for IQBAL: the box's first
 * letters lost under glare) or at both (YE for IYER: a short box's first and last letters faint):
 * how a reader errs, not how names differ.
 */
const cutShort = (a: string, b: string) => a.includes(b) || b.includes(a);

/** The fewest letters a reading with letters dropped inside it must keep (lettersDropped). */
const MIN_KEPT_LETTERS = 4;

/**
 * One reading the other with letters dropped inside it, its words run together (MARADC for MARIA
 * DEL CONSUELO GUADALUPE: a long printed box read in one pass; LUIMIGE for LUIS MIGUEL: a zone's
 * cells lost under glare): every letter of the shorter in the longer, in order, from the same first
 * letter, at least MIN_KEPT_LETTERS of them. How a reader errs; a forger's other name seldom does.
 */
const lettersDropped = (a: string, b: string) => {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length < MIN_KEPT_LETTERS || short[0] !== long[0]) return false;
  let kept = 0;
  for (const c of long) if (c === short[kept]) kept++;
  return kept === short.length;
};

/** The share of the longer reading the shorter must keep to be it with a letter misread as well as letters dropped. */
const MIN_KEPT_SHARE = 0.8;
/** A reading this long may have more letters misread, and fewer kept, and still be the other with reading slips (misreadAndDropped). */
const LONG_READING = 10;
/** ...at most this share of its letters misread (about one in seven; one whatever the length)... */
const MAX_MISREAD_SHARE = 0.15;
/** ...keeping this share of the longer reading. */
const LONG_KEPT_SHARE = 0.7;

/** How many letters two readings share in order (their longest common subsequence). */
function lettersInOrder(a: string, b: string): number {
  const row = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = 0;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = a[i - 1] === b[j - 1] ? diagonal + 1 : Math.max(above, row[j - 1]!);
      diagonal = above;
    }
  }
  return row[b.length]!;
}

/**
 * Both slips at once: letters misread and letters dropped. The shorter reading, but for one letter,
 * in the longer in order, from the same first letter, keeping MIN_KEPT_SHARE of it, and at least
 * MIN_KEPT_LETTERS letters in common (ALEKSANORABOGUMA for ALEKSANDRA BOGUMILA: D read as O, IL lost). A
 * reading of LONG_READING letters or more may be further from the other, as a long box read under
 * glare or blur is: up to MAX_MISREAD_SHARE of its letters misread, keeping LONG_KEPT_SHARE of the
 * longer (BAIHOLOMFWALSUS for BARTHOLOMEW ALOYSIUS: RT read as I, E as F, OY and I lost). The shares
 * and lengths keep a short other name (MIKE) from being found inside a long one, and other names
 * from being taken for misreadings: of 199,342 pairs of different names with the same first letter,
 * 5 more are close than with one slip only (docs/decisions.md).
 */
const misreadAndDropped = (a: string, b: string) => {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length < MIN_KEPT_LETTERS || short[0] !== long[0]) return false;
  const kept = lettersInOrder(short, long);
  const misread = short.length - kept;
  if (misread <= 1 && kept >= MIN_KEPT_LETTERS && short.length >= long.length * MIN_KEPT_SHARE) return true;
  return short.length >= LONG_READING && short.length >= long.length * LONG_KEPT_SHARE && misread <= Math.max(1, Math.floor(short.length * MAX_MISREAD_SHARE));
};

/**
 * A letter or two apart: a Levenshtein similarity of 0.85, and one letter apart whatever the length
 * (CLOVHS for CLOVIS is 0.83: below 0.85 a short name's one misread letter made it another name).
 */
const lettersApart = (a: string, b: string) => {
  const similarity = levenshteinSimilarity(a, b);
  const edits = Math.round((1 - similarity) * Math.max(a.length, b.length));
  return similarity >= 0.85 || edits <= 1;
};

/**
 * Both slips at once: the printed box read to its first words only, and those a letter apart from
 * the zone's first words (QUOC for QUOC BAO against the zone's QUO<BAO, its C lost), at least
 * MIN_KEPT_LETTERS letters of them. Words, not letters: MARK is not MARIA cut short.
 */
const firstWordsApart = (printed: string, mrz: string) => {
  const zone = mrz.split(/\s+/).filter(Boolean);
  return printedWordSpellings(printed).some((spelling) => {
    const words = spelling.split(' ');
    return words.length < zone.length && words.join('').length >= MIN_KEPT_LETTERS && words.every((w, i) => lettersApart(w, letters(zone[i]!)));
  });
};

/**
 * ICAO's two-letter spellings of a marked letter (Ä AE, Ö OE, Ü UE, Å AA) folded back to the plain
 * letter, on both readings: the recogniser drops a printed accent (SØREN read as SOREN against the
 * zone's SOEREN, ÅSA as ASA against AASA), so the two spellings of one name meet here.
 */
const withoutDigraphs = (s: string) => s.replace(/([AOU])E/g, '$1').replace(/AA/g, 'A');

/** Whether a printed name's spellings hold the zone's name `b` (its letters): nameAgreement's match. */
const sameName = (spellings: readonly string[], b: string, cut: boolean) =>
  spellings.some((a) => a === b || ((cut || b.length >= 20) && a.startsWith(b)) || withoutDigraphs(a) === withoutDigraphs(b));

/**
 * Names as printed and in the MRZ: the same when their letters are, allowing ICAO transliteration
 * (read with its accents or without) and the MRZ's truncation of a long name: a zone name of 20
 * letters or more that starts the printed one, or any that does where `cut` says the issuer cut it
 * (the zone's name field is full: mrz.ts cutByIssuer).
 */
export function nameAgreement(printed: string | undefined, mrz: string, cut = false): NameAgreement {
  if (printed === undefined) return 'not_located';
  const b = letters(mrz);
  const spellings = printedSpellings(printed).filter(Boolean);
  if (!spellings.length || !b) return 'not_located';
  if (sameName(spellings, b, cut)) return 'match';
  return spellings.some((a) => lettersApart(a, b) || cutShort(a, b) || lettersDropped(a, b) || misreadAndDropped(a, b)) || firstWordsApart(printed, mrz) ? 'close' : 'different';
}

/**
 * Names as printed and in the MRZ, for deciding whether a reading is settled: only the same name
 * agrees. A name a letter away is not settled: a better reading may yet agree, and if none does
 * the difference goes to review (fields.ts).
 */
export function namesAgree(printed: string | undefined, mrz: string, cut = false): Agreement {
  const a = nameAgreement(printed, mrz, cut);
  return a === 'match' ? 'match' : a === 'not_located' ? 'not_located' : 'mismatch';
}

/**
 * The printed date of birth against the MRZ's (a two-digit printed year is a birth year: in the
 * past of `now`). `other_century`: the printed date is the MRZ's in another century (a holder born
 * 1917 has 17 in the zone, which reads as 2017): the zone's two-digit year and its check digit
 * cannot tell the two apart.
 */
export function datesAgree(printed: string | undefined, mrz: CalendarDate | null, now: Date): Agreement | 'other_century' | 'cut' {
  if (printed === undefined || !mrz) return 'not_located';
  const dates = parsePrintedDates(printed, 'birth', now);
  if (!dates.length) return 'not_located';
  if (dates.some((d) => sameDate(d, mrz))) return 'match';
  if (yearCut(printed, mrz)) return 'cut';
  return printedInOtherCentury(printed, mrz, now) ? 'other_century' : 'mismatch';
}

/**
 * The zone's day and month printed with a two-digit year that is the zone's century (24.12.19 for
 * 24.12.1931): a four-digit year whose last digits the reading lost (glare, the box cut short), not
 * another date, or a two-digit year that differs: which one, nothing printed settles (datesAgree
 * answers `cut`; assess.ts reviews it).
 */
function yearCut(printed: string, mrz: CalendarDate): boolean {
  return readPrintedDate(printed).some((p) => p.twoDigitYear && p.d === mrz.d && p.m === mrz.m && p.y === Math.floor(mrz.y / 100));
}

/** The printed date of birth when it is the MRZ's in another century (see datesAgree); else null. */
export function printedInOtherCentury(printed: string | undefined, mrz: CalendarDate | null, now: Date): CalendarDate | null {
  if (printed === undefined || !mrz) return null;
  return parsePrintedDates(printed, 'birth', now).find((d) => centuriesApart(d, mrz)) ?? null;
}

/** Characters of a document number a cut-short reading of its print may lose, at either end. */
const MAX_CUT = 2;
/** ...and the fewest it must keep. */
const MIN_KEPT = 6;
/** The fewest characters of a number's start or end that make a reading cut shorter still (`short`) rather than another number. */
const MIN_SHORT = 4;

/** Two characters a reader returns for one another (asDigits, DIGIT_AS_LETTER: O and 0, S and 5, G and 6, ...). */
const confusable = (x: string, y: string) => asDigits(x) === asDigits(y) || DIGIT_AS_LETTER[x] === y || DIGIT_AS_LETTER[y] === x;
/**
 * Whether a check digit cannot tell the two apart: their values differ by a multiple of ten (L and
 * 1, G and 6), so whichever weight the position carries, the sum's last digit is the same.
 */
const checkBlind = (x: string, y: string) => (zoneValue(x) - zoneValue(y)) % 10 === 0;

/**
 * Document numbers, with the letters and digits the reader confuses treated as one, as far as the
 * zone's check digit settles them. The print and the zone of the same length, differing only in
 * such characters: `match` where the check digit would have caught the zone's misreading (O for 0,
 * S for 5: a value apart by other than a multiple of ten, so a zone whose digit holds was read
 * right and the print was misread); `blind` where it would not (L for 1, G for 6): which one is
 * right nothing settles, so the number is reviewed (assess.ts), never confirmed nor refused. `match`
 * assumes the zone's digit holds; where it fails, only the print written alike confirms the zone
 * (assess.ts, checkDigitDoubts).
 * `cut`: the print was read shorter than the number (at the card's edge, under glare or a finger) and what was
 * read is the number with at most two characters lost at one end, or that and one more character
 * misread at the cut (34A0GC9 for M84A0GC9), six or more kept. A cut reading agrees as far as it
 * goes; it never confirms a character it did not read (assess.ts: a corrected or unsure one).
 * `longer`: the print was read as the whole number with one or two characters more at one end (a
 * mark beside it read with it, or a number longer than the zone's field holds): no contradiction,
 * and no confirmation either (assess.ts: review). `short`: the print was read as the number's start
 * or end with more lost than a cut allows (glare over half of it): what was read agrees, too little
 * was read to confirm it (assess.ts: review, never a failed check). `dropped`: the print was read
 * as the number with one character inside it missing (R4L4DDYB for R4LJ4DDYB: a narrow letter, or
 * one of a doubled pair, run into its neighbour), what a recogniser does and an edit seldom does:
 * no contradiction, no confirmation (assess.ts: review).
 */
export function numbersAgree(printed: string | undefined, mrz: string): Agreement | 'cut' | 'longer' | 'short' | 'blind' | 'dropped' {
  if (printed === undefined) return 'not_located';
  const [p, z] = [numberCharacters(printed), numberCharacters(mrz)];
  const a = asDigits(p);
  const b = asDigits(z);
  if (p.length === z.length && [...p].every((c, i) => c === z[i] || confusable(c, z[i]!))) return [...p].some((c, i) => c !== z[i] && checkBlind(c, z[i]!)) ? 'blind' : 'match';
  if (a.length > b.length && a.length <= b.length + MAX_CUT && b.length >= MIN_KEPT && (a.startsWith(b) || a.endsWith(b))) return 'longer';
  if (a.length >= b.length) return 'mismatch';
  const kept = [a, a.slice(1), a.slice(0, -1)].filter((x) => x.length >= Math.max(MIN_KEPT, b.length - MAX_CUT));
  if (kept.some((x) => b.startsWith(x) || b.endsWith(x))) return 'cut';
  if (a.length === b.length - 1 && a.length >= MIN_KEPT && [...b].some((_, i) => i > 0 && i < b.length - 1 && b.slice(0, i) + b.slice(i + 1) === a)) return 'dropped';
  return a.length >= MIN_SHORT && (b.startsWith(a) || b.endsWith(a)) ? 'short' : 'mismatch';
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
  return i === a.length ? nameWords(printed) : null;
}
