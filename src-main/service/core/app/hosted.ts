// Hosted verification sessions (spec: Hosted session, hosted completion, redirect rules,
// verification.completed). An API key or an analyst makes a session; the person opens its
// single-use URL and completes it there; the product runs through the same use cases as the API,
// paid by the key that made the session (test sessions are free); the customer's backend learns
// the authoritative result from the `verification.completed` webhook. Answers to the page carry
// the outcome in words, a reason code and the redirect: never subject data.
import type { z } from 'zod';
import {
  HOSTED_RETRYABLE_REASONS, type HostedAttemptCheck, type HostedCompleteRequest, type HostedCompleteResponse, type HostedGenerateRequest,
  type HostedGenerateResponse, type HostedPage, type HostedSessionView,
} from '../../../../src-shared/contracts/hosted';
import type { ChallengeRule, FaceAnalysisBlock } from '../../../../src-shared/contracts/faces';
import { AppError, type ErrorCode } from '../../../../src-shared/errors';
import type { Q } from '../../db/engine';
import type { Organization } from '../accounts/organization';
import { checkRedirects, redirectWith, usableRedirect } from '../hosted/redirects';
import { THRESHOLD_SIMILARITY } from '../faces/match';
import type { FailedAttempt, HostedRow, HostedSessions } from '../hosted/sessions';
import { bytesOfBase64, isVideo, sniff } from '../media/image';
import { VIDEO_SUPPORTED } from '../media/video';
import type { PublicOrigin } from '../public-origin';
import type { Payer } from '../verification/billing';
import type { Ledger } from '../verification/ledger';
import type { Webhooks } from '../webhooks/webhooks';
import { ageById, ageBySelfie, ageByBirthDate, claimedAge, endAgeFlow, type AgeDeps } from './age';
import { orgPayer, type Answer, type Call } from './call';
import { identity, kycPlus, type KycDeps } from './identity';
import { liveness, type LivenessDeps } from './liveness';

/** What a session's views, its making and its revoking use. */
export interface HostedDeps {
  hosted: HostedSessions;
  organization: Organization;
  origin: PublicOrigin;
}
type SessionDeps = Pick<HostedDeps, 'hosted' | 'organization'>;

/**
 * What completing a session adds: the products' own use cases (so their services), the ledger
 * row of the attempt, and the `verification.completed` webhook.
 */
export interface HostedCompleteDeps extends SessionDeps, LivenessDeps, AgeDeps, KycDeps {
  ledger: Ledger;
  webhooks: Webhooks;
}

const DEFAULT_MESSAGE = {
  passed: 'Verification complete. You can close this page.',
  failed: 'We could not verify you this time.',
  id_required: 'Your selfie was not enough to confirm your age. Add a photo of your ID document to finish.',
  retry: 'The recording did not show what was asked. Record it again.',
  retry_photo: 'The check did not succeed this time. Take the pictures again and send them.',
} as const;

/** Sessions being completed right now: a second completion of the same token waits for none and is refused. */
const completing = new Set<string>();

/** The clip the page records for the challenge, seconds (the service samples its first 3.3 s). */
export const CHALLENGE_CLIP_SECONDS = 3.2;
/**
 * One liveness policy (issue 37): every hosted product's selfie is the head-turn challenge wherever
 * this service can decode video (liveness, identity, KYC-plus and age alike). The page is told so,
 * and nothing but a clip is taken as the selfie (a photo would skip the challenge).
 */
const challengeRequired = (_product: HostedRow['product']) => VIDEO_SUPPORTED;

/** A selfie sent to a session that asks for the head turn must be a clip: refused before any model runs or anything is recorded. */
function needClip(row: HostedRow, bytes: Uint8Array): void {
  if (challengeRequired(row.product) && !isVideo(sniff(bytes))) {
    throw new AppError('invalid_parameters', {
      message: 'selfie_b64 must be a video: this verification asks for a recorded head turn, which a photo cannot show',
      fields: [{ field: 'selfie_b64', issue: 'video_required' }],
    });
  }
}

