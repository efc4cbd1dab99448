// From a document reading to the answer's `document_data` and `authenticity`. Each signal is a
// named check with what it proves. The check digits prove the MRZ is consistent (not authentic:
// <, 0, A, K and U weigh the same, names carry none); the printed fields agreeing with the MRZ
// prove the two zones were not edited apart; expiry and plausible dates prove the document is
// current and sane; a face in the portrait proves there is one to compare. `is_genuine` is true
// when no critical check failed and the MRZ was read: a consistent, current document, not a
// forensic examination (docs/decisions.md).
import type { Authenticity, ClaimComparison, DocumentCheck, DocumentCheckName, DocumentData, ReviewFlag } from '../../../../src-shared/contracts/documents';
import { ageOn, compareDates, dayOf, formatUsDate, parseClaimedDate, parsePrintedDates, parseYymmdd, sameDate, type CalendarDate } from '../../../../src-shared/dates';
import { DEFAULT_THRESHOLD, scoreNamePair } from '../screening/match/compare';
import { reviewFlags, settleNames, type SettledName, type SettledNames } from './fields';
import { isState, LOW_CONFIDENCE_LIMIT, numberCharacters, unsureCharacters, type MrzReading } from './mrz';
import type { DocumentReading } from './reader';
import { datesAgree, numbersAgree, printedInOtherCentury } from './viz';

const WEIGHT: Record<DocumentCheckName, number> = {
  mrz_found: 3, check_digit_document_number: 2, check_digit_date_of_birth: 2, check_digit_expiry_date: 2,
  check_digit_personal_number: 1, check_digit_composite: 2, not_expired: 2, dates_plausible: 1, issuing_state_known: 0.5,
  printed_name_matches_mrz: 2, printed_date_of_birth_matches_mrz: 2, printed_document_number_matches_mrz: 1.5,
  portrait_face_present: 2, mrz_read_confidence: 1,
};

const CRITICAL: ReadonlySet<DocumentCheckName> = new Set([
  'mrz_found', 'check_digit_document_number', 'check_digit_date_of_birth', 'check_digit_expiry_date', 'check_digit_personal_number',
  'check_digit_composite', 'not_expired', 'dates_plausible', 'printed_name_matches_mrz', 'printed_date_of_birth_matches_mrz',
  'printed_document_number_matches_mrz', 'portrait_face_present',
]);

export function documentType(code: string): string {
  const c = code.charAt(0);
  if (c === 'P') return 'passport';
  if (c === 'V') return 'visa';
  if (c === 'I' || c === 'A' || c === 'C') return 'id_card';
  return 'travel_document';
}

export interface Assessment {
  documentData: DocumentData | null;
  authenticity: Authenticity;
  birth: CalendarDate | null;
  expiry: CalendarDate | null;
  /** The document's full name, given names first (for screening and claims). */
  fullName: string | null;
  /** The zone as answered: names settled against the printed page, lines repaired. */
  mrz: MrzReading | null;
  /** How each name part was settled against the printed page. */
  names: SettledNames | null;
  /** Fields left for an analyst (names the MRZ and the page disagree on, characters that are no letter). */
  review: ReviewFlag[];
  /**
   * Critical checks that failed but do not refuse the document: a check digit on a field the printed
   * page does not confirm, and the checks that read the same unsettled field (its print, the expiry,
   * the dates' order). Its field is named for review instead (`check_digit_fails`). `refusingChecks`.
   */
  reviewedChecks: ReadonlySet<DocumentCheckName>;
}

const CHECK_OF = {
  document_number: 'check_digit_document_number', date_of_birth: 'check_digit_date_of_birth', expiry_date: 'check_digit_expiry_date',
  personal_number: 'check_digit_personal_number', composite: 'check_digit_composite',
} as const;

/**
 * The zone's optional data as read, where ICAO 9303 puts it (a TD3's personal number; a TD1's two
 * runs; a TD2's one), its fillers kept; the whole zone for a layout without it.
 */
