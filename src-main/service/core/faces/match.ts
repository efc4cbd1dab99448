// Face match: the Euclidean distance between two dlib face descriptors (descriptor.ts), against a
// threshold chosen on public same- and different-person pairs for a false-accept rate of at most
// 0.1% (scripts/calibrate-faces.ts; figures, sources and confidence intervals in docs/faces.md).
//
// The answer's 0-100 scale is `similarity = 100 × (1 − distance)`, floored at 0 and rounded down
// to one decimal: it does not move when the threshold is re-calibrated, and the threshold is
// reported on the same scale, so `similarity ≥ threshold` exactly when the faces match.

/**
 * A descriptor distance at or below this is the same person: the largest distance at which at
 * most 0.1% of the calibration's different-person pairs are accepted (dlib's own suggestion, 0.6,
 * accepted 0.58% of them). Chosen for the descriptor taken with the chip's mirror image
 * (descriptor.ts); the chip alone had 0.52.
 */
export const FACE_MATCH_THRESHOLD = 0.51;

/** The threshold on the answer's 0-100 similarity scale. */
export const THRESHOLD_SIMILARITY = Math.round((1 - FACE_MATCH_THRESHOLD) * 1000) / 10;

/**
 * How far from the threshold a distance must lie for the match decision to count as certain: on the
 * calibration pairs, 95% of different-person pairs lie more than 0.17 above the threshold (median
 * 0.33) and same-person pairs a median 0.13-0.22 below it.
 */
export const DECISION_MARGIN = 0.25;

/** Euclidean distance of two descriptors; Infinity when either is missing. */
export function descriptorDistance(a: readonly number[], b: readonly number[]): number {
  if (a.length === 0 || a.length !== b.length) return Number.POSITIVE_INFINITY;
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i]! - b[i]!) ** 2;
  return Math.sqrt(s);
}

/** A distance on the answer's 0-100 similarity scale. */
export function similarityOf(distance: number): number {
  return Number.isFinite(distance) ? Math.max(0, Math.floor((1 - distance) * 1000 + 1e-9) / 10) : 0;
}

/**
 * Confidence (50-100) in the match decision, whichever way it went: 50 at the threshold, rising
 * linearly to 100 at DECISION_MARGIN or further from it. A missing face is a certain non-match.
 */
export function decisionConfidence(distance: number, threshold = FACE_MATCH_THRESHOLD): number {
  if (!Number.isFinite(distance)) return 100;
  return Math.round((50 + 50 * Math.min(1, Math.abs(distance - threshold) / DECISION_MARGIN)) * 10) / 10;
}

export interface FaceMatch {
  face_match: boolean;
  /** The similarity on 0-100 (see above); the threshold is on the same scale. */
  face_match_confidence: number;
  threshold: number;
  /** Confidence in the decision `face_match`, 50-100. */
  decision_confidence: number;
}

export function matchFaces(a: readonly number[], b: readonly number[], threshold = FACE_MATCH_THRESHOLD): FaceMatch {
  const d = descriptorDistance(a, b);
  return {
    face_match: d <= threshold,
    face_match_confidence: similarityOf(d),
    threshold: Math.round((1 - threshold) * 1000) / 10,
    decision_confidence: decisionConfidence(d, threshold),
  };
}
