// Hosted verification sessions (spec: Hosted session, hosted completion, redirect rules,
// verification.completed). An API key makes a session (`Authorization: Bearer <API key>`); the
// person opens its single-use URL and completes it there; the product runs on the same code path
// as the API, paid by the key that made the session (test sessions are free); the customer's
// backend learns the authoritative result from the `verification.completed` webhook. Answers to
// the page carry the outcome in words, a reason code and the redirect: never subject data.
import type { Context } from 'hono';
import type { z } from 'zod';
import { planAllows } from '../../../../src-shared/catalog';
import type { AgeIdResponse, AgeSelfieResponse } from '../../../../src-shared/contracts/age';
import type { ChallengeRule, LivenessResult } from '../../../../src-shared/contracts/faces';
import {
  HostedCompleteRequest, HostedCompleteResponse, HostedConsoleCreateRequest, HostedGenerateRequest, HostedGenerateResponse, HostedPage, HostedSessionList,
  HostedSessionQuery, type HostedSessionView,
} from '../../../../src-shared/contracts/hosted';
import { AppError } from '../../../../src-shared/errors';
import type { Services } from '../../compose';
import { checkRedirects, redirectWith } from '../../core/hosted/redirects';
import type { HostedRow } from '../../core/hosted/sessions';
import { bytesOfBase64, IMAGE_JSON_BYTES, isVideo, sniff } from '../../core/media/image';
import { VIDEO_SUPPORTED } from '../../core/media/video';
import type { Payer } from '../../core/verification/billing';
import { runBillable } from '../billable';
import type { Router } from '../router';
import type { AppEnv } from '../types';
import { ageFromIso, idStep, selfieStep } from './age';
import { identity, kycPlus } from './documents';
import { runLiveness } from './faces';

const DEFAULT_MESSAGE = {
  passed: 'Verification complete. You can close this page.',
  failed: 'We could not verify you this time.',
  id_required: 'Your selfie was not enough to confirm your age. Add a photo of your ID document to finish.',
  retry: 'The recording did not show what was asked. Record it again.',
} as const;

/** Sessions being completed right now: a second completion of the same token waits for none and is refused. */
const completing = new Set<string>();

/** Recordings of the liveness challenge a session may make: a missed one can be recorded again, this many in all. */
export const CHALLENGE_ATTEMPTS = 3;
/** The clip the page records for the challenge, seconds (the service samples its first 3.3 s). */
export const CHALLENGE_CLIP_SECONDS = 3.2;
/**
 * Hosted liveness is the head-turn challenge wherever this service can decode video: the page is
 * told so, and nothing but a clip completes the session (a photo would skip the challenge).
 */
const challengeRequired = (product: HostedRow['product']) => product === 'human' && VIDEO_SUPPORTED;
/** Missed recordings are counted with the session (migration 0012): a restart gives none back. */
const attemptsLeft = (row: HostedRow) => CHALLENGE_ATTEMPTS - row.challenge_misses;

function view(s: Services, r: HostedRow): HostedSessionView {
  return {
    session_id: r.id, product: r.product, environment: r.env, state: s.hosted.stateOf(r), outcome: r.outcome, verification_id: r.verification_id,
    page_title: r.page_title, redirect_url: r.redirect_url, failure_redirect_url: r.failure_redirect_url, created_at: r.created_at,
    expires_at: r.expires_at, opened_at: r.opened_at, completed_at: r.completed_at, api_key_id: r.api_key_id, flow_id: r.flow_id,
  };
}

/** The session a URL token names, open for use; a clear 404 or 410 otherwise. */
function openSession(s: Services, token: string): HostedRow {
  const row = s.hosted.byToken(token);
  if (!row) throw new AppError('hosted_session_not_found');
  const state = s.hosted.stateOf(row);
  if (state !== 'created' && state !== 'opened') throw new AppError('hosted_session_closed', { message: `This verification link is ${state === 'completed' ? 'already used' : state}.` });
  return row;
}

/** Who pays: the key that made the session (revoked since: the link no longer works). */
function payerOf(s: Services, row: HostedRow): Payer {
  if (row.api_key_id === null) return { id: null, orgId: row.org_id, env: row.env, demo: false };
  const key = s.keys.get(row.api_key_id);
  if (!key || key.revoked_at) throw new AppError('hosted_session_closed', { message: 'This verification link is no longer valid.' });
  return { id: key.id, orgId: row.org_id, env: row.env, demo: key.demo === 1 };
}

