// Reading the verification ledger. Writes happen only through billing.ts.
import type { Environment } from '../../../../src-shared/catalog';
import type { Db } from '../../db/open';
import type { z } from 'zod';
import type { VerificationEntry, VerificationPage, VerificationQuery } from '../../../../src-shared/contracts/verifications';
import { verificationRepo, type VerificationRow } from './repo';

/** A ledger search: an id from @search up to @search_end (the ids starting with it), or the reference's HMAC. */
const LEDGER_SEARCH = '((v.id >= @search AND v.id < @search_end) OR v.client_ref_hmac = @search_hmac)';
/** Past every text that starts with `s` (U+10FFFF sorts after any character an id holds). */
const afterPrefix = (s: string) => `${s}\u{10FFFF}`;

/** `clientRefHmac`: the audit log's HMAC of a client reference (a search by reference hashes the query the same way). */
export function createLedger(db: Db, clientRefHmac: (reference: string) => string) {
  const repo = verificationRepo(db);
  return {
    /** A verification visible to a key: same organisation and same environment. */
    findForKey(id: string, orgId: number, env: Environment): VerificationRow | undefined {
      const row = repo.byId(id);
      return row && row.org_id === orgId && row.env === env ? row : undefined;
    },
    get: (id: string) => repo.byId(id),
    numberOf: (id: string) => repo.numberOf(id),

    /** A page of an organisation's ledger in one environment, newest first, filtered. */
    page(orgId: number, q: z.output<typeof VerificationQuery>): VerificationPage {
      const where = ['v.org_id = @org', 'v.env = @env'];
      const args: Record<string, string | number> = { org: orgId, env: q.env };
      const add = (clause: string, name?: string, value?: string | number) => {
        where.push(clause);
        if (name !== undefined && value !== undefined) args[name] = value;
      };
      if (q.product) add('v.product = @product', 'product', q.product);
      if (q.status) add('v.status = @status', 'status', q.status);
      if (q.key === 'console') add('v.api_key_id IS NULL');
      else if (q.key) add('v.api_key_id = @key', 'key', q.key);
      if (q.from) add('v.created_at >= @from', 'from', new Date(q.from).toISOString());
      if (q.to) add('v.created_at < @to', 'to', new Date(q.to).toISOString());
      if (q.search) {
        // A verification id, whole or its start, or a client reference, exactly (only its HMAC is kept).
        add(LEDGER_SEARCH, 'search', q.search);
        args.search_end = afterPrefix(q.search);
        args.search_hmac = clientRefHmac(q.search);
      }
      const w = where.join(' AND ');
      const total = (db.prepare(`SELECT COUNT(*) AS n FROM verifications v WHERE ${w}`).get(args) as { n: number }).n;
      const rows = db.prepare(
        `SELECT v.*, k.name AS key_name FROM verifications v LEFT JOIN api_keys k ON k.id = v.api_key_id
         WHERE ${w} ORDER BY v.created_at DESC, v.id DESC LIMIT @limit OFFSET @offset`,
      ).all({ ...args, limit: q.per_page, offset: (q.page - 1) * q.per_page }) as (VerificationRow & { key_name: string | null })[];
      const statuses = (db.prepare('SELECT DISTINCT status FROM verifications WHERE org_id = ? AND env = ? ORDER BY status').all(orgId, q.env) as { status: string }[])
        .map((r) => r.status);
      return {
        total, page: q.page, pages: Math.max(1, Math.ceil(total / q.per_page)), statuses,
        entries: rows.map((r) => ({
          verification_id: r.id, product: r.product, env: r.env, api_key_id: r.api_key_id, api_key_name: r.key_name, status: r.status,
          confidence: r.confidence, failure_reason: r.error_code, liveness_evidence: (r.liveness_evidence ?? null) as VerificationEntry['liveness_evidence'], credits: r.credits, latency_ms: r.latency_ms,
          created_at: r.created_at, completed_at: r.completed_at,
        })),
      };
    },
  };
}
export type Ledger = ReturnType<typeof createLedger>;
