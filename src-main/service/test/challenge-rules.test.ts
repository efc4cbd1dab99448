// The challenge's rules on the readings the face models give, frame by frame: the blink rule
// (real eyes closing and opening again, as measured on real clips in docs/faces.md, against a
// photo tilted away from the camera), and the order in which rules are reported.
import { describe, expect, it } from 'vitest';
import { CHALLENGE_POLICY, judgeChallenge } from '../core/faces/challenge';
import { judgeSelfie } from '../core/faces/policy';
import type { FaceReading } from '../core/faces/types';

/** One frame with one face: its yaw, its eye openness, its box height over width, its face-match descriptor. */
function frame(o: { yaw?: number; eyes?: number; aspect?: number; descriptor?: number[] } = {}) {
  const width = 200;
  const face: FaceReading = {
    box: { x: 200, y: 200, width, height: Math.round(width * (o.aspect ?? 1)) }, score: 0.95, age: null, gender: null, antispoof: 0.8, liveness: 0.9,
    pose: { yaw: o.yaw ?? 0, pitch: 0, roll: 0 }, eyes: { left: o.eyes ?? 0.4, right: o.eyes ?? 0.4 }, embedding: [], descriptor: o.descriptor ?? [0.1, 0.2, 0.1],
  };
  return judgeSelfie({ width: 640, height: 640, faces: [face], inferenceMs: 1 });
}

describe('the head-turn challenge rules', () => {
  it('a blink (eyes from 0.40 to 0.16 and open again, the head still) passes without a turn', () => {
    const v = judgeChallenge([0.4, 0.41, 0.39, 0.16, 0.18, 0.38, 0.4, 0.4].map((eyes) => frame({ eyes })));
    expect(v).toMatchObject({ passed: true, failed: null });
    expect(v.checks.find((c) => c.rule === 'blink')).toMatchObject({ passed: true, limit: CHALLENGE_POLICY.minBlinkDrop });
    expect(v.checks.find((c) => c.rule === 'head_turn')).toMatchObject({ passed: false });
  });

  it('eyes that close and never open again, or only half close, are no blink', () => {
    expect(judgeChallenge([0.4, 0.4, 0.4, 0.16, 0.15, 0.15].map((eyes) => frame({ eyes }))).failed).toBe('head_turn');
    expect(judgeChallenge([0.4, 0.4, 0.3, 0.28, 0.4, 0.4].map((eyes) => frame({ eyes }))).failed).toBe('head_turn');
  });

  it('a photo tilted away (eyes and face flattened together) is no blink', () => {
    const tilt = [1, 0.9, 0.7, 0.5, 0.7, 0.9, 1].map((k) => frame({ eyes: 0.4 * k, aspect: k }));
    expect(judgeChallenge(tilt)).toMatchObject({ passed: false, failed: 'head_turn' });
  });

  it('a head turn passes at the limit and not below it', () => {
    const turn = (deg: number) => [0, 0, deg / 2, deg, deg / 2, 0].map((yaw) => frame({ yaw }));
    expect(judgeChallenge(turn(CHALLENGE_POLICY.minYawRange)).passed).toBe(true);
    expect(judgeChallenge(turn(CHALLENGE_POLICY.minYawRange - 0.5)).failed).toBe('head_turn');
  });

  it('a face missing from most frames, or another face half-way, fails before any movement counts', () => {
    const none = judgeSelfie({ width: 640, height: 640, faces: [], inferenceMs: 1 });
    const turned = [0, 10, 20, 10, 0].map((yaw) => frame({ yaw }));
    expect(judgeChallenge([...turned.slice(0, 2), none, none, none, none]).failed).toBe('face_in_view');
    const other = [0, 10, 20].map((yaw) => frame({ yaw, descriptor: [0.5, 0.6, 0.5] }));
    expect(judgeChallenge([...turned.slice(0, 3), ...other]).failed).toBe('same_face');
  });
});
