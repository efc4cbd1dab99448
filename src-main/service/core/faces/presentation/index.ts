// Presentation-attack signals: what the image around and inside the subject's face shows about
// how the face was put in front of the camera (on a document, a print, a screen). Measured in the
// face worker right after detection, on the analysed image (≤ 640 px) and the largest face's box;
// pure JavaScript on typed arrays, a few milliseconds per image. The image is read, never kept:
// only these numbers leave the worker. core/faces/policy.ts holds them to their limits.
import type { FaceBox } from '../types';
import { frameAround } from './frame';
import { luma, pictureRegion } from './plane';
import { colourFringes, periodicPeak } from './spectrum';
import { textLines } from './text-lines';
import { candidateTilts } from './tilt';

export interface PresentationSignals {
  /** Face width over the picture's width (0-1). */
  faceShare: number;
  /** Text-like lines around the face, and their total length in face widths. */
  textLines: number;
  textLength: number;
  /** Strongest periodic peak in the face region, log10 over its neighbours (screen grid, moiré, halftone). */
  periodic: number;
  /** Fine colour detail over fine brightness detail in the face region (screen sub-pixels). */
  colourFringes: number;
  /** Sides of the face with a long straight edge around it (0-4), and the weakest one's coverage. */
  frameSides: number;
  frameCoverage: number;
  /** Sides of the face with a straight edge close around the head (a document's portrait), 0-4. */
  portraitSides: number;
  /** Time these measures took, ms. */
  ms: number;
}

/**
 * The signals for one face. `roll` is the face's tilt in the image (degrees, clockwise positive,
 * as the face mesh reads it): print and edges are searched level and at the turns the face and
 * the image's straight edges suggest (tilt.ts).
 */
export function measurePresentation(
  image: { rgb: Uint8Array; width: number; height: number }, face: FaceBox, roll = 0, outline?: FaceBox,
): PresentationSignals {
  const started = performance.now();
  const { rgb, width, height } = image;
  const region = pictureRegion(rgb, width, height);
  const g = luma(rgb, width, height);
  const tilts = candidateTilts(g, face, region, roll);
  const text = textLines(g, face, region, tilts, outline);
  const frame = frameAround(g, face, region, tilts, outline);
  const r3 = (v: number) => Math.round(v * 1000) / 1000;
  return {
    faceShare: r3(face.width / Math.max(1, region.x1 - region.x0)),
    textLines: text.lines,
    textLength: r3(text.length),
    periodic: r3(periodicPeak(g, face, region)),
    colourFringes: r3(colourFringes(rgb, width, face, region)),
    frameSides: frame.sides,
    frameCoverage: r3(frame.coverage),
    portraitSides: frame.portrait.sides,
    ms: Math.round((performance.now() - started) * 10) / 10,
  };
}
