// HTTP side of billing: reads `Idempotency-Key`, fingerprints the request, and runs the work
// through core billing. Every billable route calls this and nothing else to charge.
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
  },
  work: (ctx: WorkContext) => Promise<Outcome<R>>,
): Promise<Billed<R>> {
  const idemKey = c.req.header('idempotency-key');
  const billed = await s.billing.run(
    {
      key: opts.payer ?? c.get('key'),
      operation: opts.operation,
      idPrefix: opts.idPrefix,
      ...(opts.events ? { events: opts.events } : {}),
      ...(opts.alsoRecord ? { alsoRecord: opts.alsoRecord } : {}),
      ...(idemKey !== undefined
        ? { idempotency: { key: idemKey, fingerprint: s.idempotency.fingerprint(c.req.method, c.req.path, opts.bodyText) } }
        : {}),
    },
    work,
  );
  if (billed.replayed) c.header('Idempotent-Replayed', 'true');
  return billed;
}