const need = (body: HostedCompleteRequest, ...fields: (keyof HostedCompleteRequest)[]) => {
  const missing = fields.filter((f) => !body[f]);
  if (missing.length) throw new AppError('invalid_parameters', { message: `Send ${missing.join(' and ')}`, fields: missing.map((field) => ({ field, issue: 'missing' })) });
};

type Run = {
  status: 'passed' | 'failed' | 'id_required';
  verificationId: string;
  /** A liveness clip judged as the head-turn challenge. */
  challenge?: { passed: boolean; failed: ChallengeRule | null };
};

/** Runs the session's product on what the person sent, through the API's own handlers. */
async function runProduct(c: Context<AppEnv>, s: Services, row: HostedRow, body: HostedCompleteRequest, text: string, payer: Payer): Promise<Run> {
  const answer = async <T>(res: Response | Promise<Response>) => (await (await res).json()) as T;
  switch (row.product) {
    case 'human': {
      need(body, 'selfie_b64');
      const bytes = bytesOfBase64('selfie_b64', body.selfie_b64!);
      const clip = isVideo(sniff(bytes));
      // Refused before any model runs or anything is recorded: not charged, not an attempt, the session stays open.
      if (challengeRequired(row.product) && !clip) {
        throw new AppError('invalid_parameters', {
          message: 'selfie_b64 must be a video: this verification asks for a recorded head turn, which a photo cannot show',
          fields: [{ field: 'selfie_b64', issue: 'video_required' }],
        });
      }
      // A clip is held to the challenge; recordings after a missed one are paid by the session's first.
      const r = await answer<LivenessResult>(runLiveness(c, s, payer, bytes, { challenge: clip ? 'head_turn' : null, paidOnce: s.hosted.paidOnce(row) }));
      const judged = r.analysis?.challenge;
      return {
        status: r.status === 'PASS' ? 'passed' : 'failed', verificationId: r.verification_id,
        ...(judged ? { challenge: { passed: judged.passed, failed: judged.failed } } : {}),
      };
    }
    case 'identity':
    case 'compliance': {
      need(body, 'selfie_b64', 'id_front_b64');
      const images = { selfie_b64: body.selfie_b64!, id_front_b64: body.id_front_b64!, ...(body.id_back_b64 ? { id_back_b64: body.id_back_b64 } : {}) };
      const r = await answer<{ verification_id: string; verified: boolean }>(
        row.product === 'identity' ? identity(c, s, payer, images, text) : kycPlus(c, s, payer, images, text),
      );
      return { status: r.verified ? 'passed' : 'failed', verificationId: r.verification_id };
    }
    case 'age': {
      const minAge = row.min_age ?? 18;
      if (row.verification_id) {
        // The selfie asked for an ID: the same flow, no second charge.
        need(body, 'selfie_b64', 'id_front_b64');
        const r = await answer<AgeIdResponse>(idStep(c, s, {
          image_selfie_b64: body.selfie_b64!, image_id_b64: body.id_front_b64!, min_age: minAge, use_case: 'custom', verification_id: row.verification_id,
        }, text, payer));
        return { status: r.verified ? 'passed' : 'failed', verificationId: r.verification_id };
      }
      need(body, 'date_of_birth', 'selfie_b64');
      const dob = body.date_of_birth!;
      const age = ageFromIso(dob, new Date(s.clock.now()));
      if (age === null || age < 0 || age > 150) throw new AppError('invalid_parameters', { fields: [{ field: 'date_of_birth', issue: 'out_of_range' }] });
      if (age < minAge) {
        // A denial at the date of birth: recorded (free), and no picture is looked at.
        const billed = await runBillable(c, s, { operation: 'age', idPrefix: 'age', bodyText: text, payer }, async () => ({
          status: 'failed', confidence: null, billable: false, httpStatus: 200, errorCode: 'below_minimum_age', result: null,
        }));
        return { status: 'failed', verificationId: billed.verificationId };
      }
      const r = await answer<AgeSelfieResponse>(selfieStep(c, s, { image_selfie_b64: body.selfie_b64!, min_age: minAge, use_case: 'custom' }, text, payer));
      if (r.verified) return { status: 'passed', verificationId: r.verification_id };
      return { status: 'id_required', verificationId: r.verification_id };
    }
  }
}

