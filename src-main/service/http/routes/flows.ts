// Published flows (issue 12; spec, Endpoints rule 9): a stable URL per flow that many people can
// open, kept when the flow's settings are edited. Owners and admins publish, edit, switch off and
// on again in the console; the hosted page turns a visit into a fresh hosted session made from the
// flow's current settings (owned by the organisation like a console-made session: test free, live
// paid by the organisation). A GET never starts a session (link previewers and prefetchers fetch
// pages): the page asks for one with a POST.
import type { Context } from 'hono';
import { planAllows } from '../../../../src-shared/policy';
import {
  HostedSessionQuery, PublishedFlowCreateRequest, PublishedFlowList, PublishedFlowRequest, PublishedFlowStartResponse, PublishedFlowView,
} from '../../../../src-shared/contracts/hosted';
import { AppError } from '../../../../src-shared/errors';
import type { Services } from '../../compose';
import { changeFlow, publishFlow, switchFlow } from '../../core/app/flows';
import { actorOf } from '../../core/audit/audit';
import type { FlowSettings, FlowWithCounts } from '../../core/hosted/flows';
import { checkRedirects } from '../../core/hosted/redirects';
import type { Limit } from '../../core/rate-limit/token-bucket';
import { setRateHeaders } from '../auth';
import type { Router } from '../router';
import type { AppEnv } from '../types';

const TAGS = ['hosted'];
/** A session started from a flow lasts this long: long enough to finish, short enough that an abandoned one closes soon. */
const SESSION_HOURS = 1;
/** Sessions one flow may start: a queue at a venue or a busy website passes; a script filling the database does not. */
const START_LIMIT: Limit = { rps: 5, burst: 50 };

/** The flow's public URL on the service's configured origin: the on-site server's while it runs (a QR code for devices on site), never the request's Host. */
const flowLink = (s: Services, slug: string) => {
  const { origin, link_reach } = s.origin.hosted();
  return { url: `${origin}/hosted/f/${slug}`, link_reach };
};

function view(s: Services, f: FlowWithCounts): PublishedFlowView {
  const settings: PublishedFlowView['settings'] = {};
  if (f.redirect_url !== null) settings.redirect_url = f.redirect_url;
  if (f.failure_redirect_url !== null) settings.failure_redirect_url = f.failure_redirect_url;
  if (f.page_title !== null) settings.page_title = f.page_title;
  if (f.success_message !== null) settings.success_message = f.success_message;
  if (f.failure_message !== null) settings.failure_message = f.failure_message;
  if (f.min_age !== null) settings.min_age = f.min_age;
  return {
    id: f.id, name: f.name, product: f.product, environment: f.env, enabled: f.enabled === 1, ...flowLink(s, f.slug), settings,
    created_at: f.created_at, updated_at: f.updated_at, sessions_started: f.started, sessions_completed: f.completed,
  };
}

/** The request's settings, checked: redirects by the hosted rules (the organisation's app schemes), the product by the plan. */
async function settingsOf(c: Context<AppEnv>, s: Services, body: PublishedFlowRequest): Promise<FlowSettings> {
  const org = c.get('session').org;
  checkRedirects({ redirect_url: body.redirect_url, failure_redirect_url: body.failure_redirect_url }, await s.organization.appSchemes(org.id), 'account_validation');
  const denied = planAllows(org.plan, body.product);
  if (denied) throw denied;
  return {
    name: body.name, product: body.product, redirectUrl: body.redirect_url, failureRedirectUrl: body.failure_redirect_url, pageTitle: body.page_title,
    successMessage: body.success_message, failureMessage: body.failure_message, minAge: body.min_age,
  };
}

