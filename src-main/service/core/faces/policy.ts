// The named rules a selfie is held to, and the decisions built on them. They live apart from the
// model code: the models measure, these decide. Every check is reported with its value and its
// limit, so an analyst sees which rule a selfie met or missed.
import type { FaceFailure, PolicyCheck, PolicyName } from '../../../../src-shared/contracts/faces';
import type { FaceAnalysis, FaceReading } from './types';

export const SELFIE_POLICY = {
  /** Detector confidence a face needs to count at all. */
  minDetectionScore: 0.6,
  /** Face width in pixels of the analysed image (longer side at most 1600). */
  minFaceSide: 80,
  /** Another face at least this fraction of the largest face's width makes it a group photo. */
  secondFaceFraction: 0.5,
  /** "Roughly frontal": head turned sideways (yaw) or up/down (pitch) by at most this many degrees. */
  maxTurn: 30,
} as const;

/**
 * The shipped antispoof and liveness models are advisory (ARCHITECTURE.md): their mean only fails
 * a selfie below this floor, where both say "print or screen" clearly.
 */
export const SPOOF_FLOOR = 0.3;
/** The mean of the two models from which a face is reported as a real face. */
export const REAL_FACE_FROM = 0.5;

/** Why a selfie failed: the ledger's failure reason code, and the text the answer carries. */
export const FAILURES: Record<FaceFailure, string> = {
  no_face_detected: 'No face was detected in the image',
  multiple_faces: 'More than one face is in the image; a selfie must show one person',
  low_detection_score: 'The face is not clear enough (blur, light or cover)',
  face_too_small: 'The face is too small; come closer to the camera',
  face_not_frontal: 'The face is turned away; look straight at the camera',
  spoof_suspected: 'The image looks like a photo of a print or a screen',
};
export type FailureCode = FaceFailure;

export interface SelfieVerdict {
  /** The face the decision is about (the largest), if any was found. */
  face: FaceReading | null;
  /** Faces that count (detection score met). */
  facesFound: number;
  checks: PolicyCheck[];
  failure: FailureCode | null;
  /** Mean of the advisory antispoof and liveness scores, 0-1. */
  realness: number;
  /** 0-100: how sure the service is that this is one real, live, usable face. */
  confidence: number;
}

/** Holds one analysed selfie to the selfie rules, in order; the first rule missed is the failure. */
export function judgeSelfie(a: FaceAnalysis, policy = SELFIE_POLICY): SelfieVerdict {
  const counted = a.faces.filter((f) => f.score >= Math.min(policy.minDetectionScore, 0.5));
  const sorted = [...counted].sort((x, y) => y.box.width - x.box.width);
  const face = sorted[0] ?? null;
  if (!face) {
    return {
      face: null, facesFound: 0, realness: 0, confidence: 0, failure: 'no_face_detected',
      checks: [{ policy: 'one_face', passed: false, value: 0, limit: 1 }],
    };
  }
  const prominent = sorted.filter((f) => f.box.width >= face.box.width * policy.secondFaceFraction).length;
  const realness = round((face.antispoof + face.liveness) / 2, 3);
  const turned = round(Math.max(Math.abs(face.pose.yaw), Math.abs(face.pose.pitch)), 1);
  const checks: PolicyCheck[] = [
    { policy: 'one_face', passed: prominent === 1, value: prominent, limit: 1 },
    { policy: 'detection_score', passed: face.score >= policy.minDetectionScore, value: face.score, limit: policy.minDetectionScore },
    { policy: 'face_size', passed: face.box.width >= policy.minFaceSide, value: face.box.width, limit: policy.minFaceSide },
    { policy: 'frontal_pose', passed: turned <= policy.maxTurn, value: turned, limit: policy.maxTurn },
    { policy: 'presentation_attack', passed: realness >= SPOOF_FLOOR, value: realness, limit: SPOOF_FLOOR },
  ];
  const order: Record<PolicyName, FailureCode> = {
    one_face: 'multiple_faces', detection_score: 'low_detection_score', face_size: 'face_too_small',
    frontal_pose: 'face_not_frontal', presentation_attack: 'spoof_suspected',
  };
  const missed = checks.find((c) => !c.passed);
  return {
    face, facesFound: counted.length, checks, realness,
    failure: missed ? order[missed.policy] : null,
    confidence: round(100 * Math.min(1, face.score) * (0.5 + 0.5 * realness), 1),
  };
}

function round(v: number, places: number): number {
  const m = 10 ** places;
  return Math.round(v * m) / m;
}
