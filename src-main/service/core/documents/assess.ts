// From a document reading to the answer's `document_data` and `authenticity`. Each signal is a
// named check with what it proves. The check digits prove the MRZ is consistent (not authentic:
// <, 0, A, K and U weigh the same, names carry none); the printed fields agreeing with the MRZ
// prove the two zones were not edited apart; expiry and plausible dates prove the document is
// current and sane; a face in the portrait proves there is one to compare. `is_genuine` is true
// when no critical check failed and the MRZ was read: a consistent, current document, not a
// forensic examination (docs/decisions.md).
import type { Authenticity, ClaimComparison, DocumentCheck, DocumentCheckName, DocumentData } from '../../../../src-shared/contracts/documents';
import { DEFAULT_THRESHOLD, scoreNamePair } from '../screening/match/compare';
import { mrzDate, type MrzReading } from './mrz';
import type { DocumentReading } from './reader';
import { datesAgree, namesAgree, numbersAgree, type DateParts } from './viz';

/** More than this many MRZ characters read with low confidence (or repaired) sends the document to review. */
export const LOW_CONFIDENCE_LIMIT = 3;

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

const pad2 = (n: number) => String(n).padStart(2, '0');
export const usDate = (d: DateParts) => `${pad2(d.m)}/${pad2(d.d)}/${d.y}`;
export const isoDate = (d: DateParts) => `${d.y}-${pad2(d.m)}-${pad2(d.d)}`;

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
  birth: DateParts | null;
  expiry: DateParts | null;
  /** The document's full name, given names first (for screening and claims). */
  fullName: string | null;
  mrz: MrzReading | null;
}

const CHECK_OF = {
  document_number: 'check_digit_document_number', date_of_birth: 'check_digit_date_of_birth', expiry_date: 'check_digit_expiry_date',
  personal_number: 'check_digit_personal_number', composite: 'check_digit_composite',
} as const;

export function assessDocument(reading: DocumentReading | null, portraitFaces: number, now: Date): Assessment {
  const checks: DocumentCheck[] = [];
  const add = (check: DocumentCheckName, result: DocumentCheck['result'], detail: string) =>
    checks.push({ check, result, critical: CRITICAL.has(check), detail });
  const m = reading?.mrz ?? null;
  add('mrz_found', m ? 'pass' : 'fail', m ? `${m.format} machine-readable zone read` : 'No machine-readable zone could be read');
  const birth = m ? mrzDate(m.birthDate, 'birth', now) : null;
  const expiry = m?.expiryDate ? mrzDate(m.expiryDate, 'expiry', now) : null;
  if (m) {
    for (const c of m.checkDigits) add(CHECK_OF[c.field], c.valid ? 'pass' : 'fail', c.valid ? 'Check digit holds' : 'Check digit does not hold');
    if (expiry) {
      const expired = Date.UTC(expiry.y, expiry.m - 1, expiry.d) < Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
      add('not_expired', expired ? 'fail' : 'pass', expired ? `Expired on ${usDate(expiry)}` : `Valid until ${usDate(expiry)}`);
    } else add('not_expired', 'not_checked', 'No readable expiry date');
    const age = birth ? (now.getTime() - Date.UTC(birth.y, birth.m - 1, birth.d)) / (365.25 * 86_400_000) : null;
    const plausible = birth !== null && age !== null && age >= 0 && age <= 120 && (!expiry || Date.UTC(expiry.y, expiry.m - 1, expiry.d) > Date.UTC(birth.y, birth.m - 1, birth.d));
    add('dates_plausible', plausible ? 'pass' : 'fail', plausible ? 'Birth and expiry dates are real dates in a possible order' : 'A date is impossible or out of order');
    add(
      'issuing_state_known', m.unknownState ? 'fail' : 'pass',
      m.unknownState ? (m.issuingState === 'UTO' ? 'UTO is the ICAO specimen state' : 'The state code is not an ISO 3166 code') : `Issued by ${m.issuingState}`,
    );
    const printed = reading!.printed;
    const agreeing = (check: DocumentCheckName, a: ReturnType<typeof namesAgree>, what: string) =>
      add(check, a === 'match' ? 'pass' : a === 'mismatch' ? 'fail' : 'not_checked',
        a === 'match' ? `Printed ${what} matches the MRZ` : a === 'mismatch' ? `Printed ${what} differs from the MRZ` : `Printed ${what} not located`);
    const surname = namesAgree(printed.surname, m.surname);
    const given = namesAgree(printed.given_names, m.givenNames);
    const name = surname === 'mismatch' || given === 'mismatch' ? 'mismatch' : surname === 'match' || given === 'match' ? 'match' : 'not_located';
    agreeing('printed_name_matches_mrz', name, 'name');
    agreeing('printed_date_of_birth_matches_mrz', datesAgree(printed.date_of_birth, birth), 'date of birth');
    agreeing('printed_document_number_matches_mrz', numbersAgree(printed.document_number, m.documentNumber), 'document number');
    const unsure = m.lowConfidence + m.corrected;
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
  return {
    mrz: m,
    birth,
    expiry,
    fullName,
    authenticity: { is_genuine: Boolean(m) && !failedCritical, confidence, checks },
    documentData: m && birth
      ? {
          name: fullName!,
          date_of_birth: usDate(birth),
          document_type: documentType(m.documentCode),
          document_number: m.documentNumber,
          expiry_date: expiry ? usDate(expiry) : '',
          issuing_country: m.issuingState,
        }
      : null,
  };
}

/** A claimed date of birth: YYYY-MM-DD or MM/DD/YYYY; null when it is neither. */
export function parseClaimedDate(s: string): DateParts | null {
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s.trim());
  const us = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(s.trim());
  const [y, m, d] = iso ? [Number(iso[1]), Number(iso[2]), Number(iso[3])] : us ? [Number(us[3]), Number(us[1]), Number(us[2])] : [0, 0, 0];
  if (!y) return null;
  const dt = new Date(Date.UTC(y, m - 1, d));
  return dt.getUTCMonth() === m - 1 && dt.getUTCDate() === d ? { y, m, d } : null;
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
      const same = c.y === a.birth.y && c.m === a.birth.m && c.d === a.birth.d;
      out.push({ field: 'date_of_birth', result: same ? 'match' : 'mismatch', detail: same ? 'Same date of birth' : 'Different date of birth' });
    }
  }
  return out;
}
