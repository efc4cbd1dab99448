// Stateless screening and rescreening (spec: /api/compliance/v1/screen and /rescreen), the
// console's own screening, and the lists screened against.
// The subject lives only in this request: the ledger row and the webhook event carry ids,
// statuses, risk and flags, nothing else.
import type { Context } from 'hono';
import { z } from 'zod';
import { ENVIRONMENTS } from '../../../../src-shared/catalog';
import { Message } from '../../../../src-shared/contracts/common';
import {
  ListsStatus, OfficialImport, OfficialListQuery, UserListQuery, UserListReport,
} from '../../../../src-shared/contracts/lists';
import { RescreenRequest, ScreeningResponse, ScreenRequest } from '../../../../src-shared/contracts/screening';
import { AppError } from '../../../../src-shared/errors';
import type { Services } from '../../compose';
import type { SessionContext } from '../../core/accounts/accounts';
import { actorOf } from '../../core/audit/audit';
import { importOfficialList, importUserCsv, removeUserCsv, type ListActor, type ListManagement } from '../../core/screening/lists/manage';
import { listAttribution } from '../../core/screening/lists/sources';
import { freshnessOf, staleDaysFor } from '../../core/screening/lists/freshness';
import { storedLists } from '../../core/screening/lists/store';
import { hitCategories, SCREENING_HIT } from '../../core/screening/hits';
import { eventFields, listsToCheck, type ScreenCall } from '../../core/screening/service';
import type { Payer } from '../../core/verification/billing';
import type { WebhookEvent } from '../../core/webhooks/webhooks';
import { runBillable } from '../billable';
import type { Router } from '../router';
import type { AppEnv } from '../types';

const AUTH = { kind: 'key', scope: 'compliance', category: 'verification', product: 'compliance' } as const;
const TAGS = ['screening'];

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
    // Provider unavailable: recorded as a non-billable attempt, reported by webhook, never kept
    // under an Idempotency-Key (the next attempt may well succeed).
    await runBillable<null>(
      c, s, {
        operation, idPrefix: 'scr', bodyText: text, payer: key, replayable: false,
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
      const result = await s.pool.screenOne(loaded, {
        ...call, id: ctx.verificationId, created: ctx.createdAt, livemode: key.env === 'live', staleWindows: s.organization.listFreshness(key.orgId),
      });
      const hits = hitCategories(result.matches);
      return {
        status: 'completed', confidence: result.risk.score, billable: true, httpStatus: 200, result,
        errorCode: hits ? SCREENING_HIT : null, hitCategories: hits,
      };
    },
  );
  return c.json<ScreeningResponse>(billed.outcome.result);
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
const SlugParams = z.object({ slug: z.string() });

