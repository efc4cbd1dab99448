// What the reports count and what they call it (issue 26): the one definition the reporting API,
// the PDF and CSV exports and the console's Reports screen all use, so that a figure has one
// value and one name wherever it is read. The formulas are explained in docs/reports.md ("What is
// counted"); the choices in docs/decisions.md ("Reports that agree").
import { PRODUCTS, type Billable, type Environment, type Product } from './catalog';
import { DISPOSITIONS, type Disposition } from './contracts/review';
import type { ListKind } from './contracts/screening';

// ---- Which ledger rows are what ----

/** Verifications: the four products. Their `confidence` is a verification confidence. */
export const VERIFICATION_PRODUCTS: readonly Product[] = PRODUCTS;
/** Screening checks: screenings and rescreenings. Their `confidence` column holds a risk score. */
export const SCREENING_OPERATIONS = ['screen', 'rescreen'] as const;
export type ScreeningOperation = (typeof SCREENING_OPERATIONS)[number];
/** Regulatory coverage: everything checked against the lists (KYC plus, screenings, rescreenings). */
export const COVERAGE_OPERATIONS: readonly Billable[] = ['compliance', ...SCREENING_OPERATIONS];

export const isVerification = (operation: string): operation is Product => (VERIFICATION_PRODUCTS as readonly string[]).includes(operation);
export const isScreening = (operation: string): operation is ScreeningOperation => (SCREENING_OPERATIONS as readonly string[]).includes(operation);

/**
 * Whether a ledger row is charged: live keys that are not demo keys, for work that is billable
 * (a service error, a demo's simulated answer, a step already paid for is not). Credits figures
 * are the credits the ledger rows carry, so they follow this rule.
 */
export function charged(row: { env: Environment; demo: boolean; billable: boolean }): boolean {
  return row.env === 'live' && !row.demo && row.billable;
}

// ---- Outcome classes ----

/** The one mapping from a ledger row's (status, error_code) to the class reports count it in. */
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

// ---- Rates ----

export const round1 = (x: number): number => Math.round(x * 10) / 10;
/** A share on a 0-100 scale with one decimal; 0 over nothing. */
export const rate = (part: number, whole: number): number => (whole > 0 ? round1((part / whole) * 100) : 0);
/** Passed among decided checks: service errors and pending flows do not lower it. */
export const passRate = (pass: number, fail: number): number => rate(pass, pass + fail);

/** The middle value (the mean of the middle pair); null for none. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

// ---- Review decisions on screenings (audit rows) ----

/** The audit actions that make, wait for or take away a screening's disposition (core/review). */
export const DECISION_ACTIONS = [
  'disposition.set', 'disposition.removed', 'clearance.requested', 'clearance.approved', 'clearance.withdrawn', 'clearance.sent_back',
] as const;
export type DecisionAction = (typeof DECISION_ACTIONS)[number];

export interface DecisionEvent {
  action: DecisionAction;
  disposition: Disposition | null;
  /** ISO 8601. */
  at: string;
}

export interface StandingDecision {
  /** The disposition in effect after the last event; null when none is. */
  disposition: Disposition | null;
  /**
   * A clearing that waits for a second person's approval: the same clearances as the approval
   * queue and Home count (state `pending`), for the screenings a report covers.
   */
  awaiting: boolean;
  /** When a disposition first took effect (a clearing takes effect when approved); null if never. */
  firstDecidedAt: string | null;
}

/** What a screening's decision events (in the order they were recorded) leave in effect. */
export function standingDecision(events: readonly DecisionEvent[]): StandingDecision {
  let disposition: Disposition | null = null;
  let awaiting = false;
  let firstDecidedAt: string | null = null;
  for (const e of events) {
    if (e.action === 'disposition.set' || e.action === 'clearance.approved') {
      disposition = e.action === 'clearance.approved' ? 'cleared_false_positive' : e.disposition;
      awaiting = false;
      if (disposition !== null) firstDecidedAt ??= e.at;
    } else if (e.action === 'disposition.removed') {
      disposition = null;
      awaiting = false;
    } else if (e.action === 'clearance.requested') {
      // Until a second person approves, the clearing waits and no disposition is in effect.
      disposition = null;
      awaiting = true;
    } else {
      // Withdrawn by a new decision, or sent back to the analyst (the row is undecided again): the
      // clearance no longer waits, exactly when the approval queue stops listing it.
      awaiting = false;
    }
  }
  return { disposition, awaiting, firstDecidedAt };
}

export const emptyDispositions = (): Record<Disposition, number> => Object.fromEntries(DISPOSITIONS.map((d) => [d, 0])) as Record<Disposition, number>;

// ---- Names ----

/** Products and billable operations as everyone reads them: console, PDF and CSV alike. */
export const PRODUCT_LABEL: Record<Billable, string> = {
  human: 'Liveness', age: 'Age', identity: 'Identity', compliance: 'KYC plus', screen: 'Screening', rescreen: 'Rescreen',
};

export const LIST_KIND_LABEL: Record<ListKind, string> = { sanctions: 'Sanctions', pep: 'PEP', rca: 'RCA', wanted: 'Wanted' };

export const DISPOSITION_LABEL: Record<Disposition, string> = { cleared_false_positive: 'Cleared', escalated: 'Escalated', needs_info: 'Needs info' };
export const AWAITING_APPROVAL_LABEL = 'Awaiting a second approval';

/** The names of the report's figures where two places print them. */
export const FIGURE_LABEL = {
  verifications: 'Verifications',
  screeningChecks: 'Screening checks',
  coverage: 'List checks',
  /**
   * compliance_pass_rate of regulatory coverage: list checks that came out clear (no list hit, the
   * KYC plus identity verified) of those decided. Not a "pass rate": a list check is not passed.
   */
  clearRate: 'Checks clear',
  hitRate: 'Hit rate',
  decided: 'Decided',
  medianDecision: 'Median time to decision',
} as const;

/** A label for any operation code: the product's name, or the code itself when it is none. */
export function operationLabel(code: string): string {
  return (PRODUCT_LABEL as Record<string, string>)[code] ?? code;
}

/** A list kind's name, or the code itself. */
export function listKindLabel(code: string): string {
  return (LIST_KIND_LABEL as Record<string, string>)[code] ?? code;
}

/** "7 screenings, 3 rescreens": the screening volume as both places say it. */
export function screeningVolumeText(s: { screenings: number; rescreenings: number }): string {
  const n = (x: number) => x.toLocaleString('en-US');
  return `${n(s.screenings)} ${s.screenings === 1 ? 'screening' : 'screenings'}, ${n(s.rescreenings)} ${s.rescreenings === 1 ? 'rescreen' : 'rescreens'}`;
}

/** "KYC plus 2 + screening checks 10 = 12": what the list checks (regulatory coverage) are made of. */
export function coverageText(kycPlus: number, screeningChecks: number): string {
  const n = (x: number) => x.toLocaleString('en-US');
  return `KYC plus ${n(kycPlus)} + screening checks ${n(screeningChecks)} = ${n(kycPlus + screeningChecks)}`;
}

/** A time to decision: "45 s", "12 min", "2 h 5 min", "3 d 4 h"; a dash for none. */
export function durationLabel(ms: number | null): string {
  if (ms === null) return '—';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const min = Math.floor(s / 60);
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 24) return `${h} h ${min % 60} min`;
  return `${Math.floor(h / 24)} d ${h % 24} h`;
}
