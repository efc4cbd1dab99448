// Retry schedule for durable jobs: exponential from 10 s, doubling, capped at 4 h, with ±10 %
// jitter so that many failures at once do not retry in lockstep.
export const BASE_DELAY_MS = 10_000;
export const MAX_DELAY_MS = 4 * 3600_000;

export function retryDelay(attempt: number, random: () => number = Math.random): number {
  const raw = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** Math.max(0, attempt - 1));
  return Math.round(raw * (0.9 + 0.2 * random()));
}
