// Health and verification status (spec: GET /api/health is the health rate category; GET
// /api/status/{verification_id}).
import { z } from 'zod';
import { LISTS_STATES } from './lists';

/**
 * Added (issue 25): the data directory's disk. `low`: less than `reserve_bytes` free, so billable
 * calls and new exports answer 507 INSUFFICIENT_STORAGE; `last_write_refused_at`: a write failed
 * for lack of space within the last minute and none has succeeded since (null otherwise).
 */
export const HealthStorage = z.object({
  status: z.enum(['ok', 'low']),
  free_bytes: z.number().int().nullable(),
  reserve_bytes: z.number().int(),
  last_write_refused_at: z.string().nullable(),
});
export type HealthStorage = z.infer<typeof HealthStorage>;

export const MODEL_STATES = ['idle', 'loading', 'ready'] as const;

export const Health = z.object({
  status: z.enum(['ok', 'degraded']),
  api_version: z.string(),
  version: z.string(),
  database: z.enum(['ok', 'unavailable']),
  uptime_s: z.number().int(),
  timestamp: z.string(),
  storage: HealthStorage,
  /**
   * Added (issue 36): whether screening can answer. `loading` while the lists' index loads (a
   * start, before the first screening is possible; screening calls then answer 503 with
   * Retry-After), `failed` when it could not be loaded, `ready` once it screens. `status` is
   * `degraded` unless it is `ready`.
   */
  screening: z.enum(LISTS_STATES),
  /**
   * Added (issue 38): the face and document models, which load behind a ready screening service
   * (or at the first request that needs them, with `--lazy-models`): `idle` not started, `loading`,
   * `ready`. A request that needs a model while it loads waits for it; `status` does not change.
   */
  models: z.object({ faces: z.enum(MODEL_STATES), documents: z.enum(MODEL_STATES) }),
  /** Added: why the status is degraded, in a sentence; null when ok. */
  reason: z.string().nullable(),
});
export type Health = z.infer<typeof Health>;

export const VerificationStatus = z.object({
  verification_id: z.string(),
  status: z.string(),
  /** Decimal on a 0-100 scale; null when the attempt produced none. */
  confidence: z.number().nullable(),
  created_at: z.string(),
  completed_at: z.string().nullable(),
});
export type VerificationStatus = z.infer<typeof VerificationStatus>;
