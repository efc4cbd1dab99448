// Stateless screening and rescreening (spec: /api/compliance/v1/screen and /rescreen).
// The subject lives only in this request: the ledger row and the webhook event carry ids,
// statuses, risk and flags, nothing else.
import type { Context } from 'hono';
import {
  RescreenRequest, ScreenRequest, type ScreeningResponse,
} from '../../../../src-shared/contracts/screening';
import { AppError } from '../../../../src-shared/errors';
import type { Services } from '../../compose';
import type { SessionContext } from '../../core/accounts/accounts';
import { eventFields, listsToCheck, runScreening, type ScreenCall } from '../../core/screening/service';
import type { WebhookEvent } from '../../core/webhooks/webhooks';
import type { Payer } from '../../core/verification/billing';
import { ENVIRONMENTS, PLAN_INFO } from '../../../../src-shared/catalog';
import { z } from 'zod';
import { parseQuery, readBytes } from '../validate';
import { OFFICIAL_SOURCES } from '../../core/screening/lists/sources';
import { removeUserList, storedLists, storeOfficial, storeUserList } from '../../core/screening/lists/store';
import { actorOf } from '../../core/audit/audit';
import type { Router } from '../app';
import { runBillable } from '../billable';
import type { AppEnv } from '../types';
import { parseJsonText, readBody } from '../validate';

const AUTH = { kind: 'key', scope: 'compliance', category: 'verification', product: 'compliance' } as const;

async function handle(
  c: Context<AppEnv>,
  s: Services,
  operation: 'screen' | 'rescreen',
  text: string,
  call: Omit<ScreenCall, 'id' | 'created' | 'livemode'>,
  key: Payer = c.get('key'),
  alsoRecord?: (r: { verificationId: string; result: ScreeningResponse }) => void,
): Promise<Response> {
  const ready = await s.screening.ready();
  // Asking only for kinds of list that are not loaded cannot be answered: a "clear" result with
  // nothing checked would read as a real clear.
  const loaded = ready && listsToCheck(ready.loadedKinds, call.lists).length > 0 ? ready : null;
  if (!loaded) {
    // Provider unavailable: recorded as a non-billable attempt, reported by webhook, never retried
    // under an Idempotency-Key (the next attempt may well succeed).
    await s.billing.run(
      {
        key, operation, idPrefix: 'scr',
        events: ({ verificationId }) => [{
          type: 'compliance.screening.failed',
          fields: { screening: { id: verificationId, status: 'failed', error: { type: 'provider_unavailable', code: 'compliance_provider_unavailable' } } },
        }],
      },
      async () => ({ status: 'failed', confidence: null, billable: false, errorCode: 'compliance_provider_unavailable', httpStatus: 503, result: null }),
    );
    throw new AppError('provider_unavailable');
  }
  const billed = await runBillable<ScreeningResponse>(
    c, s, {
      operation, idPrefix: 'scr', bodyText: text, payer: key, events: ({ outcome }) => events(operation)(outcome.result),
      ...(alsoRecord ? { alsoRecord: ({ verificationId, outcome }) => alsoRecord({ verificationId, result: outcome.result }) } : {}),
    },
    async (ctx) => {
      const result = runScreening(loaded, { ...call, id: ctx.verificationId, created: ctx.createdAt, livemode: key.env === 'live' });
      return { status: 'completed', confidence: result.risk.score, billable: true, httpStatus: 200, result };
    },
  );
  return c.json(billed.outcome.result);
}

function events(operation: 'screen' | 'rescreen') {
  return (r: ScreeningResponse): WebhookEvent[] => {
    if (operation === 'screen') return [{ type: 'compliance.screening.completed', fields: eventFields(r) }];
    const out: WebhookEvent[] = [{ type: 'compliance.rescreen.completed', fields: eventFields(r) }];
    const change = r.rescreen?.risk_change;
    if (change === 'risk_increased' || change === 'risk_decreased') out.push({ type: 'compliance.rescreen.risk_changed', fields: eventFields(r) });
    return out;
  };
}

const EnvQuery = z.object({ env: z.enum(ENVIRONMENTS) });

