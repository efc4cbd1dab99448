// Face products (spec: Liveness result, /api/validate, mobile status) and the face analysis block
// the liveness and age answers add, so an analyst (or a client) sees each signal with the rule it
// met or missed. No biometric data is answered: no embedding, no landmarks.
import { z } from 'zod';
import { ENVIRONMENTS, PRODUCTS } from '../catalog';

/**
 * The named selfie rules (service: core/faces/policy.ts). `presentation_attack` is the advisory
 * models' realness; the rules after it read the image itself and fail as `spoof_suspected`:
 * `document_presented` (lines of print around a small face: an ID document, card or page),
 * `screen_pattern` (a periodic dot or pixel pattern over the face: screen grid, moiré, halftone),
 * `colour_fringes` (a screen's sub-pixel colour over the face), `frame_around_face` (straight edges
 * of a print, card or screen on every side of the face), `portrait_frame` (a document portrait's own
edges close around the head: above the hair, beside the ears, under the shoulders). `not_the_document` (identity and
 * KYC-plus only): the selfie photo is not the ID document's own picture (bits of 64 in which their
 * difference hashes differ; it fails at or under its limit).
 */
export const POLICY_NAMES = [
  'one_face', 'detection_score', 'face_size', 'frontal_pose', 'presentation_attack',
  'document_presented', 'screen_pattern', 'colour_fringes', 'frame_around_face', 'portrait_frame', 'not_the_document',
] as const;
export type PolicyName = (typeof POLICY_NAMES)[number];

/** Why a selfie failed; also the ledger's failure reason code. */
export const FACE_FAILURES = [
  'no_face_detected', 'multiple_faces', 'low_detection_score', 'face_too_small', 'face_not_frontal', 'spoof_suspected',
] as const;
export type FaceFailure = (typeof FACE_FAILURES)[number];

export const PolicyCheck = z.object({
  policy: z.enum(POLICY_NAMES),
  passed: z.boolean(),
  /**
   * What was measured: faces counted, detector score 0-1, face width in px, degrees turned, advisory
   * realness 0-1; for the image rules: print around the face in face widths, periodic peak
   * (log10 over its neighbours), colour over brightness detail, sides framed (0-4), sides of the portrait's edges found (0-4).
   */
  value: z.number(),
  /** The rule's limit in the same unit (the image rules fail at or above it). */
  limit: z.number(),
});
export type PolicyCheck = z.infer<typeof PolicyCheck>;

/**
 * The active challenge's rules (service: core/faces/challenge.ts): the face stays in view, alone
 * and the same, and the head turns (yaw range over the frames) or the eyes blink.
 */
export const CHALLENGE_RULES = ['face_in_view', 'one_face', 'same_face', 'head_turn', 'blink'] as const;
export type ChallengeRule = (typeof CHALLENGE_RULES)[number];
/** The challenges a clip can be asked for (`head_turn`: turn the head to one side and back, or blink). */
export const CHALLENGES = ['head_turn'] as const;

export const ChallengeCheck = z.object({
  rule: z.enum(CHALLENGE_RULES),
  passed: z.boolean(),
  /** Share of frames with the face (0-1), most faces in one frame, lowest similarity to the first frame (0-1), yaw range (degrees), eye-openness drop (0-1). */
  value: z.number(),
  limit: z.number(),
});
export type ChallengeCheck = z.infer<typeof ChallengeCheck>;

const Box = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });

/**
 * What a selfie's liveness rests on (issue 37, one policy for every path): a still photo, a clip
 * (its own movement), or a clip held to the head-turn challenge. A still photo, and a clip without
 * the challenge, are weaker evidence of a live person: a good print, screen or replay can meet them.
 * Also the ledger's `liveness_evidence`.
 */
export const LIVENESS_EVIDENCE = ['still_photo', 'video_clip', 'head_turn_clip'] as const;
export type LivenessEvidenceKind = (typeof LIVENESS_EVIDENCE)[number];
export const LivenessEvidence = z.object({
  kind: z.enum(LIVENESS_EVIDENCE),
  /** True unless the head-turn challenge was asked and judged. */
  weaker: z.boolean(),
  /** Why it is weaker, in words (null for the head-turn clip). */
  note: z.string().nullable(),
});
export type LivenessEvidence = z.infer<typeof LivenessEvidence>;