/** The challenge a product's selfie analysis judged, as a run reports it. */
const judgedChallenge = (a: FaceAnalysisBlock | undefined) => (a?.challenge ? { challenge: { passed: a.challenge.passed, failed: a.challenge.failed } } : {});
/**
 * Failed attempts are counted with the session (migration 0012): a restart gives none back. The
 * organisation's number is read now (issue 26): lowering it makes the next attempt on links
 * already given their last (an open session always has that one).
 */
const attemptsLeft = async (s: Pick<HostedDeps, 'organization'>, row: HostedRow, q?: Q) => Math.max(1, (await s.organization.hostedAttempts(row.org_id, q)) - row.challenge_misses);
/** Failures a person can fix by trying again (issue 26). */
const RETRYABLE: ReadonlySet<string> = new Set(HOSTED_RETRYABLE_REASONS);

/** The session as the console lists it; read on `q` when given (the act's transaction). */
export async function sessionView(s: SessionDeps, r: HostedRow, q?: Q): Promise<HostedSessionView> {
  return {
    session_id: r.id, product: r.product, environment: r.env, state: s.hosted.stateOf(r), outcome: r.outcome, verification_id: r.verification_id,
    page_title: r.page_title, redirect_url: r.redirect_url, failure_redirect_url: r.failure_redirect_url, created_at: r.created_at,
    expires_at: r.expires_at, opened_at: r.opened_at, completed_at: r.completed_at, api_key_id: r.api_key_id, flow_id: r.flow_id,
    attempts_allowed: await s.organization.hostedAttempts(r.org_id, q), failed_attempts: await s.hosted.failedAttempts(r.id, q),
  };
}

/** The session a URL token names, open for use; a clear 404 or 410 otherwise. */
async function openSession(s: Pick<HostedDeps, 'hosted'>, token: string): Promise<HostedRow> {
  const row = await s.hosted.byToken(token);
  if (!row) throw new AppError('hosted_session_not_found');
  const state = s.hosted.stateOf(row);
  if (state !== 'created' && state !== 'opened') throw new AppError('hosted_session_closed', { message: `This verification link is ${state === 'completed' ? 'already used' : state}.` });
  return row;
}

/** Who pays: the key that made the session (revoked since: the link no longer works), or the organisation that made it in the console. */
async function payerOf(s: Pick<HostedCompleteDeps, 'keys'>, row: HostedRow): Promise<Payer> {
  if (row.api_key_id === null) return orgPayer(row.org_id, row.env);
  const key = await s.keys.get(row.api_key_id);
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
  /** The product's answer was the replay of a retried Idempotency-Key. */
  replayed: boolean;
  /** A liveness clip judged as the head-turn challenge. */
  challenge?: { passed: boolean; failed: ChallengeRule | null };
  /** The rules' numbers, kept with a failed attempt for the analyst (issue 26). */
  checks: HostedAttemptCheck[];
};

/** A selfie's rules, or a recorded challenge's when there was one, as an attempt keeps them. */
function faceChecks(a: FaceAnalysisBlock | undefined): HostedAttemptCheck[] {
  if (!a) return [];
  if (a.challenge) return a.challenge.checks.map((c) => ({ rule: c.rule, passed: c.passed, value: c.value, limit: c.limit }));
  return a.checks.map((c) => ({ rule: c.policy, passed: c.passed, value: c.value, limit: c.limit }));
}

/**
 * The face match with the document, as an attempt keeps it: only when the faces were compared, which
 * happens once the document is read and its portrait found (before that the match says nothing).
 */
const faceMatch = (failure: string | undefined, similarity: number, threshold: number, passed: boolean): HostedAttemptCheck[] =>
  failure === 'document_unreadable' || failure === 'no_face_on_document' ? [] : [{ rule: 'face_match', passed, value: similarity, limit: threshold }];

