// Document products (spec: Identity request / result, Compliance request / result, report): what
// was read from the ID document, each authenticity signal by name, the comparison with claimed
// name and date of birth, and the selfie-to-portrait face match. No images, embeddings or
// landmarks are answered.
import { z } from 'zod';
import { FaceAnalysisBlock } from './faces';

/** Authenticity signals (service: core/documents/assess.ts). */
export const DOCUMENT_CHECKS = [
  'mrz_found', 'check_digit_document_number', 'check_digit_date_of_birth', 'check_digit_expiry_date', 'check_digit_personal_number',
  'check_digit_composite', 'not_expired', 'dates_plausible', 'issuing_state_known', 'printed_name_matches_mrz',
  'printed_date_of_birth_matches_mrz', 'printed_document_number_matches_mrz', 'portrait_face_present', 'mrz_read_confidence',
] as const;
export type DocumentCheckName = (typeof DOCUMENT_CHECKS)[number];

/** Each document authenticity signal as a reader says it (the console's checks list, the KYC report). */
export const DOCUMENT_CHECK_LABEL: Record<DocumentCheckName, string> = {
  mrz_found: 'MRZ found and read',
  check_digit_document_number: 'Check digit: document number',
  check_digit_date_of_birth: 'Check digit: date of birth',
  check_digit_expiry_date: 'Check digit: expiry date',
  check_digit_personal_number: 'Check digit: personal number',
  check_digit_composite: 'Check digit: composite',
  not_expired: 'Not expired',
  dates_plausible: 'Dates possible',
  issuing_state_known: 'Issuing state known',
  printed_name_matches_mrz: 'Printed name matches the MRZ',
  printed_date_of_birth_matches_mrz: 'Printed date of birth matches the MRZ',
  printed_document_number_matches_mrz: 'Printed number matches the MRZ',
  portrait_face_present: 'Portrait present',
  mrz_read_confidence: 'MRZ read with confidence',
};

export const DocumentCheck = z.object({
  check: z.enum(DOCUMENT_CHECKS),
  /** `pass` and `fail` are what the signal proves; `not_checked` when it could not be measured (no claim either way). */
  result: z.enum(['pass', 'fail', 'not_checked']),
  /** Whether a failure of this check makes `is_genuine` false. */
  critical: z.boolean(),
  detail: z.string(),
});
export type DocumentCheck = z.infer<typeof DocumentCheck>;

export const DocumentData = z.object({
  name: z.string(),
  /** MM/DD/YYYY */
  date_of_birth: z.string(),
  /** `passport`, `id_card`, `visa` or `travel_document`. */
  document_type: z.string(),
  document_number: z.string(),
  /** MM/DD/YYYY; empty when the document has none. */
  expiry_date: z.string(),
  /** ICAO code as in the MRZ (ISO 3166 alpha-3, or a code such as UTO for specimens). */
  issuing_country: z.string(),
  /** Added: the holder's nationality as the MRZ's ICAO code (like `issuing_country`); null when the zone has none that reads as letters. */
  nationality: z.string().nullable().meta({ description: 'Added: the holder\'s nationality, the ICAO code in the MRZ (ISO 3166 alpha-3 or an ICAO code such as UTO or GBD); null when none could be read.' }),
  /** Added: M, F or X (the MRZ's `<`, unspecified, which the printed page shows as X); null when the character read is none of these. */
  sex: z.enum(['M', 'F', 'X']).nullable().meta({ description: 'Added: M, F or X. X is the MRZ\'s unspecified sex (`<`), printed as X on the page. null when the character read is none of these.' }),
});
export type DocumentData = z.infer<typeof DocumentData>;

export const Authenticity = z.object({
  /** True when every critical check passed: the document is internally consistent and current. Not a forensic examination. */
  is_genuine: z.boolean(),
  /** 0-100: the share of the measurable signals that passed, weighted by how much each proves. */
  confidence: z.number(),
  /** Added: every signal, by name, with its result. */
  checks: z.array(DocumentCheck),
});
export type Authenticity = z.infer<typeof Authenticity>;

export const FaceMatch = z.object({
  /** 0-100: cosine similarity of the two face descriptors × 100. */
  similarity: z.number(),
  is_match: z.boolean(),
  /** Added: the calibrated threshold applied, 0-100. */
  threshold: z.number().optional(),
});

/** Added: each claimed value compared with the document (the values themselves are not echoed). */
export const ClaimComparison = z.object({
  field: z.enum(['name', 'date_of_birth']),
  result: z.enum(['match', 'partial', 'mismatch', 'not_compared']),
  detail: z.string(),
});
export type ClaimComparison = z.infer<typeof ClaimComparison>;

/** Added: the MRZ as read, for an analyst: each line, and each check digit with its result. */
export const MrzBlock = z.object({
  format: z.string(),
  /** The lines with every repair made: fields held to their ICAO alphabets, corrections the check digits proved. */
  lines: z.array(z.string()).meta({ description: 'The MRZ lines as repaired: each field held to its ICAO alphabet (a digit in a name read as the letter it resembles, a letter in a date as the digit), lengths and corrections proved by the check digits.' }),
  check_digits: z.array(z.object({ field: z.string(), valid: z.boolean() })),
  /** Printed (VIZ) fields located, compared with the MRZ; `review` when they differ as a misreading would (a letter or two, or letters lost from one reading) and nothing decides which is right. */
  printed: z.array(z.object({ field: z.string(), agreement: z.enum(['match', 'mismatch', 'review', 'not_located']) })),
  read_ms: z.number().int(),
});

