// The storefront age gate (spec: age-gate storefront settings, request and response, behaviour;
// Authentication rule 4). The merchant keeps the store's settings in the console; the widget on
// the storefront reads the public part and sends each visitor's answer without an API key. An
// underage date of birth is answered with the store's redirect; an adult is accepted on the date
// of birth (attestation, recorded, free) or asked for a selfie, which the age product's own selfie
// use case estimates, paid by the store's organisation. Five attempts per visitor per hour
// (core/age-gate/attempts.ts); a live store's paid selfie checks stop at its daily cap
// (core/age-gate/selfie-checks.ts). Nothing about the visitor is kept: the ledger row holds the outcome.
import {
  AgeGateSettings, type AgeGatePublicConfig, type AgeGateRequest, type AgeGateResponse, type AgeGateStore,
} from '../../../../src-shared/contracts/age-gate';
import type { AgeSelfieResponse } from '../../../../src-shared/contracts/age';
import { AppError } from '../../../../src-shared/errors';
import type { Organization } from '../accounts/organization';
import { agePolicy } from '../age/policy';
import { visitorOf, type AgeGateAttempts } from '../age-gate/attempts';
import type { SelfieChecks } from '../age-gate/selfie-checks';
import type { AgeGateStoreRecord, AgeGateStores } from '../age-gate/stores';
import type { Audit, AuditActorRef } from '../audit/audit';
import { checkRedirects, usableRedirect } from '../hosted/redirects';
import type { PublicOrigin } from '../public-origin';
import type { Ledger } from '../verification/ledger';
import { ageByBirthDate, ageBySelfie, claimedAge, endAgeFlow, type SelfieAgeDeps } from './age';
import { orgPayer, type Answer, type Call } from './call';

/** The age gate's own parts: the stores' settings, each visitor's attempts, a live store's paid selfie checks. */
export interface AgeGate {
  stores: AgeGateStores;
  attempts: AgeGateAttempts;
  selfieChecks: SelfieChecks;
}

/** What the merchant's settings use: the gate, the organisation's app schemes, the service's origin (the script tag), the audit log. */
export interface AgeGateDeps {
  ageGate: AgeGate;
  organization: Organization;
  origin: PublicOrigin;
  audit: Audit;
}

/** What a visitor's answer uses: the gate, the age product's selfie use case, the attestation's ledger number. */
export interface AgeGateVisitorDeps extends SelfieAgeDeps {
  ageGate: AgeGate;
  ledger: Ledger;
}

/** The minimum the store applies: its setting, raised by its use case (alcohol: 21) and never lowered by the caller. */
const minAgeOf = (st: AgeGateStoreRecord, asked?: number) =>
  agePolicy(st.settings.use_case, Math.max(st.settings.min_age, asked ?? 0), undefined).min_age;

/** The store a widget names, with its gate on; a clear 404 otherwise (an unknown id and a disabled gate look alike). */
async function openStore(s: { ageGate: AgeGate }, id: string): Promise<AgeGateStoreRecord> {
  const st = await s.ageGate.stores.byId(id);
  if (!st || !st.settings.enabled) throw new AppError('age_gate_not_found');
  return st;
}

/** The public settings the storefront widget shows (the merchant's daily cap is not among them). */
export async function publicConfig(s: Pick<AgeGateDeps, 'ageGate' | 'organization'>, storeId: string): Promise<AgeGatePublicConfig> {
  const st = await openStore(s, storeId);
  const { daily_selfie_cap: _private, ...shown } = st.settings;
  return {
    ...shown, underage_redirect_url: (await underageRedirect(s, st)) ?? '', min_age: minAgeOf(st), store_id: st.id, test_mode: st.env === 'test',
  };
}

/** The store's underage redirect while its rules still allow it (one saved under older rules, or with an app scheme removed since, is not followed). */
const underageRedirect = async (s: Pick<AgeGateDeps, 'organization'>, st: AgeGateStoreRecord) => usableRedirect(st.settings.underage_redirect_url, await s.organization.appSchemes(st.orgId));

