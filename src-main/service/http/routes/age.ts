// The age product's routes (spec: Age multi-step flow); the steps are use cases (core/app/age.ts).
import { z } from 'zod';
import {
  AgeIdResponse, AgeInitRequest, AgeInitResponse, AgeSelfieRequest, AgeSelfieResponse, AgeStep1Request, AgeStep1Response, AgeStep3Request,
  AgeVerifyRequest,
} from '../../../../src-shared/contracts/age';
import { ageById, ageBySelfie, ageStep1 } from '../../core/app/age';
import { agePolicy } from '../../core/age/policy';
import { IMAGE_JSON_BYTES } from '../../core/media/image';
import { callOf, reply } from '../call';
import type { Router } from '../router';

const AUTH = { kind: 'key', scope: 'age', category: 'verification', product: 'age' } as const;

export function ageRoutes({ route, services }: Router): void {
  route({
    method: 'POST', path: '/api/v1/verify-age/init', auth: AUTH, tags: ['age'],
    summary: 'Start an age verification: the policy for a use case and state (free)',
    request: { body: AgeInitRequest },
    responses: { 200: AgeInitResponse },
    handler: async (c, input) => {
      const body = await input.body();
      const p = agePolicy(body.use_case, body.min_age, body.state_code);
      return c.json<AgeInitResponse>({ success: true, ...p });
    },
  });

  route({
    method: 'POST', path: '/api/v1/verify-age/step1', auth: AUTH, tags: ['age'],
    summary: 'Age step 1: date of birth against the minimum age (free; nothing is recorded)',
    request: { body: AgeStep1Request },
    responses: { 200: AgeStep1Response },
    handler: async (c, input) => c.json<AgeStep1Response>(ageStep1(services, await input.body())),
  });

  route({
    method: 'POST', path: '/api/v1/verify-age/step2', auth: AUTH, tags: ['age'],
    summary: 'Age step 2: estimate age from a selfie (10 credits per flow)',
    description:
      'Verified when the lower end of the age range (`age_range.Low`: the wider of the model\'s 10th-90th percentiles and its measured error around the estimate) reaches the minimum age and the selfie meets the selfie rules; ' +
      'otherwise `proceed_to_step3` with the reason. `image_selfie_b64`: base64 JPEG, PNG or WebP, at most 10 MB.',
    request: { body: AgeSelfieRequest, maxBytes: IMAGE_JSON_BYTES },
    responses: { 200: AgeSelfieResponse },
    handler: async (c, input) => reply(c, await ageBySelfie(services, callOf(c), await input.body(), await input.text())),
  });

  route({
    method: 'POST', path: '/api/v1/verify-age/step3', auth: AUTH, tags: ['age'],
    summary: 'Age step 3: the selfie matched to an ID document, and the age from its date of birth',
    description:
      'Verified (`method` `selfie+id`) when the document reads and passes its checks, its portrait matches the selfie, and the date of birth meets the minimum age; ' +
      'otherwise `failed` with `reason` (`below_minimum_age` with `minimum_age`, or why the document or face did not verify). ' +
      'Send the step-2 `verification_id` to continue that flow without a second charge; without it step 3 is a flow of its own (10 credits).',
    request: { body: AgeStep3Request, maxBytes: 2 * IMAGE_JSON_BYTES },
    responses: { 200: AgeIdResponse },
    handler: async (c, input) => reply(c, await ageById(services, callOf(c), await input.body(), await input.text())),
  });

  route({
    method: 'POST', path: '/api/v1/verify-age/verify', auth: AUTH, tags: ['age'],
    summary: 'Age in one call: a selfie estimate (step 2\'s answer), or with `image_id_b64` the ID check (step 3\'s answer); 10 credits',
    description: 'Without `image_id_b64` this is step 2 in one call. With it, the selfie is matched to the ID document and the age comes from its date of birth, as in step 3.',
    request: { body: AgeVerifyRequest, maxBytes: 2 * IMAGE_JSON_BYTES },
    responses: { 200: z.union([AgeSelfieResponse, AgeIdResponse]) },
    handler: async (c, input) => {
      const body = await input.body();
      const text = await input.text();
      if (body.image_id_b64 !== undefined) return reply(c, await ageById(services, callOf(c), { ...body, image_id_b64: body.image_id_b64 }, text));
      return reply(c, await ageBySelfie(services, callOf(c), body, text));
    },
  });
}
