// Face match: cosine similarity of two faceres embeddings against a calibrated threshold.
// The calibration (scripts/calibrate-faces.ts, figures in docs/faces.md) measured this model as
// weak: same-person and different-person similarities lie close together, so the threshold sits
// above every different-person pair measured, and a real same person below it is sent to review
// rather than passed.

/** Calibrated on the pairs in docs/faces.md; face_match is true at or above it. */
export const FACE_MATCH_THRESHOLD = 0.68;

export function cosine(a: readonly number[], b: readonly number[]): number {
  if (a.length === 0 || a.length !== b.length) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

export interface FaceMatch {
  face_match: boolean;
  /** The similarity on 0-100 (cosine × 100, never below 0); the threshold is on the same scale. */
  face_match_confidence: number;
  threshold: number;
}

export function matchFaces(a: readonly number[], b: readonly number[], threshold = FACE_MATCH_THRESHOLD): FaceMatch {
  const sim = cosine(a, b);
  return {
    face_match: sim >= threshold,
    face_match_confidence: Math.round(Math.max(0, sim) * 1000) / 10,
    threshold: Math.round(threshold * 1000) / 10,
  };
}
