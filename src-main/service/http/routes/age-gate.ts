// The storefront age gate (spec: age-gate storefront settings, request and response, behaviour;
// Authentication rule 4). The merchant keeps the store's settings in the console; the widget on
// the storefront reads the public part and posts each visitor's answer here without an API key.
// An underage date of birth is answered with the store's redirect; an adult is accepted on the
// date of birth (attestation, recorded, free) or asked for a selfie, which is estimated by the
// age product's own selfie step and paid by the store's organisation. Five attempts per visitor
// per hour (core/age-gate/attempts.ts). Nothing about the visitor is kept: the ledger row holds
// the outcome only.
import type { Context } from 'hono';
import type { AgeSelfieResponse } from '../../../../src-shared/contracts/age';
import {
  AgeGateEnvQuery, AgeGatePublicConfig, AgeGateRequest, AgeGateResponse, AgeGateSaveRequest, AgeGateSettings,
  AgeGateStore,
} from '../../../../src-shared/contracts/age-gate';
import { AppError } from '../../../../src-shared/errors';
import type { Services } from '../../compose';
import type { AgeGateStoreRecord } from '../../core/age-gate/stores';
import { agePolicy } from '../../core/age/policy';
import { checkRedirects } from '../../core/hosted/redirects';
import { IMAGE_JSON_BYTES } from '../../core/media/image';
import type { Payer } from '../../core/verification/billing';
import { clientAddress } from '../auth';
import { runBillable } from '../billable';
import type { Router } from '../router';
import type { AppEnv } from '../types';
import { ageFromIso, selfieStep } from './age';

const TAGS = ['age-gate'];

/** The minimum the store applies: its setting, raised by its use case (alcohol: 21) and never lowered by the caller. */
const minAgeOf = (st: AgeGateStoreRecord, asked?: number) =>
  agePolicy(st.settings.use_case, Math.max(st.settings.min_age, asked ?? 0), undefined).min_age;

function publicConfig(st: AgeGateStoreRecord): AgeGatePublicConfig {
  return { ...st.settings, min_age: minAgeOf(st), store_id: st.id, test_mode: st.env === 'test' };
}

/** The store a widget names, with its gate on; a clear 404 otherwise (an unknown id and a disabled gate look alike). */
function openStore(s: Services, id: string): AgeGateStoreRecord {
  const st = s.ageGate.stores.byId(id);
  if (!st || !st.settings.enabled) throw new AppError('age_gate_not_found');
  return st;
}

function storeView(c: Context<AppEnv>, s: Services, env: 'test' | 'live', st: AgeGateStoreRecord | undefined): AgeGateStore {
  const origin = new URL(c.req.url).origin;
  return {
    store_id: st?.id ?? null, environment: env, settings: st?.settings ?? AgeGateSettings.parse({}),
    embed: st ? `<script src="${origin}/widget/age-gate.js" data-store="${st.id}" async></script>` : null,
    updated_at: st?.updatedAt ?? null,
  };
}