function optionalData(m: Pick<MrzReading, 'format' | 'lines'>): string {
  const [l1 = '', l2 = ''] = m.lines;
  if (m.format === 'TD3') return l2.slice(28, 42);
  if (m.format === 'TD2') return l2.slice(28, 35);
  if (m.format === 'TD1') return `${l1.slice(15, 30)} ${l2.slice(18, 29)}`;
  return m.lines.join(' ');
}

/**
 * A check digit that does not hold proves the zone differs from what was written only when the zone
 * was read right. A character read wrong with confidence (a C read as 0, a 3 as 8: on real pages it
 * happens) fails a check digit exactly as an edit does, so the failure refuses the document only
 * where the printed page confirms the field as the zone was read: then the zone says what the page
 * says and the digit still disagrees. A field the page does not confirm (its print not located,
 * or differing as the misread zone would, or none printed: the expiry, the optional data) is named
 * for review with its failing digit, never verified. The composite is named only when it fails
 * alone (each field's own digit holding): then only the optional data, which no digit of its own
 * covers, or the composite digit itself can be wrong. Returns the flags and the checks they leave
 * to review.
 */
function checkDigitDoubts(
  m: MrzReading, printed: DocumentReading['printed'], witnessed: { document_number: boolean; date_of_birth: boolean },
  birth: CalendarDate | null, expiry: CalendarDate | null,
): { flags: ReviewFlag[]; checks: DocumentCheckName[] } {
  const failing = new Set(m.checkDigits.filter((c) => !c.valid).map((c) => c.field));
  const flags: ReviewFlag[] = [];
  const checks: DocumentCheckName[] = [];
  const what = 'a character read wrong and one written wrong look alike here: read the zone on the image';
  if (failing.has('document_number') && !witnessed.document_number) {
    checks.push('check_digit_document_number', 'printed_document_number_matches_mrz');
    flags.push({
      field: 'document_number', reason: 'check_digit_fails', mrz: m.documentNumber, ...(printed.document_number ? { printed: printed.document_number } : {}),
      detail: `The document number's check digit does not hold and the printed number ${printed.document_number ? 'differs from the MRZ\'s too' : 'was not found to confirm it'}: ${what}`,
    });
  }
  if (failing.has('date_of_birth') && !witnessed.date_of_birth) {
    checks.push('check_digit_date_of_birth', 'printed_date_of_birth_matches_mrz', 'dates_plausible');
    flags.push({
      field: 'date_of_birth', reason: 'check_digit_fails', mrz: birth ? formatUsDate(birth) : m.birthDate, ...(printed.date_of_birth ? { printed: printed.date_of_birth } : {}),
      detail: `The date of birth's check digit does not hold and the printed date ${printed.date_of_birth ? 'differs from the MRZ\'s too' : 'was not found to confirm it'}: ${what}`,
    });
  }
  if (failing.has('expiry_date')) {
    checks.push('check_digit_expiry_date', 'not_expired', 'dates_plausible');
    flags.push({ field: 'expiry_date', reason: 'check_digit_fails', mrz: expiry ? formatUsDate(expiry) : m.expiryDate ?? '', detail: `The expiry date's check digit does not hold, and no printed expiry date is read to confirm it: ${what}` });
  }
  const fieldsHold = !failing.has('document_number') && !failing.has('date_of_birth') && !failing.has('expiry_date');
  if (failing.has('personal_number') || (failing.has('composite') && fieldsHold)) {
    checks.push('check_digit_personal_number');
    flags.push({ field: 'optional_data', reason: 'check_digit_fails', mrz: optionalData(m), detail: `The ${failing.has('personal_number') ? 'personal number\'s' : 'composite'} check digit does not hold while the number's and the dates' own digits do: a character of the zone's optional data (which nothing printed confirms) or the digit itself, ${what}` });
  }
  if (failing.has('composite')) checks.push('check_digit_composite');
  return { flags, checks };
}

