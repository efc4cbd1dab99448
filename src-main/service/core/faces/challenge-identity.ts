// "The same face throughout" a challenge clip: how alike the face of one frame is to the face of
// the first, on the face-match descriptor (dlib's 128 values, descriptor.ts), as 1 − the
// descriptor distance: the scale face match answers on (match.ts), so a value is comparable.
import { descriptorDistance } from './match';
import type { FaceReading } from './types';

/**
 * The similarity below which two frames of one clip show different faces. Calibrated by
 * `npm run calibrate:challenge` (docs/faces.md, "Video"): the same person turned up to 45° from
 * the first frame against different people at the same poses.
 */
export const SAME_FACE_MIN = 0.4;

/** 1 − the descriptor distance of the two faces, 0 to 1 (0 when either has no descriptor). */
export function faceSimilarity(a: FaceReading, b: FaceReading): number {
  const d = descriptorDistance(a.descriptor, b.descriptor);
  return Number.isFinite(d) ? Math.max(0, 1 - d) : 0;
}
