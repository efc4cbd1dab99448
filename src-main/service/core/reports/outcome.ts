// The one mapping from a ledger row's (status, error_code) to the class reports count it in.
// Products write their own status words ('PASS', 'passed', 'success', 'completed', 'id_required',
// ...); reports need four classes. Defined in docs/reports.md ("Outcome classes").
export const OUTCOMES = ['PASS', 'FAIL', 'ERROR', 'PENDING'] as const;
export type OutcomeClass = (typeof OUTCOMES)[number];

/** Error codes that mean the service could not do the check, whatever the subject did. */
export const SERVICE_ERROR_CODES: ReadonlySet<string> = new Set([
  'compliance_provider_unavailable', 'provider_unavailable', 'document_unreadable', 'analysis_failed', 'document_reader_failed',
]);

const PASS_STATUSES: ReadonlySet<string> = new Set(['PASS', 'passed', 'success', 'completed', 'verified']);
const FAIL_STATUSES: ReadonlySet<string> = new Set(['FAIL', 'failed']);
/** Flows waiting for a later step or a person (age step 2 awaiting the ID, a hosted session). */
const PENDING_STATUSES: ReadonlySet<string> = new Set(['id_required', 'pending', 'pending_approval', 'created', 'opened', 'processing']);

export function outcomeOf(status: string, errorCode: string | null): OutcomeClass {
  if (errorCode && SERVICE_ERROR_CODES.has(errorCode)) return 'ERROR';
  if (PENDING_STATUSES.has(status)) return 'PENDING';
  if (FAIL_STATUSES.has(status)) return 'FAIL';
  // A screening that completed with an uncleared match needs review: it did not pass.
  if (PASS_STATUSES.has(status)) return errorCode ? 'FAIL' : 'PASS';
  // A status no product writes today is not counted as a pass.
  return 'ERROR';
}
