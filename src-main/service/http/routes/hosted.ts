// Hosted verification sessions' routes (spec: Hosted session, hosted completion, redirect rules,
// verification.completed). Making, showing, completing and revoking a session are use cases
// (core/app/hosted.ts).
import { planAllows } from '../../../../src-shared/policy';
import {
  HostedCompleteRequest, HostedCompleteResponse, HostedConsoleCreateRequest, HostedGenerateRequest, HostedGenerateResponse, HostedPage, HostedSessionList,
  HostedSessionQuery, HOSTED_ATTEMPTS, type HostedSessionView,
} from '../../../../src-shared/contracts/hosted';
import { AppError } from '../../../../src-shared/errors';
import { completeHosted, createSession, hostedLogo, hostedPage, revokeSession, sessionView } from '../../core/app/hosted';
import { actorOf } from '../../core/audit/audit';
import { IMAGE_JSON_BYTES } from '../../core/media/image';
import { idempotencyOf, reply } from '../call';
import type { Router } from '../router';

export function hostedRoutes({ route, services }: Router): void {
  route({
    method: 'POST', path: '/hosted/generate', auth: { kind: 'key', scope: null, category: 'read', via: 'bearer' }, tags: ['hosted'],
    summary: 'A hosted verification session: a single-use URL a person opens on their phone',
    description:
      'The key needs the scope of the session\'s product. Redirect URLs: https, an app scheme the organisation registered (`PUT /api/settings/app-schemes`), ' +
      'or http to this computer (localhost, 127.0.0.0/8, [::1]) for testing; every other scheme (`javascript:`, `data:`, `file:`, `ms-msdt:`, `search-ms:`, ...) ' +
      'and plain http elsewhere are refused (400 naming the field). `hosted_url` is on the service\'s configured origin (the on-site server\'s while it runs), ' +
      'never the request\'s Host. The token is shown once; only its hash is kept.',
    request: { body: HostedGenerateRequest },
    responses: { 200: HostedGenerateResponse },
    handler: async (c, input) => {
      const body = await input.body();
      const key = c.get('key');
      if (!key.scopes.includes(body.product)) throw new AppError('wrong_scope', { hint: `Hosted ${body.product} sessions need a key with the ${body.product} scope.` });
      const denied = planAllows(c.get('org').plan, body.product);
      if (denied) throw denied;
      return c.json<HostedGenerateResponse>(await createSession(services, { orgId: key.orgId, env: key.env, keyId: key.id }, body));
    },
  });

  route({
    method: 'GET', path: '/hosted/session/:token', auth: { kind: 'public' }, tags: ['hosted'],
    summary: 'The hosted page\'s view of its session: product, texts, test mode (the first call marks it opened)',
    responses: { 200: HostedPage },
    handler: async (c) => c.json<HostedPage>(await hostedPage(services, c.req.param('token') ?? '')),
  });

  route({
    method: 'GET', path: '/hosted/logo/:token', auth: { kind: 'public' }, tags: ['hosted'],
    summary: 'The logo of the organisation whose session this is (PNG), for the hosted page',
    description: 'Any session the token names, open or closed: the closed page shows whose link it was. 404 LOGO_NOT_FOUND for an unknown token or no logo.',
    responses: { 200: { contentType: 'image/png', description: 'The organisation\'s logo, re-encoded by the service' } },
    handler: async (c) => c.body(new Uint8Array(await hostedLogo(services, c.req.param('token') ?? '')), 200, { 'Content-Type': 'image/png', 'X-Content-Type-Options': 'nosniff' }),
  });

  route({
    method: 'POST', path: '/hosted/complete/:token', auth: { kind: 'public' }, tags: ['hosted'],
    summary: 'Completes a hosted session with what the person sent; the outcome and where to go next',
    description:
      'Single use: the first completion closes the session (410 HOSTED_SESSION_CLOSED after that, and once expired or revoked; 409 while another completion of it runs). Pass → `redirect_url`; failure or denial → `failure_redirect_url` when set; ' +
      `liveness takes a clip held to the head-turn challenge (a photo is 400 \`video_required\` where the service decodes video, the session staying open); ` +
      'a clip that misses it answers `retry` with the rule missed; any product\'s failure the person can fix (`HOSTED_RETRYABLE_REASONS`: no face, more than one, ' +
      `the document unreadable, ...) answers \`retry\` with \`reason\`, the session staying open, up to the organisation's attempts (Settings, ${HOSTED_ATTEMPTS.min}-${HOSTED_ATTEMPTS.max}, ` +
      `default ${HOSTED_ATTEMPTS.default}) in all, the session charged once; ` +
      'otherwise `redirect_url` is null and the page shows the result. Age sessions whose selfie is not conclusive answer `id_required` and stay open for an ID document. ' +
      'Emits `verification.completed` (the authoritative result) to the organisation\'s webhooks.',
    request: { body: HostedCompleteRequest, maxBytes: 3 * IMAGE_JSON_BYTES },
    responses: { 200: HostedCompleteResponse },
    handler: async (c, input) => {
      // Read only once the session is known to be open: the upload then draws on the main budget.
      const sent = async () => {
        input.identified();
        return { body: await input.body(), text: await input.text() };
      };
      return reply(c, await completeHosted(services, c.req.param('token') ?? '', sent, idempotencyOf(c)));
    },
  });

  route({
    method: 'GET', path: '/api/hosted/sessions', auth: { kind: 'session' }, tags: ['hosted'],
    summary: 'The organisation\'s hosted sessions in one environment, newest first (settings and state, no subject data)',
    request: { query: HostedSessionQuery },
    responses: { 200: HostedSessionList },
    handler: async (c, input) => {
      const org = c.get('session').org.id;
      return c.json<HostedSessionList>({ sessions: await Promise.all((await services.hosted.list(org, input.query().env)).map((r) => sessionView(services, r))) });
    },
  });

  route({
    method: 'POST', path: '/api/hosted/sessions', auth: { kind: 'session', act: 'hosted.manage' }, tags: ['hosted'],
    summary: 'An analyst makes a hosted session (for an on-site check): the URL is shown once, for a QR code',
    description: 'Live sessions are paid by the organisation when completed; test sessions are free. The product must be in the plan.',
    request: { body: HostedConsoleCreateRequest },
    responses: { 200: HostedGenerateResponse },
    handler: async (c, input) => {
      const body = await input.body();
      const { org, user } = c.get('session');
      const denied = planAllows(org.plan, body.product);
      if (denied) throw denied;
      const made = await services.audit.atomically(async (tx) => {
        const r = await createSession(services, { orgId: org.id, env: body.env, keyId: null }, body, 'account_validation', tx);
        await services.audit.record({ orgId: org.id, actor: actorOf(user), action: 'hosted.created', env: body.env, objectId: r.session_id, to: body.product }, tx);
        return r;
      });
      return c.json<HostedGenerateResponse>(made);
    },
  });

  route({
    method: 'POST', path: '/api/hosted/sessions/:id/revoke', auth: { kind: 'session', act: 'hosted.manage' }, tags: ['hosted'],
    summary: 'Revokes an open hosted session: its link stops working at once',
    responses: { 200: HostedSessionList.shape.sessions.element },
    handler: async (c) => {
      const { org, user } = c.get('session');
      const revoked = await services.audit.atomically(async (tx) => {
        const v = await revokeSession(services, org.id, c.req.param('id') ?? '', tx);
        await services.audit.record({ orgId: org.id, actor: actorOf(user), action: 'hosted.revoked', env: v.environment, objectId: v.session_id }, tx);
        return v;
      });
      return c.json<HostedSessionView>(revoked);
    },
  });
}
