// Console batch rescreen (session-authenticated; not in the spec, see docs/decisions.md):
// rows go up in NDJSON chunks, results stream back as NDJSON, nothing is kept by the service.
// Each analyst has at most one open batch; owners and admins see and end every open batch of
// their organisation (issue 26).
import { z } from 'zod';
import { ENVIRONMENTS } from '../catalog';
import {
  LIST_KINDS, ListVersion, PreviousResultSummary, RESCREEN_REASONS, RISK_CHANGES, Risk, ScreeningMatch, Subject,
} from './screening';

export const BATCH_LIMITS = {
  rows: 1_000_000, rowsPerChunk: 5_000, matchesPerRow: 5,
  /** Open batches in one organisation at once (one per analyst besides): docs/decisions.md, "Batches per analyst". */
  openPerOrganization: 10,
  /** A batch with no chunk for this long ends by itself (audited as `batch.expired`). */
  idleMinutes: 10,
} as const;

/** Who ended a batch its analyst did not end: an owner or admin (Open batches), or the idle expiry. */
export const BATCH_ENDED_BY = ['administrator', 'expiry'] as const;
export type BatchEndedBy = (typeof BATCH_ENDED_BY)[number];

/** What the analyst is told, by the service (a refused chunk) and the console (a stopped run). */
export const BATCH_ENDED_TEXT: Record<BatchEndedBy, string> = {
  administrator: 'Ended by an administrator: an owner or admin of your organization ended this batch.',
  expiry: `Ended after ${BATCH_LIMITS.idleMinutes} minutes without activity.`,
};

export const CreateBatchRequest = z.object({
  env: z.enum(ENVIRONMENTS),
  total_rows: z.number().int().min(1).max(BATCH_LIMITS.rows),
  lists: z.array(z.enum(LIST_KINDS)).min(1).max(4).optional(),
  reason: z.enum(RESCREEN_REASONS).default('periodic_rescreen'),
  /** Live batches only: the total cost the analyst confirmed (must equal the preview). */
  confirm_credits: z.number().int().min(0).optional(),
});
export type CreateBatchRequest = z.input<typeof CreateBatchRequest>;

export const BatchPreview = z.object({
  env: z.enum(ENVIRONMENTS),
  rows: z.number().int(),
  credits_per_row: z.number().int(),
  total_credits: z.number().int(),
  balance: z.number().int(),
  sufficient: z.boolean(),
});
export type BatchPreview = z.infer<typeof BatchPreview>;

export const BATCH_STATES = ['open', 'cancelled', 'finished'] as const;

export const BatchInfo = z.object({
  id: z.string(),
  env: z.enum(ENVIRONMENTS),
  total_rows: z.number().int(),
  credits_per_row: z.number().int(),
  state: z.enum(BATCH_STATES),
  processed: z.number().int(),
  errors: z.number().int(),
  credits_charged: z.number().int(),
  list_versions: z.array(ListVersion),
  /** The name matcher's version (MATCHER_VERSION): a risk change from new rules is told apart from one from new lists. */
  matcher_version: z.string(),
  lists_checked: z.array(z.enum(LIST_KINDS)),
  created_at: z.string(),
  /** Set when an owner or admin, or the idle expiry, ended the batch (its state is then `cancelled`). */
  ended_by: z.enum(BATCH_ENDED_BY).nullable(),
});
export type BatchInfo = z.infer<typeof BatchInfo>;

export const BatchRow = z.object({
  row: z.number().int().min(1),
  client_reference_id: z.string().max(200).optional(),
  subject: Subject,
  previous_screening_id: z.string().max(100).optional(),
  previous_result_summary: PreviousResultSummary.optional(),
});
export type BatchRow = z.input<typeof BatchRow>;

export const BatchRowResult = z.object({
  row: z.number().int(),
  id: z.string(),
  client_reference_id: z.string().nullable(),
  previous_screening_id: z.string().nullable(),
  risk: Risk,
  flags: z.array(z.string()),
  risk_change: z.enum(RISK_CHANGES),
  /** Present when the previous summary named its matcher: whether this row was matched by another. */
  matcher_changed: z.boolean().optional(),
  matches: z.array(ScreeningMatch),
  /** Sent back with a disposition of this row (contracts/review.ts): signs the batch, row, screening and open matches. */
  review_token: z.string(),
});
export type BatchRowResult = z.infer<typeof BatchRowResult>;

export const BatchRowError = z.object({
  row: z.number().int(),
  error: z.object({ type: z.string(), code: z.string(), message: z.string() }),
});
export type BatchRowError = z.infer<typeof BatchRowError>;

/** The last line of a chunk's response. */
export const BatchChunkEnd = z.object({
  done: z.literal(true),
  processed: z.number().int(),
  errors: z.number().int(),
  credits_charged: z.number().int(),
  state: z.enum(BATCH_STATES),
  /** Only when an owner or admin, or the idle expiry, ended the batch while this chunk ran. */
  ended_by: z.enum(BATCH_ENDED_BY).optional(),
});
export type BatchChunkEnd = z.infer<typeof BatchChunkEnd>;

/**
 * One NDJSON line of POST /api/console/batches/{id}/rows. The wire format has no tag field, so
 * the lines are told apart by shape: `done` (the summary), `error` (a failed row), else a result.
 */
export const BatchLine = z.union([BatchChunkEnd, BatchRowError, BatchRowResult]);
export type BatchLine = z.infer<typeof BatchLine>;

/** One open batch as owners and admins see it (`GET /api/console/batches`): whose, how far, how lively. */
export const OpenBatch = z.object({
  id: z.string(),
  env: z.enum(ENVIRONMENTS),
  /** The analyst who opened it (e-mail and name null if they are no longer on record). */
  user: z.object({ user_id: z.number().int(), email: z.string().nullable(), name: z.string().nullable() }),
  total_rows: z.number().int(),
  processed: z.number().int(),
  errors: z.number().int(),
  credits_charged: z.number().int(),
  created_at: z.string(),
  /** The last chunk (or the opening): the idle expiry counts from here. */
  last_activity_at: z.string(),
  /** When it ends by itself unless another chunk comes first. */
  expires_at: z.string(),
  /** A chunk is being screened right now. */
  screening: z.boolean(),
});
export type OpenBatch = z.infer<typeof OpenBatch>;

export const OpenBatchList = z.object({
  batches: z.array(OpenBatch),
  /** The most batches the organisation may have open at once. */
  limit: z.number().int(),
});
export type OpenBatchList = z.infer<typeof OpenBatchList>;