/** The organisation's store in one environment, with the script tag to paste. */
export async function storeView(s: Pick<AgeGateDeps, 'ageGate' | 'origin'>, orgId: number, env: 'test' | 'live'): Promise<AgeGateStore> {
  return viewOf(s, env, await s.ageGate.stores.of(orgId, env));
}

async function viewOf(s: Pick<AgeGateDeps, 'ageGate' | 'origin'>, env: 'test' | 'live', st: AgeGateStoreRecord | undefined): Promise<AgeGateStore> {
  const widget = s.origin.service();
  return {
    store_id: st?.id ?? null, environment: env, settings: st?.settings ?? AgeGateSettings.parse({}),
    // The script is served by the service (never the on-site server): its configured origin, never the request's Host.
    embed: st ? `<script src="${widget.origin}/widget/age-gate.js" data-store="${st.id}" async></script>` : null,
    link_reach: widget.link_reach,
    updated_at: st?.updatedAt ?? null,
    // Test stores are free and not capped: nothing to count.
    selfie_checks_today: env === 'test' ? null : st ? await s.ageGate.selfieChecks.today(st.id) : 0,
  };
}

/**
 * Saves a store's settings (the first save issues its public id, which never changes), audited
 * with the store's id, whether the gate is on before and after, and how many settings changed
 * (never their values: a redirect or a message is the merchant's configuration). A save that
 * changes nothing is not an act.
 */
export async function saveStore(s: AgeGateDeps, orgId: number, actor: AuditActorRef, env: 'test' | 'live', settings: AgeGateSettings): Promise<AgeGateStore> {
  checkRedirects({ underage_redirect_url: settings.underage_redirect_url }, await s.organization.appSchemes(orgId));
  const onOff = (st: AgeGateSettings) => (st.enabled ? 'on' : 'off');
  const saved = await s.audit.atomically(async (tx) => {
    const before = await s.ageGate.stores.of(orgId, env, tx);
    const after = await s.ageGate.stores.save(orgId, env, settings, tx);
    const event = { orgId, actor, env, objectId: after.id, to: onOff(after.settings) };
    if (!before) {
      await s.audit.record({ ...event, action: 'age_gate.created' }, tx);
    } else {
      const keys = Object.keys(after.settings) as (keyof AgeGateSettings)[];
      const changed = keys.filter((k) => JSON.stringify(after.settings[k]) !== JSON.stringify(before.settings[k])).length;
      if (changed > 0) await s.audit.record({ ...event, action: 'age_gate.changed', from: onOff(before.settings), counts: { total: changed } }, tx);
    }
    return after;
  });
  return viewOf(s, env, saved);
}

/** The answer once a live store's paid selfie checks for the day reached its cap: try again when its day ends. */
const capReached = (retryAfter: number) => new AppError('age_gate_daily_cap', { retry_after: retryAfter });

/**
 * One visitor's answer. `address` is the client's, which with the store identifies the visitor
 * for the attempt limit (nothing the client says about itself does); `idempotency` is the
 * request's own, when it sent one.
 */
