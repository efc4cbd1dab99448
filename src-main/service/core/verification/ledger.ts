// Reading the verification ledger. Writes happen only through billing.ts.
import type { Environment } from '../../../../src-shared/catalog';
import type { Engine } from '../../db/engine';
import type { z } from 'zod';
import type { VerificationEntry, VerificationPage, VerificationQuery } from '../../../../src-shared/contracts/verifications';
import { verificationRepo, type VerificationRow } from './repo';

/** `clientRefHmac`: the audit log's HMAC of a client reference (a search by reference hashes the query the same way). */
export function createLedger(engine: Engine, clientRefHmac: (reference: string) => string) {
  const repo = verificationRepo;
  return {
    /** A verification visible to a key: same organisation and same environment. */
    async findForKey(id: string, orgId: number, env: Environment): Promise<VerificationRow | undefined> {
      const row = await repo.byId(engine.q, id);
      return row && row.org_id === orgId && row.env === env ? row : undefined;
    },
    get: (id: string) => repo.byId(engine.q, id),
    numberOf: (id: string) => repo.numberOf(engine.q, id),

    /** A page of an organisation's ledger in one environment, newest first, filtered. */
    async page(orgId: number, q: z.output<typeof VerificationQuery>): Promise<VerificationPage> {
      const { total, rows, statuses } = await repo.page(engine.q, {
        orgId, env: q.env, product: q.product, status: q.status, key: q.key,
        from: q.from ? new Date(q.from).toISOString() : undefined, to: q.to ? new Date(q.to).toISOString() : undefined,
        // A verification id, whole or its start, or a client reference, exactly (only its HMAC is kept).
        search: q.search ? { text: q.search, hmac: clientRefHmac(q.search) } : undefined,
        limit: q.per_page, offset: (q.page - 1) * q.per_page,
      });
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
