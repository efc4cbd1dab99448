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

/** A filtered page of one organisation's ledger in one environment (verification/ledger.ts). */
export interface LedgerFilter {
  orgId: number;
  env: Environment;
  product?: string | undefined;
  status?: string | undefined;
  /** An API key's id, or 'console' for the console's own work (no key). */
  key?: string | undefined;
  /** ISO instants: from inclusive, to exclusive. */
  from?: string | undefined;
  to?: string | undefined;
  /** A verification id, whole or its start, or a client reference by its HMAC (only that is kept). */
  search?: { text: string; hmac: string } | undefined;
  limit: number;
  offset: number;
}

/** A ledger search: an id from @search up to @search_end (the ids starting with it), or the reference's HMAC. */
const LEDGER_SEARCH = '((v.id >= @search AND v.id < @search_end) OR v.client_ref_hmac = @search_hmac)';
/** Past every text that starts with `s` (U+10FFFF sorts after any character an id holds). */
const afterPrefix = (s: string) => `${s}\u{10FFFF}`;

export function verificationRepo(db: Db) {
  const s = {
    insert: db.prepare(
      `INSERT INTO verifications (id, org_id, api_key_id, product, env, status, confidence, credits, billable, error_code, latency_ms, created_at, completed_at, hit_categories, client_ref_hmac, liveness_evidence)
       VALUES (@id, @org_id, @api_key_id, @product, @env, @status, @confidence, @credits, @billable, @error_code, @latency_ms, @created_at, @completed_at, @hit_categories, @client_ref_hmac, @liveness_evidence)`,
    ),
    byId: db.prepare<[string], VerificationRow>('SELECT * FROM verifications WHERE id = ?'),
    statuses: db.prepare<[number, string], { status: string }>('SELECT DISTINCT status FROM verifications WHERE org_id = ? AND env = ? ORDER BY status'),
    number: db.prepare<[string], { n: number }>('SELECT rowid AS n FROM verifications WHERE id = ?'),
    complete: db.prepare(
      `UPDATE verifications SET status = @status, confidence = @confidence, error_code = @error_code,
         latency_ms = COALESCE(latency_ms, 0) + @latency_ms, completed_at = @completed_at
       WHERE id = @id AND status = @waiting`,
    ),
  };
  return {
    /** The page's rows (newest first, with their key's name), the filter's total, and the statuses the environment has. */
    page(f: LedgerFilter): { total: number; rows: (VerificationRow & { key_name: string | null })[]; statuses: string[] } {
      const where = ['v.org_id = @org', 'v.env = @env'];
      const args: Record<string, string | number> = { org: f.orgId, env: f.env };
      const add = (clause: string, name?: string, value?: string | number) => {
        where.push(clause);
        if (name !== undefined && value !== undefined) args[name] = value;
      };
      if (f.product) add('v.product = @product', 'product', f.product);
      if (f.status) add('v.status = @status', 'status', f.status);
      if (f.key === 'console') add('v.api_key_id IS NULL');
      else if (f.key) add('v.api_key_id = @key', 'key', f.key);
      if (f.from) add('v.created_at >= @from', 'from', f.from);
      if (f.to) add('v.created_at < @to', 'to', f.to);
      if (f.search) {
        add(LEDGER_SEARCH, 'search', f.search.text);
        args.search_end = afterPrefix(f.search.text);
        args.search_hmac = f.search.hmac;
      }
      const w = where.join(' AND ');
      const total = (db.prepare(`SELECT COUNT(*) AS n FROM verifications v WHERE ${w}`).get(args) as { n: number }).n;
      const rows = db.prepare(
        `SELECT v.*, k.name AS key_name FROM verifications v LEFT JOIN api_keys k ON k.id = v.api_key_id
         WHERE ${w} ORDER BY v.created_at DESC, v.id DESC LIMIT @limit OFFSET @offset`,
      ).all({ ...args, limit: f.limit, offset: f.offset }) as (VerificationRow & { key_name: string | null })[];
      const statuses = (s.statuses.all(f.orgId, f.env) as { status: string }[]).map((r) => r.status);
      return { total, rows, statuses };
    },
    insert: (r: VerificationRow) => s.insert.run({ ...r, hit_categories: r.hit_categories ?? null, client_ref_hmac: r.client_ref_hmac ?? null, liveness_evidence: r.liveness_evidence ?? null }),
    byId: (id: string) => s.byId.get(id),
    /** The row's number in the ledger (a receipt number where an integer id is asked for: age-gate attestations). */
    numberOf: (id: string) => s.number.get(id)?.n,
    /** Moves a multi-step flow's row out of its waiting status; false when it was not waiting (any more). */
    complete: (r: Pick<VerificationRow, 'id' | 'status' | 'confidence' | 'error_code' | 'completed_at'> & { latency_ms: number; waiting: string }) =>
      s.complete.run(r).changes === 1,
  };
}
