// The named rules a selfie is held to, and the decisions built on them. They live apart from the
// model code: the models measure, these decide. Every check is reported with its value and its
// limit, so an analyst sees which rule a selfie met or missed.
import type { FaceFailure, PolicyCheck, PolicyName } from '../../../../src-shared/contracts/faces';
import type { PresentationSignals } from './presentation';
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

/**
 * Presentation-attack rules read from the image itself (core/faces/presentation): each has a
 * measured value and a limit, and a selfie fails it when the value reaches the limit. The limits
 * were set on generated documents and recaptures of development faces and checked on held-out
 * faces and generator families (docs/faces.md, `npm run eval:presentation`); they lean towards
 * passing real photos, since a false refusal costs a customer and an analyst's trust.
 */
export const PRESENTATION_POLICY = {
  /** Lines of print around the face, total length in face widths. */
  documentText: 2.5,
  /** Periodic peak in the face region (log10 over its neighbours): a screen's grid, moiré, halftone. */
  periodic: 1.2,
  /** Fine colour detail over fine brightness detail in the face region. */
  colourFringes: 0.4,
  /** Sides of the face with a long straight edge around it. */
  frameSides: 4,
  /** Sides of the head closed by a document portrait's straight edge, plus one for print beside it. */
  portraitSides: 4,
  /** Print (face widths) beside a framed head that counts as its fourth side. */
  portraitPrint: 1,
} as const;

/**
 * A document's portrait: the sides of the head closed by the photo's own straight edges (above
 * the hair, beside the ears, under the shoulders), and one more when a face width of print lies
 * beside it (a portrait cut at the card's edge or by a thumb still has its fields). A door frame
 * or shelf behind a live head closes two or three sides at most, with no print beside it.
 */
const portraitEvidence = (p: PresentationSignals, policy: typeof PRESENTATION_POLICY) =>
  Math.min(4, p.portraitSides + (p.textLength >= policy.portraitPrint ? 1 : 0));

/** The presentation-attack rules, in the order they are reported. */
export const PRESENTATION_RULES = ['document_presented', 'screen_pattern', 'colour_fringes', 'frame_around_face', 'portrait_frame'] as const satisfies readonly PolicyName[];
type PresentationRule = (typeof PRESENTATION_RULES)[number];

/** What the failure text says was seen, per rule. */
const SEEN: Record<PresentationRule | 'presentation_attack', string> = {
  document_presented: 'The image shows an identity document or a printed card, not a selfie: take a photo of your face',
  screen_pattern: 'The image looks like a photo of a screen or a print (a regular dot or pixel pattern covers the face)',
  colour_fringes: 'The image looks like a photo of a screen (colour fringes from its pixels cover the face)',
  frame_around_face: 'The image looks like a photo of a picture (the edges of a print, card or screen surround the face)',
  portrait_frame: 'The image shows the portrait of an identity document or a printed photo, not a selfie: take a photo of your face',
  presentation_attack: 'The image looks like a photo of a print or a screen',
};

/** Why a selfie failed: the ledger's failure reason code, and the text the answer carries. */
export const FAILURES: Record<FaceFailure, string> = {
  no_face_detected: 'No face was detected in the image',
  multiple_faces: 'More than one face is in the image; a selfie must show one person',
  low_detection_score: 'The face is not clear enough (blur, light or cover)',
  face_too_small: 'The face is too small; come closer to the camera',
  face_not_frontal: 'The face is turned away; look straight at the camera',
  spoof_suspected: 'The image looks like a photo of a print, a screen or a document',
};
export type FailureCode = FaceFailure;

export interface SelfieVerdict {
  /** The face the decision is about (the largest), if any was found. */
  face: FaceReading | null;
  /** Faces that count (detection score met). */
  facesFound: number;
  checks: PolicyCheck[];
  failure: FailureCode | null;
  /** The failure's text, naming what was seen for a presentation attack; null on a pass. */
  failureText: string | null;
  /** Mean of the advisory antispoof and liveness scores, 0-1. */
  realness: number;
  /**
   * 0-100: how sure the service is of its decision. On a pass or an ordinary failure, that this
   * is one real, live, usable face; on a presentation attack, that it is one.
   */
  confidence: number;
}