/**
 * The zone's fields no check digit settles (issue 37, no silent wrong field): a state code that is
 * no known code (a letter lost where no check digit looks: "AN" for CAN), and a document number
 * whose check digit holds only after a character was changed, unless the printed number confirms it.
 */
function zoneFlags(m: MrzReading, printed: DocumentReading['printed'], names: SettledNames | null): ReviewFlag[] {
  const out: ReviewFlag[] = [];
  // A name character the reader was unsure of, where the print was not found to confirm the name.
  const parts: [ReviewFlag['field'], SettledName | undefined, number, string][] = [
    ['surname', names?.surname, m.unsure.surname, 'surname'], ['given_names', names?.givenNames, m.unsure.givenNames, 'given names'],
  ];
  for (const [field, part, unsure, label] of parts) {
    if (!part || part.settlement !== 'not_located' || (!part.value && unsure === 0)) continue;
    if (!part.value) {
      out.push({ field, reason: 'low_confidence', mrz: '', detail: `No ${label} ${field === 'surname' ? 'was' : 'were'} read in the MRZ, whose name line was read with characters missing (glare or a cut), and none were found printed: read them on the image` });
    } else if (unsure > 0) {
      out.push({ field, reason: 'low_confidence', mrz: part.value, detail: `A character of the ${label} in the MRZ was read with low confidence, and the printed ${label} was not found to confirm it: read it on the image` });
    } else {
      // Names carry no check digit: the printed page is the only cross-check a misread name has.
      out.push({ field, reason: 'not_located', mrz: part.value, detail: `The ${label} printed on the page could not be found to confirm the MRZ's, and names carry no check digit: read it on the image` });
    }
  }
  // A print read cut short does not confirm the characters it lost.
  const printedNumber = numbersAgree(printed.document_number, m.documentNumber);
  if (m.corrected === 0 && m.unsure.documentNumber > 0 && (printedNumber === 'not_located' || printedNumber === 'cut')) {
    out.push({ field: 'document_number', reason: 'low_confidence', mrz: m.documentNumber, detail: 'A character of the document number in the MRZ was read with low confidence, and the printed number was not found to confirm it: read it on the image' });
  }
  // A nationality printed as a code that is another state's: a letter misread where no check digit looks (CAM for CAN).
  const printedCode = printed.nationality?.trim().toUpperCase();
  const sameState = (a: string, b: string) => a === b || (a === 'D' && b === 'DEU') || (a === 'DEU' && b === 'D');
  if (m.nationality && isState(m.nationality) && printedCode && /^[A-Z]{3}$/.test(printedCode) && isState(printedCode) && !sameState(m.nationality, printedCode)) {
    out.push({ field: 'nationality', reason: 'printed_differs', mrz: m.nationality, printed: printedCode, detail: `The nationality printed on the page (${printedCode}) is not the MRZ's (${m.nationality}), and no check digit covers it: read it on the image` });
  }
  if (m.nationality && !isState(m.nationality)) {
    out.push({ field: 'nationality', reason: 'unknown_code', mrz: m.nationality, detail: `The nationality read from the MRZ (${m.nationality}) is no known state code, and no check digit covers it: read it on the image` });
  }
  if (!isState(m.issuingState)) {
    out.push({ field: 'issuing_country', reason: 'unknown_code', mrz: m.issuingState, detail: `The issuing state read from the MRZ (${m.issuingState}) is no known state code, and no check digit covers it: read it on the image` });
  }
  if (m.corrected > 0 && (m.correctedDigit || !(printedNumber === 'match' && printedAsCorrected(printed.document_number!, m)))) {
    out.push({
      field: 'document_number', reason: 'corrected_check_digit', mrz: m.documentNumber, ...(printed.document_number ? { printed: printed.document_number } : {}),
      // The check digit computed for the printed number: the print shows no check digit, and the
      // composite alone holds for a wrong one one time in ten (a forged number, its digits left as issued).
      detail: m.correctedDigit
        ? 'The document number\'s check digit was read as another digit than the printed number gives, and only the composite confirms the change: read it on the image'
        : 'The document number\'s check digit holds only after a character was changed, and no printed number confirms it: read it on the image',
    });
  }
  return out;
}

