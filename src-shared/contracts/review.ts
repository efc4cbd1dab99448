// Risk review of a batch rescreen (session-authenticated; not in the spec, see docs/decisions.md):
// the analyst's dispositions are recorded as audit rows, and clearing a strong sanctions match
// takes a reason and, with four-eyes on, a second person's approval. Subject data and notes stay
// out of storage: requests carry ids, codes and whether a note exists, and a clearing that waits
// carries what the analyst saw, which the service holds in memory only for the approver.
import { z } from 'zod';
import { Email } from './accounts';
import { LIST_KINDS, type ListKind } from './screening';

export const DISPOSITIONS = ['cleared_false_positive', 'escalated', 'needs_info'] as const;
export type Disposition = (typeof DISPOSITIONS)[number];

/** Why a strong sanctions match is a false positive. `other` needs a note (kept in the console). */
export const REASON_CODES = [
  'different_dob', 'different_nationality', 'different_person_other_identifiers', 'name_only_common_name', 'list_record_outdated', 'other',
] as const;
export type ReasonCode = (typeof REASON_CODES)[number];

/** A sanctions match at or above this score is strong (docs/decisions.md: strong ≥ 85). */
export const STRONG_SANCTIONS_SCORE = 85;

/** Clearing a row whose open matches include a strong sanctions match asks for a reason (and maybe approval). */
export function hasStrongSanctionsMatch(matches: readonly { list: ListKind; score: number }[]): boolean {
  return matches.some((m) => m.list === 'sanctions' && m.score >= STRONG_SANCTIONS_SCORE);
}

/**
 * What a match's evidence says, as flags only (no subject data): the date of birth (exact, the
 * year or a partial agreement, differs, none given), the country (listed, differs, none given) and
 * whether the name is exact. Derived from the match explanation's qualifiers by `evidenceOf`, in
 * the batch worker (signed into the review token) and in the console (sent back with a decision).
 */
export const MatchEvidence = z.object({
  dob: z.enum(['exact', 'year', 'differs', 'none']),
  country: z.enum(['match', 'differs', 'none']),
  exact_name: z.boolean(),
});
export type MatchEvidence = z.infer<typeof MatchEvidence>;

const DOB_EVIDENCE: Record<string, MatchEvidence['dob']> = {
  dob_exact: 'exact', dob_year: 'year', dob_flipped: 'year', dob_same_year: 'year', dob_near: 'differs', dob_mismatch: 'differs',
};

export function evidenceOf(m: { explanation: { exact_name: boolean; qualifiers: readonly { factor: string }[] } }): MatchEvidence {
  const factors = m.explanation.qualifiers.map((q) => q.factor);
  const dobFactor = factors.find((f) => f in DOB_EVIDENCE);
  return {
    dob: dobFactor ? DOB_EVIDENCE[dobFactor]! : 'none',
    country: factors.includes('country_match') ? 'match' : factors.includes('country_mismatch') ? 'differs' : 'none',
    exact_name: m.explanation.exact_name,
  };
}

/** A clearing reason the evidence of a match contradicts (docs/decisions.md, issue 23). */
export const CONTRADICTIONS = ['dob_matches_exactly', 'country_matches', 'exact_name_and_dob', 'name_only_dob_agrees', 'name_only_country_matches'] as const;
export type Contradiction = (typeof CONTRADICTIONS)[number];

export const CONTRADICTION_TEXT: Record<Contradiction, string> = {
  dob_matches_exactly: 'The reason is "different date of birth" but a listed date of birth matches exactly',
  country_matches: 'The reason is "different nationality" but the subject\'s country is listed',
  exact_name_and_dob: 'The reason is "different person" but the full name is exact and the date of birth matches exactly',
  name_only_dob_agrees: 'The reason is "name-only match on a common name" but the date of birth agrees with a listed one',
  name_only_country_matches: 'The reason is "name-only match on a common name" but the subject\'s country is listed',
};