export function flowRoutes({ route, services }: Router): void {
  route({
    method: 'GET', path: '/api/hosted/flows', auth: { kind: 'session' }, tags: TAGS,
    summary: 'The organisation\'s published flows in one environment, newest first, with their stable URLs and session counts',
    request: { query: HostedSessionQuery },
    responses: { 200: PublishedFlowList },
    handler: async (c, input) => {
      const org = c.get('session').org.id;
      return c.json<PublishedFlowList>({ flows: (await services.flows.list(org, input.query().env)).map((f) => view(services, f)) });
    },
  });

  route({
    method: 'POST', path: '/api/hosted/flows', auth: { kind: 'session', act: 'hosted.manage' }, tags: TAGS,
    summary: 'Publishes a flow: a stable hosted-page URL many people can open, each getting a fresh session',
    description:
      'Settings as for a hosted session (no expiry: each started session lasts one hour). Redirects are validated like `/hosted/generate`; ' +
      'the product must be in the plan. Live sessions are paid by the organisation when completed; test sessions are free.',
    request: { body: PublishedFlowCreateRequest },
    responses: { 200: PublishedFlowView },
    handler: async (c, input) => {
      const body = await input.body();
      const { org, user } = c.get('session');
      const settings = await settingsOf(c, services, body);
      const flow = await publishFlow(services, org.id, actorOf(user), body.env, settings);
      return c.json<PublishedFlowView>(view(services, flow));
    },
  });

  route({
    method: 'PUT', path: '/api/hosted/flows/:id', auth: { kind: 'session', act: 'hosted.manage' }, tags: TAGS,
    summary: 'Replaces a flow\'s settings; its URL stays the same',
    description: 'Sessions already started keep the settings they were made with; the next visit gets the new ones.',
    request: { body: PublishedFlowRequest },
    responses: { 200: PublishedFlowView },
    handler: async (c, input) => {
      const body = await input.body();
      const { org, user } = c.get('session');
      const id = c.req.param('id') ?? '';
      if (!(await services.flows.byId(id, org.id))) throw new AppError('published_flow_not_found');
      const settings = await settingsOf(c, services, body);
      const flow = await changeFlow(services, org.id, actorOf(user), id, settings);
      return c.json<PublishedFlowView>(view(services, flow));
    },
  });

  for (const [action, enabled] of [['enable', true], ['disable', false]] as const) {
    route({
      method: 'POST', path: `/api/hosted/flows/:id/${action}`, auth: { kind: 'session', act: 'hosted.manage' }, tags: TAGS,
      summary: enabled
        ? 'Switches a flow on again: its URL starts sessions again'
        : 'Switches a flow off: its URL shows a closed page (410 PUBLISHED_FLOW_CLOSED) until it is switched on; sessions already started go on',
      responses: { 200: PublishedFlowView },
      handler: async (c) => {
        const { org, user } = c.get('session');
        const id = c.req.param('id') ?? '';
        const flow = await switchFlow(services, org.id, actorOf(user), id, enabled);
        return c.json<PublishedFlowView>(view(services, flow));
      },
    });
  }

  route({
    method: 'POST', path: '/hosted/flow/:slug/start', auth: { kind: 'public' }, tags: TAGS,
    summary: 'The hosted page of a published flow asks for a fresh session made from the flow\'s current settings',
    description:
      'A POST, so that link previewers fetching `/hosted/f/<slug>` start nothing. The session lasts one hour and is single-use like any hosted session. ' +
      'A switched-off flow answers 410 PUBLISHED_FLOW_CLOSED; an unknown one 404 PUBLISHED_FLOW_NOT_FOUND; at most 5 starts a second per flow (bursts of 50), then 429.',
    responses: { 200: PublishedFlowStartResponse },
    handler: async (c) => {
      const flow = await services.flows.bySlug(c.req.param('slug') ?? '');
      if (!flow) throw new AppError('published_flow_not_found');
      const org = await services.accounts.orgById(flow.org_id);
      // A plan that no longer includes the product closes the flow for the person (no upgrade link for them).
      if (!flow.enabled || !org || planAllows(org.plan, flow.product)) throw new AppError('published_flow_closed');
      const d = await services.limiter.take(`flow:${flow.id}`, START_LIMIT);
      setRateHeaders(c, d);
      if (!d.allowed) throw new AppError('rate_limited', { limit: d.limit, remaining: d.remaining, retry_after: d.retryAfter });
      const { row, token } = await services.hosted.create({ orgId: flow.org_id, env: flow.env, keyId: null, flowId: flow.id }, {
        product: flow.product, expiresInHours: SESSION_HOURS, redirectUrl: flow.redirect_url ?? undefined, failureRedirectUrl: flow.failure_redirect_url ?? undefined,
        pageTitle: flow.page_title ?? undefined, successMessage: flow.success_message ?? undefined, failureMessage: flow.failure_message ?? undefined,
        minAge: flow.min_age ?? undefined,
      });
      // The page itself continues on the address it was opened on (it keeps the path only); the URL given is the configured origin's, never the Host's.
      const { origin, link_reach } = services.origin.hosted();
      return c.json<PublishedFlowStartResponse>({ hosted_url: `${origin}/hosted/v/${token}`, token, expires_at: row.expires_at, link_reach });
    },
  });
}
