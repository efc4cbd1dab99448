// Health and verification status (spec: GET /api/health is the health rate category; GET
// /api/status/{verification_id}).
import { z } from 'zod';

export const Health = z.object({
  status: z.enum(['ok', 'degraded']),
  api_version: z.string(),
  version: z.string(),
  database: z.enum(['ok', 'unavailable']),
  uptime_s: z.number().int(),
  timestamp: z.string(),
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
