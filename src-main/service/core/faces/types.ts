// What the face models say about one face, in the analysed image's pixels. Biometric data (the
// embedding) stays inside the service: it is compared and dropped, never answered or stored.
import type { PresentationSignals } from './presentation';

export interface FaceBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface FaceReading {
  box: FaceBox;
  /** Detector confidence for the face, 0-1. */
  score: number;
  /** Only when the job asked for a description (faceres): null for liveness. */
  age: {
    /** Expected value of the model's age distribution, years. */
    estimate: number;
    /** The central 80% of the distribution (10th and 90th percentiles), years. */
    low: number;
    high: number;
  } | null;
  gender: { value: 'female' | 'male' | 'unknown'; score: number } | null;
  /** Shipped anti-spoofing model: 1 = looks like a real face, not a print or a screen. Advisory. */
  antispoof: number;
  /** Shipped liveness model, 0-1. Advisory. */
  liveness: number;
  /** Head pose in degrees (yaw: left/right, pitch: up/down, roll: tilt). */
  pose: { yaw: number; pitch: number; roll: number };
  /** Eye openness from the face mesh (eye height / eye width), for blink challenges. */
  eyes: { left: number; right: number };
  /** The faceres descriptor (1024 values; empty without a description). Not used for face match. */
  embedding: number[];
  /**
   * The face-match descriptor (dlib's 128 values, descriptor.ts): only for the largest face with a
   * detection score of at least 0.5, and only when the job asked for `match`; empty otherwise.
   * Compared in memory only, never answered or stored.
   */
  descriptor: number[];
}

export interface FaceAnalysis {
  width: number;
  height: number;
  faces: FaceReading[];
  /** Presentation-attack signals of the image around the largest face (null without a face). */
  presentation?: PresentationSignals | null;
  /** Time the models took, ms. */
  inferenceMs: number;
}

/** What the pool is asked: one decoded image. */
export interface FaceJob {
  rgb: Uint8Array;
  width: number;
  height: number;
  /**
   * Run the description model (faceres: age, gender, embedding), two thirds of the models' time.
   * Liveness does not need it; age and face match do. Default true.
   */
  describe?: boolean;
  /** Compute the face-match descriptor of the largest face (identity selfie, document portrait). Default false. */
  match?: boolean;
  /**
   * A portrait printed on a document, not a selfie: no presentation-attack signals and no antispoof
   * or liveness model (a printed portrait is a print by design; nothing judges it as a live face).
   * Default false.
   */
  portrait?: boolean;
}
