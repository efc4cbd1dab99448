// The age step's range and decision, from the age model's error measured on faces of known age
// (`npm run eval:age`, docs/faces.md "Age error"). The model over-estimates young adults (by about
// six years at 17-20) and its own distribution is usually, not always, wide enough to cover that;
// the answered range is the wider of the model's own 10th-90th percentiles and the measured error
// around the estimate, and an age is verified by selfie only when its lower end reaches the minimum.
export const AGE_POLICY = {
  /** Years under the estimate the range starts at least: the 90th percentile of the over-estimates of calibration people under 25. */
  below: 9,
  /** Years over the estimate the range ends at least: the 90th percentile of the calibration people's under-estimates. */
  above: 5,
} as const;

export interface AgeRange { low: number; high: number }

/** The range answered for an estimate and the model's own 10th-90th percentiles. */
export function ageRangeOf(age: { estimate: number; low: number; high: number }, policy: { below: number; above: number } = AGE_POLICY): AgeRange {
  return { low: Math.max(0, Math.min(age.low, Math.round(age.estimate - policy.below))), high: Math.max(age.high, Math.round(age.estimate + policy.above)) };
}