export function ageGateRoutes({ route, services }: Router): void {
  route({
    method: 'GET', path: '/api/age-gate', auth: { kind: 'session' }, tags: TAGS,
    summary: 'The organisation\'s storefront age gate in one environment: its public store id, settings and the script tag to paste',
    request: { query: AgeGateEnvQuery },
    responses: { 200: AgeGateStore },
    handler: (c, input) => {
      const { env } = input.query();
      return c.json<AgeGateStore>(storeView(c, services, env, services.ageGate.stores.of(c.get('session').org.id, env)));
    },
  });

  route({
    method: 'PUT', path: '/api/age-gate', auth: { kind: 'session', act: 'age_gate.manage' }, tags: TAGS,
    summary: 'Saves the age gate\'s settings (the first save issues the store\'s public id, which never changes)',
    description: 'The underage redirect must be https (http only to this machine, for testing). A live store\'s selfie checks are paid by the organisation (10 credits each); attestations are free.',
    request: { body: AgeGateSaveRequest, invalid: 'invalid_parameters' },
    responses: { 200: AgeGateStore },
    handler: async (c, input) => {
      const body = await input.body();
      checkRedirects({ underage_redirect_url: body.settings.underage_redirect_url });
      const saved = services.ageGate.stores.save(c.get('session').org.id, body.env, body.settings);
      return c.json<AgeGateStore>(storeView(c, services, body.env, saved));
    },
  });

  route({
    method: 'GET', path: '/api/age-gate/config/:store_id', auth: { kind: 'public' }, tags: TAGS,
    summary: 'The public settings the storefront widget shows (no auth; 404 when the store is unknown or its gate is off)',
    responses: { 200: AgeGatePublicConfig },
    handler: (c) => c.json<AgeGatePublicConfig>(publicConfig(openStore(services, c.req.param('store_id') ?? ''))),
  });

  route({
    method: 'POST', path: '/api/verify-age', auth: { kind: 'public' }, tags: TAGS,
    summary: 'The storefront widget\'s age check: a date of birth (attestation) and, when the store requires it, a selfie',
    description:
      'No API key: the store is named by its public `store_id`. Underage → `reason: underage` and the store\'s `redirect_url`. ' +
      'Adult, attestation store → verified, `mode: attestation`, an integer `verification_id` (recorded, free). ' +
      'Adult, selfie store, no selfie yet → `reason: selfie_required`. With `selfie_b64` → the age estimate (a string `verification_id`; 10 credits on a live store). ' +
      '`attestation_only` cannot skip a selfie the store requires. Every decision is an attempt (not the request that is only asked for a selfie): 5 per visitor per hour, then 429 TOO_MANY_ATTEMPTS. ' +
      'Test stores answer `_test_mode: true` and are free.',
    request: { body: AgeGateRequest, maxBytes: IMAGE_JSON_BYTES },
    responses: { 200: AgeGateResponse },
    handler: async (c, input) => {
      const body = await input.body();
      const st = openStore(services, body.store_id);
      const now = new Date(services.clock.now());
      const age = ageFromIso(body.date_of_birth, now);
      if (age === null || age < 0 || age > 150) throw new AppError('invalid_parameters', { fields: [{ field: 'date_of_birth', issue: 'out_of_range' }] });

      const visitor = [st.id, clientAddress(c), c.req.header('user-agent') ?? ''];
      // An adult asked for the selfie the store requires has made no decision yet: not an attempt.
      const decides = !(age >= minAgeOf(st, body.min_age) && st.settings.require_selfie && !body.selfie_b64);
      const attempt = services.ageGate.attempts.take(visitor, decides);
      if (!attempt.allowed) {
        c.header('Retry-After', String(attempt.retryAfter));
        throw new AppError('age_gate_too_many_attempts', { message: 'Too Many Attempts. Please try again later.' });
      }

      const minAge = minAgeOf(st, body.min_age);
      const test = st.env === 'test';
      const payer: Payer = { id: null, orgId: st.orgId, env: st.env, demo: false };
      const text = await input.text();
      const answer = (a: Omit<AgeGateResponse, 'attempts_remaining' | 'session_duration_hours' | '_test_mode'>) =>
        c.json<AgeGateResponse>({
          ...a, attempts_remaining: attempt.remaining, session_duration_hours: st.settings.session_duration_hours, ...(test ? { _test_mode: true as const } : {}),
        });
      /** A decision on the date of birth alone: a free ledger row, numbered. */
      const attest = async (status: 'success' | 'failed', errorCode: string | null) => {
        const billed = await runBillable(c, services, { operation: 'age', idPrefix: 'age', bodyText: text, payer, free: true }, async () => ({
          status, confidence: null, billable: false, httpStatus: 200, errorCode, result: null,
        }));
        return services.ledger.numberOf(billed.verificationId) ?? null;
      };

      if (age < minAge) {
        return answer({
          success: true, verified: false, estimated_age: null, verification_id: await attest('failed', 'below_minimum_age'),
          message: `You must be at least ${minAge} to enter.`, reason: 'underage', redirect_url: st.settings.underage_redirect_url || null,
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
      const res = await selfieStep(c, services, { image_selfie_b64: body.selfie_b64, min_age: minAge, use_case: 'custom' }, text, payer);
      const r = (await res.json()) as AgeSelfieResponse;
      if (!r.verified) {
        // The storefront has no ID step: the flow ends here, and its row says so.
        await services.billing.continueFlow({ key: payer, verificationId: r.verification_id, operation: 'age', waiting: 'id_required' }, async () => ({
          status: 'failed', confidence: r.confidence, billable: false, httpStatus: 200, errorCode: r.reason ?? null, result: null,
        }));
      }
      const inconclusive = r.reason === 'estimated_age_below_threshold';
      return answer({
        success: true, verified: r.verified, estimated_age: r.estimated_age, verification_id: r.verification_id,
        message: r.verified ? 'Age confirmed.' : inconclusive ? 'We could not confirm your age from this selfie.' : 'We could not use this selfie. Try again in good light, facing the camera.',
        reason: r.verified ? null : inconclusive ? 'selfie_not_conclusive' : (r.reason ?? 'selfie_not_conclusive'), redirect_url: null,
      });
    },
  });
}