/**
 * The one rule, used by the service (refuses without an override note) and the console (shows it
 * before submit): the first contradiction between a clearing reason and any match it clears.
 */
export function reasonContradiction(reason: ReasonCode | null, matches: readonly { evidence: MatchEvidence }[]): Contradiction | null {
  if (reason === 'different_dob' && matches.some((m) => m.evidence.dob === 'exact')) return 'dob_matches_exactly';
  if (reason === 'different_nationality' && matches.some((m) => m.evidence.country === 'match')) return 'country_matches';
  if (reason === 'different_person_other_identifiers' && matches.some((m) => m.evidence.exact_name && m.evidence.dob === 'exact')) return 'exact_name_and_dob';
  // "Name only" claims nothing but the name agrees: any agreement of the date of birth (exact, or
  // the year: same year, day and month swapped) or the country corroborates the match.
  if (reason === 'name_only_common_name' && matches.some((m) => m.evidence.dob === 'exact' || m.evidence.dob === 'year')) return 'name_only_dob_agrees';
  if (reason === 'name_only_common_name' && matches.some((m) => m.evidence.country === 'match')) return 'name_only_country_matches';
  return null;
}

/** The open (not cleared) matches of a batch row, as the row's review token signed them. */
export const ReviewMatch = z.object({
  entity_id: z.string().min(1).max(200),
  record_hash: z.string().regex(/^[0-9a-f]{1,64}$/),
  score: z.number().min(0).max(100),
  list: z.enum(LIST_KINDS),
  evidence: MatchEvidence,
});
export type ReviewMatch = z.infer<typeof ReviewMatch>;

/** The most an analyst's note may hold (the clearing dialog's limit). */
export const ANALYST_NOTE_MAX = 2000;

/**
 * What the analyst saw of a row they clear, as their console holds it: the customer (from the
 * batch row) and each listed person matched. Sent with a clearing that may wait for a second
 * person so the approver sees what the analyst saw; the service holds it in memory only, while
 * the analyst's batch is open (docs/decisions.md, issue 36), never in SQLite or a log.
 */
export const SeenCustomer = z.object({
  name: z.string().trim().min(1).max(300),
  /** As the row gives it (YYYY-MM-DD, or a partial date). */
  date_of_birth: z.string().max(32).nullable(),
  country: z.string().max(64).nullable(),
  client_reference_id: z.string().max(200).nullable(),
});
export type SeenCustomer = z.infer<typeof SeenCustomer>;

/** A listed person (public list data) as the analyst's result showed it. */
export const SeenListed = z.object({
  entity_id: z.string().min(1).max(200),
  name: z.string().max(500),
  /** The list it is on, e.g. `us_ofac_sdn`. */
  source: z.string().max(100),
  programs: z.array(z.string().max(300)).max(20),
  dates_of_birth: z.array(z.string().max(32)).max(10),
  countries: z.array(z.string().max(64)).max(20),
  listed_on: z.string().max(32).nullable(),
});
export type SeenListed = z.infer<typeof SeenListed>;

export const SeenByAnalyst = z.object({
  customer: SeenCustomer,
  /** Per cleared match, by entity id (those the review token does not cover are dropped). */
  listed: z.array(SeenListed).max(5),
  /** The analyst's note (null for none); `has_note` says the same. */
  note: z.string().trim().max(ANALYST_NOTE_MAX).nullable(),
});
export type SeenByAnalyst = z.infer<typeof SeenByAnalyst>;

