// SQL for the verification ledger: one row per verification attempt, no subject data.
import type { Db } from '../../db/open';
import type { Billable, Environment } from '../../../../src-shared/catalog';

export interface VerificationRow {
  id: string;
  org_id: number;
  api_key_id: string | null;
  product: Billable;
  env: Environment;
  status: string;
  confidence: number | null;
  credits: number;
  billable: number;
  error_code: string | null;
  latency_ms: number | null;
  created_at: string;
  completed_at: string | null;
  /** Kinds of list an uncleared screening match was on, comma-separated; '' none; null not screened (migration 0010). */
  hit_categories?: string | null;
  /** HMAC of the screening's client reference (never the reference); null without one (migration 0022). */
  client_ref_hmac?: string | null;
  /** What a selfie's liveness rested on (still_photo, video_clip, head_turn_clip); null without a selfie (migration 0024). */
  liveness_evidence?: string | null;
}

export function verificationRepo(db: Db) {
  const s = {
    insert: db.prepare(
      `INSERT INTO verifications (id, org_id, api_key_id, product, env, status, confidence, credits, billable, error_code, latency_ms, created_at, completed_at, hit_categories, client_ref_hmac, liveness_evidence)
       VALUES (@id, @org_id, @api_key_id, @product, @env, @status, @confidence, @credits, @billable, @error_code, @latency_ms, @created_at, @completed_at, @hit_categories, @client_ref_hmac, @liveness_evidence)`,
    ),
    byId: db.prepare<[string], VerificationRow>('SELECT * FROM verifications WHERE id = ?'),
    number: db.prepare<[string], { n: number }>('SELECT rowid AS n FROM verifications WHERE id = ?'),
    complete: db.prepare(
      `UPDATE verifications SET status = @status, confidence = @confidence, error_code = @error_code,
         latency_ms = COALESCE(latency_ms, 0) + @latency_ms, completed_at = @completed_at
       WHERE id = @id AND status = @waiting`,
    ),
  };
  return {
    insert: (r: VerificationRow) => s.insert.run({ ...r, hit_categories: r.hit_categories ?? null, client_ref_hmac: r.client_ref_hmac ?? null, liveness_evidence: r.liveness_evidence ?? null }),
    byId: (id: string) => s.byId.get(id),
    /** The row's number in the ledger (a receipt number where an integer id is asked for: age-gate attestations). */
    numberOf: (id: string) => s.number.get(id)?.n,
    /** Moves a multi-step flow's row out of its waiting status; false when it was not waiting (any more). */
    complete: (r: Pick<VerificationRow, 'id' | 'status' | 'confidence' | 'error_code' | 'completed_at'> & { latency_ms: number; waiting: string }) =>
      s.complete.run(r).changes === 1,
  };
}
