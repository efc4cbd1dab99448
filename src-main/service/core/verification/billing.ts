// The one path every billable operation takes: idempotency, credit pre-check, the work, and
// then the ledger row, the charge and the idempotency record in one transaction.
// Test keys and demo keys are never charged and never get 402.
import { CREDITS, type Billable } from '../../../../src-shared/catalog';
import { AppError } from '../../../../src-shared/errors';
import type { LivenessEvidenceKind } from '../../../../src-shared/contracts/faces';
import type { Engine, Q } from '../../db/engine';
import type { Clock } from '../clock';
import { insufficient, type Credits } from '../credits/credits';
import type { Idempotency } from '../idempotency/idempotency';
import { newId, nowIso } from '../ids';
import type { ResolvedKey } from '../keys/keys';
import { verificationRepo, type VerificationRow } from './repo';
import type { WebhookEvent } from '../webhooks/webhooks';

export interface WorkContext {
  verificationId: string;
  createdAt: number;
  /** True when answering a retried Idempotency-Key: same id, nothing recorded or charged. */
  replay: boolean;
}

export interface Outcome<R> {
  status: string;
  confidence: number | null;
  /** False for attempts the spec says are not billed (e.g. provider unavailable). */
  billable: boolean;
  errorCode?: string | null;
  /** Screening results only: kinds of list with an uncleared match ('' none; see core/screening/hits.ts). */
  hitCategories?: string | null;
  /** Screening results only: HMAC of the request's client reference, so the ledger can be searched by it. */
  clientRefHmac?: string | null;
  /** Products with a selfie: what its liveness rested on (the ledger's liveness_evidence). */
  livenessEvidence?: LivenessEvidenceKind | null;
  httpStatus: number;
  result: R;
}

export interface Billed<R> {
  verificationId: string;
  createdAt: number;
  charged: number;
  /** Balance after this request; null for test and demo keys, which have no balance to show. */
  creditsRemaining: number | null;
  replayed: boolean;
  outcome: Outcome<R>;
}

/** Who pays: an API key, or the organisation itself for console work (no key: id null). */
export interface Payer {
  id: string | null;
  orgId: number;
  env: ResolvedKey['env'];
  demo: boolean;
}

/**
 * Several acts paid for once (the recordings of one hosted session: docs/decisions.md). `covered`
 * says whether an earlier act has claimed the charge already; `claim` marks this act as the one
 * that did. Billing asks `covered` inside the transaction that writes the act's row and charge, so
 * two acts finishing together cannot both pay; it asks once more before the work, only to skip the
 * balance check for an act that will not be charged.
 */
export interface PaidOnce {
  /** Whether the payment was claimed already: read in the charging transaction `tx` (taking its lock), or before it. */
  covered(tx?: Q): Promise<boolean>;
  claim(tx: Q, verificationId: string): Promise<void>;
}

export interface BillableRequest<R = unknown> {
  key: Payer;
  operation: Billable;
  idPrefix: string;
  idempotency?: { key: string; fingerprint: string };
  /** Webhook events for the result, written to the outbox in the same transaction. */
  events?: (r: { verificationId: string; createdAt: number; outcome: Outcome<R> }) => WebhookEvent[];
  /** Never charged whatever the outcome (age-gate attestations): no balance is needed either. */
  free?: boolean;
  /** Further records of the same act (the console's audit row), written in the same transaction `tx`. */
  alsoRecord?: (r: { verificationId: string; createdAt: number; outcome: Outcome<R> }, tx: Q) => void | Promise<void>;
  /** One of several acts paid for once: only the first billable one is charged; the others are rows of 0 credits, not billable. */
  paidOnce?: PaidOnce;
}