/**
 * Printed numbers that neither confirm nor contradict the zone's (numbersAgree), each sent to
 * review: the check's detail and the review's. `elsewhere`: one that differs under its label while
 * the zone's number is printed elsewhere on the page.
 */
const NUMBER_REVIEWED = {
  elsewhere: {
    check: 'Printed document number differs from the MRZ under its label, but the MRZ\'s number is printed elsewhere: flagged for review',
    detail: 'The number read under the document-number label differs from the MRZ\'s, and the MRZ\'s number is printed elsewhere on the page: read it on the image',
  },
  longer: {
    check: 'Printed document number is the MRZ\'s with characters more at one end: flagged for review',
    detail: 'The number read under the document-number label is the MRZ\'s with one or two characters more at one end (a mark beside it read with it, or a number longer than the zone holds): read it on the image',
  },
  short: {
    check: 'Printed document number was read only in part (its start or end), too little to confirm the MRZ\'s: flagged for review',
    detail: 'Only the start or end of the number printed under the document-number label was read (glare or a shadow over the rest): read it on the image',
  },
  dropped: {
    check: 'Printed document number was read as the MRZ\'s with one character inside it missing, as a reader drops one: flagged for review',
    detail: 'The printed number was read as the MRZ\'s with one character inside it missing (a narrow letter, or one of a doubled pair, run into its neighbour): read it on the image',
  },
  blind: {
    check: 'Printed document number differs from the MRZ only in a character its check digit cannot tell apart (L for 1, G for 6): flagged for review',
    detail: 'The printed number differs from the MRZ\'s in a character a reader confuses and the check digit cannot tell apart (L and 1, G and 6 weigh alike): read it on the image',
  },
} as const;

/** The printed number written as the zone's, character for character (numbersAgree's `match` folds the characters a reader confuses). */
const literally = (printed: string, zone: string) => numberCharacters(printed) === zone;

/**
 * Whether the printed number has every character a correction changed as the correction made it.
 * The print is compared with the zone through the characters a reader confuses (S for 5, I for 1:
 * numbersAgree), and those are exactly what a correction changes: compared so, a print confirms any
 * correction, and a forgery's edited number, corrected by a confusable swap that happened to make
 * its check digits hold, came back verified with the wrong number.
 */
function printedAsCorrected(printed: string, m: Pick<MrzReading, 'numberAsRead' | 'documentNumber'>): boolean {
  const p = numberCharacters(printed);
  const [read, answered] = [m.numberAsRead, m.documentNumber];
  if (p.length !== answered.length || read.length !== answered.length) return p === answered;
  return [...answered].every((c, i) => read[i] === c || p[i] === c);
}

/**
 * A printed date of birth one digit away from the zone's (1986 for 1985, 08 for 03, as YYYYMMDD):
 * what a recogniser's misreading does. It is sent to review, not refused: an edit of one digit is
 * never verified either.
 */
function oneDigitApart(printed: string, mrz: CalendarDate, now: Date): boolean {
  const digits = (d: CalendarDate) => `${String(d.y).padStart(4, '0')}${String(d.m).padStart(2, '0')}${String(d.d).padStart(2, '0')}`;
  const want = digits(mrz);
  return parsePrintedDates(printed, 'birth', now).some((d) => {
    const got = digits(d);
    let apart = 0;
    for (let i = 0; i < got.length; i++) if (got[i] !== want[i]) apart++;
    return apart === 1;
  });
}

/**
 * The name check from both parts: a different name fails; a part a letter or two apart, or read cut
 * short, leaves it unsettled (review). So does a different name read under the label while the
 * zone's own name is printed elsewhere on the page (`elsewhere`, viz.ts printedByValue): the label
 * led to another field's box (the given names, the page's background text), as for dates and numbers.
 */
