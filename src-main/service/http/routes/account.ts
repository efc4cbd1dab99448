// The organisation's plan and credits, for the console's Plan & credits screen, and its settings.
// The owner records the plan the organisation bought here (there is no payment system in a
// desktop install); owners and admins switch four-eyes clearing on or off.
import { PLAN_INFO } from '../../../../src-shared/catalog';
import { Account, ChangePlanRequest, LedgerPage, PageQuery } from '../../../../src-shared/contracts/accounts';
import type { Services } from '../../compose';
import { toOrganization } from '../../core/accounts/accounts';
import type { OrgRow } from '../../core/accounts/repo';
import { changePlan, changeSetting, setPublicUrl } from '../../core/app/account';
import { actorOf } from '../../core/audit/audit';
import { OrgSettings, UpdateSettingsRequest } from '../../../../src-shared/contracts/review';
import {
  AppSchemesSettings, DataDirectory, ListFreshnessSettings, LOGO_MAX_SIDE, LOGO_MAX_UPLOAD_BYTES, OrganizationSettings, UpdateListFreshnessRequest,
  UpdateAppSchemesRequest, UpdateOrganizationRequest,
} from '../../../../src-shared/contracts/organization';
import { PublicUrlSettings, UpdatePublicUrlRequest } from '../../../../src-shared/contracts/links';
import { HOSTED_ATTEMPTS, HostedAttemptsSettings } from '../../../../src-shared/contracts/hosted';
import { LivenessSettings } from '../../../../src-shared/contracts/faces';
import { AppError } from '../../../../src-shared/errors';
import type { Router } from '../router';
import { planIncludes } from '../../../../src-shared/policy';

async function accountOf(services: Services, org: OrgRow): Promise<Account> {
  const p = PLAN_INFO[org.plan];
  return {
    organization: toOrganization(org),
    plan: {
      id: p.id, label: p.label, compliance: planIncludes(org.plan, 'compliance'), team_size: p.team_size,
      verification_rps: p.verification.rps, verification_burst: p.verification.burst,
      read_rps: p.read.rps, read_burst: p.read.burst,
    },
    credits: { balance: await services.credits.balance(org.id) },
  };
}

async function publicUrlView(services: Services): Promise<PublicUrlSettings> {
  const saved = await services.publicUrlSetting.load();
  const start = services.origin.startUrl();
  return { public_url: saved, start_url: start, overridden: saved !== null && start !== null, hosted: services.origin.hosted(), widget: services.origin.service() };
}

