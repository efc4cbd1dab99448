// Stateless screening and rescreening (spec: "Stateless screening request/response").
// Fields the spec leaves open (matches items, list versions, rescreen carry-over of cleared
// matches) are documented in docs/decisions.md.
import { z } from 'zod';
import { BirthDate } from './dates';

export const LIST_KINDS = ['sanctions', 'pep', 'rca', 'wanted'] as const;
export type ListKind = (typeof LIST_KINDS)[number];

export const RESCREEN_REASONS = ['periodic_rescreen', 'manual_review', 'customer_update', 'regulatory_refresh', 'webhook_retry'] as const;
export const RISK_LEVELS = ['low', 'medium', 'high'] as const;
export const RISK_CHANGES = ['risk_increased', 'risk_decreased', 'risk_unchanged', 'unknown_without_prior_result'] as const;
export type RiskChange = (typeof RISK_CHANGES)[number];


const Name = z.string().trim().min(1).max(200);

export const Subject = z.object({
  type: z.literal('individual'),
  first_name: Name,
  last_name: Name,
  middle_name: z.string().trim().max(200).optional(),
  date_of_birth: BirthDate.optional(),
  gender: z.string().trim().max(32).optional(),
  country: z.string().trim().length(2).regex(/^[A-Za-z]{2}$/).transform((s) => s.toUpperCase()).optional(),
});
export type Subject = z.output<typeof Subject>;

const Metadata = z.record(z.string().max(64), z.union([z.string().max(500), z.number(), z.boolean(), z.null()])).refine((m) => Object.keys(m).length <= 50);

const ScreeningOptions = z.object({
  lists: z.array(z.enum(LIST_KINDS)).min(1).max(4).optional(),
  provider: z.literal('default').optional(),
});

export const ScreenRequest = z.object({
  client_reference_id: z.string().max(200).optional(),
  subject: Subject,
  screening: ScreeningOptions.optional(),
  metadata: Metadata.optional(),
});
export type ScreenRequest = z.input<typeof ScreenRequest>;

/** A match the analyst cleared before: it stays cleared while its list record is unchanged. */
export const ClearedMatch = z.object({ entity_id: z.string().max(200), record_hash: z.string().max(64) });
export type ClearedMatch = z.infer<typeof ClearedMatch>;

export const PreviousResultSummary = z.object({
  risk_score: z.number().int().min(0).max(100),
  risk_level: z.enum(RISK_LEVELS),
  flags: z.array(z.string().max(64)).max(50),
  cleared_matches: z.array(ClearedMatch).max(200).optional(),
  matcher_version: z.string().max(64).optional(),
});
export type PreviousResultSummary = z.infer<typeof PreviousResultSummary>;

export const RescreenRequest = ScreenRequest.extend({
  previous_screening_id: z.string().min(1).max(100),
  previous_result_summary: PreviousResultSummary.optional(),
  screening: ScreeningOptions.extend({ reason: z.enum(RESCREEN_REASONS).default('periodic_rescreen') }).optional(),
});
export type RescreenRequest = z.input<typeof RescreenRequest>;

export const MatchExplanation = z.object({
  /** The list name (alias) that matched, as published, and its grade. */
  matched_name: z.string(),
  matched_name_quality: z.enum(['strong', 'weak']),
  /** Name score before qualifiers, 0..1. */
  name_score: z.number(),
  /** Every part of the subject's name is in the listed name as spelled (no guessed reading). */
  exact_name: z.boolean(),
  /** What agrees and what does not, in words: "name matches; date of birth differs". */
  summary: z.string(),
  /** The words as written (non-Latin words in their own characters), and how a word in another script was read. */
  alignment: z.array(z.object({ query: z.string().nullable(), candidate: z.string().nullable(), method: z.string(), similarity: z.number(), romanisation: z.string().nullable() })),
  qualifiers: z.array(z.object({ factor: z.string(), effect: z.number(), detail: z.string() })),
});
export type MatchExplanation = z.infer<typeof MatchExplanation>;

export const MATCH_STRENGTHS = ['strong', 'possible', 'weak'] as const;

/** One list's record of the matched person: a person on several lists is one match naming each (docs/decisions.md). */
export const MatchListing = z.object({
  entity_id: z.string(),
  source: z.string(),
  source_list: z.string(),
  /** The record's primary name as the list publishes it. */
  name: z.string(),
  programs: z.array(z.string()),
  listed_on: z.string().nullable(),
  /** This record's own hash. */
  record_hash: z.string(),
});
export type MatchListing = z.infer<typeof MatchListing>;

