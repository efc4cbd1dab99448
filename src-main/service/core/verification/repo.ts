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
}

export function verificationRepo(db: Db) {
  const s = {
    insert: db.prepare(
      `INSERT INTO verifications (id, org_id, api_key_id, product, env, status, confidence, credits, billable, error_code, latency_ms, created_at, completed_at)
       VALUES (@id, @org_id, @api_key_id, @product, @env, @status, @confidence, @credits, @billable, @error_code, @latency_ms, @created_at, @completed_at)`,
    ),
    byId: db.prepare<[string], VerificationRow>('SELECT * FROM verifications WHERE id = ?'),
  };
  return {
    insert: (r: VerificationRow) => s.insert.run(r),
    byId: (id: string) => s.byId.get(id),
  };
}