export function screeningRoutes({ route, services }: Router): void {
  // The console's own screening: the same engine and billing, paid by the organisation
  // (free in test), for the analyst signed in. Nothing about the subject is kept.
  route({
    method: 'POST', path: '/api/console/screen', auth: { kind: 'session', product: 'compliance' }, tags: TAGS,
    summary: 'Screen an individual from the console (billed to the organisation; free in test)',
    request: { query: EnvQuery, body: ScreenRequest, invalid: { query: 'account_validation', body: 'invalid_subject' } },
    responses: { 200: ScreeningResponse },
    // In turn with other screens: see compose.ts (screenGate).
    handler: (c, input) => services.screenGate.run(async () => {
      const session = c.get('session');
      const { env } = input.query();
      const text = await input.text();
      const body = await input.body();
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
    }),
  });

  // Importing lists: owners and admins. Official files are public data; a user list is the
  // organisation's own reference data (not a request's subject), kept in the data directory.
  const LIST_ADMINS = { kind: 'session', act: 'lists.manage' } as const;
  const LIST_BYTES = 64 * 1024 * 1024;
  const lists: ListManagement = {
    dataDir: services.config.dataDir, audit: services.audit, now: () => new Date(services.clock.now()),
    refresh: () => services.screening.refresh(),
    check: services.pool.checks,
  };
  const by = (session: SessionContext): ListActor => ({ orgId: session.org.id, actor: actorOf(session.user) });

  route({
    method: 'POST', path: '/api/screening/lists/official', auth: LIST_ADMINS, tags: TAGS,
    summary: 'Import a newer file of an official list (replaces the shipped one)',
    request: {
      query: OfficialListQuery,
      body: { contentType: 'application/octet-stream', description: 'The list file as published (CSV, XML or gzip), at most 64 MiB' },
      maxBytes: LIST_BYTES,
    },
    responses: { 201: OfficialImport },
    handler: async (c, input) => {
      const q = input.query();
      const bytes = await input.bytes();
      const r = await importOfficialList(lists, by(c.get('session')), q.source, [{ name: q.filename, bytes }]);
      if (!r.ok) throw new AppError('account_validation', { field: 'file', message: `Not imported: ${r.reason}` });
      return c.json<OfficialImport>(r, 201);
    },
  });

  route({
    method: 'POST', path: '/api/screening/lists/user', auth: LIST_ADMINS, tags: TAGS,
    summary: 'Import (or replace) one of the organisation\'s own lists from a CSV',
    request: {
      query: UserListQuery,
      // Browsers label .csv files text/csv, application/vnd.ms-excel (Windows) or text/plain.
      body: { contentType: 'text/csv', accept: ['text/plain', 'application/csv', 'application/vnd.ms-excel'], description: 'The list as CSV, at most 64 MiB' },
      maxBytes: LIST_BYTES,
    },
    responses: { 201: UserListReport, 400: UserListReport },
    handler: async (c, input) => {
      const q = input.query();
      const bytes = await input.bytes();
      const r = await importUserCsv(lists, by(c.get('session')), q.name, bytes);
      return c.json<UserListReport>(r, r.ok ? 201 : 400);
    },
  });

  route({
    method: 'DELETE', path: '/api/screening/lists/user/:slug', auth: LIST_ADMINS, tags: TAGS,
    summary: 'Remove one of the organisation\'s own lists',
    request: { params: SlugParams },
    responses: { 200: Message },
    handler: async (c) => {
      if (!(await removeUserCsv(lists, by(c.get('session')), c.req.param('slug') ?? ''))) throw new AppError('list_not_found');
      return c.json<Message>({ message: 'List removed' });
    },
  });

  route({
    method: 'GET', path: '/api/screening/lists', auth: { kind: 'session' }, tags: TAGS,
    summary: 'The lists screened against, the index, and the organisation\'s own lists',
    responses: { 200: ListsStatus },
    handler: (c) => {
      const loaded = services.screening.current();
      // Stale for this organisation's windows, now.
      const windows = services.organization.listFreshness(c.get('session').org.id);
      const now = services.clock.now();
      return c.json<ListsStatus>({
        state: services.screening.state(),
        loaded_kinds: loaded?.loadedKinds ?? [],
        lists: (loaded?.catalog ?? []).map((l) => ({ ...l, ...listAttribution(l.source), ...freshnessOf(l, windows, now), stale_after_days: staleDaysFor(l.kind, windows) })) as ListsStatus['lists'],
        stale_windows: windows,
        index: loaded ? { ...loaded.stats, load_ms: loaded.timings.load_ms } : null,
        user_lists: Object.values(storedLists(services.config.dataDir).user).map((u) => ({ slug: u.slug, name: u.name, rows: u.rows, imported_at: u.imported_at })),
      });
    },
  });

  route({
    method: 'POST', path: '/api/compliance/v1/screen', auth: AUTH, tags: TAGS,
    summary: 'Screen an individual against sanctions, PEP, RCA and wanted lists (60 credits)',
    request: { body: ScreenRequest, invalid: 'invalid_subject' },
    responses: { 200: ScreeningResponse },
    // In turn with other screens: see compose.ts (screenGate).
    handler: (c, input) => services.screenGate.run(async () => {
      const text = await input.text();
      const body = await input.body();
      return handle(c, services, 'screen', text, {
        subject: body.subject, lists: body.screening?.lists, clientReferenceId: body.client_reference_id, metadata: body.metadata,
      });
    }),
  });

  route({
    method: 'POST', path: '/api/compliance/v1/rescreen', auth: AUTH, tags: TAGS,
    summary: 'Rescreen an individual and compare with the previous result (30 credits)',
    request: { body: RescreenRequest, invalid: 'invalid_subject' },
    responses: { 200: ScreeningResponse },
    // In turn with other screens: see compose.ts (screenGate).
    handler: (c, input) => services.screenGate.run(async () => {
      const text = await input.text();
      const body = await input.body();
      return handle(c, services, 'rescreen', text, {
        subject: body.subject, lists: body.screening?.lists, clientReferenceId: body.client_reference_id, metadata: body.metadata,
        rescreen: {
          previous_screening_id: body.previous_screening_id,
          reason: body.screening?.reason ?? 'periodic_rescreen',
          summary: body.previous_result_summary,
        },
      });
    }),
  });
}