function nameCheck(surname: SettledName, given: SettledName, elsewhere: { surname: boolean; given: boolean }): { result: DocumentCheck['result']; detail: string } {
  const parts = [surname, given];
  const different = [surname.settlement === 'mismatch' && !elsewhere.surname, given.settlement === 'mismatch' && !elsewhere.given];
  if (different.some(Boolean)) return { result: 'fail', detail: 'Printed name differs from the MRZ' };
  if (parts.some((p) => p.settlement === 'mismatch')) {
    return { result: 'not_checked', detail: 'The name read under its label differs from the MRZ\'s, but the MRZ\'s name is printed elsewhere on the page: flagged for review' };
  }
  if (parts.some((p) => p.settlement === 'review')) {
    return { result: 'not_checked', detail: 'Printed name and MRZ differ as a misreading would (a letter or two, or letters lost at the end of one reading), and names carry no check digit: flagged for review' };
  }
  if (parts.every((p) => p.settlement === 'not_located')) return { result: 'not_checked', detail: 'Printed name not located' };
  return parts.some((p) => p.settlement === 'restored')
    ? { result: 'pass', detail: 'Printed name matches the MRZ, with letters the MRZ reading dropped restored from the printed name' }
    : { result: 'pass', detail: 'Printed name matches the MRZ' };
}