/** The presentation-attack checks of one image's signals (none when no signals were measured). */
export function presentationChecks(p: PresentationSignals | null | undefined, policy = PRESENTATION_POLICY): PolicyCheck[] {
  if (!p) return [];
  const portrait = portraitEvidence(p, policy);
  return [
    { policy: 'document_presented', passed: p.textLength < policy.documentText, value: p.textLength, limit: policy.documentText },
    { policy: 'screen_pattern', passed: p.periodic < policy.periodic, value: p.periodic, limit: policy.periodic },
    { policy: 'colour_fringes', passed: p.colourFringes < policy.colourFringes, value: p.colourFringes, limit: policy.colourFringes },
    { policy: 'frame_around_face', passed: p.frameSides < policy.frameSides, value: p.frameSides, limit: policy.frameSides },
    { policy: 'portrait_frame', passed: portrait < policy.portraitSides, value: portrait, limit: policy.portraitSides },
  ];
}

/**
 * How far past its limit a failed presentation check is, 0 at the limit to 1 at twice the limit
 * (for the frame, every side found): the evidence the confidence of a refusal rests on.
 */
function evidence(c: PolicyCheck): number {
  if (c.policy === 'presentation_attack') return Math.min(1, Math.max(0, (SPOOF_FLOOR - c.value) / SPOOF_FLOOR));
  if (c.policy === 'frame_around_face' || c.policy === 'portrait_frame') return 1;
  return Math.min(1, Math.max(0, c.value / c.limit - 1));
}

/**
 * Holds one analysed selfie to the selfie rules, in order; the first rule missed is the failure.
 * A document comes first whatever else was missed: its portrait is small and often has a ghost
 * copy beside it, and it is refused as what it is, not as a face too small or a second face.
 */
export function judgeSelfie(a: FaceAnalysis, policy = SELFIE_POLICY): SelfieVerdict {
  const counted = a.faces.filter((f) => f.score >= Math.min(policy.minDetectionScore, 0.5));
  const sorted = [...counted].sort((x, y) => y.box.width - x.box.width);
  const face = sorted[0] ?? null;
  if (!face) {
    return {
      face: null, facesFound: 0, realness: 0, confidence: 0, failure: 'no_face_detected', failureText: FAILURES.no_face_detected,
      checks: [{ policy: 'one_face', passed: false, value: 0, limit: 1 }],
    };
  }
  const prominent = sorted.filter((f) => f.box.width >= face.box.width * policy.secondFaceFraction).length;
  const realness = round((face.antispoof + face.liveness) / 2, 3);
  const turned = round(Math.max(Math.abs(face.pose.yaw), Math.abs(face.pose.pitch)), 1);
  // The signals are measured on the largest face of all the detector found; they are about this face when it is the same one.
  const signals = a.presentation && sameBox(a.faces, face) ? a.presentation : null;
  const attack = presentationChecks(signals);
  const checks: PolicyCheck[] = [
    { policy: 'one_face', passed: prominent === 1, value: prominent, limit: 1 },
    { policy: 'detection_score', passed: face.score >= policy.minDetectionScore, value: face.score, limit: policy.minDetectionScore },
    { policy: 'face_size', passed: face.box.width >= policy.minFaceSide, value: face.box.width, limit: policy.minFaceSide },
    { policy: 'frontal_pose', passed: turned <= policy.maxTurn, value: turned, limit: policy.maxTurn },
    { policy: 'presentation_attack', passed: realness >= SPOOF_FLOOR, value: realness, limit: SPOOF_FLOOR },
    ...attack,
  ];
  const order: Record<PolicyName, FailureCode> = {
    one_face: 'multiple_faces', detection_score: 'low_detection_score', face_size: 'face_too_small',
    frontal_pose: 'face_not_frontal', presentation_attack: 'spoof_suspected',
    document_presented: 'spoof_suspected', screen_pattern: 'spoof_suspected', colour_fringes: 'spoof_suspected', frame_around_face: 'spoof_suspected', portrait_frame: 'spoof_suspected', not_the_document: 'spoof_suspected',
  };
  const document = attack.find((c) => c.policy === 'document_presented' && !c.passed);
  const missed = document ?? checks.find((c) => !c.passed);
  const failure = missed ? order[missed.policy] : null;
  const score = Math.min(1, face.score);
  // A refusal as an attack is as sure as its evidence; every other verdict keeps the realness formula.
  const sure = failure === 'spoof_suspected' && missed ? 0.5 + 0.5 * evidence(missed) : 0.5 + 0.5 * realness;
  return {
    face, facesFound: counted.length, checks, realness, failure,
    failureText: missed ? (failure === 'spoof_suspected' ? SEEN[missed.policy as PresentationRule | 'presentation_attack'] : FAILURES[failure!]) : null,
    confidence: round(100 * score * sure, 1),
  };
}

function sameBox(faces: FaceReading[], face: FaceReading): boolean {
  const largest = [...faces].sort((x, y) => y.box.width - x.box.width)[0];
  return largest === face;
}

function round(v: number, places: number): number {
  const m = 10 ** places;
  return Math.round(v * m) / m;
}
