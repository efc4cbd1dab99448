// Age product contracts (spec: Age init request / response). Later steps join this file.
import { z } from 'zod';
import { IsoDate } from './dates';
import { Authenticity } from './documents';
import { USE_CASES } from '../catalog';
import { FaceAnalysisBlock, LivenessEvidence } from './faces';

export const US_STATES = [
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'DC', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA',
  'ME', 'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND', 'OH', 'OK', 'OR',
  'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY', 'PR', 'GU', 'VI', 'AS', 'MP',
] as const;

/** States with adult-content age-verification laws (spec, informational). */
export const AV_LAW_STATES = ['UT', 'LA', 'AR', 'TX', 'MT', 'VA', 'MS', 'NC', 'KS', 'ID', 'IN', 'KY', 'NE'] as const;

export const AgeInitRequest = z
  .object({
    use_case: z.enum(USE_CASES).default('adult'),
    state_code: z.string().trim().toUpperCase().pipe(z.enum(US_STATES)).optional(),
    min_age: z.number().int().min(13).max(99).optional(),
  })
  .refine((r) => r.use_case !== 'custom' || r.min_age !== undefined, { path: ['min_age'], message: 'required' });
export type AgeInitRequest = z.input<typeof AgeInitRequest>;

export const AgeInitResponse = z.object({
  success: z.boolean(),
  use_case: z.enum(USE_CASES),
  min_age: z.number().int(),
  description: z.string(),
  strict_mode: z.boolean(),
  notes: z.string(),
});
export type AgeInitResponse = z.infer<typeof AgeInitResponse>;

export const AgeStep1Request = z.object({
  date_of_birth: IsoDate,
  use_case: z.enum(USE_CASES).default('adult'),
  min_age: z.number().int().min(13).max(99).optional(),
  state_code: z.string().trim().toUpperCase().pipe(z.enum(US_STATES)).optional(),
});
export type AgeStep1Request = z.input<typeof AgeStep1Request>;

export const AgeStep1Response = z.union([
  z.object({
    success: z.literal(true), proceed_to_step2: z.literal(true), user_age: z.number().int(), min_age_required: z.number().int(),
    message: z.string(), credits_consumed: z.number().int(),
  }),
  z.object({
    success: z.literal(false), verified: z.literal(false), underage: z.literal(true), status: z.literal('failed'),
    user_age: z.number().int(), min_age_required: z.number().int(), message: z.string(), credits_consumed: z.number().int(),
  }),
]);
export type AgeStep1Response = z.infer<typeof AgeStep1Response>;

/** Step 2 and the single call without an ID: the selfie, and the age the flow needs. */
export const AgeSelfieRequest = z.object({
  /** Base64 JPEG, PNG or WebP, at most 10 MB (checked by the image intake, which names the problem). */
  image_selfie_b64: z.string(),
  user_age: z.number().int().min(0).max(150).optional(),
  min_age: z.number().int().min(13).max(99).optional(),
  use_case: z.enum(USE_CASES).default('adult'),
});
export type AgeSelfieRequest = z.input<typeof AgeSelfieRequest>;

/** Single call: step 2's fields and an optional ID image (with it, the answer is step 3's). */
export const AgeVerifyRequest = AgeSelfieRequest.extend({ image_id_b64: z.string().optional() });

/** Step 3: the selfie matched to an ID document's portrait, and the age from its date of birth. */
export const AgeStep3Request = z.object({
  image_selfie_b64: z.string(),
  image_id_b64: z.string(),
  min_age: z.number().int().min(13).max(99).optional(),
  use_case: z.enum(USE_CASES).default('adult'),
  /** Added: the step-2 answer's `verification_id`. The flow was charged at step 2, so naming it costs nothing more; without it step 3 is a flow of its own (10 credits). */
  verification_id: z.string().min(1).max(100).optional(),
});
export type AgeStep3Request = z.input<typeof AgeStep3Request>;
export type AgeVerifyRequest = z.input<typeof AgeVerifyRequest>;

const AgeRange = z.object({ Low: z.number().int(), High: z.number().int() });

export const AgeSelfieResponse = z.object({
  verified: z.boolean(),
  /** `selfie` when verified. */
  method: z.literal('selfie').optional(),
  estimated_age: z.number().int().nullable(),
  age_range: AgeRange.nullable(),
  confidence: z.number(),
  is_real_person: z.boolean(),
  requires_id: z.boolean(),
  /** Present and true when an ID is needed. */
  proceed_to_step3: z.literal(true).optional(),
  /** `success` when verified; `id_required` when an ID is needed. */
  status: z.enum(['success', 'id_required']),
  message: z.string().optional(),
  /** `estimated_age_below_threshold`, or the selfie rule that was missed (e.g. `no_face_detected`). */
  reason: z.string().optional(),
  credits_consumed: z.number().int(),
  credits_remaining: z.number().int(),
  /** Added: the ledger id of this step (status lookups, and a step 3 of the same flow). */
  verification_id: z.string(),
  /** Added: the minimum age applied. */
  min_age: z.number().int(),
  analysis: FaceAnalysisBlock.optional(),
  simulated: z.boolean().optional(),
});
export type AgeSelfieResponse = z.infer<typeof AgeSelfieResponse>;

/** Step 3, and the single call with `image_id_b64`. */
export const AgeIdResponse = z.object({
  verified: z.boolean(),
  /** `selfie+id` on success. */
  method: z.literal('selfie+id').optional(),
  actual_age: z.number().int().nullable(),
  /** MM/DD/YYYY, as read from the document. */
  dob: z.string().nullable(),
  face_match_confidence: z.number(),
  status: z.enum(['success', 'failed']),
  /** `below_minimum_age`, or why the document or face did not verify. */
  reason: z.string().optional(),
  minimum_age: z.number().int().optional(),
  message: z.string().optional(),
  credits_consumed: z.number().int(),
  credits_remaining: z.number().int(),
  /** The flow's ledger id: the step-2 verification's when step 3 named it. */
  verification_id: z.string(),
  authenticity: Authenticity.optional(),
  /** Added (issue 37): what the selfie's liveness rested on, a still photo being weaker evidence than the head-turn clip. */
  liveness_evidence: LivenessEvidence.optional(),
  simulated: z.boolean().optional(),
});
export type AgeIdResponse = z.infer<typeof AgeIdResponse>;