export function assessDocument(reading: DocumentReading | null, portraitFaces: number, now: Date): Assessment {
  const checks: DocumentCheck[] = [];
  const add = (check: DocumentCheckName, result: DocumentCheck['result'], detail: string) =>
    checks.push({ check, result, critical: CRITICAL.has(check), detail });
  const read = reading?.mrz ?? null;
  const names = read ? settleNames(read, reading!.printed) : null;
  /** Printed fields that differ from the zone only as a misreading or a wrong box would: review, not a failed check. */
  const doubts: ReviewFlag[] = [];
  const reviewedChecks = new Set<DocumentCheckName>();
  const m: MrzReading | null = read && names ? { ...read, lines: names.lines, surname: names.surname.value, givenNames: names.givenNames.value } : null;
  const today = dayOf(now);
  add('mrz_found', m ? 'pass' : 'fail', m ? `${m.format} machine-readable zone read` : 'No machine-readable zone could be read');
  const birth = m ? parseYymmdd(m.birthDate, 'birth', today) : null;
  const expiry = m?.expiryDate ? parseYymmdd(m.expiryDate, 'expiry', today) : null;
  if (m && names) {
    for (const c of m.checkDigits) add(CHECK_OF[c.field], c.valid ? 'pass' : 'fail', c.valid ? 'Check digit holds' : 'Check digit does not hold');
    if (expiry) {
      const expired = compareDates(expiry, today) < 0;
      add('not_expired', expired ? 'fail' : 'pass', expired ? `Expired on ${formatUsDate(expiry)}` : `Valid until ${formatUsDate(expiry)}`);
    } else add('not_expired', 'not_checked', 'No readable expiry date');
    const age = birth ? ageOn(birth, today) : null;
    const plausible = birth !== null && age !== null && age >= 0 && age <= 120 && (!expiry || compareDates(expiry, birth) > 0);
    add('dates_plausible', plausible ? 'pass' : 'fail', plausible ? 'Birth and expiry dates are real dates in a possible order' : 'A date is impossible or out of order');
    add(
      'issuing_state_known', m.unknownState ? 'fail' : 'pass',
      m.unknownState ? (m.issuingState === 'UTO' ? 'UTO is the ICAO specimen state' : 'The state code is not an ISO 3166 code') : `Issued by ${m.issuingState}`,
    );
    const printed = reading!.printed;
    const agreeing = (check: DocumentCheckName, a: ReturnType<typeof numbersAgree>, what: string) =>
      add(check, a === 'match' ? 'pass' : a === 'mismatch' ? 'fail' : 'not_checked',
        a === 'match' ? `Printed ${what} matches the MRZ` : a === 'mismatch' ? `Printed ${what} differs from the MRZ` : `Printed ${what} not located`);
    const valued = reading!.valued ?? {};
    const name = nameCheck(names.surname, names.givenNames, { surname: valued.surname !== undefined, given: valued.given_names !== undefined });
    add('printed_name_matches_mrz', name.result, name.detail);
    const dob = datesAgree(printed.date_of_birth, birth, now);
    // A print that differs from a zone date whose own digit fails is the misread zone's doubt (checkDigitDoubts).
    const birthHolds = m.checkDigits.every((c) => c.field !== 'date_of_birth' || c.valid);
    if (dob === 'cut') {
      // Reviewed, not taken on the zone's word: a page printing two-digit years (a child's 19 for
      // 2019) under a zone edited to an adult's 1931 with its digits recomputed reads the same.
      add('printed_date_of_birth_matches_mrz', 'not_checked', 'Printed date of birth was read with its year as the MRZ\'s century (19 for 1931: its last digits lost, or a two-digit year): flagged for review');
      doubts.push({
        field: 'date_of_birth', reason: 'printed_differs', mrz: formatUsDate(birth!), printed: printed.date_of_birth!,
        detail: 'The printed date of birth was read with the MRZ\'s day and month and its century for a year (its last digits lost under glare, or a two-digit year): read it on the image',
      });
    } else if (dob === 'other_century') {
      add('printed_date_of_birth_matches_mrz', 'not_checked', 'Printed date of birth is the MRZ\'s in another century, which its two-digit year cannot tell apart: flagged for review');
    } else if (dob === 'mismatch' && (valued.date_of_birth !== undefined || (birthHolds && oneDigitApart(printed.date_of_birth!, birth!, now)))) {
      add('printed_date_of_birth_matches_mrz', 'not_checked', 'Printed date of birth differs from the MRZ, but only as a misreading or a wrong box would: flagged for review');
      doubts.push({
        field: 'date_of_birth', reason: 'printed_differs', mrz: formatUsDate(birth!), printed: printed.date_of_birth!,
        detail: valued.date_of_birth !== undefined
          ? 'The date read under the date-of-birth label differs from the MRZ\'s, and the MRZ\'s date is printed elsewhere on the page: read it on the image'
          : 'The printed date of birth is one digit away from the MRZ\'s (whose check digit holds): read it on the image',
      });
    } else agreeing('printed_date_of_birth_matches_mrz', dob, 'date of birth');
    const number = numbersAgree(printed.document_number, m.documentNumber);
    const reviewed = number === 'mismatch'
      ? (valued.document_number !== undefined ? NUMBER_REVIEWED.elsewhere : undefined)
      : (NUMBER_REVIEWED as Partial<Record<string, { check: string; detail: string }>>)[number];
    if (reviewed) {
      add('printed_document_number_matches_mrz', 'not_checked', reviewed.check);
      doubts.push({ field: 'document_number', reason: 'printed_differs', mrz: m.documentNumber, printed: printed.document_number!, detail: reviewed.detail });
    } else if (number === 'cut') {
      add('printed_document_number_matches_mrz', 'pass', 'Printed document number matches the MRZ as far as it was read (its first or last characters were not read)');
    } else agreeing('printed_document_number_matches_mrz', number, 'document number');
    const doubted = checkDigitDoubts(m, printed, {
      // The zone's value printed under its label, or found by value elsewhere on the page.
      document_number: (number === 'match' && literally(printed.document_number!, m.documentNumber)) || valued.document_number !== undefined,
      date_of_birth: dob === 'match' || dob === 'other_century' || valued.date_of_birth !== undefined,
    }, birth, expiry);
    doubts.push(...doubted.flags);
    for (const c of doubted.checks) reviewedChecks.add(c);
    const unsure = unsureCharacters(m);
    add('mrz_read_confidence', unsure <= LOW_CONFIDENCE_LIMIT ? 'pass' : 'fail',
      unsure <= LOW_CONFIDENCE_LIMIT ? 'MRZ characters read with confidence' : `${unsure} MRZ characters read with low confidence or corrected: review the image`);
  }
  add('portrait_face_present', portraitFaces > 0 ? 'pass' : 'fail', portraitFaces > 0 ? 'A face is present on the document' : 'No face found on the document');

  const failedCritical = checks.some((c) => c.critical && c.result === 'fail');
  const measured = checks.filter((c) => c.result !== 'not_checked');
  const total = measured.reduce((s, c) => s + WEIGHT[c.check], 0);
  const passed = measured.filter((c) => c.result === 'pass').reduce((s, c) => s + WEIGHT[c.check], 0);
  let confidence = total ? Math.round((1000 * passed) / total) / 10 : 0;
  if (failedCritical) confidence = Math.min(confidence, 50);
  const fullName = m ? `${m.givenNames} ${m.surname}`.replace(/\s+/g, ' ').trim() : null;
  const otherCentury = m ? printedInOtherCentury(reading!.printed.date_of_birth, birth, now) : null;
  const review: ReviewFlag[] = [
    ...(names ? reviewFlags(names) : []),
    ...(m ? zoneFlags(m, reading!.printed, names) : []),
    ...doubts,
    ...(birth && otherCentury
      ? [{
          field: 'date_of_birth' as const, reason: 'printed_differs' as const, mrz: formatUsDate(birth), printed: formatUsDate(otherCentury),
          detail: 'The printed date of birth is the MRZ\'s in another century; the MRZ\'s two-digit year and its check digit cannot tell them apart: read the year on the image',
        }]
      : []),
  ];
  return {
    mrz: m,
    names,
    review,
    birth,
    expiry,
    fullName,
    reviewedChecks,
    authenticity: { is_genuine: Boolean(m) && !failedCritical, confidence, checks },
    documentData: m && birth
      ? {
          name: fullName!,
          date_of_birth: formatUsDate(birth),
          document_type: documentType(m.documentCode),
          document_number: m.documentNumber,
          expiry_date: expiry ? formatUsDate(expiry) : '',
          issuing_country: m.issuingState,
          nationality: m.nationality,
          sex: m.sex,
        }
      : null,
  };
}

