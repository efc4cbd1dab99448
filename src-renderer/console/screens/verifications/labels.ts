// Words for the face rules, the document checks and the outcomes, as an analyst reads them.
import { usDateLabel } from '../../../../src-shared/dates';
import type { DocumentCheck, IdentityResult, ReviewFlag } from '../../../../src-shared/contracts/documents';
import type { PolicyCheck, PolicyName } from '../../../../src-shared/contracts/faces';

export { PRODUCT_LABEL } from '../../components/product-labels';

export const POLICY_LABEL: Record<PolicyName, { name: string; rule: string }> = {
  one_face: { name: 'One person', rule: 'exactly one face' },
  detection_score: { name: 'Clear face', rule: 'detector score at least' },
  face_size: { name: 'Face size', rule: 'face width in pixels at least' },
  frontal_pose: { name: 'Facing the camera', rule: 'turned at most (degrees)' },
  presentation_attack: { name: 'Not a print or screen', rule: 'advisory realness at least' },
  document_presented: { name: 'Not a document or card', rule: 'print around the face (face widths) below' },
  screen_pattern: { name: 'No screen or dot pattern', rule: 'periodic peak below' },
  colour_fringes: { name: 'No screen colour fringes', rule: 'colour over brightness detail below' },
  frame_around_face: { name: 'Not framed by a picture edge', rule: 'sides framed below' },
  portrait_frame: { name: 'Not a document portrait', rule: 'sides of the head with a portrait edge below' },
  not_the_document: { name: 'Not the ID document\'s picture', rule: 'bits apart from the document image, more than' },
};

export const REASON_LABEL: Record<string, string> = {
  no_face_detected: 'No face found',
  multiple_faces: 'Several faces',
  low_detection_score: 'Face not clear',
  face_too_small: 'Face too small',
  face_not_frontal: 'Not facing the camera',
  spoof_suspected: 'Looks like a print or screen',
  estimated_age_below_threshold: 'Estimate not conclusive',
  compliance_provider_unavailable: 'Lists not loaded',
  below_minimum_age: 'Below the minimum age',
  // Identity and KYC-plus (service: core/documents/identity.ts identityFailure, routes/documents.ts).
  document_unreadable: 'Document not readable',
  no_face_on_document: 'No face on the document',
  face_mismatch: 'Face does not match the document',
  document_expired: 'Document expired',
  document_inconsistent: 'Document failed its checks',
  claim_mismatch: 'Name or date of birth differs',
  document_needs_review: 'Document needs review',
  screening_hit: 'Potential watchlist match',
};

/** Each document authenticity signal by name: one table, shared with the service's KYC report. */
export { DOCUMENT_CHECK_LABEL } from '../../../../src-shared/contracts/documents';

export const CHECK_RESULT: Record<DocumentCheck['result'], string> = { pass: 'Pass', fail: 'Fail', not_checked: 'Not checked' };

/**
 * MRZ fields: the check digits', the printed (VIZ) fields compared with the MRZ, and every field the
 * service can name for review (typed by the contract, so a new one cannot go without its words).
 */
export const MRZ_FIELD_LABEL: Record<ReviewFlag['field'] | 'personal_number' | 'composite', string> = {
  document_number: 'Document number',
  date_of_birth: 'Date of birth',
  expiry_date: 'Expiry date',
  personal_number: 'Personal number',
  composite: 'Composite',
  surname: 'Surname',
  given_names: 'Given names',
  nationality: 'Nationality',
  issuing_country: 'Issuing country',
  optional_data: 'Optional data',

};

/** A printed field against the MRZ. */
export const AGREEMENT_LABEL: Record<NonNullable<IdentityResult['mrz']>['printed'][number]['agreement'], string> = {
  match: 'Matches',
  mismatch: 'Differs',
  review: 'Review',
  not_located: 'Not located',
};

/** The holder's sex as the service answers it (ICAO: X is unspecified). */
export const SEX_LABEL: Record<NonNullable<NonNullable<IdentityResult['document_data']>['sex']>, string> = { M: 'Male', F: 'Female', X: 'Unspecified (X)' };

export const DOCUMENT_TYPE_LABEL: Record<string, string> = {
  passport: 'Passport', id_card: 'ID card', visa: 'Visa', travel_document: 'Travel document',
};

/** A document date (MM/DD/YYYY, as the service answers it) as "12 Aug 1964"; unchanged when it is not one, a dash when empty. */
export function documentDate(usDate: string): string {
  return usDateLabel(usDate) || '—';
}

/** A measured value in its rule's unit. */
export function checkValue(c: PolicyCheck): string {
  switch (c.policy) {
    case 'one_face':
    case 'face_size':
    case 'frame_around_face':
    case 'not_the_document':
      return String(Math.round(c.value));
    case 'frontal_pose':
      return `${c.value.toFixed(1)}°`;
    default:
      return c.value.toFixed(2);
  }
}

export const statusTone = (status: string) =>
  status === 'PASS' || status === 'success' || status === 'completed' ? 'positive' : status === 'FAIL' || status === 'failed' ? 'negative' : 'warning';
