// Liveness (spec: POST /api/verify, POST /api/validate) and the mobile status lookups of the face
// products. The liveness check itself is a use case (core/app/liveness.ts).
import { z } from 'zod';
import type { Product } from '../../../../src-shared/catalog';
import { CHALLENGES, LivenessResult, MobileStatus, ValidateRequest, ValidateResponse } from '../../../../src-shared/contracts/faces';
import { AppError } from '../../../../src-shared/errors';
import { liveness, type Challenge } from '../../core/app/liveness';
import { CHALLENGE_POLICY } from '../../core/faces/challenge';
import { VIDEO_SUPPORTED } from '../../core/media/video';
import { callOf, reply } from '../call';
import type { Router } from '../router';
import { fileOf, UPLOAD_MAX_BYTES } from '../uploads';

/** The optional `challenge` form field: absent, or one of CHALLENGES. */
function challengeOf(form: FormData): Challenge | null {
  const value = form.get('challenge');
  if (value === null || value === '') return null;
  const known = CHALLENGES.find((k) => k === value);
  if (!known) throw new AppError('invalid_parameters', { message: `challenge must be one of ${CHALLENGES.join(', ')}`, fields: [{ field: 'challenge', issue: 'unsupported' }] });
  return known;
}

export function faceRoutes({ route, services }: Router): void {
  route({
    method: 'POST', path: '/api/verify',
    auth: { kind: 'key', scope: 'human', category: 'verification', product: 'human', via: 'header-or-form' }, tags: ['liveness'],
    summary: 'Liveness: is there one real, live human face in this image or short video? (1 credit; 200 for PASS and FAIL)',
    description:
      'multipart/form-data with the field `file`: a JPEG, PNG or WebP image (at most 10 MB)' +
      (VIDEO_SUPPORTED
        ? ', or a short MP4, MOV or WebM clip (at most 10 MB, 20 s, 120 frames per second and 3840 × 2160 pixels, one video stream in H.264, HEVC, VP8, VP9 or AV1; ' +
          'the header is checked before any frame is decoded). Without `challenge`, 6 frames from its first 3 s are analysed and a face that neither moves nor blinks fails as a filmed still picture. ' +
          'With `challenge=head_turn` (the person was asked to turn their head to one side and back), 10 frames from its first 3.3 s must show one face, the same throughout, and its head turning ' +
          `(yaw range at least ${CHALLENGE_POLICY.minYawRange}°) or its eyes blinking; otherwise spoof_suspected, the rule missed named in analysis.challenge`
        : '') +
      '. The key may be sent as the form field `clientKey` instead of X-API-Key. An unusable file answers 400 INVALID_IMAGE naming the field and the reason.',
    request: {
      body: { contentType: 'multipart/form-data', description: 'Fields: `file` (required), `clientKey` (optional), `challenge` (optional, clips only: `head_turn`).' },
      maxBytes: UPLOAD_MAX_BYTES,
    },
    responses: { 200: LivenessResult },
    handler: async (c, input) => {
      const form = await input.form();
      const challenge = challengeOf(form);
      return reply(c, await liveness(services, callOf(c), await fileOf(form), { challenge }));
    },
  });

  route({
    method: 'POST', path: '/api/validate', auth: { kind: 'secret' }, tags: ['liveness'],
    summary: 'Validate a verification token with the secret key of the same organisation and environment',
    description:
      'Tokens are JWTs (HS256) signed by this service, valid for 15 minutes, bound to the organisation and environment of the key ' +
      'that verified. A token that is altered, expired, or of another organisation or environment answers 200 with `valid: false`.',
    request: { body: ValidateRequest },
    responses: { 200: ValidateResponse },
    handler: async (c, input) => {
      const key = c.get('key');
      const { token } = await input.body();
      const checked = await services.tokens.check(token, key.orgId, key.env);
      const none = { valid: false, verification_id: null, status: null, confidence: null } as const;
      if (!checked.valid) return c.json<ValidateResponse>({ ...none, reason: checked.reason });
      // The ledger row is the authority on the outcome; a token whose row is gone is not valid.
      const row = await services.ledger.findForKey(checked.claims.verificationId, key.orgId, key.env);
      if (!row) return c.json<ValidateResponse>({ ...none, reason: 'invalid' });
      return c.json<ValidateResponse>({ valid: true, verification_id: row.id, status: row.status, confidence: row.confidence });
    },
  });

  // Mobile status (spec: shape and authentication not shown). Read with an API key of the same
  // organisation and environment that has the product's scope, like /api/status; hosted sessions
  // (a later issue) add their session token as a second credential.
  const mobile = (product: Product, param: string) =>
    route({
      method: 'GET', path: `/api/mobile/v1/${product}/status/:${param}`,
      auth: { kind: 'key', scope: product, category: 'read' }, tags: ['mobile'],
      summary: `Status of a ${product === 'human' ? 'liveness' : product} verification for a mobile app`,
      request: { params: z.object({ [param]: z.string() }) },
      responses: { 200: MobileStatus },
      handler: async (c) => {
        const key = c.get('key');
        const row = await services.ledger.findForKey(c.req.param(param) ?? '', key.orgId, key.env);
        if (!row || row.product !== product) throw new AppError('verification_not_found');
        return c.json<MobileStatus>({
          verification_id: row.id, product, environment: row.env, status: row.status, confidence: row.confidence,
          failure_reason: row.error_code, created_at: row.created_at, completed_at: row.completed_at,
        });
      },
    });
  mobile('human', 'verification_id');
  mobile('age', 'session_id');
  mobile('identity', 'session_id');
  mobile('compliance', 'session_id');
}

