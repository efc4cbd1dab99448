// The age product (spec: Age multi-step flow). Init and step 1 are free and record nothing (no
// image, no model: a date-of-birth check). Step 2 and the single call estimate age from a selfie
// in a face worker: 10 credits per flow, charged once at the selfie step whatever the outcome
// (docs/decisions.md); the ledger row holds the outcome, never the date of birth or the image.
import type { Context } from 'hono';
import { z } from 'zod';
import {
  AgeIdResponse, AgeInitRequest, AgeInitResponse, AgeSelfieRequest, AgeSelfieResponse, AgeStep1Request, AgeStep1Response, AgeStep3Request,
  AgeVerifyRequest,
} from '../../../../src-shared/contracts/age';
import { ageOn, formatUsDate, parseIsoDate } from '../../../../src-shared/dates';
import { AppError } from '../../../../src-shared/errors';
import type { Services } from '../../compose';
import { agePolicy } from '../../core/age/policy';
import { checkIdentity, identityAnswer, type IdentityCheck } from '../../core/documents/identity';
import { ageDecision, analysisBlock, DEMO_CONFIDENCE, demoAge, demoAnalysis, judge } from '../../core/faces/selfie';
import { bytesOfBase64, decodeImage, IMAGE_JSON_BYTES, SELFIE_MAX_SIDE } from '../../core/media/image';
import type { Outcome, Payer } from '../../core/verification/billing';
import { runBillable } from '../billable';
import type { Router } from '../router';
import type { AppEnv } from '../types';

const AUTH = { kind: 'key', scope: 'age', category: 'verification', product: 'age' } as const;

/** Whole years from a YYYY-MM-DD birth date (validated by the request's contract) to the verification's day; null when it is no date. */
export function ageFromIso(dob: string, now: Date): number | null {
  const birth = parseIsoDate(dob);
  return birth ? ageOn(birth, now) : null;
}

/** Age by selfie (step 2, the single call, the console's try panel): one flow, 10 credits, one ledger row. */
export async function selfieStep(
  c: Context<AppEnv>, s: Services,
  body: { image_selfie_b64: string | { field: string; bytes: Uint8Array }; user_age?: number | undefined; min_age?: number | undefined; use_case: AgeSelfieRequest['use_case'] },
  text: string, key: Payer = c.get('key'),
): Promise<Response> {
  const minAge = agePolicy(body.use_case ?? 'adult', body.min_age, undefined).min_age;
  if (body.user_age !== undefined && body.user_age < minAge) {
    throw new AppError('invalid_parameters', {
      message: 'user_age is below the minimum age: the flow ended at step 1', fields: [{ field: 'user_age', issue: 'below_minimum_age' }],
    });
  }
  const given = body.image_selfie_b64;
  const field = typeof given === 'string' ? 'image_selfie_b64' : given.field;
  const bytes = typeof given === 'string' ? bytesOfBase64(field, given) : given.bytes;
  const image = await decodeImage(field, bytes, { maxSide: SELFIE_MAX_SIDE });
  const billed = await runBillable<Omit<AgeSelfieResponse, 'credits_consumed' | 'credits_remaining'>>(
    c, s, { operation: 'age', idPrefix: 'age', bodyText: text, payer: key },
    async (ctx) => {
      if (key.demo) {
        const d = demoAge(minAge);
        return {
          status: d.status, confidence: d.confidence, billable: false, httpStatus: 200,
          result: { ...d, verification_id: ctx.verificationId, min_age: minAge, analysis: demoAnalysis(), simulated: true },
        };
      }
      const judged = await judge(s.faces, image, true);
      const d = ageDecision(judged.verdict, minAge);
      return {
        status: d.status, confidence: d.confidence, billable: true, httpStatus: 200, errorCode: d.reason ?? null,
        result: { ...d, verification_id: ctx.verificationId, min_age: minAge, analysis: analysisBlock(judged) },
      };
    },
  );
  return c.json<AgeSelfieResponse>({
    ...billed.outcome.result,
    credits_consumed: billed.charged,
    credits_remaining: billed.creditsRemaining ?? s.credits.balance(key.orgId),
  });
}

type AgeIdResult = Omit<AgeIdResponse, 'credits_consumed' | 'credits_remaining' | 'verification_id'>;

/** The age answer of an identity check: verified when the document and face verify and its date of birth meets the minimum. */
export function ageById(r: IdentityCheck, minAge: number, now: Date): Outcome<AgeIdResult> {
  // Only the date of birth is taken from the document: a name left for review does not stop an age check, its century does.
  const { failure, confidence } = identityAnswer(r, [], ['date_of_birth']);
  const birth = r.assessment.birth;
  const actualAge = birth ? ageOn(birth, now) : null;
  const common = {
    actual_age: actualAge, dob: birth ? formatUsDate(birth) : null, face_match_confidence: r.match.face_match_confidence,
    authenticity: r.assessment.authenticity,
  };
  const failed = (reason: string, message: string, extra: Partial<AgeIdResult> = {}): Outcome<AgeIdResult> => ({
    status: 'failed', confidence, billable: true, httpStatus: 200, errorCode: reason,
    result: { ...common, verified: false, status: 'failed', reason, message, ...extra },
  });
  if (failure) return failed(failure.code, failure.text);
  if (actualAge === null) return failed('document_unreadable', 'The date of birth on the ID document could not be read');
  if (actualAge < minAge) return failed('below_minimum_age', `Below the minimum age of ${minAge}.`, { minimum_age: minAge });
  return {
    status: 'success', confidence, billable: true, httpStatus: 200,
    result: { ...common, verified: true, method: 'selfie+id', status: 'success' },
  };
}

