// Token buckets per (key, category, product). In memory: limits protect this process, and a
// restart refilling every bucket is harmless.
import type { Clock } from '../clock';

export interface Limit {
  rps: number;
  burst: number;
}

export interface Decision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds when the bucket is full again. */
  reset: number;
  /** Whole seconds until one token is available (0 when allowed). */
  retryAfter: number;
}

interface Bucket {
  tokens: number;
  at: number;
  limit: Limit;
}

export function createRateLimiter(clock: Clock, maxBuckets = 100_000) {
  const buckets = new Map<string, Bucket>();

  function refill(b: Bucket, now: number): void {
    const elapsed = Math.max(0, now - b.at) / 1000;
    b.tokens = Math.min(b.limit.burst, b.tokens + elapsed * b.limit.rps);
    b.at = now;
  }

  return {
    /** Whether a request would be allowed now, without spending a token (limits on failures only). */
    peek(id: string, limit: Limit): Decision {
      const b = buckets.get(id);
      if (!b || b.limit.rps !== limit.rps || b.limit.burst !== limit.burst) {
        return { allowed: true, limit: limit.burst, remaining: limit.burst, reset: Math.ceil(clock.now() / 1000), retryAfter: 0 };
      }
      refill(b, clock.now());
      const allowed = b.tokens >= 1;
      return {
        allowed,
        limit: limit.burst,
        remaining: Math.floor(b.tokens),
        reset: Math.ceil((clock.now() + ((limit.burst - b.tokens) / limit.rps) * 1000) / 1000),
        retryAfter: allowed ? 0 : Math.ceil((1 - b.tokens) / limit.rps),
      };
    },

    take(id: string, limit: Limit): Decision {
      const now = clock.now();
      let b = buckets.get(id);
      if (!b || b.limit.rps !== limit.rps || b.limit.burst !== limit.burst) {
        // A plan change takes effect at once, starting from a full bucket of the new size.
        if (buckets.size >= maxBuckets) buckets.delete(buckets.keys().next().value as string);
        b = { tokens: limit.burst, at: now, limit };
        buckets.set(id, b);
      } else {
        refill(b, now);
      }
      const allowed = b.tokens >= 1;
      if (allowed) b.tokens -= 1;
      const missing = limit.burst - b.tokens;
      return {
        allowed,
        limit: limit.burst,
        remaining: Math.floor(b.tokens),
        reset: Math.ceil((now + (missing / limit.rps) * 1000) / 1000),
        retryAfter: allowed ? 0 : Math.ceil((1 - b.tokens) / limit.rps),
      };
    },
    clear(): void {
      buckets.clear();
    },
    /** Buckets held now (at most maxBuckets). */
    size: (): number => buckets.size,
  };
}
export type RateLimiter = ReturnType<typeof createRateLimiter>;
