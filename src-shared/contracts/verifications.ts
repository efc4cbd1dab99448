// The verification ledger as the console reads it (GET /api/verifications): ids, product,
// outcome, credits and timings. The ledger holds no subject data, so none can be shown.
import { z } from 'zod';
import { LIVENESS_EVIDENCE } from './faces';
import { BILLABLE, ENVIRONMENTS } from '../catalog';

export const VerificationQuery = z.object({
  env: z.enum(ENVIRONMENTS),
  product: z.enum(BILLABLE).optional(),
  status: z.string().regex(/^[A-Za-z_]{1,40}$/).optional(),
  /** An API key id, or `console` for work done from the console itself. */
  key: z.string().regex(/^(console|[A-Za-z0-9_]{1,64})$/).optional(),
  /** ISO 8601 instants: from inclusive, to exclusive. */
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  /**
   * A verification id (whole, or its first characters) or a client reference (exact: the service
   * keeps only an HMAC of it, and hashes the search the same way). Not in the spec (issue 26).
   */
  search: z.string().trim().min(1).max(200).regex(/^[^\p{Cc}]+$/u, 'no control characters').optional(),
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(200).default(50),
});
export type VerificationQuery = z.input<typeof VerificationQuery>;

export const VerificationEntry = z.object({
  verification_id: z.string(),
  product: z.enum(BILLABLE),
  env: z.enum(ENVIRONMENTS),
  /** null: work done from the console (no key). */
  api_key_id: z.string().nullable(),
  api_key_name: z.string().nullable(),
  status: z.string(),
  confidence: z.number().nullable(),
  failure_reason: z.string().nullable(),
  /** What a selfie's liveness rested on (issue 37); null for products without a selfie and rows from before. */
  liveness_evidence: z.enum(LIVENESS_EVIDENCE).nullable(),
  credits: z.number().int(),
  latency_ms: z.number().int().nullable(),
  created_at: z.string(),
  completed_at: z.string().nullable(),
});
export type VerificationEntry = z.infer<typeof VerificationEntry>;

export const VerificationPage = z.object({
  entries: z.array(VerificationEntry),
  total: z.number().int(),
  page: z.number().int(),
  pages: z.number().int(),
  /** The statuses present in this environment, for the filter. */
  statuses: z.array(z.string()),
});
export type VerificationPage = z.infer<typeof VerificationPage>;

/** The console's try panel: the minimum age for an age check. */
export const TryAgeQuery = z.object({ min_age: z.coerce.number().int().min(13).max(99).default(18) });
export type TryAgeQuery = z.input<typeof TryAgeQuery>;
