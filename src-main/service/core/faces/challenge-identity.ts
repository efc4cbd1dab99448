// "The same face throughout" a challenge clip: how alike the face of one frame is to the face of
// the first. One small function on purpose: today it compares the faceres embeddings that
// FaceReading carries (`describe: true`); when the 128-d face descriptor of issue 22 lands, this
// is the one place to switch, together with its calibrated floor.
import { cosine } from './match';
import type { FaceReading } from './types';

/**
 * The similarity below which two frames of one clip show different faces. Calibrated by
 * `npm run calibrate:challenge` (docs/faces.md, "Video"): the same person turned up to 45° from
 * the first frame against different people at the same poses, on the faceres embedding.
 */
export const SAME_FACE_MIN = 0.58;

/** Cosine similarity of the two faces' embeddings (0 when either has none). */
export function faceSimilarity(a: FaceReading, b: FaceReading): number {
  return cosine(a.embedding, b.embedding);
}