function demoAgeById(minAge: number, now: Date): AgeIdResult {
  // The specimen the demo identity answer describes (born 12 August 1964).
  const actualAge = ageOn({ y: 1964, m: 8, d: 12 }, now);
  const common = { actual_age: actualAge, dob: '08/12/1964', face_match_confidence: DEMO_CONFIDENCE, simulated: true };
  return actualAge >= minAge
    ? { ...common, verified: true, method: 'selfie+id', status: 'success' }
    : { ...common, verified: false, status: 'failed', reason: 'below_minimum_age', minimum_age: minAge, message: `Below the minimum age of ${minAge}.` };
}

/**
 * Age by ID (step 3, and the single call with an ID image). Naming the step-2 verification
 * continues that flow: no second charge, and its ledger row takes the outcome. Otherwise it is a
 * flow of its own: 10 credits and one ledger row.
 */
export async function idStep(
  c: Context<AppEnv>, s: Services,
  body: { image_selfie_b64: string; image_id_b64: string; min_age?: number | undefined; use_case: AgeSelfieRequest['use_case']; verification_id?: string | undefined },
  text: string, key: Payer = c.get('key'),
): Promise<Response> {
  const minAge = agePolicy(body.use_case ?? 'adult', body.min_age, undefined).min_age;
  const images = {
    selfie: { field: 'image_selfie_b64', bytes: bytesOfBase64('image_selfie_b64', body.image_selfie_b64) },
    front: { field: 'image_id_b64', bytes: bytesOfBase64('image_id_b64', body.image_id_b64) },
  };
  const work = async (): Promise<Outcome<AgeIdResult>> => {
    const now = new Date(s.clock.now());
    if (key.demo) {
      const result = demoAgeById(minAge, now);
      return { status: result.status, confidence: DEMO_CONFIDENCE, billable: false, httpStatus: 200, result };
    }
    return ageById(await checkIdentity(s.faces, s.documents, images, now), minAge, now);
  };
  if (body.verification_id !== undefined) {
    const done = await s.billing.continueFlow({ key, verificationId: body.verification_id, operation: 'age', waiting: 'id_required' }, work);
    return c.json<AgeIdResponse>({
      ...done.outcome.result, verification_id: body.verification_id, credits_consumed: 0,
      credits_remaining: done.creditsRemaining ?? s.credits.balance(key.orgId),
    });
  }
  const billed = await runBillable<AgeIdResult>(c, s, { operation: 'age', idPrefix: 'age', bodyText: text, payer: key }, () => work());
  return c.json<AgeIdResponse>({
    ...billed.outcome.result, verification_id: billed.verificationId, credits_consumed: billed.charged,
    credits_remaining: billed.creditsRemaining ?? s.credits.balance(key.orgId),
  });
}

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
    handler: async (c, input) => {
      const body = await input.body();
      const minAge = agePolicy(body.use_case, body.min_age, body.state_code).min_age;
      const age = ageFromIso(body.date_of_birth, new Date(services.clock.now()));
      if (age === null || age < 0 || age > 150) throw new AppError('invalid_parameters', { fields: [{ field: 'date_of_birth', issue: 'out_of_range' }] });
      if (age >= minAge) {
        return c.json<AgeStep1Response>({
          success: true, proceed_to_step2: true, user_age: age, min_age_required: minAge, credits_consumed: 0,
          message: 'Date of birth meets the minimum age. Continue with a selfie (step 2).',
        });
      }
      return c.json<AgeStep1Response>({
        success: false, verified: false, underage: true, status: 'failed', user_age: age, min_age_required: minAge, credits_consumed: 0,
        message: `Below the minimum age of ${minAge}.`,
      });
    },
  });

  route({
    method: 'POST', path: '/api/v1/verify-age/step2', auth: AUTH, tags: ['age'],
    summary: 'Age step 2: estimate age from a selfie (10 credits per flow)',
    description:
      'Verified when the lower end of the estimate\'s 80% range (`age_range.Low`) reaches the minimum age and the selfie meets the selfie rules; ' +
      'otherwise `proceed_to_step3` with the reason. `image_selfie_b64`: base64 JPEG, PNG or WebP, at most 10 MB.',
    request: { body: AgeSelfieRequest, maxBytes: IMAGE_JSON_BYTES },
    responses: { 200: AgeSelfieResponse },
    handler: async (c, input) => selfieStep(c, services, await input.body(), await input.text()),
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
    handler: async (c, input) => idStep(c, services, await input.body(), await input.text()),
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
      if (body.image_id_b64 !== undefined) return idStep(c, services, { ...body, image_id_b64: body.image_id_b64 }, text);
      return selfieStep(c, services, body, text);
    },
  });
}