/**
 * The organisation's liveness setting (issue 37): when `require_liveness_clip`, its API keys must
 * send the selfie as a clip (liveness, age, identity, KYC-plus), which is held to the head-turn
 * challenge; a still photo is refused (400, `video_required`) before anything is charged.
 */
export const LivenessSettings = z.object({ require_liveness_clip: z.boolean() });
export type LivenessSettings = z.infer<typeof LivenessSettings>;

/** What the models measured on the face the decision is about (added field `analysis`). */
export const FaceAnalysisBlock = z.object({
  faces_found: z.number().int(),
  /** The analysed image (after EXIF rotation and scaling): the box is in its pixels. */
  image: z.object({ width: z.number().int(), height: z.number().int() }),
  box: Box.nullable(),
  detection_score: z.number().nullable(),
  /** Shipped anti-spoofing model, 0-1 (advisory). */
  antispoof: z.number().nullable(),
  /** Shipped liveness model, 0-1 (advisory). */
  liveness: z.number().nullable(),
  pose: z.object({ yaw: z.number(), pitch: z.number(), roll: z.number() }).nullable(),
  checks: z.array(PolicyCheck),
  /** Time the face models took on this image (in their worker), ms. */
  inference_ms: z.number().int().optional(),
  /** Video only: frames decoded and analysed, head movement across them (degrees) and change of eye openness (0-1). */
  frames: z.object({
    analysed: z.number().int(), with_face: z.number().int(), pose_range: z.number(), eye_range: z.number(),
    /** Added: the yaw range alone (degrees), what the head-turn challenge is held to. */
    yaw_range: z.number().optional(),
  }).optional(),
  /** Added (issue 37): what the liveness rests on, a still photo being weaker evidence than the head-turn clip. */
  evidence: LivenessEvidence.optional(),
  /** Added, clips judged as an active challenge: what was asked, whether it was met, and each rule with its value and limit. */
  challenge: z.object({
    asked: z.enum(CHALLENGES),
    passed: z.boolean(),
    /** The rule missed (null when passed). */
    failed: z.enum(CHALLENGE_RULES).nullable(),
    checks: z.array(ChallengeCheck),
  }).optional(),
});
export type FaceAnalysisBlock = z.infer<typeof FaceAnalysisBlock>;

export const LivenessResult = z.object({
  verification_id: z.string(),
  status: z.enum(['PASS', 'FAIL']),
  confidence: z.number(),
  /** Present on pass. */
  is_real_face: z.boolean().optional(),
  face_detected: z.boolean(),
  /** Signed token for /api/validate (pass only). */
  token: z.string().optional(),
  timestamp: z.string(),
  /** Failure text (fail only). */
  error: z.string().optional(),
  /** Added: the failure as a code (fail only). */
  failure_reason: z.enum(FACE_FAILURES).optional(),
  /** Added: what the models measured and the rules applied. */
  analysis: FaceAnalysisBlock.optional(),
  /** Added: true when a demo key answered with a simulated result (no model ran, nothing charged). */
  simulated: z.boolean().optional(),
});
export type LivenessResult = z.infer<typeof LivenessResult>;

export const ValidateRequest = z.object({ token: z.string().min(1).max(4096) });
export type ValidateRequest = z.input<typeof ValidateRequest>;

export const ValidateResponse = z.object({
  valid: z.boolean(),
  verification_id: z.string().nullable(),
  status: z.string().nullable(),
  confidence: z.number().nullable(),
  /** Added: why a token is not valid (`invalid` also covers other organisations and environments). */
  reason: z.enum(['invalid', 'expired']).optional(),
});
export type ValidateResponse = z.infer<typeof ValidateResponse>;

/** Mobile status (spec: shape not shown): ids, outcome and times; never subject data. */
export const MobileStatus = z.object({
  verification_id: z.string(),
  product: z.enum(PRODUCTS),
  environment: z.enum(ENVIRONMENTS),
  status: z.string(),
  confidence: z.number().nullable(),
  failure_reason: z.string().nullable(),
  created_at: z.string(),
  completed_at: z.string().nullable(),
});
export type MobileStatus = z.infer<typeof MobileStatus>;