/** Runs the session's product on what the person sent, through the products' own use cases. */
async function runProduct(s: HostedCompleteDeps, row: HostedRow, body: HostedCompleteRequest, text: string, call: Call): Promise<Run> {
  switch (row.product) {
    case 'human': {
      need(body, 'selfie_b64');
      const bytes = bytesOfBase64('selfie_b64', body.selfie_b64!);
      // Refused before any model runs or anything is recorded: not charged, not an attempt, the session stays open.
      needClip(row, bytes);
      // A clip is held to the challenge; recordings after a missed one are paid by the session's first.
      const { body: r, replayed } = await liveness(s, call, bytes, { challenge: isVideo(sniff(bytes)) ? 'head_turn' : null });
      return {
        status: r.status === 'PASS' ? 'passed' : 'failed', verificationId: r.verification_id, replayed, checks: faceChecks(r.analysis),
        ...judgedChallenge(r.analysis),
      };
    }
    case 'identity':
    case 'compliance': {
      need(body, 'selfie_b64', 'id_front_b64');
      needClip(row, bytesOfBase64('selfie_b64', body.selfie_b64!));
      const images = { selfie_b64: body.selfie_b64!, id_front_b64: body.id_front_b64!, ...(body.id_back_b64 ? { id_back_b64: body.id_back_b64 } : {}) };
      // Another attempt after a failure is paid by the session's first (issue 26).
      const { body: r, replayed } = row.product === 'identity' ? await identity(s, call, images, text) : await kycPlus(s, call, images, text);
      const m = r.face_match;
      return {
        status: r.verified ? 'passed' : 'failed', verificationId: r.verification_id, replayed,
        checks: [...faceChecks(r.selfie_analysis), ...faceMatch(r.failure_reason, m.similarity, m.threshold ?? THRESHOLD_SIMILARITY, m.is_match)],
        ...judgedChallenge(r.selfie_analysis),
      };
    }
    case 'age': {
      const minAge = row.min_age ?? 18;
      if (row.verification_id) {
        // The selfie asked for an ID: the same flow, no second charge. After a failed ID attempt
        // (issue 26) that flow is closed: another attempt is a flow of its own, paid by the session's first act.
        need(body, 'selfie_b64', 'id_front_b64');
        needClip(row, bytesOfBase64('selfie_b64', body.selfie_b64!));
        const waiting = (await s.ledger.get(row.verification_id))?.status === 'id_required';
        const { body: r, replayed } = await ageById(s, call, {
          image_selfie_b64: body.selfie_b64!, image_id_b64: body.id_front_b64!, min_age: minAge, use_case: 'custom',
          ...(waiting ? { verification_id: row.verification_id } : {}),
        }, text);
        const match = r.face_match_confidence;
        return {
          status: r.verified ? 'passed' : 'failed', verificationId: r.verification_id, replayed,
          checks: faceMatch(r.reason, match, THRESHOLD_SIMILARITY, match >= THRESHOLD_SIMILARITY),
        };
      }
      need(body, 'date_of_birth', 'selfie_b64');
      if (claimedAge(s, body.date_of_birth!) < minAge) {
        // A denial at the date of birth: recorded (free), and no picture is looked at.
        const { body: verificationId, replayed } = await ageByBirthDate(s, call, text, { status: 'failed', errorCode: 'below_minimum_age' });
        return { status: 'failed', verificationId, replayed, checks: [] };
      }
      needClip(row, bytesOfBase64('selfie_b64', body.selfie_b64!));
      const { body: r, replayed } = await ageBySelfie(s, call, { image_selfie_b64: body.selfie_b64!, min_age: minAge, use_case: 'custom' }, text);
      // A missed head turn is a recording to make again, not an estimate that asks for an ID: its
      // flow ends there (the row says how), and another recording is a flow of its own.
      const judged = r.analysis?.challenge;
      if (judged && !judged.passed) {
        if (!replayed) await endAgeFlow(s, call.payer, r.verification_id, r);
        return { status: 'failed', verificationId: r.verification_id, replayed, checks: faceChecks(r.analysis), ...judgedChallenge(r.analysis) };
      }
      return { status: r.verified ? 'passed' : 'id_required', verificationId: r.verification_id, replayed, checks: [] };
    }
  }
}