export function createBilling(
  engine: Engine,
  clock: Clock,
  credits: Credits,
  idempotency: Idempotency,
  emit: (tx: Q, orgId: number, env: Payer['env'], event: WebhookEvent) => Promise<unknown> = async () => {},
  /** Told after an organisation's ledger rows changed (the reports' cache forgets its figures). */
  onRecorded: (orgId: number) => void = () => {},
) {
  const repo = verificationRepo;

  function pays(key: Payer): boolean {
    return key.env === 'live' && !key.demo;
  }

  /**
   * The one place a billable act is written: its ledger rows, each charged `charge` credits (0:
   * not charged), inside the caller's transaction. The balance after a charge; null when nothing
   * was charged.
   */
  async function recordInTransaction(
    tx: Q, payer: Payer, operation: Billable, rows: readonly Omit<VerificationRow, 'org_id' | 'api_key_id' | 'product' | 'env' | 'credits'>[], charge: number,
  ): Promise<number | null> {
    for (const r of rows) await repo.insert(tx, { ...r, org_id: payer.orgId, api_key_id: payer.id, product: operation, env: payer.env, credits: charge });
    return charge > 0 ? credits.chargeInTransaction(tx, payer.orgId, charge, operation, rows.map((r) => r.id), payer.env) : null;
  }

  return {
    cost: (op: Billable) => CREDITS[op],

    /**
     * Records finished work done in bulk (console batch rescreens): every item gets its ledger
     * row and, when the payer pays, its charge — all or nothing, after one balance check.
     */
    async recordMany(
      payer: Payer,
      operation: Billable,
      items: readonly {
        id: string; createdAt: number; status: string; confidence: number | null; latencyMs: number; errorCode?: string | null; hitCategories?: string | null;
        clientRefHmac?: string | null;
      }[],
    ): Promise<{ charged: number; creditsRemaining: number | null }> {
      const cost = pays(payer) ? CREDITS[operation] : 0;
      const result = await engine.transaction(async (tx) => {
          const done = nowIso(clock.now());
          const remaining = await recordInTransaction(tx, payer, operation, items.map((it) => ({
            id: it.id, status: it.status, confidence: it.confidence, billable: 1, error_code: it.errorCode ?? null, latency_ms: it.latencyMs,
            created_at: nowIso(it.createdAt), completed_at: done, hit_categories: it.hitCategories ?? null, client_ref_hmac: it.clientRefHmac ?? null,
          })), cost);
          return { charged: cost * items.length, creditsRemaining: remaining };
        });
      onRecorded(payer.orgId);
      return result;
    },

    /**
     * The later step of a flow charged at an earlier step (age step 3 after step 2): no charge and
     * no new row; the earlier row moves from its waiting status to the outcome. A verification of
     * another organisation, environment or product is not found; one not waiting (any more) is
     * FLOW_COMPLETED, also when two continuations race (the second to finish loses).
     */
    async continueFlow<R>(
      req: { key: Payer; verificationId: string; operation: Billable; waiting: string },
      work: () => Promise<Outcome<R>>,
    ): Promise<{ outcome: Outcome<R>; creditsRemaining: number | null }> {
      const { key } = req;
      const row = await repo.byId(engine.q, req.verificationId);
      if (!row || row.org_id !== key.orgId || row.env !== key.env || row.product !== req.operation) throw new AppError('verification_not_found');
      if (row.status !== req.waiting) throw new AppError('flow_completed');
      const started = performance.now();
      const outcome = await work();
      const moved = await repo.complete(engine.q, {
        id: row.id, waiting: req.waiting, status: outcome.status, confidence: outcome.confidence, error_code: outcome.errorCode ?? null,
        latency_ms: Math.round(performance.now() - started), completed_at: nowIso(clock.now()),
      });
      if (!moved) throw new AppError('flow_completed');
      onRecorded(key.orgId);
      return { outcome, creditsRemaining: pays(key) ? await credits.balance(key.orgId) : null };
    },

    async run<R>(req: BillableRequest<R>, work: (ctx: WorkContext) => Promise<Outcome<R>>): Promise<Billed<R>> {
      const { key, operation } = req;
      const cost = CREDITS[operation];
      // Idempotency is per API key; console work has no key and needs none.
      const idem = key.id !== null ? req.idempotency : undefined;

      if (idem) {
        const begun = await idempotency.begin(key.id!, idem.key, idem.fingerprint);
        if (begun.kind === 'replay') {
          const row = await repo.byId(engine.q, begun.verificationId);
          const createdAt = row ? Date.parse(row.created_at) : clock.now();
          const outcome = await work({ verificationId: begun.verificationId, createdAt, replay: true });
          return {
            verificationId: begun.verificationId, createdAt, charged: 0,
            creditsRemaining: pays(key) ? await credits.balance(key.orgId) : null, replayed: true, outcome,
          };
        }
      }

      try {
        // Spend no CPU on work the organisation cannot pay for (an act already paid for costs nothing).
        if (pays(key) && !req.free && !(await req.paidOnce?.covered())) {
          const balance = await credits.balance(key.orgId);
          if (balance < cost) throw insufficient(balance, cost);
        }
        const verificationId = newId(req.idPrefix);
        const createdAt = clock.now();
        const started = performance.now();
        const outcome = await work({ verificationId, createdAt, replay: false });
        const latency = Math.round(performance.now() - started);

        const { creditsRemaining, charge } = await engine.transaction(async (tx) => {
            // Decided here, under the write lock: another act of the same payment may have claimed it during the work.
            const billable = outcome.billable && !(await req.paidOnce?.covered(tx));
            const charge = pays(key) && billable && !req.free ? cost : 0;
            const charged = await recordInTransaction(tx, key, operation, [{
              id: verificationId, status: outcome.status, confidence: outcome.confidence,
              billable: billable ? 1 : 0, error_code: outcome.errorCode ?? null, latency_ms: latency,
              created_at: nowIso(createdAt), completed_at: nowIso(clock.now()), hit_categories: outcome.hitCategories ?? null,
              client_ref_hmac: outcome.clientRefHmac ?? null, liveness_evidence: outcome.livenessEvidence ?? null,
            }], charge);
            if (billable && !req.free) await req.paidOnce?.claim(tx, verificationId);
            const remaining = charged ?? (pays(key) ? await credits.balance(key.orgId, tx) : null);
            if (idem) await idempotency.completeInTransaction(tx, key.id!, idem.key, verificationId, outcome.httpStatus);
            for (const ev of req.events?.({ verificationId, createdAt, outcome }) ?? []) await emit(tx, key.orgId, key.env, ev);
            await req.alsoRecord?.({ verificationId, createdAt, outcome }, tx);
            return { creditsRemaining: remaining, charge };
          });
        onRecorded(key.orgId);

        return { verificationId, createdAt, charged: charge, creditsRemaining, replayed: false, outcome };
      } catch (e) {
        if (idem) await idempotency.abandon(key.id!, idem.key);
        throw e;
      }
    },
  };
}
export type Billing = ReturnType<typeof createBilling>;