export function accountRoutes({ route, services }: Router): void {
  const TAGS = ['account'];

  route({
    method: 'GET', path: '/api/account', auth: { kind: 'session' }, tags: TAGS,
    summary: 'The organisation, its plan and its credit balance',
    responses: { 200: Account },
    handler: async (c) => c.json<Account>(await accountOf(services, c.get('session').org)),
  });

  route({
    method: 'PATCH', path: '/api/account/plan', auth: { kind: 'session', act: 'plan.change' }, tags: TAGS,
    summary: 'Record the plan the organisation bought (owner)',
    request: { body: ChangePlanRequest },
    responses: { 200: Account },
    handler: async (c, input) => {
      const s = c.get('session');
      const body = await input.body();
      const org = await changePlan(services, s.org.id, actorOf(s.user), body.plan);
      return c.json<Account>(await accountOf(services, org));
    },
  });

  route({
    method: 'GET', path: '/api/settings', auth: { kind: 'session' }, tags: TAGS,
    summary: 'The organisation\'s settings',
    responses: { 200: OrgSettings },
    handler: (c) => c.json<OrgSettings>(services.review.settings(c.get('session').org)),
  });

  route({
    method: 'PATCH', path: '/api/settings', auth: { kind: 'session', act: 'settings.manage' }, tags: TAGS,
    summary: 'Change the organisation\'s settings (four-eyes)',
    request: { body: UpdateSettingsRequest },
    responses: { 200: OrgSettings },
    handler: async (c, input) => {
      const body = await input.body();
      return c.json<OrgSettings>(await services.review.setFourEyes(c.get('session'), body.four_eyes));
    },
  });

  route({
    method: 'GET', path: '/api/settings/organization', auth: { kind: 'session' }, tags: TAGS,
    summary: 'The organisation\'s display name and logo (hosted pages, PDF exports)',
    responses: { 200: OrganizationSettings },
    handler: async (c) => c.json<OrganizationSettings>(await services.organization.settings(c.get('session').org.id)),
  });

  route({
    method: 'PATCH', path: '/api/settings/organization', auth: { kind: 'session', act: 'settings.manage' }, tags: TAGS,
    summary: 'Rename the organisation (owner or admin; 1–120 characters, trimmed)',
    request: { body: UpdateOrganizationRequest },
    responses: { 200: OrganizationSettings },
    handler: async (c, input) => {
      const s = c.get('session');
      const body = await input.body();
      return c.json<OrganizationSettings>(await services.organization.rename(s.user, s.org.id, body.name));
    },
  });

  route({
    method: 'GET', path: '/api/settings/list-freshness', auth: { kind: 'session' }, tags: TAGS,
    summary: 'The days after which a sanctions (and wanted) or PEP (and RCA) list is reported stale',
    responses: { 200: ListFreshnessSettings },
    handler: async (c) => c.json<ListFreshnessSettings>(await services.organization.listFreshness(c.get('session').org.id)),
  });

  route({
    method: 'PATCH', path: '/api/settings/list-freshness', auth: { kind: 'session', act: 'settings.manage' }, tags: TAGS,
    summary: 'Change the list-freshness windows (owner or admin; 1–3650 days each)',
    request: { body: UpdateListFreshnessRequest },
    responses: { 200: ListFreshnessSettings },
    handler: async (c, input) => {
      const s = c.get('session');
      return c.json<ListFreshnessSettings>(await services.organization.setListFreshness(s.user, s.org.id, await input.body()));
    },
  });

  route({
    method: 'GET', path: '/api/settings/app-schemes', auth: { kind: 'session' }, tags: TAGS,
    summary: 'The custom URL schemes of the organisation\'s own apps, which hosted and age-gate redirects may use to return to the app',
    responses: { 200: AppSchemesSettings },
    handler: async (c) => c.json<AppSchemesSettings>({ app_schemes: await services.organization.appSchemes(c.get('session').org.id) }),
  });

  route({
    method: 'PUT', path: '/api/settings/app-schemes', auth: { kind: 'session', act: 'settings.manage' }, tags: TAGS,
    summary: 'Replace the organisation\'s app schemes (owner or admin)',
    description:
      'Each scheme without its colon, in lower case (RFC 3986: a letter, then letters, digits, `+`, `-`, `.`; 2–64 characters), each once, at most 10. ' +
      'Schemes that run content or open the browser\'s or the operating system\'s own handlers are refused (`forbidden_scheme`): `javascript`, `data`, `file`, ' +
      '`http`, `https`, `ftp`, `ws`, `mailto`, `view-source`, `intent`, `search-ms`, `smb`, every `ms-` scheme and more. ' +
      'Redirects saved with a scheme removed later are no longer followed.',
    request: { body: UpdateAppSchemesRequest },
    responses: { 200: AppSchemesSettings },
    handler: async (c, input) => {
      const s = c.get('session');
      const body = await input.body();
      return c.json<AppSchemesSettings>(await services.organization.setAppSchemes(s.user, s.org.id, body.app_schemes));
    },
  });

  route({
    method: 'GET', path: '/api/settings/public-url', auth: { kind: 'session' }, tags: TAGS,
    summary: 'The installation\'s public URL (saved here, or given at start with --public-url) and how far hosted links and the age-gate script tag reach now',
    responses: { 200: PublicUrlSettings },
    handler: async (c) => c.json<PublicUrlSettings>(await publicUrlView(services)),
  });

  route({
    method: 'PUT', path: '/api/settings/public-url', auth: { kind: 'session', act: 'settings.manage' }, tags: TAGS,
    summary: 'Set or clear the installation\'s public URL (owner or admin)',
    description:
      'The origin of a proxy or tunnel in front of this service (`https://verify.example.com`): hosted links, their QR codes and the age-gate script tag ' +
      'use it while the on-site server is not running. An http(s) origin only: no path, query, fragment or credentials (400 naming `public_url`, never echoing it). ' +
      '`null` clears it. A `--public-url` given at start wins: the saved one then shows as `overridden`.',
    request: { body: UpdatePublicUrlRequest },
    responses: { 200: PublicUrlSettings },
    handler: async (c, input) => {
      const body = await input.body();
      const s = c.get('session');
      await setPublicUrl(services, s.org.id, actorOf(s.user), s.user.id, body.public_url);
      // The URL itself stays out of the log (it is configuration, but logs hold codes and ids only).
      services.logger.info('public_url_changed', { user_id: s.user.id, set: body.public_url !== null });
      return c.json<PublicUrlSettings>(await publicUrlView(services));
    },
  });

  route({
    method: 'GET', path: '/api/settings/liveness', auth: { kind: 'session' }, tags: TAGS,
    summary: 'Whether the organisation\'s API keys must send the head-turn clip as a selfie (liveness, age, identity, KYC-plus) instead of a still photo',
    responses: { 200: LivenessSettings },
    handler: async (c) => c.json<LivenessSettings>({ require_liveness_clip: await services.organization.requiresLivenessClip(c.get('session').org.id) }),
  });

  route({
    method: 'PUT', path: '/api/settings/liveness', auth: { kind: 'session', act: 'settings.manage' }, tags: TAGS,
    summary: 'Require the head-turn clip of the organisation\'s API keys, or allow still photos again (owner or admin; default: allowed)',
    description: 'When required, a still photo sent by an API key as a selfie is refused (400 `invalid_parameters`, issue `video_required`) before anything is charged, and every clip is held to '
      + 'the head-turn challenge. Hosted pages ask for the clip whatever this says; the console\'s try panel is not an API key. A still photo that is accepted is answered with '
      + '`evidence.kind` = `still_photo` and `weaker: true`.',
    request: { body: LivenessSettings.strict() },
    responses: { 200: LivenessSettings },
    handler: async (c, input) => {
      const body = await input.body();
      const s = c.get('session');
      const saved = await changeSetting(services, s.org.id, actorOf(s.user), 'require_liveness_clip', (tx) => services.organization.requiresLivenessClip(s.org.id, tx),
        (tx) => services.organization.setRequiresLivenessClip(s.org.id, body.require_liveness_clip, tx));
      return c.json<LivenessSettings>({ require_liveness_clip: saved });
    },
  });

  route({
    method: 'GET', path: '/api/settings/hosted-attempts', auth: { kind: 'session' }, tags: TAGS,
    summary: 'The attempts a person has on one hosted link: a failure they can fix (light, one face, the whole document) may be tried again this many times in all',
    responses: { 200: HostedAttemptsSettings },
    handler: async (c) => c.json<HostedAttemptsSettings>({ hosted_attempts: await services.organization.hostedAttempts(c.get('session').org.id) }),
  });

  route({
    method: 'PUT', path: '/api/settings/hosted-attempts', auth: { kind: 'session', act: 'settings.manage' }, tags: TAGS,
    summary: `Set the attempts a person has on one hosted link (owner or admin; ${HOSTED_ATTEMPTS.min}-${HOSTED_ATTEMPTS.max}, default ${HOSTED_ATTEMPTS.default})`,
    description: 'Applies at once, also to links already given: a session whose failed attempts reach the new number ends at its next failure.',
    request: { body: HostedAttemptsSettings.strict() },
    responses: { 200: HostedAttemptsSettings },
    handler: async (c, input) => {
      const body = await input.body();
      const s = c.get('session');
      const saved = await changeSetting(services, s.org.id, actorOf(s.user), 'hosted_attempts', (tx) => services.organization.hostedAttempts(s.org.id, tx),
        (tx) => services.organization.setHostedAttempts(s.org.id, body.hosted_attempts, tx));
      return c.json<HostedAttemptsSettings>({ hosted_attempts: saved });
    },
  });

  route({
    method: 'PUT', path: '/api/settings/logo', auth: { kind: 'session', act: 'settings.manage' }, tags: TAGS,
    summary: 'Upload the organisation\'s logo (owner or admin)',
    description: `A PNG or JPEG of at most ${LOGO_MAX_UPLOAD_BYTES / 1024} KB, recognised by its first bytes and decoded to check it; ` +
      `stored re-encoded as a PNG of at most ${LOGO_MAX_SIDE}×${LOGO_MAX_SIDE} pixels, without the file's metadata.`,
    request: {
      body: { contentType: 'image/png', accept: ['image/jpeg', 'application/octet-stream'], description: 'The image file\'s bytes' },
      maxBytes: LOGO_MAX_UPLOAD_BYTES,
    },
    responses: { 200: OrganizationSettings },
    handler: async (c, input) => {
      const s = c.get('session');
      return c.json<OrganizationSettings>(await services.organization.setLogo(s.user, s.org.id, await input.bytes()));
    },
  });

  route({
    method: 'GET', path: '/api/settings/logo', auth: { kind: 'session' }, tags: TAGS,
    summary: 'The organisation\'s logo as PNG',
    responses: { 200: { contentType: 'image/png', description: 'The logo, re-encoded by the service' } },
    handler: async (c) => {
      const logo = await services.organization.logo(c.get('session').org.id);
      if (!logo) throw new AppError('logo_not_found');
      return c.body(new Uint8Array(logo.png), 200, { 'Content-Type': 'image/png', 'X-Content-Type-Options': 'nosniff' });
    },
  });

  route({
    method: 'DELETE', path: '/api/settings/logo', auth: { kind: 'session', act: 'settings.manage' }, tags: TAGS,
    summary: 'Remove the organisation\'s logo (owner or admin)',
    responses: { 200: OrganizationSettings },
    handler: async (c) => {
      const s = c.get('session');
      return c.json<OrganizationSettings>(await services.organization.removeLogo(s.user, s.org.id));
    },
  });

  route({
    method: 'GET', path: '/api/settings/data-directory', auth: { kind: 'session', act: 'settings.manage' }, tags: TAGS,
    summary: 'Where the data directory is and how large it is, by part (owner or admin)',
    responses: { 200: DataDirectory },
    handler: async (c) => c.json<DataDirectory>(await services.organization.dataDirectory()),
  });

  route({
    method: 'GET', path: '/api/credits/ledger', auth: { kind: 'session', credits: true }, tags: TAGS,
    summary: 'A page of the credit ledger',
    request: { query: PageQuery },
    responses: { 200: LedgerPage },
    handler: async (c, input) => {
      const org = c.get('session').org;
      const q = input.query();
      const { entries, total } = await services.credits.ledger(org.id, q.page, q.per_page);
      return c.json<LedgerPage>({
        entries: entries.map((e) => ({
          id: e.id, amount: e.amount, kind: e.kind, product: e.product, verification_id: e.verification_id,
          env: e.env, note: e.note, created_at: e.created_at,
        })),
        balance: await services.credits.balance(org.id),
        total,
        page: q.page,
        pages: Math.max(1, Math.ceil(total / q.per_page)),
      });
    },
  });
}
