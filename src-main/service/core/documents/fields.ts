// The holder's names as answered, from the MRZ and the printed page read side by side. Names carry
// no check digit, so nothing in the zone proves a spelling: a difference between the two readings
// is settled here only where it is one of the reader's own measured slips, and otherwise it is
// flagged for review with both readings, the MRZ's answered (docs/decisions.md).
//   - the same letters (ICAO transliteration and truncation allowed): agreed;
//   - a reading of the zone that the printed name confirms letter for letter: a digit taken for
//     another letter it resembles (1 for L where I was assumed), fillers read as K, an unsure K
//     beside a filler that the zone's reading took for one;
//   - letters the MRZ reading dropped (narrow I and L, one of a doubled pair), restored from the
//     printed name: the reader drops these in the zone and was never seen to add them on the page
//     (docs/documents.md, "Names");
//   - a letter or two apart otherwise, or one reading the other with letters lost at its end or
//     dropped inside it, or the print read to its first words, a letter from the zone's: review
//     (OONNOR or OCONNOR? O or OISIN? MARADC or MARIA DEL CONSUELO? QUOC or QUO<BAO? either side
//     may be misread; viz.ts nameAgreement);
//   - further apart: a mismatch, which fails the document's `printed_name_matches_mrz` check, and
//     is flagged for review too; unless the zone's reader was unsure of a character of that part:
//     then review, as a misreading of the zone may be all the difference there is.
import type { ReviewFlag } from '../../../../src-shared/contracts/documents';
import { DIGIT_AS_LETTERS, fillerKVariants, fillersAsKFor, nameField, partsCut, splitNameField, zoneNames, type MrzReading } from './mrz';
import { letters, nameAgreement, nameWords, printedWordSpellings, repairableName, type VizField } from './viz';

export type NamePart = 'surname' | 'given_names';

/** How a name part was settled: `restored` is the printed spelling taken for letters the zone's reading dropped. */
export type NameSettlement = 'match' | 'restored' | 'review' | 'mismatch' | 'not_located';

export interface SettledName {
  value: string;
  settlement: NameSettlement;
  /** A character of the zone's reading that is no letter (a 3, 7 or 9), not confirmed by the printed name. */
  unreadable: boolean;
  printed?: string | undefined;
  /** Reviewed, not refused, because the zone's reading of this part was unsure of a character (settlePart). */
  unsure?: true;
}

export interface SettledNames {
  surname: SettledName;
  givenNames: SettledName;
  /** The zone's lines with the name field as settled (a filler read as K, a restored letter), when it fits the field. */
  lines: string[];
}

type Printed = Partial<Record<VizField, string>>;
type Names = { surname: string; givenNames: string };

const MAX_VARIANTS = 64;

/**
 * The zone's names with each digit read in a name taken for each letter it may be (1 as I or L, 0
 * as O, D or Q), and each unsure K the zone's reading took for a filler beside one (mrz.ts unsureKs)
 * as the K it may be (a name ending in K: NOVAK, ÖZTÜRK, ERIK).
 */
function digitVariants(m: MrzReading): Names[] {
  const field = nameField(m);
  const read = m.format === 'TD1' ? m.readLines[2] : m.format === 'FRENCH_NATIONAL_ID' ? null : m.readLines[0]?.slice(5);
  if (field === null || !read || read.length !== field.length) return [];
  const options = [...field].map((c, i) => (read[i] === 'K' && c === '<' ? ['<', 'K'] : DIGIT_AS_LETTERS[read[i]!] ?? [c]));
  if (options.every((o) => o.length === 1)) return [];
  let fields = [''];
  for (const o of options) {
    fields = fields.flatMap((f) => o.map((c) => f + c));
    if (fields.length > MAX_VARIANTS) return [];
  }
  return fields.map(splitNameField);
}

/**
 * The names a printed name confirms exactly: the zone's own reading first, then its other readings.
 * The reader ranks its attempts by it too (reader.ts restoreNames), so that the attempt kept is the
 * one whose names this settles.
 */
export function confirmedReading(m: MrzReading, zone: Names, printed: Printed): Names {
  const located = printed.surname !== undefined || printed.given_names !== undefined;
  const agrees = (n: Names) => {
    const cut = partsCut(m, n);
    return located &&
      (printed.surname === undefined || nameAgreement(printed.surname, n.surname, cut.surname) === 'match') &&
      (printed.given_names === undefined || nameAgreement(printed.given_names, n.givenNames, cut.givenNames) === 'match');
  };
  if (!located || agrees(zone)) return zone;
  const field = nameField(m);
  return [...otherReadings(m), ...(field ? spelledWithFillers(field, printed) : [])].find(agrees) ?? zone;
}

/**
 * The zone's names as its reading's measured slips would have made them otherwise: a digit for the
 * letter it resembles, K's read back as fillers (fillerKVariants). Candidates only: a printed name
 * must confirm one, here or on the page by value (viz.ts printedByValue).
 */
export function otherReadings(m: MrzReading): Names[] {
  const field = nameField(m);
  return [...digitVariants(m), ...(field ? fillerKVariants(field) : [])];
}

/**
 * The zone's name field with as many K's read back as fillers as the printed names need, when both
 * are located (mrz.ts fillersAsKFor): a slanted photo can read every filler of a long name as K
 * (NOWAKKGLOWACKAKKALEKSANDRA), more runs than fillerKVariants tries.
 */
