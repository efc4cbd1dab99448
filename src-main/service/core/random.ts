// One small seeded generator (mulberry32) for everything that must replay: the demo history, the
// generated documents, recaptures and fuzz runs. Not for secrets or ids (ids.ts uses crypto).

/** A function returning numbers in [0, 1), the same sequence for the same seed. */
export type Rng = () => number;

export function seededRandom(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
