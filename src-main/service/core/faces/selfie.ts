// A selfie through intake, the face workers and the selfie rules, and the two decisions made on
// it: liveness (PASS/FAIL) and age by estimate (verified / ID needed). Demo keys get the same
// shapes, simulated, without a model.
import type { AgeSelfieResponse } from '../../../../src-shared/contracts/age';
import type { FaceAnalysisBlock, FaceFailure, LivenessEvidence, LivenessEvidenceKind } from '../../../../src-shared/contracts/faces';
import { checkImageBytes, decodeImage, imageError, isVideo, SELFIE_MAX_SIDE, type DecodedImage } from '../media/image';
import { analyseVideo, VIDEO_SUPPORTED, type VideoJudgement } from '../media/video';
import type { FacePool } from './pool';
import { ageRangeOf } from './age';
import { FAILURES, judgeSelfie, PRESENTATION_POLICY, REAL_FACE_FROM, type SelfieVerdict } from './policy';
import type { FaceAnalysis } from './types';

export interface JudgedSelfie {
  verdict: SelfieVerdict;
  analysis: FaceAnalysis;
  /** What the liveness rests on: a still photo unless a clip was sent. */
  evidence: LivenessEvidenceKind;
  /** A clip's frames and, when the head turn was asked, its challenge. */
  clip?: Pick<VideoJudgement, 'frames' | 'challenge'>;
}

/**
 * Analyses one selfie; `describe` runs the age model too (age steps, not liveness); `match` computes
 * the face-match descriptor (identity).
 */
export async function judge(pool: FacePool, image: { rgb: Uint8Array; width: number; height: number }, describe: boolean, match = false): Promise<JudgedSelfie> {
  const analysis = await pool.analyze({ ...image, describe, match });
  return { analysis, verdict: judgeSelfie(analysis), evidence: 'still_photo' };
}

/**
 * A selfie as sent, after intake: a decoded photo, or a clip (checked for size and type; its header
 * and frames are read when it is judged). Taken before anything is charged, so a bad photo is
 * refused for free.
 */
export type TakenSelfie = { kind: 'photo'; field: string; image: DecodedImage } | { kind: 'clip'; field: string; bytes: Uint8Array };

export async function takeSelfie(field: string, bytes: Uint8Array): Promise<TakenSelfie> {
  const format = checkImageBytes(field, bytes, { allowVideo: true });
  if (!isVideo(format)) return { kind: 'photo', field, image: await decodeImage(field, bytes, { maxSide: SELFIE_MAX_SIDE }) };
  if (!VIDEO_SUPPORTED) throw imageError(field, 'unsupported_type');
  return { kind: 'clip', field, bytes };
}

/**
 * One liveness policy for every product (issue 37): a photo is judged as a still selfie; a clip by
 * its frames, held to the head-turn challenge when `challenge` (hosted pages always ask it; the
 * API when the caller says so), and then, when it passed, its best frame is read for what the
 * product needs besides (the age model, the face-match descriptor).
 */
export async function judgeTaken(pool: FacePool, taken: TakenSelfie, opts: { describe: boolean; match?: boolean; challenge: boolean }): Promise<JudgedSelfie> {
  if (taken.kind === 'photo') return judge(pool, taken.image, opts.describe, opts.match);
  const clip = await analyseVideo(pool, taken.bytes, { challenge: opts.challenge, field: taken.field });
  const evidence = evidenceOf(taken, opts.challenge);
  const about = { frames: clip.frames, ...(clip.challenge ? { challenge: clip.challenge } : {}) };
  // The head turn's frames were each read with the face-match descriptor (the same-face rule), the
  // verdict's face among them: only the age model, or a match without the challenge, reads the best frame again.
  const again = opts.describe || (opts.match === true && !opts.challenge);
  if (clip.verdict.failure || !again) return { verdict: clip.verdict, analysis: clip.analysis, evidence, clip: about };
  const still = await judge(pool, clip.best, opts.describe, opts.match);
  return { ...still, evidence, clip: about };
}

/** What a taken selfie's liveness will rest on, before it is judged (demo answers say it too). */
export function evidenceOf(taken: TakenSelfie, challenge: boolean): LivenessEvidenceKind {
  return taken.kind === 'photo' ? 'still_photo' : challenge ? 'head_turn_clip' : 'video_clip';
}

const EVIDENCE_NOTE: Record<LivenessEvidenceKind, string | null> = {
  still_photo: 'A still photo is weaker evidence of a live person than a recorded head turn: a good print or screen can pass it.',
  video_clip: 'A clip without the head-turn challenge is weaker evidence of a live person than one with it: a replayed recording can pass it.',
  head_turn_clip: null,
};

/** The answer's `evidence`: what the liveness rests on, and why a still photo or plain clip is weaker. */
export function livenessEvidence(kind: LivenessEvidenceKind): LivenessEvidence {
  return { kind, weaker: kind !== 'head_turn_clip', note: EVIDENCE_NOTE[kind] };
}

