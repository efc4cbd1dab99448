// The age step's range and decision as pure functions: the answered range is never narrower than
// the age model's error measured on faces of known age (core/faces/age.ts, docs/faces.md "Age
// error"), so a confident model that reads a young adult as older does not clear an age gate.
import { describe, expect, it } from 'vitest';
import { AGE_POLICY } from '../core/faces/age';
import { judgeSelfie } from '../core/faces/policy';
import { ageDecision } from '../core/faces/selfie';
import type { FaceAnalysis, FaceReading } from '../core/faces/types';

const face = (age: FaceReading['age']): FaceReading => ({
  box: { x: 200, y: 150, width: 240, height: 240 }, score: 0.95, age, gender: null, antispoof: 0.8, liveness: 0.9,
  pose: { yaw: 2, pitch: 1, roll: 0 }, eyes: { left: 0.3, right: 0.3 }, embedding: [], descriptor: [],
});
const verdict = (age: FaceReading['age']) => {
  const a: FaceAnalysis = { width: 640, height: 480, faces: [face(age)], presentation: null, inferenceMs: 50 };
  return judgeSelfie(a);
};

describe('the age range answered by the age step', () => {
  it('is widened to the measured error when the model is surer than its measured error allows, and decides on it', () => {
    // The model says 30, sure it is 27-33; its measured over-estimate (90th percentile) is 9 years.
    const d = ageDecision(verdict({ estimate: 30, low: 27, high: 33 }), 25);
    expect(d.age_range).toEqual({ Low: 30 - AGE_POLICY.below, High: 30 + AGE_POLICY.above });
    expect(d).toMatchObject({ verified: false, requires_id: true, reason: 'estimated_age_below_threshold' });
    // At a minimum the measured range clears, the same face is verified.
    expect(ageDecision(verdict({ estimate: 30, low: 27, high: 33 }), 30 - AGE_POLICY.below)).toMatchObject({ verified: true, method: 'selfie' });
  });

  it('keeps the model\'s own range where it is wider than the measured error', () => {
    const d = ageDecision(verdict({ estimate: 30, low: 16, high: 44 }), 18);
    expect(d.age_range).toEqual({ Low: 16, High: 44 });
    expect(d.verified).toBe(false);
  });
});
