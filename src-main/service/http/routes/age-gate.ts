// The storefront age gate's routes (spec: age-gate storefront settings, request and response,
// behaviour; Authentication rule 4). The store's settings and the visitor's check are use cases
// (core/app/age-gate.ts).
import {
  AgeGateEnvQuery, AgeGatePublicConfig, AgeGateRequest, AgeGateResponse, AgeGateSaveRequest, AgeGateStore,
} from '../../../../src-shared/contracts/age-gate';
import { publicConfig, saveStore, storefrontAgeCheck, storeView } from '../../core/app/age-gate';
import { actorOf } from '../../core/audit/audit';
import { IMAGE_JSON_BYTES } from '../../core/media/image';
import { clientAddress } from '../auth';
import { idempotencyOf, reply } from '../call';
import type { Router } from '../router';

const TAGS = ['age-gate'];

/** The minimum the store applies: its setting, raised by its use case (alcohol: 21) and never lowered by the caller. */
export function ageGateRoutes({ route, services }: Router): void {
  route({
    method: 'GET', path: '/api/age-gate', auth: { kind: 'session' }, tags: TAGS,
    summary: 'The organisation\'s storefront age gate in one environment: its public store id, settings, the script tag to paste and (live) today\'s paid selfie checks',
    request: { query: AgeGateEnvQuery },
    responses: { 200: AgeGateStore },
    handler: async (c, input) => {
      const { env } = input.query();
      return c.json<AgeGateStore>(await storeView(services, c.get('session').org.id, env));
    },
  });

  route({
    method: 'PUT', path: '/api/age-gate', auth: { kind: 'session', act: 'age_gate.manage' }, tags: TAGS,
    summary: 'Saves the age gate\'s settings (the first save issues the store\'s public id, which never changes)',
    description: 'The underage redirect must be https (http only to this machine, for testing) or an app scheme the organisation registered. The script tag is on the service\'s configured origin, never the request\'s Host. A live store\'s selfie checks are paid by the organisation (10 credits each), at most `daily_selfie_cap` per UTC day; attestations are free.',
    request: { body: AgeGateSaveRequest, invalid: 'invalid_parameters' },
    responses: { 200: AgeGateStore },
    handler: async (c, input) => {
      const body = await input.body();
      const s = c.get('session');
      return c.json<AgeGateStore>(await saveStore(services, s.org.id, actorOf(s.user), body.env, body.settings));
    },
  });

  route({
    method: 'GET', path: '/api/age-gate/config/:store_id', auth: { kind: 'public' }, tags: TAGS,
    summary: 'The public settings the storefront widget shows (no auth; 404 when the store is unknown or its gate is off)',
    responses: { 200: AgeGatePublicConfig },
    handler: async (c) => c.json<AgeGatePublicConfig>(await publicConfig(services, c.req.param('store_id') ?? '')),
  });

  route({
    method: 'POST', path: '/api/verify-age', auth: { kind: 'public' }, tags: TAGS,
    summary: 'The storefront widget\'s age check: a date of birth (attestation) and, when the store requires it, a selfie',
    description:
      'No API key: the store is named by its public `store_id`. Underage → `reason: underage` and the store\'s `redirect_url`. ' +
      'Adult, attestation store → verified, `mode: attestation`, an integer `verification_id` (recorded, free). ' +
      'Adult, selfie store, no selfie yet → `reason: selfie_required`. With `selfie_b64` → the age estimate (a string `verification_id`; 10 credits on a live store). ' +
      '`attestation_only` cannot skip a selfie the store requires. Every decision is an attempt (not the request that is only asked for a selfie): 5 per visitor (the client\'s address; an IPv6 client\'s /64) per store per hour, then 429 TOO_MANY_ATTEMPTS. ' +
      'A live store\'s paid selfie checks stop at its daily cap: then an adult\'s answer (asked for a selfie, or with one) is 429 DAILY_CAP_REACHED with Retry-After (seconds to 00:00 UTC). ' +
      'Test stores answer `_test_mode: true`, are free and not capped.',
    request: { body: AgeGateRequest, maxBytes: IMAGE_JSON_BYTES },
    responses: { 200: AgeGateResponse },
    handler: async (c, input) => {
      const body = await input.body();
      return reply(c, await storefrontAgeCheck(services, body, clientAddress(c), await input.text(), idempotencyOf(c)));
    },
  });
}
