// HTTP side of billing: reads `Idempotency-Key`, fingerprints the request, and runs the work
// through core billing. Every billable route calls this and nothing else to charge or to record
// an attempt (routes never call `services.billing` themselves; billable-http.test.ts checks it).
import type { Context } from 'hono';
import type { Billable } from '../../../src-shared/catalog';
import type { Services } from '../compose';
import type { BillableRequest, Billed, Outcome, Payer, WorkContext } from '../core/verification/billing';
import type { AppEnv } from './types';

export async function runBillable<R>(
  c: Context<AppEnv>,
  s: Services,
  opts: {
    operation: Billable; idPrefix: string; bodyText: string; events?: BillableRequest<R>['events']; payer?: Payer;
    alsoRecord?: BillableRequest<R>['alsoRecord'];
    free?: boolean;
    /** One of several acts paid for once (a hosted session's recordings). */
    paidOnce?: BillableRequest<R>['paidOnce'];
    /**
     * false: the attempt is recorded but never kept under the request's Idempotency-Key (a
     * provider outage: the next attempt with the same key may well succeed).
     */
    replayable?: boolean;
  },
  work: (ctx: WorkContext) => Promise<Outcome<R>>,
): Promise<Billed<R>> {
  const idemKey = opts.replayable === false ? undefined : c.req.header('idempotency-key');
  const billed = await s.billing.run(
    {
      key: opts.payer ?? c.get('key'),
      operation: opts.operation,
      idPrefix: opts.idPrefix,
      ...(opts.events ? { events: opts.events } : {}),
      ...(opts.alsoRecord ? { alsoRecord: opts.alsoRecord } : {}),
      ...(opts.free ? { free: true } : {}),
      ...(opts.paidOnce ? { paidOnce: opts.paidOnce } : {}),
      ...(idemKey !== undefined
        ? { idempotency: { key: idemKey, fingerprint: s.idempotency.fingerprint(c.req.method, c.req.path, opts.bodyText) } }
        : {}),
    },
    work,
  );
  if (billed.replayed) c.header('Idempotent-Replayed', 'true');
  return billed;
}