/** The critical checks that failed and refuse the document, in order: not those left to review (`reviewedChecks`). */
export function refusingChecks(a: Pick<Assessment, 'authenticity' | 'reviewedChecks'>): DocumentCheck[] {
  return a.authenticity.checks.filter((c) => c.critical && c.result === 'fail' && !a.reviewedChecks.has(c.check));
}

/** Score at or above which a claimed name is the document's (case, accents, order and initials aside). */
const NAME_MATCH = 0.95;

/** Claimed name and date of birth against the document. The values are not echoed. */
export function compareClaims(a: Assessment, claimed: { name?: string | undefined; date_of_birth?: string | undefined }): ClaimComparison[] {
  const out: ClaimComparison[] = [];
  if (claimed.name !== undefined) {
    if (!a.fullName) out.push({ field: 'name', result: 'not_compared', detail: 'The document could not be read' });
    else {
      const score = scoreNamePair('person', claimed.name, a.fullName);
      const result = score >= NAME_MATCH ? 'match' : score >= DEFAULT_THRESHOLD ? 'partial' : 'mismatch';
      out.push({
        field: 'name', result,
        detail: result === 'match' ? 'Same name' : result === 'partial' ? `Similar name (score ${Math.round(score * 100)}): initials, a missing part or a spelling variant` : 'Different name',
      });
    }
  }
  if (claimed.date_of_birth !== undefined) {
    const c = parseClaimedDate(claimed.date_of_birth);
    if (!a.birth || !c) out.push({ field: 'date_of_birth', result: 'not_compared', detail: a.birth ? 'Not a date' : 'The document could not be read' });
    else {
      const same = sameDate(c, a.birth);
      out.push({ field: 'date_of_birth', result: same ? 'match' : 'mismatch', detail: same ? 'Same date of birth' : 'Different date of birth' });
    }
  }
  return out;
}
