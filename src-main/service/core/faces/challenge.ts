// The active liveness challenge, decided here from a clip's frames: the person was asked to turn
// their head to one side and back (or, where they cannot, to close their eyes for a moment). A
// real head turning moves the face mesh's estimated yaw by tens of degrees; a flat photo turned,
// panned or zoomed in front of the camera stays a frontal face to the mesh model (its apparent
// yaw moves a few degrees), so the yaw range over the frames is the rule, with a limit calibrated
// on real head turns and flat photos (`npm run calibrate:challenge`, figures in docs/faces.md).
// The face must also stay the same and alone: a photo swapped for a live face half-way fails.
import type { ChallengeCheck, ChallengeRule } from '../../../../src-shared/contracts/faces';
import { faceSimilarity, SAME_FACE_MIN } from './challenge-identity';
import type { SelfieVerdict } from './policy';

export const CHALLENGE_POLICY = {
  /** Yaw range (degrees, max − min over the frames) a head turn must reach. */
  minYawRange: 14,
  /** Relative drop of eye openness that counts as a blink, the eyes open again before and after it (see blinkDrop). */
  minBlinkDrop: 0.5,
  /** Lowest similarity of any frame's face to the first frame's. */
  sameFaceMin: SAME_FACE_MIN,
  /** Share of the analysed frames that must show the face. */
  minInView: 0.6,
} as const;

export interface ChallengeVerdict {
  passed: boolean;
  /** The first rule missed, in the order of `checks`; null when passed. */
  failed: ChallengeRule | null;
  checks: ChallengeCheck[];
}

const round = (v: number, places: number) => Math.round(v * 10 ** places) / 10 ** places;

/** One frame's eyes and face shape, for the blink rule. */
export interface EyeSample {
  /** Mean eye openness of the two eyes (lid gap over eye width). */
  eyes: number;
  /** Face box height over width. */
  aspect: number;
}

const eyeSample = (v: SelfieVerdict): EyeSample => {
  const f = v.face!;
  return { eyes: (f.eyes.left + f.eyes.right) / 2, aspect: f.box.width > 0 ? f.box.height / f.box.width : 0 };
};

/**
 * The largest drop of eye openness that the eyes recover from (open before and after), 0 to 1.
 * Openness is taken relative to the face's aspect, and a frame whose face is squashed by more
 * than `squash` against the clip's median is no blink: a photo tilted away flattens its eyes and
 * its face together, a blink only the eyes.
 */
export function blinkDrop(samples: EyeSample[], squash = 0.1): number {
  const open = samples.map((s) => (s.aspect > 0 ? s.eyes / s.aspect : 0));
  const aspects = samples.map((s) => s.aspect).sort((a, b) => a - b);
  const median = aspects[Math.floor(aspects.length / 2)] ?? 0;
  let best = 0;
  for (let i = 1; i + 1 < open.length; i++) {
    if (Math.abs(samples[i]!.aspect / median - 1) > squash) continue;
    const ref = Math.min(Math.max(...open.slice(0, i)), Math.max(...open.slice(i + 1)));
    if (ref > 0) best = Math.max(best, 1 - open[i]! / ref);
  }
  return best;
}

/**
 * Holds a clip's frames (each judged by the selfie rules, the faces described) to the challenge:
 * the face in view, one face, the same face, and then a head turn or a blink.
 */
export function judgeChallenge(frames: SelfieVerdict[], policy = CHALLENGE_POLICY): ChallengeVerdict {
  const withFace = frames.filter((v) => v.face !== null);
  const inView = frames.length ? withFace.length / frames.length : 0;
  const most = Math.max(0, ...withFace.map((v) => v.checks.find((c) => c.policy === 'one_face')?.value ?? 1));
  const first = withFace[0]?.face ?? null;
  const similarity = first && withFace.length > 1 ? Math.min(...withFace.slice(1).map((v) => faceSimilarity(first, v.face!))) : 0;
  const yaws = withFace.map((v) => v.face!.pose.yaw);
  const yawRange = yaws.length ? Math.max(...yaws) - Math.min(...yaws) : 0;
  const drop = blinkDrop(withFace.map(eyeSample));
  const turned = yawRange >= policy.minYawRange;
  const blinked = drop >= policy.minBlinkDrop;
  const checks: ChallengeCheck[] = [
    { rule: 'face_in_view', passed: withFace.length >= 2 && inView >= policy.minInView, value: round(inView, 2), limit: policy.minInView },
    { rule: 'one_face', passed: most <= 1, value: most, limit: 1 },
    { rule: 'same_face', passed: withFace.length > 1 && similarity >= policy.sameFaceMin, value: round(similarity, 3), limit: policy.sameFaceMin },
    { rule: 'head_turn', passed: turned, value: round(yawRange, 1), limit: policy.minYawRange },
    { rule: 'blink', passed: blinked, value: round(drop, 2), limit: policy.minBlinkDrop },
  ];
  // Either movement is enough; without either, the head turn (what was asked) is the rule missed.
  const missed = checks.slice(0, 3).find((c) => !c.passed)?.rule ?? (turned || blinked ? null : 'head_turn');
  return { passed: missed === null, failed: missed, checks };
}