function spelledWithFillers(field: string, printed: Printed): Names[] {
  if (printed.surname === undefined || printed.given_names === undefined) return [];
  const givens = printedWordSpellings(printed.given_names);
  return printedWordSpellings(printed.surname)
    .flatMap((s) => givens.map((g) => fillersAsKFor(field, s, g)))
    .flatMap((f) => (f === null ? [] : [splitNameField(f)]));
}

/** A part whose zone reading holds a digit that is no letter: the printed name settles it when every other letter agrees. */
function fillUnreadable(mrz: string, printed: string | undefined): string | null {
  if (printed === undefined) return null;
  const words = nameWords(printed);
  const a = mrz.replace(/\s+/g, '');
  const b = words.replace(/\s+/g, '');
  if (a.length !== b.length) return null;
  return [...a].every((c, i) => c === b[i] || /[0-9]/.test(c)) ? words : null;
}

/**
 * One name part from the zone's reading and the printed one. `unsure`: characters of the part the
 * zone's reader was unsure of. Such a reading proves no spelling (names carry no check digit), so
 * a printed name it disagrees with is reviewed, never refused as another name (LHLLH, its I read
 * as H twice, for LILLI: a genuine card refused).
 */
function settlePart(mrz: string, printed: string | undefined, cut: boolean, unsure: number): SettledName {
  const unreadable = /[0-9]/.test(mrz);
  if (unreadable) {
    const filled = fillUnreadable(mrz, printed);
    if (filled) return { value: filled, settlement: 'match', unreadable: false, printed };
  }
  const agreement = nameAgreement(printed, mrz, cut);
  if (agreement === 'not_located') return { value: mrz, settlement: 'not_located', unreadable, printed };
  if (agreement === 'match') {
    // The same letters, spaced as printed where the zone's reading lost a filler between words (DEJONG for DE<JONG).
    const words = nameWords(printed!);
    const spaced = letters(words) === letters(mrz) && words.split(' ').length > mrz.split(' ').length ? words : mrz;
    return { value: spaced, settlement: 'match', unreadable, printed };
  }
  const restored = unreadable ? null : repairableName(mrz, printed);
  if (restored) return { value: restored, settlement: 'restored', unreadable, printed };
  if (agreement === 'close') return { value: mrz, settlement: 'review', unreadable, printed };
  return unsure > 0 ? { value: mrz, settlement: 'review', unreadable, printed, unsure: true } : { value: mrz, settlement: 'mismatch', unreadable, printed };
}

const mrzWord = (s: string) => s.replace(/[^A-Z0-9]+/g, '<');

/** The name field rebuilt from settled names, when they fit it and differ from what the zone holds. */
function withNameField(m: MrzReading, names: Names): string[] {
  const field = nameField(m);
  if (field === null) return m.lines;
  const body = names.givenNames ? `${mrzWord(names.surname)}<<${mrzWord(names.givenNames)}` : mrzWord(names.surname);
  // A full field was truncated by the issuer: it is rebuilt only from names that fill it.
  if (body.length > field.length || (!field.endsWith('<') && body.length !== field.length)) return m.lines;
  const next = body.padEnd(field.length, '<');
  if (next === field) return m.lines;
  return m.format === 'TD1' ? [m.lines[0]!, m.lines[1]!, next] : [m.lines[0]!.slice(0, 5) + next, ...m.lines.slice(1)];
}

/** The names to answer, each with how it was settled against the printed page. */
export function settleNames(m: MrzReading, printed: Printed): SettledNames {
  const zone = zoneNames(m);
  const reading = confirmedReading(m, zone, printed);
  const cut = partsCut(m, reading);
  const surname = settlePart(reading.surname, printed.surname, cut.surname, m.unsure.surname);
  const givenNames = settlePart(reading.givenNames, printed.given_names, cut.givenNames, m.unsure.givenNames);
  const settled = (p: SettledName) => p.settlement === 'match' || p.settlement === 'restored' || p.settlement === 'not_located';
  const lines = settled(surname) && settled(givenNames) && !surname.unreadable && !givenNames.unreadable
    ? withNameField(m, { surname: surname.value, givenNames: givenNames.value })
    : m.lines;
  return { surname, givenNames, lines };
}

/** The fields an analyst settles: every name part the two readings disagree on, or that holds a character that is no letter. */
export function reviewFlags(names: SettledNames): ReviewFlag[] {
  const out: ReviewFlag[] = [];
  const parts: [NamePart, SettledName, string][] = [['surname', names.surname, 'surname'], ['given_names', names.givenNames, 'given names']];
  for (const [field, p, label] of parts) {
    const printed = p.printed !== undefined ? { printed: nameWords(p.printed) } : {};
    if (p.settlement === 'review' || p.settlement === 'mismatch') {
      out.push({
        field, reason: 'printed_differs', mrz: p.value, ...printed,
        detail: p.unsure
          ? `The printed ${label} and the MRZ differ, and a character of the ${label} in the MRZ was read with low confidence: compare them on the image`
          : p.settlement === 'review'
            ? `The printed ${label} and the MRZ differ as a misreading would (a letter or two, or letters lost at the end of one reading) and no check digit decides between them: compare them on the image`
            : `The printed ${label} and the MRZ are different names: compare them on the image`,
      });
    } else if (p.unreadable) {
      out.push({ field, reason: 'unreadable_character', mrz: p.value, ...printed, detail: `A character of the ${label} in the MRZ could not be read as a letter: read it on the image` });
    }
  }
  return out;
}
