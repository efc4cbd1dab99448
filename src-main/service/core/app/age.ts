// The age product (spec: Age multi-step flow). Init and step 1 are free and record nothing (no
// image, no model: a date-of-birth check). The selfie step and the single call estimate age in a
// face worker: 10 credits per flow, charged once at the selfie step whatever the outcome
// (docs/decisions.md); the ledger row holds the outcome, never the date of birth or the image.
import type { z } from 'zod';
import type { AgeIdResponse, AgeSelfieRequest, AgeSelfieResponse, AgeStep1Request, AgeStep1Response } from '../../../../src-shared/contracts/age';
import { ageOn, claimedAgeOn, formatUsDate } from '../../../../src-shared/dates';
import { AppError } from '../../../../src-shared/errors';
import type { Q } from '../../db/engine';
import type { Organization } from '../accounts/organization';
import type { Clock } from '../clock';
import type { DocumentReader } from '../documents/pool';
import { agePolicy } from '../age/policy';
import { checkIdentity, identityAnswer, type IdentityCheck } from '../documents/identity';
import { ageDecision, analysisBlock, DEMO_CONFIDENCE, demoAge, demoAnalysis, evidenceOf, judgeTaken, livenessEvidence, takeSelfie } from '../faces/selfie';
import type { FacePool } from '../faces/pool';
import { bytesOfBase64 } from '../media/image';
import type { Outcome } from '../verification/billing';
import { bill, creditsAfter, type Answer, type Call, type ChargeDeps } from './call';
import { clipRequired } from './liveness';

/** What age by selfie uses: the face workers, the organisation's liveness setting, billing. */
export interface SelfieAgeDeps extends ChargeDeps {
  clock: Clock;
  faces: FacePool;
  organization: Organization;
}

/** What age by ID adds: the document reader. */
export interface AgeDeps extends SelfieAgeDeps {
  documents: DocumentReader;
}

type UseCase = AgeSelfieRequest['use_case'];

/** The age a claimed date of birth gives today, or 400 `out_of_range` when no person could have it (step 1, the hosted page, the age gate). */
export function claimedAge(s: { clock: Clock }, dob: string): number {
  const age = claimedAgeOn(dob, s.clock.now());
  if (age === null) throw new AppError('invalid_parameters', { fields: [{ field: 'date_of_birth', issue: 'out_of_range' }] });
  return age;
}

/** Step 1: the date of birth against the minimum age (free; nothing is recorded). */
export function ageStep1(s: { clock: Clock }, body: z.output<typeof AgeStep1Request>): AgeStep1Response {
  const minAge = agePolicy(body.use_case, body.min_age, body.state_code).min_age;
  const age = claimedAge(s, body.date_of_birth);
  if (age >= minAge) {
    return {
      success: true, proceed_to_step2: true, user_age: age, min_age_required: minAge, credits_consumed: 0,
      message: 'Date of birth meets the minimum age. Continue with a selfie (step 2).',
    };
  }
  return {
    success: false, verified: false, underage: true, status: 'failed', user_age: age, min_age_required: minAge, credits_consumed: 0,
    message: `Below the minimum age of ${minAge}.`,
  };
}

export interface SelfieInput {
  /** Base64 as the API sends it, or bytes already read (an upload, named by its form field). */
  image_selfie_b64: string | { field: string; bytes: Uint8Array };
  user_age?: number | undefined;
  min_age?: number | undefined;
  use_case: UseCase;
}

/**
 * Age by selfie (step 2, the single call, the console's try panel, the hosted page, the age gate): one flow, 10 credits, one ledger row.
 * `alsoRecord` writes a further record of the same act in the transaction of its row and charge (the age gate's link to its store).
 */
export async function ageBySelfie(
  s: SelfieAgeDeps, call: Call, body: SelfieInput, text: string, alsoRecord?: (r: { verificationId: string; createdAt: number }, tx: Q) => Promise<void>,
): Promise<Answer<AgeSelfieResponse>> {
  const key = call.payer;
  const minAge = agePolicy(body.use_case ?? 'adult', body.min_age, undefined).min_age;
  if (body.user_age !== undefined && body.user_age < minAge) {
    throw new AppError('invalid_parameters', {
      message: 'user_age is below the minimum age: the flow ended at step 1', fields: [{ field: 'user_age', issue: 'below_minimum_age' }],
    });
  }
  const given = body.image_selfie_b64;
  const field = typeof given === 'string' ? 'image_selfie_b64' : given.field;
  const bytes = typeof given === 'string' ? bytesOfBase64(field, given) : given.bytes;
  await clipRequired(s, call, field, bytes);
  const taken = await takeSelfie(field, bytes);
  const billed = await bill<Omit<AgeSelfieResponse, 'credits_consumed' | 'credits_remaining'>>(
    s, call, { operation: 'age', idPrefix: 'age', bodyText: text, ...(alsoRecord ? { alsoRecord } : {}) },
    async (ctx) => {
      if (key.demo) {
        const d = demoAge(minAge);
        return {
          status: d.status, confidence: d.confidence, billable: false, httpStatus: 200, livenessEvidence: evidenceOf(taken, true),
          result: { ...d, verification_id: ctx.verificationId, min_age: minAge, analysis: demoAnalysis(evidenceOf(taken, true)), simulated: true },
        };
      }
      // A clip is the head-turn clip (one liveness policy, issue 37); its best frame is read for the age.
      const judged = await judgeTaken(s.faces, taken, { describe: true, challenge: true });
      const d = ageDecision(judged.verdict, minAge);
      return {
        status: d.status, confidence: d.confidence, billable: true, httpStatus: 200, errorCode: d.reason ?? null, livenessEvidence: judged.evidence,
        result: { ...d, verification_id: ctx.verificationId, min_age: minAge, analysis: analysisBlock(judged) },
      };
    },
  );
  return {
    body: { ...billed.outcome.result, credits_consumed: billed.charged, credits_remaining: await creditsAfter(s, call, billed) },
    replayed: billed.replayed,
  };
}