/** The answer's `analysis` block: measurements and rules, no embedding, no landmarks. */
export function analysisBlock({ verdict, analysis, evidence, clip }: JudgedSelfie): FaceAnalysisBlock {
  const f = verdict.face;
  const c = clip?.challenge;
  return {
    ...(clip ? { frames: clip.frames } : {}),
    ...(c ? { challenge: { asked: 'head_turn' as const, passed: c.passed, failed: c.failed, checks: c.checks } } : {}),
    evidence: livenessEvidence(evidence),
    faces_found: verdict.facesFound,
    image: { width: analysis.width, height: analysis.height },
    box: f ? f.box : null,
    detection_score: f ? f.score : null,
    antispoof: f ? f.antispoof : null,
    liveness: f ? f.liveness : null,
    pose: f ? f.pose : null,
    checks: verdict.checks,
    inference_ms: analysis.inferenceMs,
  };
}

export interface LivenessDecision {
  status: 'PASS' | 'FAIL';
  confidence: number;
  faceDetected: boolean;
  isRealFace: boolean;
  failure: FaceFailure | null;
  /** The failure's text (naming what was seen for a presentation attack); null on a pass. */
  error: string | null;
}

export function livenessDecision(v: SelfieVerdict): LivenessDecision {
  return {
    status: v.failure ? 'FAIL' : 'PASS',
    confidence: v.confidence,
    faceDetected: v.face !== null,
    isRealFace: !v.failure && v.realness >= REAL_FACE_FROM,
    failure: v.failure,
    error: v.failure ? failureText(v.failure, v) : null,
  };
}

/** A failure's text: the verdict's own when it names what was seen (a document, a screen), else the code's. */
export const failureText = (f: FaceFailure, v?: SelfieVerdict): string => (v && v.failure === f && v.failureText) || FAILURES[f];

export type AgeDecision = Pick<
  AgeSelfieResponse,
  'verified' | 'method' | 'estimated_age' | 'age_range' | 'confidence' | 'is_real_person' | 'requires_id' | 'proceed_to_step3' | 'status' | 'message' | 'reason'
>;

/**
 * Step 2: verified only when the lower end of the answered range (core/faces/age.ts: the model's
 * own or the measured error's, whichever is wider) reaches the minimum age and the selfie met every
 * rule; otherwise an ID is needed, with the rule missed or `estimated_age_below_threshold` as the reason.
 */
export function ageDecision(v: SelfieVerdict, minAge: number): AgeDecision {
  const f = v.face;
  const age = f?.age ?? null;
  const range = age ? ageRangeOf(age) : null;
  const estimate = age && range ? { estimated_age: age.estimate, age_range: { Low: range.low, High: range.high } } : { estimated_age: null, age_range: null };
  const isRealPerson = !v.failure && v.realness >= REAL_FACE_FROM;
  if (!v.failure && range && range.low >= minAge) {
    return { verified: true, method: 'selfie', ...estimate, confidence: v.confidence, is_real_person: isRealPerson, requires_id: false, status: 'success' };
  }
  const reason = v.failure ?? 'estimated_age_below_threshold';
  return {
    verified: false, ...estimate, confidence: v.confidence, is_real_person: isRealPerson, requires_id: true, proceed_to_step3: true,
    status: 'id_required', reason,
    message: v.failure
      ? `${failureText(v.failure, v)}. Retake the selfie or continue with an ID document.`
      : `The age estimate does not conclusively meet the minimum age of ${minAge}. Continue with an ID document.`,
  };
}

// Demo keys: fixed, plausible answers in the real shapes. No model runs and nothing is charged.
const DEMO_BOX = { x: 120, y: 90, width: 240, height: 240 };
export function demoAnalysis(evidence: LivenessEvidenceKind = 'still_photo'): FaceAnalysisBlock {
  return {
    evidence: livenessEvidence(evidence),
    faces_found: 1, image: { width: 480, height: 480 }, box: DEMO_BOX, detection_score: 0.98, antispoof: 0.9, liveness: 0.95,
    pose: { yaw: 2, pitch: -3, roll: 1 },
    checks: [
      { policy: 'one_face', passed: true, value: 1, limit: 1 },
      { policy: 'detection_score', passed: true, value: 0.98, limit: 0.6 },
      { policy: 'face_size', passed: true, value: 240, limit: 80 },
      { policy: 'frontal_pose', passed: true, value: 3, limit: 30 },
      { policy: 'presentation_attack', passed: true, value: 0.925, limit: 0.3 },
      { policy: 'document_presented', passed: true, value: 0, limit: PRESENTATION_POLICY.documentText },
      { policy: 'screen_pattern', passed: true, value: 0.3, limit: PRESENTATION_POLICY.periodic },
      { policy: 'colour_fringes', passed: true, value: 0.02, limit: PRESENTATION_POLICY.colourFringes },
      { policy: 'frame_around_face', passed: true, value: 0, limit: PRESENTATION_POLICY.frameSides },
      { policy: 'portrait_frame', passed: true, value: 0, limit: PRESENTATION_POLICY.portraitSides },
    ],
  };
}
export const DEMO_CONFIDENCE = 96.3;
/** The demo estimate clears any minimum: 7 years above it, range ± 4. */
export function demoAge(minAge: number): AgeDecision {
  const est = minAge + 7;
  return {
    verified: true, method: 'selfie', estimated_age: est, age_range: { Low: est - 4, High: est + 4 }, confidence: DEMO_CONFIDENCE,
    is_real_person: true, requires_id: false, status: 'success',
  };
}