/**
 * A session for its owner (an API key, or the console's organisation) with redirects checked
 * against the organisation's app schemes (a refusal in `invalid`'s shape: the calling route's).
 * Its URL is on the service's configured origin (the on-site server's while it runs), never on
 * the one the request named.
 */
/** `q`: the transaction that also writes the act's audit row, when there is one. */
export async function createSession(
  s: HostedDeps, owner: { orgId: number; env: 'test' | 'live'; keyId: string | null }, body: z.output<typeof HostedGenerateRequest>,
  invalid: ErrorCode = 'invalid_parameters', q?: Q,
): Promise<HostedGenerateResponse> {
  checkRedirects({ redirect_url: body.redirect_url, failure_redirect_url: body.failure_redirect_url }, await s.organization.appSchemes(owner.orgId, q), invalid);
  const { row, token } = await s.hosted.create(owner, {
    product: body.product, redirectUrl: body.redirect_url, failureRedirectUrl: body.failure_redirect_url, expiresInHours: body.expires_in_hours,
    pageTitle: body.page_title, successMessage: body.success_message, failureMessage: body.failure_message, minAge: body.min_age,
  }, q);
  const { origin, link_reach } = s.origin.hosted();
  return { hosted_url: `${origin}/hosted/v/${token}`, token, expires_at: row.expires_at, session_id: row.id, link_reach };
}

/** The hosted page's view of its session (the first look marks it opened). */
export async function hostedPage(s: SessionDeps, token: string): Promise<HostedPage> {
  const row = await s.hosted.byToken(token);
  if (!row) throw new AppError('hosted_session_not_found');
  await s.hosted.open(row);
  const fresh = (await s.hosted.byId(row.id))!;
  const brand = await s.organization.branding(fresh.org_id);
  const left = await attemptsLeft(s, fresh);
  return {
    product: fresh.product, state: s.hosted.stateOf(fresh), page_title: fresh.page_title, success_message: fresh.success_message,
    failure_message: fresh.failure_message, min_age: fresh.product === 'age' ? (fresh.min_age ?? 18) : null, test_mode: fresh.env === 'test',
    expires_at: fresh.expires_at, needs_id: fresh.product === 'age' && fresh.verification_id !== null && fresh.state !== 'completed',
    organization: { name: brand.name, logo_url: brand.logo_png ? `/hosted/logo/${token}` : null },
    challenge: challengeRequired(fresh.product) ? { kind: 'head_turn', clip_seconds: CHALLENGE_CLIP_SECONDS, attempts_left: left } : null,
    attempts_left: left,
  };
}

/** The logo of the organisation whose session a token names (any state: the closed page shows whose link it was). */
export async function hostedLogo(s: SessionDeps, token: string): Promise<Uint8Array> {
  const row = await s.hosted.byToken(token);
  const png = row ? (await s.organization.branding(row.org_id)).logo_png : null;
  if (!png) throw new AppError('hosted_logo_not_found');
  return png;
}

/**
 * Completes a hosted session with what the person sent: the product, then the session's state,
 * the `verification.completed` event and where the page goes next. What was sent is read only
 * once the session is known to be open (an unknown or closed link answers that, whatever the
 * body); `idempotency` is the completion request's own, when it sent one.
 */
