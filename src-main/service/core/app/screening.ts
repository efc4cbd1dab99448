// Stateless screening and rescreening (spec: /api/compliance/v1/screen and /rescreen) and the
// console's own screening. The subject lives only in this call: the ledger row, the audit row and
// the webhook event carry ids, statuses, risk and flags, nothing else.
import type { Q } from '../../db/engine';
import type { ScreenRequest, ScreeningResponse } from '../../../../src-shared/contracts/screening';
import { AppError } from '../../../../src-shared/errors';
import type { SessionContext } from '../accounts/accounts';
import type { Organization } from '../accounts/organization';
import { actorOf, type Audit } from '../audit/audit';
import { hitCategories, SCREENING_HIT } from '../screening/hits';
import type { ScreenPool } from '../screening/pool';
import { eventFields, listsToCheck, type ScreenCall, type Screening } from '../screening/service';
import type { WebhookEvent } from '../webhooks/webhooks';
import { bill, type Answer, type Call, type ChargeDeps } from './call';

/** What a screening uses: the loaded lists and their worker, the organisation's staleness windows, the audit log's reference HMAC, billing. */
export interface ScreeningDeps extends ChargeDeps {
  screening: Screening;
  pool: ScreenPool;
  organization: Organization;
  audit: Audit;
}

type Operation = 'screen' | 'rescreen';

/**
 * One screen or rescreen of one subject, for an API key or the console: the lists loaded, one
 * ledger row (billed), its webhook events, and the result. An outage is recorded as a
 * non-billable attempt and refused.
 */
export async function screenSubject(
  s: ScreeningDeps,
  call: Call,
  operation: Operation,
  text: string,
  subject: Omit<ScreenCall, 'id' | 'created' | 'livemode'>,
  alsoRecord?: (r: { verificationId: string; result: ScreeningResponse }, tx: Q) => Promise<void>,
): Promise<Answer<ScreeningResponse>> {
  const key = call.payer;
  // The ledger can be searched by the reference: it keeps the audit log's HMAC of it, never the reference.
  const clientRefHmac = subject.clientReferenceId ? s.audit.clientRefHmac(subject.clientReferenceId) : null;
  const ready = await s.screening.ready();
  // Asking only for kinds of list that are not loaded cannot be answered: a "clear" result with
  // nothing checked would read as a real clear.
  const loaded = ready && listsToCheck(ready.loadedKinds, subject.lists).length > 0 ? ready : null;
  if (!loaded) {
    // Provider unavailable: recorded as a non-billable attempt, reported by webhook, never kept
    // under an Idempotency-Key (the next attempt may well succeed).
    await bill<null>(
      s, call, {
        operation, idPrefix: 'scr', bodyText: text, replayable: false,
        events: ({ verificationId }) => [{
          type: 'compliance.screening.failed',
          fields: { screening: { id: verificationId, status: 'failed', error: { type: 'provider_unavailable', code: 'compliance_provider_unavailable' } } },
        }],
      },
      async () => ({ status: 'failed', confidence: null, billable: false, errorCode: 'compliance_provider_unavailable', clientRefHmac, httpStatus: 503, result: null }),
    );
    // Lists still loading: Retry-After says when to come back. Kinds not loaded: retrying will not help.
    throw ready ? new AppError('provider_unavailable') : s.screening.unavailable();
  }
  const billed = await bill<ScreeningResponse>(
    s, call, {
      operation, idPrefix: 'scr', bodyText: text, events: ({ outcome }) => events(operation)(outcome.result),
      ...(alsoRecord ? { alsoRecord: ({ verificationId, outcome }, tx) => alsoRecord({ verificationId, result: outcome.result }, tx) } : {}),
    },
    async (ctx) => {
      const result = await s.pool.screenOne(loaded, {
        ...subject, id: ctx.verificationId, created: ctx.createdAt, livemode: key.env === 'live', staleWindows: await s.organization.listFreshness(key.orgId),
      });
      const hits = hitCategories(result.matches);
      return {
        status: 'completed', confidence: result.risk.score, billable: true, httpStatus: 200, result,
        errorCode: hits ? SCREENING_HIT : null, hitCategories: hits, clientRefHmac,
      };
    },
  );
  return { body: billed.outcome.result, replayed: billed.replayed };
}

function events(operation: Operation) {
  return (r: ScreeningResponse): WebhookEvent[] => {
    if (operation === 'screen') return [{ type: 'compliance.screening.completed', fields: eventFields(r) }];
    const out: WebhookEvent[] = [{ type: 'compliance.rescreen.completed', fields: eventFields(r) }];
    const change = r.rescreen?.risk_change;
    if (change === 'risk_increased' || change === 'risk_decreased') out.push({ type: 'compliance.rescreen.risk_changed', fields: eventFields(r) });
    return out;
  };
}


/** The subject and options of a screen request, as the screening engine takes them. */
export function screenOf(body: ScreenRequest): Omit<ScreenCall, 'id' | 'created' | 'livemode' | 'staleWindows'> {
  return { subject: body.subject, lists: body.screening?.lists, clientReferenceId: body.client_reference_id, metadata: body.metadata };
}

/**
 * The console's own screening: the same engine and billing, paid by the organisation (free in
 * test), for the analyst signed in. The audit row goes with the ledger row: who screened, in
 * which environment, the result's id and score, and the client reference only as an HMAC.
 */
export function consoleScreen(s: ScreeningDeps, call: Call, session: SessionContext, body: ScreenRequest, text: string): Promise<Answer<ScreeningResponse>> {
  const reference = body.client_reference_id;
  const env = call.payer.env;
  return screenSubject(s, call, 'screen', text, screenOf(body), async ({ verificationId, result }, tx) => {
    await s.audit.record({
      orgId: session.org.id, actor: actorOf(session.user), action: 'screened', env, screeningId: verificationId,
      riskScore: result.risk.score, ...(reference ? { clientReference: reference } : {}),
    }, tx);
  });
}