export const ScreeningMatch = z.object({
  entity_id: z.string(),
  list: z.enum(LIST_KINDS),
  source: z.string(),
  source_list: z.string(),
  schema: z.string(),
  name: z.string(),
  aliases: z.array(z.string()),
  /** Match score 0-100 after qualifiers. */
  score: z.number(),
  /** strong: corroborated (nothing contradicts the record); possible: anything else reported. */
  strength: z.enum(MATCH_STRENGTHS),
  /** The spec's risk level this match alone carries: high only when strong. */
  risk_level: z.enum(['medium', 'high']),
  programs: z.array(z.string()),
  dates_of_birth: z.array(z.string()),
  countries: z.array(z.string()),
  /** When the list says the record was listed or designated ('YYYY-MM-DD'); null where it does not say. */
  listed_on: z.string().nullable(),
  /** The record's hash; for a match naming several records, a digest of every listing's id and hash. */
  record_hash: z.string(),
  cleared: z.boolean(),
  /** Every list record of the matched person, this match's own first. */
  listings: z.array(MatchListing),
  explanation: MatchExplanation,
});
export type ScreeningMatch = z.infer<typeof ScreeningMatch>;

/** One loaded list's version, given with every screening response (docs/decisions.md). */
export const ListVersion = z.object({
  source: z.string(),
  kind: z.enum(LIST_KINDS),
  list_date: z.string().nullable(),
  retrieval_date: z.string().nullable(),
  sha256: z.string(),
  /** The list's own publication date (list_date, else retrieval_date), YYYY-MM-DD; null when neither is known. */
  published_at: z.string().nullable(),
  /** published_at is older than the organisation's window for the list's kind (settings: list freshness), at answer time. */
  stale: z.boolean(),
});
export type ListVersion = z.infer<typeof ListVersion>;

/** Characters of a list's SHA-256 shown where files and reports say what was screened against. */
export const LIST_CHECKSUM_PREFIX = 12;

/**
 * One list as result files and exports name it: source, publication date, checksum prefix, and
 * "stale" when it was older than the organisation's window, e.g.
 * `us_ofac_sdn published 2024-05-03 sha256:551994af81b9 stale`.
 */
export function listVersionLabel(v: Pick<ListVersion, 'source' | 'published_at' | 'sha256' | 'stale'>): string {
  return `${v.source} published ${v.published_at ?? 'undated'} sha256:${v.sha256.slice(0, LIST_CHECKSUM_PREFIX)}${v.stale ? ' stale' : ''}`;
}

export const RISK_DECISIONS = ['clear', 'review', 'high_risk_review'] as const;

export const Risk = z.object({
  score: z.number().int().min(0).max(100),
  level: z.enum(RISK_LEVELS),
  decision: z.enum(RISK_DECISIONS),
  reasons: z.array(z.string()),
});
export type Risk = z.infer<typeof Risk>;

export const DataRetention = z.object({
  input_payload_stored: z.literal(false),
  result_payload_stored: z.literal(false),
  raw_provider_response_stored: z.literal(false),
  biometric_media_stored: z.literal(false),
  retention_model: z.literal('ephemeral_processing_only'),
});

export const ScreeningResponse = z.object({
  id: z.string(),
  object: z.literal('compliance.screening'),
  livemode: z.boolean(),
  /** Unix time, seconds. */
  created: z.number().int(),
  status: z.literal('completed'),
  client_reference_id: z.string().nullable(),
  subject_type: z.literal('individual'),
  provider: z.object({ normalized: z.literal(true), raw_response_included: z.literal(false) }),
  screening: z.object({
    lists_checked: z.array(z.enum(LIST_KINDS)),
    screened_at: z.string(),
    search_mode: z.literal('standard'),
    provider_reference_id: z.string().nullable(),
    list_versions: z.array(ListVersion),
    /** The name matcher's version (MATCHER_VERSION): a risk change from new rules is told apart from one from new lists. */
    matcher_version: z.string(),
  }),
  risk: Risk,
  matches: z.array(ScreeningMatch),
  flags: z.array(z.string()),
  data_retention: DataRetention,
  metadata: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  rescreen: z
    .object({
      previous_screening_id: z.string(),
      reason: z.enum(RESCREEN_REASONS),
      risk_change: z.enum(RISK_CHANGES),
      /** Present when the previous summary named its matcher: whether this screening used another. */
      matcher_changed: z.boolean().optional(),
    })
    .optional(),
});
export type ScreeningResponse = z.infer<typeof ScreeningResponse>;