/** A session for its owner (an API key, or the console's organisation) with validated redirects. */
function createSession(
  c: Context<AppEnv>, s: Services, owner: { orgId: number; env: 'test' | 'live'; keyId: string | null }, body: z.output<typeof HostedGenerateRequest>,
): HostedGenerateResponse {
  checkRedirects({ redirect_url: body.redirect_url, failure_redirect_url: body.failure_redirect_url });
  const { row, token } = s.hosted.create(owner, {
    product: body.product, redirectUrl: body.redirect_url, failureRedirectUrl: body.failure_redirect_url, expiresInHours: body.expires_in_hours,
    pageTitle: body.page_title, successMessage: body.success_message, failureMessage: body.failure_message, minAge: body.min_age,
  });
  // Made in the console while the on-site server runs: the URL a device on site can open.
  const origin = (owner.keyId === null ? s.onsite.origin() : null) ?? new URL(c.req.url).origin;
  return { hosted_url: `${origin}/hosted/v/${token}`, token, expires_at: row.expires_at, session_id: row.id };
}

export function hostedRoutes({ route, services }: Router): void {
  route({
    method: 'POST', path: '/hosted/generate', auth: { kind: 'key', scope: null, category: 'read', via: 'bearer' }, tags: ['hosted'],
    summary: 'A hosted verification session: a single-use URL a person opens on their phone',
    description:
      'The key needs the scope of the session\'s product. Redirect URLs: https, a custom-scheme deep link, or http://localhost for testing; ' +
      '`javascript:`, `data:`, `file:` and plain http elsewhere are refused. The token is shown once; only its hash is kept.',
    request: { body: HostedGenerateRequest },
    responses: { 200: HostedGenerateResponse },
    handler: async (c, input) => {
      const body = await input.body();
      const key = c.get('key');
      if (!key.scopes.includes(body.product)) throw new AppError('wrong_scope', { hint: `Hosted ${body.product} sessions need a key with the ${body.product} scope.` });
      const denied = planAllows(c.get('org').plan, body.product);
      if (denied) throw denied;
      return c.json<HostedGenerateResponse>(createSession(c, services, { orgId: key.orgId, env: key.env, keyId: key.id }, body));
    },
  });

  route({
    method: 'GET', path: '/hosted/session/:token', auth: { kind: 'public' }, tags: ['hosted'],
    summary: 'The hosted page\'s view of its session: product, texts, test mode (the first call marks it opened)',
    responses: { 200: HostedPage },
    handler: (c) => {
      const row = services.hosted.byToken(c.req.param('token') ?? '');
      if (!row) throw new AppError('hosted_session_not_found');
      services.hosted.open(row);
      const fresh = services.hosted.byId(row.id)!;
      const brand = services.organizationBranding(fresh.org_id);
      return c.json<HostedPage>({
        product: fresh.product, state: services.hosted.stateOf(fresh), page_title: fresh.page_title, success_message: fresh.success_message,
        failure_message: fresh.failure_message, min_age: fresh.product === 'age' ? (fresh.min_age ?? 18) : null, test_mode: fresh.env === 'test',
        expires_at: fresh.expires_at, needs_id: fresh.product === 'age' && fresh.verification_id !== null && fresh.state !== 'completed',
        organization: { name: brand.name, logo_url: brand.logo_png ? `/hosted/logo/${c.req.param('token') ?? ''}` : null },
        challenge: challengeRequired(fresh.product) ? { kind: 'head_turn', clip_seconds: CHALLENGE_CLIP_SECONDS, attempts_left: attemptsLeft(fresh) } : null,
      });
    },
  });

  route({
    method: 'GET', path: '/hosted/logo/:token', auth: { kind: 'public' }, tags: ['hosted'],
    summary: 'The logo of the organisation whose session this is (PNG), for the hosted page',
    description: 'Any session the token names, open or closed: the closed page shows whose link it was. 404 LOGO_NOT_FOUND for an unknown token or no logo.',
    responses: { 200: { contentType: 'image/png', description: 'The organisation\'s logo, re-encoded by the service' } },
    handler: (c) => {
      const row = services.hosted.byToken(c.req.param('token') ?? '');
      const png = row ? services.organizationBranding(row.org_id).logo_png : null;
      if (!png) throw new AppError('hosted_logo_not_found');
      return c.body(new Uint8Array(png), 200, { 'Content-Type': 'image/png', 'X-Content-Type-Options': 'nosniff' });
    },
  });

  route({
    method: 'POST', path: '/hosted/complete/:token', auth: { kind: 'public' }, tags: ['hosted'],
    summary: 'Completes a hosted session with what the person sent; the outcome and where to go next',
    description:
      'Single use: the first completion closes the session (410 HOSTED_SESSION_CLOSED after that, and once expired or revoked; 409 while another completion of it runs). Pass → `redirect_url`; failure or denial → `failure_redirect_url` when set; ' +
      `liveness takes a clip held to the head-turn challenge (a photo is 400 \`video_required\` where the service decodes video, the session staying open); ` +
      `a clip that misses it answers \`retry\` with the rule missed, the session staying open, up to ${CHALLENGE_ATTEMPTS} recordings in all, the session charged once; ` +
      'otherwise `redirect_url` is null and the page shows the result. Age sessions whose selfie is not conclusive answer `id_required` and stay open for an ID document. ' +
      'Emits `verification.completed` (the authoritative result) to the organisation\'s webhooks.',
    request: { body: HostedCompleteRequest, maxBytes: 3 * IMAGE_JSON_BYTES },
    responses: { 200: HostedCompleteResponse },
    handler: async (c, input) => {
      const token = c.req.param('token') ?? '';
      const row = openSession(services, token);
      const payer = payerOf(services, row);
      const body = await input.body();
      if (completing.has(row.id)) throw new AppError('hosted_session_busy');
      completing.add(row.id);
      try {
        const run = await runProduct(c, services, row, body, await input.text(), payer);
        const test = row.env === 'test';
        // A missed challenge is something a person can fix: while recordings are left, the session stays open for another.
        if (run.challenge && !run.challenge.passed && services.hosted.missChallenge(row, CHALLENGE_ATTEMPTS - 1)) {
          return c.json<HostedCompleteResponse>({
            status: 'retry', verification_id: run.verificationId, product: row.product, environment: row.env, message: DEFAULT_MESSAGE.retry,
            reason: services.ledger.get(run.verificationId)?.error_code ?? null, redirect_url: null, test_mode: test,
            challenge: { failed: run.challenge.failed, attempts_left: attemptsLeft(services.hosted.byId(row.id)!) },
          });
        }
        if (run.status === 'id_required') {
          services.hosted.setPending(row, run.verificationId);
          return c.json<HostedCompleteResponse>({
            status: 'id_required', verification_id: run.verificationId, product: row.product, environment: row.env, message: DEFAULT_MESSAGE.id_required,
            reason: services.ledger.get(run.verificationId)?.error_code ?? null, redirect_url: null, test_mode: test,
          });
        }
        if (!services.hosted.complete(row, run.verificationId, run.status)) throw new AppError('hosted_session_closed', { message: 'This verification link expired while it was being completed.' });
        services.webhooks.emit(row.org_id, row.env, {
          type: 'verification.completed',
          fields: { verification_id: run.verificationId, status: run.status === 'passed' ? 'PASS' : 'FAIL', product: row.product, environment: row.env },
        });
        const target = run.status === 'passed' ? row.redirect_url : row.failure_redirect_url;
        return c.json<HostedCompleteResponse>({
          status: run.status, verification_id: run.verificationId, product: row.product, environment: row.env,
          message: (run.status === 'passed' ? row.success_message : row.failure_message) ?? DEFAULT_MESSAGE[run.status],
          reason: run.status === 'failed' ? (services.ledger.get(run.verificationId)?.error_code ?? null) : null,
          redirect_url: target ? redirectWith(target, row.id, run.status) : null, test_mode: test,
          ...(run.challenge ? { challenge: { failed: run.challenge.failed, attempts_left: 0 } } : {}),
        });
      } finally {
        completing.delete(row.id);
      }
    },
  });

  route({
    method: 'GET', path: '/api/hosted/sessions', auth: { kind: 'session' }, tags: ['hosted'],
    summary: 'The organisation\'s hosted sessions in one environment, newest first (settings and state, no subject data)',
    request: { query: HostedSessionQuery },
    responses: { 200: HostedSessionList },
    handler: (c, input) => {
      const org = c.get('session').org.id;
      return c.json<HostedSessionList>({ sessions: services.hosted.list(org, input.query().env).map((r) => view(services, r)) });
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
      const org = c.get('session').org;
      const denied = planAllows(org.plan, body.product);
      if (denied) throw denied;
      return c.json<HostedGenerateResponse>(createSession(c, services, { orgId: org.id, env: body.env, keyId: null }, body));
    },
  });

  route({
    method: 'POST', path: '/api/hosted/sessions/:id/revoke', auth: { kind: 'session', act: 'hosted.manage' }, tags: ['hosted'],
    summary: 'Revokes an open hosted session: its link stops working at once',
    responses: { 200: HostedSessionList.shape.sessions.element },
    handler: (c) => {
      const org = c.get('session').org.id;
      const id = c.req.param('id') ?? '';
      const row = services.hosted.byId(id);
      if (!row || row.org_id !== org) throw new AppError('hosted_session_not_found');
      if (!services.hosted.revoke(id, org)) throw new AppError('hosted_session_closed', { message: `This session is ${services.hosted.stateOf(row)}: it cannot be revoked.` });
      return c.json<HostedSessionView>(view(services, services.hosted.byId(id)!));
    },
  });
}
