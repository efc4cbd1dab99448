// Console batch rescreen (session-authenticated; not in the spec, see docs/decisions.md):
// rows go up in NDJSON chunks, results stream back as NDJSON, nothing is kept by the service.
import { z } from 'zod';
import { ENVIRONMENTS } from '../catalog';
import {
  LIST_KINDS, PreviousResultSummary, RESCREEN_REASONS, Subject,
  type ListVersion, type RiskChange, type ScreeningMatch,
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

export interface BatchPreview {
  env: 'test' | 'live';
  rows: number;
  credits_per_row: number;
  total_credits: number;
  balance: number;
  sufficient: boolean;
}

export interface BatchInfo {
  id: string;
  env: 'test' | 'live';
  total_rows: number;
  credits_per_row: number;
  state: 'open' | 'cancelled' | 'finished';
  processed: number;
  errors: number;
  credits_charged: number;
  list_versions: ListVersion[];
  matcher_version?: string; // always sent; optional until the console's Info schema (batch-api.ts) reads it
  lists_checked: string[];
  created_at: string;
}

export const BatchRow = z.object({
  row: z.number().int().min(1),
  client_reference_id: z.string().max(200).optional(),
  subject: Subject,
  previous_screening_id: z.string().max(100).optional(),
  previous_result_summary: PreviousResultSummary.optional(),
});
export type BatchRow = z.input<typeof BatchRow>;

export interface BatchRowResult {
  row: number;
  id: string;
  client_reference_id: string | null;
  previous_screening_id: string | null;
  risk: { score: number; level: 'low' | 'medium' | 'high'; decision: 'clear' | 'review' | 'high_risk_review'; reasons: string[] };
  flags: string[];
  risk_change: RiskChange;
  matcher_changed?: boolean;
  matches: ScreeningMatch[];
  /** Sent back with a disposition of this row (contracts/review.ts): signs the batch, row, screening and open matches. */
  review_token: string;
}

export interface BatchRowError {
  row: number;
  error: { type: string; code: string; message: string };
}

/** The last line of a chunk's response. */
export interface BatchChunkEnd {
  done: true;
  processed: number;
  errors: number;
  credits_charged: number;
  state: BatchInfo['state'];
}

export type BatchLine = BatchRowResult | BatchRowError | BatchChunkEnd;