export const DispositionRequest = z
  .object({
    batch_id: z.string().regex(/^bat_[A-Za-z0-9]{16}$/),
    row: z.number().int().min(1).max(10_000_000),
    screening_id: z.string().regex(/^scr_[A-Za-z0-9]{24}$/),
    /** As the batch result echoed it: recorded only as an HMAC, so the log can be searched by it. */
    client_reference_id: z.string().max(200).nullable().default(null),
    matches: z.array(ReviewMatch).max(5),
    /** From the batch result line: proves the reference and matches are the ones the service found for this row. */
    review_token: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
    /** null takes the row's disposition away. */
    disposition: z.enum(DISPOSITIONS).nullable(),
    reason_code: z.enum(REASON_CODES).nullable().default(null),
    /** Whether the analyst wrote a note; its text travels only in `seen`, held in memory for the approver. */
    has_note: z.boolean().default(false),
    /**
     * The analyst wrote an override note for a reason the evidence contradicts (its text stays in
     * the console); such a clearing always waits for a second person's approval.
     */
    override_note: z.boolean().default(false),
    /**
     * With a clearing: what the analyst saw (customer, listed people, note), for the approver.
     * Held in service memory while the analyst's batch is open, only when the clearing waits for
     * a second person; dropped at once otherwise. Never stored.
     */
    seen: SeenByAnalyst.nullable().default(null),
  })
  .superRefine((r, ctx) => {
    if (r.seen !== null && r.disposition !== 'cleared_false_positive') {
      ctx.addIssue({ code: 'custom', path: ['seen'], message: 'only with cleared_false_positive' });
    }
    if (r.seen !== null && (r.seen.note !== null && r.seen.note !== '') !== r.has_note) {
      ctx.addIssue({ code: 'custom', path: ['seen', 'note'], message: 'a note is sent exactly when has_note is true' });
    }
    if (r.reason_code !== null && r.disposition !== 'cleared_false_positive') {
      ctx.addIssue({ code: 'custom', path: ['reason_code'], message: 'only with cleared_false_positive' });
    }
    if (r.reason_code === 'other' && !r.has_note) {
      ctx.addIssue({ code: 'custom', path: ['has_note'], message: 'a note is needed with the reason other' });
    }
  });
export type DispositionRequest = z.input<typeof DispositionRequest>;

/**
 * pending: waits for a second person; approved: counts as cleared; withdrawn: a new decision on
 * the row replaced it; sent_back: an owner or admin sent it back to the analyst with a note (the
 * row is undecided again).
 */
export const CLEARANCE_STATES = ['pending', 'approved', 'withdrawn', 'sent_back'] as const;
export type ClearanceState = (typeof CLEARANCE_STATES)[number];

export const Clearance = z.object({
  id: z.string(),
  state: z.enum(CLEARANCE_STATES),
  batch_id: z.string(),
  row: z.number().int(),
  reason_code: z.enum(REASON_CODES),
  requested_by: z.string(),
  requested_at: z.string(),
  approved_by: z.string().nullable(),
  approved_at: z.string().nullable(),
  /** Set when the reason contradicts the evidence and the analyst overrode it with a note. */
  override: z.enum(CONTRADICTIONS).nullable().default(null),
  /** Who sent it back to the analyst, and when (state sent_back). */
  sent_back_by: z.string().nullable().default(null),
  sent_back_at: z.string().nullable().default(null),
});
export type Clearance = z.infer<typeof Clearance>;

export const DispositionResponse = z.object({
  /** recorded: it counts now; pending_approval: a cleared strong sanctions match waits for a second person. */
  status: z.enum(['recorded', 'pending_approval', 'removed']),
  disposition: z.enum(DISPOSITIONS).nullable(),
  reason_code: z.enum(REASON_CODES).nullable(),
  decided_by: z.string(),
  decided_at: z.string(),
  clearance: Clearance.nullable(),
});
export type DispositionResponse = z.infer<typeof DispositionResponse>;

/** The approver signs in at the analyst's desk: their own e-mail and password. */
export const ApproveRequest = z.object({ email: Email, password: z.string().min(1).max(256) });
export type ApproveRequest = z.infer<typeof ApproveRequest>;

export const ApproveResponse = z.object({ clearance: Clearance });
export type ApproveResponse = z.infer<typeof ApproveResponse>;