type AgeIdResult = Omit<AgeIdResponse, 'credits_consumed' | 'credits_remaining' | 'verification_id'>;

/** The age answer of an identity check: verified when the document and face verify and its date of birth meets the minimum. */
export function ageOfIdentity(r: IdentityCheck, minAge: number, now: Date): Outcome<AgeIdResult> {
  // Only the date of birth is taken from the document: a name left for review does not stop an age check, its century does.
  const { failure, confidence } = identityAnswer(r, [], ['date_of_birth']);
  const birth = r.assessment.birth;
  const actualAge = birth ? ageOn(birth, now) : null;
  const common = {
    actual_age: actualAge, dob: birth ? formatUsDate(birth) : null, face_match_confidence: r.match.face_match_confidence,
    authenticity: r.assessment.authenticity, liveness_evidence: livenessEvidence(r.selfie.evidence),
  };
  const livenessOf = { livenessEvidence: r.selfie.evidence };
  const failed = (reason: string, message: string, extra: Partial<AgeIdResult> = {}): Outcome<AgeIdResult> => ({
    status: 'failed', confidence, billable: true, httpStatus: 200, errorCode: reason, ...livenessOf,
    result: { ...common, verified: false, status: 'failed', reason, message, ...extra },
  });
  if (failure) return failed(failure.code, failure.text);
  if (actualAge === null) return failed('document_unreadable', 'The date of birth on the ID document could not be read');
  if (actualAge < minAge) return failed('below_minimum_age', `Below the minimum age of ${minAge}.`, { minimum_age: minAge });
  return {
    status: 'success', confidence, billable: true, httpStatus: 200, ...livenessOf,
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

export interface IdInput {
  image_selfie_b64: string;
  image_id_b64: string;
  min_age?: number | undefined;
  use_case: UseCase;
  /** The step-2 verification this continues (no second charge), when named. */
  verification_id?: string | undefined;
}

/**
 * Age by ID (step 3, the single call with an ID image, a hosted age session's second step).
 * Naming the step-2 verification continues that flow: no second charge, and its ledger row takes
 * the outcome. Otherwise it is a flow of its own: 10 credits and one ledger row.
 */
export async function ageById(s: AgeDeps, call: Call, body: IdInput, text: string): Promise<Answer<AgeIdResponse>> {
  // Continuing a flow charges nothing but still writes its outcome: checked like billable work (507).
  s.storage.require();
  const key = call.payer;
  const minAge = agePolicy(body.use_case ?? 'adult', body.min_age, undefined).min_age;
  const images = {
    selfie: { field: 'image_selfie_b64', bytes: bytesOfBase64('image_selfie_b64', body.image_selfie_b64) },
    front: { field: 'image_id_b64', bytes: bytesOfBase64('image_id_b64', body.image_id_b64) },
  };
  await clipRequired(s, call, images.selfie.field, images.selfie.bytes);
  const work = async (): Promise<Outcome<AgeIdResult>> => {
    const now = new Date(s.clock.now());
    if (key.demo) {
      const result = demoAgeById(minAge, now);
      return { status: result.status, confidence: DEMO_CONFIDENCE, billable: false, httpStatus: 200, result };
    }
    return ageOfIdentity(await checkIdentity(s.faces, s.documents, images, now), minAge, now);
  };
  if (body.verification_id !== undefined) {
    const done = await s.billing.continueFlow({ key, verificationId: body.verification_id, operation: 'age', waiting: 'id_required' }, work);
    return {
      body: {
        ...done.outcome.result, verification_id: body.verification_id, credits_consumed: 0,
        credits_remaining: await creditsAfter(s, call, done),
      },
      replayed: false,
    };
  }
  const billed = await bill<AgeIdResult>(s, call, { operation: 'age', idPrefix: 'age', bodyText: text }, () => work());
  return {
    body: { ...billed.outcome.result, verification_id: billed.verificationId, credits_consumed: billed.charged, credits_remaining: await creditsAfter(s, call, billed) },
    replayed: billed.replayed,
  };
}

/**
 * An age decision on the date of birth alone, no picture looked at: one ledger row, never
 * charged (a hosted denial below the minimum; the age gate's attestations, `free` needing no
 * balance either). Answers the row's id.
 */
export async function ageByBirthDate(
  s: ChargeDeps, call: Call, text: string, d: { status: 'success' | 'failed'; errorCode: string | null; free?: boolean },
): Promise<Answer<string>> {
  const billed = await bill(s, call, { operation: 'age', idPrefix: 'age', bodyText: text, ...(d.free ? { free: true } : {}) }, async () => ({
    status: d.status, confidence: null, billable: false, httpStatus: 200, errorCode: d.errorCode, result: null,
  }));
  return { body: billed.verificationId, replayed: billed.replayed };
}

/** Ends a selfie flow that was waiting for an ID which will not come (the storefront has no ID step): its row says how it ended. */
export async function endAgeFlow(s: Pick<ChargeDeps, 'billing'>, payer: Call['payer'], verificationId: string, r: { confidence: number | null; reason?: string | null | undefined }): Promise<void> {
  await s.billing.continueFlow({ key: payer, verificationId, operation: 'age', waiting: 'id_required' }, async () => ({
    status: 'failed', confidence: r.confidence, billable: false, httpStatus: 200, errorCode: r.reason ?? null, result: null,
  }));
}