export async function storefrontAgeCheck(
  s: AgeGateVisitorDeps, body: AgeGateRequest, address: string, text: string, idempotency?: Call['idempotency'],
): Promise<Answer<AgeGateResponse>> {
  const st = await openStore(s, body.store_id);
  const age = claimedAge(s, body.date_of_birth);
  const minAge = minAgeOf(st, body.min_age);

  // An adult asked for the selfie the store requires has made no decision yet: not an attempt.
  const decides = !(age >= minAge && st.settings.require_selfie && !body.selfie_b64);
  // A selfie check the store pays for (asked for, or sent). With the day's cap reached, the
  // visitor is not asked for a selfie that would be refused, and uses none of their attempts.
  const paid = st.env === 'live' && age >= minAge && st.settings.require_selfie;
  const cap = st.settings.daily_selfie_cap;
  if (paid) {
    const room = await s.ageGate.selfieChecks.room(st.id, cap);
    if (!room.allowed) throw capReached(room.retryAfter);
  }
  const attempt = s.ageGate.attempts.take([st.id, visitorOf(address)], decides);
  if (!attempt.allowed) throw new AppError('age_gate_too_many_attempts', { message: 'Too Many Attempts. Please try again later.', retry_after: attempt.retryAfter });

  const test = st.env === 'test';
  const call: Call = { payer: orgPayer(st.orgId, st.env), idempotency };
  let replayed = false;
  const answer = (a: Omit<AgeGateResponse, 'attempts_remaining' | 'session_duration_hours' | '_test_mode'>): Answer<AgeGateResponse> => ({
    body: { ...a, attempts_remaining: attempt.remaining, session_duration_hours: st.settings.session_duration_hours, ...(test ? { _test_mode: true as const } : {}) },
    replayed,
  });
  /**
   * A decision on the date of birth alone: a free ledger row. An attestation store's answers are
   * attestation results (spec: an integer id, `mode: attestation`); a selfie store's under-age
   * answer keeps the string id its other answers have, so one store answers in one id style.
   */
  const attest = async (status: 'success' | 'failed', errorCode: string | null) => {
    const row = await ageByBirthDate(s, call, text, { status, errorCode, free: true });
    replayed = row.replayed;
    return st.settings.require_selfie ? row.body : (await s.ledger.numberOf(row.body) ?? null);
  };
  const attestation = st.settings.require_selfie ? {} : { mode: 'attestation' as const };

  if (age < minAge) {
    return answer({
      success: true, verified: false, estimated_age: null, verification_id: await attest('failed', 'below_minimum_age'), ...attestation,
      message: `You must be at least ${minAge} to enter.`, reason: 'underage', redirect_url: await underageRedirect(s, st),
    });
  }
  if (!st.settings.require_selfie) {
    return answer({
      success: true, verified: true, estimated_age: null, verification_id: await attest('success', null), mode: 'attestation',
      message: 'Age confirmed by date of birth (attestation).', reason: null, redirect_url: null,
    });
  }
  if (!body.selfie_b64) {
    return answer({
      success: true, verified: false, estimated_age: null, verification_id: null, message: 'Take a selfie to confirm your age.',
      reason: 'selfie_required', redirect_url: null,
    });
  }
  // Checked and held in one step: concurrent selfies cannot all pass the cap before one is charged.
  const held = paid ? await s.ageGate.selfieChecks.hold(st.id, cap) : null;
  if (held && !held.allowed) throw capReached(held.retryAfter);
  let selfie: Answer<AgeSelfieResponse>;
  try {
    selfie = await ageBySelfie(
      s, call, { image_selfie_b64: body.selfie_b64, min_age: minAge, use_case: 'custom' }, text,
      async ({ verificationId, createdAt }, tx) => {
        // A test store's checks are free and not capped.
        const linked = await s.ageGate.selfieChecks.link(st.id, verificationId, createdAt, tx, paid ? cap : undefined);
        if (!linked.allowed) throw capReached(linked.retryAfter);
      },
    );
  } finally {
    held?.release();
  }
  const r = selfie.body;
  replayed = selfie.replayed;
  // The storefront has no ID step: the flow ends here, and its row says so.
  if (!r.verified) await endAgeFlow(s, call.payer, r.verification_id, r);
  const inconclusive = r.reason === 'estimated_age_below_threshold';
  return answer({
    success: true, verified: r.verified, estimated_age: r.estimated_age, verification_id: r.verification_id,
    message: r.verified ? 'Age confirmed.' : inconclusive ? 'We could not confirm your age from this selfie.' : 'We could not use this selfie. Try again in good light, facing the camera.',
    reason: r.verified ? null : inconclusive ? 'selfie_not_conclusive' : (r.reason ?? 'selfie_not_conclusive'), redirect_url: null,
  });
}