/**
 * The approval queue (issue 26): owners and admins approve or send back, in their own session,
 * the clearances of their organisation waiting for a second person. An item holds what the
 * service keeps of a clearance (ids, codes, scores and evidence flags) and, while the analyst's
 * batch is open, what the analyst saw, from memory (issue 36). Answered `Cache-Control: no-store`.
 */
export const ApprovalMatch = z.object({
  entity_id: z.string(),
  /** null for a clearance asked for before the queue existed (only its entity was kept). */
  list: z.enum(LIST_KINDS).nullable(),
  score: z.number().nullable(),
  evidence: MatchEvidence.nullable(),
});
export type ApprovalMatch = z.infer<typeof ApprovalMatch>;

export const ApprovalItem = z.object({
  id: z.string(),
  batch_id: z.string(),
  row: z.number().int(),
  screening_id: z.string(),
  requested_by: z.object({ user_id: z.number().int(), email: z.string().nullable(), name: z.string().nullable() }),
  requested_at: z.string(),
  reason_code: z.enum(REASON_CODES),
  override: z.enum(CONTRADICTIONS).nullable(),
  /** Whether the analyst wrote a note (its text stays in their console). */
  has_note: z.boolean(),
  matches: z.array(ApprovalMatch),
  /** The viewer asked for it: another owner or admin must approve it. */
  yours: z.boolean(),
  /**
   * What the analyst saw (the customer, the listed people, their note), from service memory while
   * the analyst's batch is open; null once it has ended (they opened another batch, signed out,
   * 12 hours passed, the service restarted) or when their console sent none.
   */
  seen: SeenByAnalyst.nullable(),
});
export type ApprovalItem = z.infer<typeof ApprovalItem>;

export const ApprovalQueue = z.object({
  clearances: z.array(ApprovalItem),
  /**
   * How many clearances wait (state pending): the one "awaiting approval" count Home shows too
   * (the list stops at 500; this does not).
   */
  waiting: z.number().int().min(0),
});
export type ApprovalQueue = z.infer<typeof ApprovalQueue>;

/** The most a send-back note may hold. */
export const SEND_BACK_NOTE_MAX = 2000;

export const SendBackRequest = z.object({
  /** Why it goes back: for the analyst only, held in service memory with their batch, never stored. */
  note: z.string().trim().min(1, 'Say why it goes back').max(SEND_BACK_NOTE_MAX),
});
export type SendBackRequest = z.input<typeof SendBackRequest>;

export const SendBackResponse = z.object({
  clearance: Clearance,
  /**
   * The note is held for the analyst (false when the service no longer holds anything for their
   * batch: it started another, or the service restarted; the clearance is sent back all the same).
   */
  note_kept: z.boolean(),
});
export type SendBackResponse = z.infer<typeof SendBackResponse>;

/** What became of the clearances an analyst asked for in one batch, with a send-back note while it is held. */
export const ClearanceOutcome = Clearance.extend({
  /** The approver's note with a sent-back clearance, from service memory; null once it is gone. */
  note: z.string().nullable(),
});
export type ClearanceOutcome = z.infer<typeof ClearanceOutcome>;

export const ClearanceOutcomesQuery = z.object({ batch_id: z.string().regex(/^bat_[A-Za-z0-9]{16}$/) });

export const ClearanceOutcomes = z.object({ clearances: z.array(ClearanceOutcome) });
export type ClearanceOutcomes = z.infer<typeof ClearanceOutcomes>;

export const OrgSettings = z.object({
  /** Clearing a strong sanctions match counts only once an owner or admin other than the analyst approves. */
  four_eyes: z.boolean(),
});
export type OrgSettings = z.infer<typeof OrgSettings>;

export const UpdateSettingsRequest = OrgSettings;
export type UpdateSettingsRequest = z.infer<typeof UpdateSettingsRequest>;