export async function completeHosted(
  s: HostedCompleteDeps, token: string, sent: () => Promise<{ body: HostedCompleteRequest; text: string }>, idempotency?: Call['idempotency'],
): Promise<Answer<HostedCompleteResponse>> {
  const row = await openSession(s, token);
  // One hosted session, one charge: every act after its first billable one is a row of 0 credits (every product, issue 26).
  const call: Call = { payer: await payerOf(s, row), idempotency, paidOnce: s.hosted.paidOnce(row) };
  const { body, text } = await sent();
  if (completing.has(row.id)) throw new AppError('hosted_session_busy');
  completing.add(row.id);
  try {
    const run = await runProduct(s, row, body, text, call);
    const answer = (b: HostedCompleteResponse): Answer<HostedCompleteResponse> => ({ body: b, replayed: run.replayed });
    const test = row.env === 'test';
    const reason = (await s.ledger.get(run.verificationId))?.error_code ?? null;
    const challengeMissed = run.challenge !== undefined && !run.challenge.passed;
    const missed = challengeMissed || run.status === 'failed';
    const failed: FailedAttempt | undefined = missed
      ? { verificationId: run.verificationId, reason, rule: run.challenge?.failed ?? null, checks: run.checks }
      : undefined;
    // A failure the person can fix (a missed challenge, a picture to take again): while the
    // organisation's attempts last, the session stays open for another (issue 26: every product).
    const retryable = failed !== undefined && (challengeMissed || (reason !== null && RETRYABLE.has(reason)));
    if (retryable && (await s.hosted.miss(row, (await s.organization.hostedAttempts(row.org_id)) - 1, failed))) {
      const left = await attemptsLeft(s, (await s.hosted.byId(row.id))!);
      return answer({
        status: 'retry', verification_id: run.verificationId, product: row.product, environment: row.env,
        message: challengeMissed ? DEFAULT_MESSAGE.retry : DEFAULT_MESSAGE.retry_photo, reason, redirect_url: null, test_mode: test, attempts_left: left,
        ...(run.challenge ? { challenge: { failed: run.challenge.failed, attempts_left: left } } : {}),
      });
    }
    if (run.status === 'id_required') {
      await s.hosted.setPending(row, run.verificationId);
      return answer({
        status: 'id_required', verification_id: run.verificationId, product: row.product, environment: row.env, message: DEFAULT_MESSAGE.id_required,
        reason, redirect_url: null, test_mode: test, attempts_left: await attemptsLeft(s, row),
      });
    }
    const status: 'passed' | 'failed' = failed ? 'failed' : 'passed';
    if (!(await s.hosted.complete(row, run.verificationId, status, failed))) throw new AppError('hosted_session_closed', { message: 'This verification link expired while it was being completed.' });
    await s.webhooks.emit(row.org_id, row.env, {
      type: 'verification.completed',
      fields: { verification_id: run.verificationId, status: status === 'passed' ? 'PASS' : 'FAIL', product: row.product, environment: row.env },
    });
    // Checked again: a redirect saved under older rules, or whose app scheme was removed since, is not followed.
    const target = usableRedirect(status === 'passed' ? row.redirect_url : row.failure_redirect_url, await s.organization.appSchemes(row.org_id));
    return answer({
      status, verification_id: run.verificationId, product: row.product, environment: row.env,
      message: (status === 'passed' ? row.success_message : row.failure_message) ?? DEFAULT_MESSAGE[status],
      reason: status === 'failed' ? reason : null,
      redirect_url: target ? redirectWith(target, row.id, status) : null, test_mode: test, attempts_left: 0,
      ...(run.challenge ? { challenge: { failed: run.challenge.failed, attempts_left: 0 } } : {}),
    });
  } finally {
    completing.delete(row.id);
  }
}

/** Revokes an open session of the organisation: its link stops working at once. */
/** `q`: the transaction that also writes the act's audit row. */
export async function revokeSession(s: SessionDeps, orgId: number, id: string, q?: Q): Promise<HostedSessionView> {
  const row = await s.hosted.byId(id, q);
  if (!row || row.org_id !== orgId) throw new AppError('hosted_session_not_found');
  if (!(await s.hosted.revoke(id, orgId, q))) throw new AppError('hosted_session_closed', { message: `This session is ${s.hosted.stateOf(row)}: it cannot be revoked.` });
  return sessionView(s, (await s.hosted.byId(id, q))!, q);
}
