// Console batch rescreen (session-authenticated; not in the spec, see docs/decisions.md):
// rows go up in NDJSON chunks, results stream back as NDJSON, nothing is kept by the service.
import { z } from 'zod';
import { ENVIRONMENTS } from '../catalog';
import {
  LIST_KINDS, ListVersion, PreviousResultSummary, RESCREEN_REASONS, RISK_CHANGES, Risk, ScreeningMatch, Subject,
} from './screening';

export const BATCH_LIMITS = { rows: 1_000_000, rowsPerChunk: 5_000, matchesPerRow: 5 } as const;

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
});
export type BatchChunkEnd = z.infer<typeof BatchChunkEnd>;

/**
 * One NDJSON line of POST /api/console/batches/{id}/rows. The wire format has no tag field, so
 * the lines are told apart by shape: `done` (the summary), `error` (a failed row), else a result.
 */
export const BatchLine = z.union([BatchChunkEnd, BatchRowError, BatchRowResult]);
export type BatchLine = z.infer<typeof BatchLine>;