/** `optional_data`: the zone's optional data (a personal number), which nothing printed confirms. */
export const REVIEW_FIELDS = ['surname', 'given_names', 'date_of_birth', 'document_number', 'nationality', 'issuing_country', 'expiry_date', 'optional_data'] as const;
/**
 * `unknown_code`: a state code read from the MRZ that is no known code (no check digit covers
 * it); `corrected_check_digit`: the document number's check digit holds only after a character
 * was changed, and no printed number confirms it; `low_confidence`: a character of the field was
 * read with low confidence, and the printed field was not located to confirm it; `not_located`: a
 * name (no check digit covers names) whose printed form was not found on the page (issue 37);
 * `check_digit_fails`: the field's check digit does not hold and the printed page does not confirm
 * the zone's reading, so a character read wrong cannot be told from one written wrong (never verified).
 */
export const REVIEW_REASONS = ['printed_differs', 'unreadable_character', 'unknown_code', 'corrected_check_digit', 'low_confidence', 'not_located', 'check_digit_fails'] as const;

/**
 * Added: a field the service could not settle on its own. The MRZ and the printed page disagree
 * and no check digit decides (names carry none; a date of birth's check digit covers a two-digit
 * year, not its century), or a character could not be read as a letter. The answer keeps the MRZ's
 * reading; an analyst compares the two on the image.
 */
export const ReviewFlag = z.object({
  field: z.enum(REVIEW_FIELDS),
  reason: z.enum(REVIEW_REASONS),
  detail: z.string(),
  /** The MRZ's reading (the one answered; a date as MM/DD/YYYY). */
  mrz: z.string(),
  /** The printed reading, when the field was located on the page. */
  printed: z.string().optional(),
}).meta({ description: 'Added: a field the MRZ and the printed page disagree on where no check digit decides (names carry none; a date of birth\'s check digit covers its two-digit year, not the century), or a character that could not be read as a letter. The answer keeps the MRZ reading; compare the two on the image.' });
export type ReviewFlag = z.infer<typeof ReviewFlag>;

const ImageField = z.string().min(1).meta({ description: 'Base64 JPEG, PNG or WebP (a data: prefix is accepted), at most 10 MB decoded.' });

export const IdentityRequest = z.object({
  selfie_b64: ImageField,
  id_front_b64: ImageField,
  id_back_b64: ImageField.optional(),
  name: z.string().max(200).optional(),
  /** YYYY-MM-DD or MM/DD/YYYY. */
  date_of_birth: z.string().max(20).optional(),
  address: z.string().max(500).optional(),
});
export type IdentityRequest = z.input<typeof IdentityRequest>;

const IdentityCore = {
  success: z.boolean(),
  verified: z.boolean(),
  verification_id: z.string(),
  confidence: z.number(),
  face_match: FaceMatch,
  document_data: DocumentData.nullable(),
  authenticity: Authenticity,
  timestamp: z.string(),
  error: z.string().optional(),
  /** Added: why it was not verified, as a code (e.g. `face_mismatch`, `document_unreadable`, `document_expired`). */
  failure_reason: z.string().optional(),
  credits_consumed: z.number().int(),
  credits_remaining: z.number().int(),
  claims: z.array(ClaimComparison).optional(),
  mrz: MrzBlock.nullable().optional(),
  /** Added: fields for an analyst to settle (empty when none); any makes `verified` false. */
  review: z.array(ReviewFlag).optional(),
  selfie_analysis: FaceAnalysisBlock.optional(),
  simulated: z.boolean().optional(),
};

export const IdentityResult = z.object(IdentityCore);
export type IdentityResult = z.infer<typeof IdentityResult>;

export const ComplianceRequest = z.object({
  selfie_b64: ImageField,
  id_front_b64: ImageField,
  id_back_b64: ImageField.optional(),
  gender: z.string().max(20).optional(),
});
export type ComplianceRequest = z.input<typeof ComplianceRequest>;

export const FoundRecord = z.object({
  name: z.string(),
  category: z.string(),
  match_score: z.number(),
  /** Added: the list it is on and why it matched. */
  list: z.string().optional(),
  reasons: z.array(z.string()).optional(),
});

export const ComplianceScreening = z.object({
  performed: z.boolean(),
  status: z.enum(['Cleared', 'Potential Match']),
  total_hits: z.number().int(),
  message: z.string(),
  /** Only with hits. */
  found_records: z.array(FoundRecord).optional(),
  timestamp: z.string(),
});

export const ComplianceResult = z.object({ ...IdentityCore, compliance_screening: ComplianceScreening });
export type ComplianceResult = z.infer<typeof ComplianceResult>;

export const ReportRequest = z.object({
  verification_id: z.string().min(1).max(100),
  report_password: z.string().min(1).max(128).optional(),
});
export type ReportRequest = z.input<typeof ReportRequest>;

export const ReportResult = z.object({
  success: z.boolean(),
  pdf_base64: z.string(),
  size_bytes: z.number().int(),
  encrypted: z.boolean(),
  filename: z.string(),
});
export type ReportResult = z.infer<typeof ReportResult>;