export function screeningRoutes({ route, services }: Router): void {
  // The console's own screening: the same engine and billing, paid by the organisation
  // (free in test), for the analyst signed in. Nothing about the subject is kept.
  route('POST', '/api/console/screen', { kind: 'session' }, async (c) => {
    const session = c.get('session');
    const { env } = parseQuery(c, EnvQuery, { error: 'account_validation' });
    if (!PLAN_INFO[session.org.plan].compliance) {
      throw new AppError('plan_restriction', { message: 'Screening requires the Pro or Enterprise plan' });
    }
    const text = await readBody(c);
    const body = parseJsonText(text, ScreenRequest, { error: 'invalid_subject' });
    // The audit row goes with the ledger row: who screened, in which environment, the result's
    // id and score, and the client reference only as an HMAC.
    const reference = body.client_reference_id;
    return handle(c, services, 'screen', text, {
      subject: body.subject, lists: body.screening?.lists, clientReferenceId: reference, metadata: body.metadata,
    }, { id: null, orgId: session.org.id, env, demo: false }, ({ verificationId, result }) => {
      services.audit.record({
        orgId: session.org.id, actor: actorOf(session.user), action: 'screened', env, screeningId: verificationId,
        riskScore: result.risk.score, ...(reference ? { clientReference: reference } : {}),
      });
    });
  });

  // Importing lists: owners and admins. Official files are public data; a user list is the
  // organisation's own reference data (not a request's subject), kept in the data directory.
  const LIST_ADMINS = { kind: 'session', roles: ['owner', 'admin'] } as const;
  const OfficialQuery = z.object({ source: z.enum(OFFICIAL_SOURCES), filename: z.string().max(200).default('') });
  const UserQuery = z.object({ name: z.string().trim().min(1).max(80) });
  const LIST_BYTES = 64 * 1024 * 1024;
  // The list files are the record of what was imported; the audit row says who and when.
  const recordList = (session: SessionContext, action: 'list.imported' | 'list.removed', listId: string, records?: number) =>
    services.audit.record({
      orgId: session.org.id, actor: actorOf(session.user), action, listId, ...(records !== undefined ? { counts: { total: records } } : {}),
    });

  route('POST', '/api/screening/lists/official', LIST_ADMINS, async (c) => {
    const q = parseQuery(c, OfficialQuery, { error: 'account_validation' });
    const bytes = new Uint8Array(await readBytes(c, LIST_BYTES));
    const r = storeOfficial(services.config.dataDir, q.source, [{ name: q.filename, bytes }], new Date(services.clock.now()));
    if (!r.ok) throw new AppError('account_validation', { field: 'file', message: `Not imported: ${r.reason}` });
    recordList(c.get('session'), 'list.imported', q.source, r.records);
    await services.screening.refresh();
    return c.json(r, 201);
  });

  route('POST', '/api/screening/lists/user', LIST_ADMINS, async (c) => {
    const q = parseQuery(c, UserQuery, { error: 'account_validation' });
    const bytes = new Uint8Array(await readBytes(c, LIST_BYTES));
    const r = storeUserList(services.config.dataDir, q.name, bytes, new Date(services.clock.now()));
    if (r.ok) {
      recordList(c.get('session'), 'list.imported', r.source, r.rows.imported);
      await services.screening.refresh();
    }
    return c.json(r, r.ok ? 201 : 400);
  });

  route('DELETE', '/api/screening/lists/user/:slug', LIST_ADMINS, async (c) => {
    const slug = c.req.param('slug') ?? '';
    if (!removeUserList(services.config.dataDir, slug)) throw new AppError('account_not_found', { message: 'List not found' });
    recordList(c.get('session'), 'list.removed', `user:${slug}`);
    await services.screening.refresh();
    return c.json({ message: 'List removed' });
  });

  route('GET', '/api/screening/lists', { kind: 'session' }, async (c) => {
    const loaded = services.screening.current();
    return c.json({
      state: services.screening.state(),
      loaded_kinds: loaded?.loadedKinds ?? [],
      lists: loaded?.catalog ?? [],
      index: loaded ? { ...loaded.index.stats, load_ms: loaded.timings.load_ms } : null,
      user_lists: Object.values(storedLists(services.config.dataDir).user).map((u) => ({ slug: u.slug, name: u.name, rows: u.rows, imported_at: u.imported_at })),
    });
  });

  route('POST', '/api/compliance/v1/screen', AUTH, async (c) => {
    const text = await readBody(c);
    const body = parseJsonText(text, ScreenRequest, { error: 'invalid_subject' });
    return handle(c, services, 'screen', text, {
      subject: body.subject, lists: body.screening?.lists, clientReferenceId: body.client_reference_id, metadata: body.metadata,
    });
  });

  route('POST', '/api/compliance/v1/rescreen', AUTH, async (c) => {
    const text = await readBody(c);
    const body = parseJsonText(text, RescreenRequest, { error: 'invalid_subject' });
    return handle(c, services, 'rescreen', text, {
      subject: body.subject, lists: body.screening?.lists, clientReferenceId: body.client_reference_id, metadata: body.metadata,
      rescreen: {
        previous_screening_id: body.previous_screening_id,
        reason: body.screening?.reason ?? 'periodic_rescreen',
        summary: body.previous_result_summary,
      },
    });
  });
}

