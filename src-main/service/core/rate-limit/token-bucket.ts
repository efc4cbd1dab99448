// Token buckets per (key, category, product). A single process (the embedded SQLite install) keeps
// them in memory: a restart refilling every bucket is harmless. Several instances on one
// PostgreSQL share them in the database (`sharedBuckets`), so a limit holds for the whole
// organisation, not per instance (issue 40).
import { createHmac } from 'node:crypto';
import type { Engine } from '../../db/engine';
import type { Clock } from '../clock';
import type { InstallSecret } from '../install-secret';
import { bucketsRepo } from './repo';

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

/** Token buckets as the routes and throttles use them, wherever they are kept. */
export interface Buckets {
  /** Whether a request would be allowed now, without spending a token (limits on failures only). */
  peek(id: string, limit: Limit): Promise<Decision>;
  take(id: string, limit: Limit): Promise<Decision>;
  /** Buckets held in this process's memory (0 when they are in the database). */
  size(): number;
}

/** This process's buckets, in memory (at most `maxBuckets`, the oldest dropped first). */
export function memoryBuckets(clock: Clock, maxBuckets = 100_000): Buckets {
  const limiter = createRateLimiter(clock, maxBuckets);
  return { peek: async (id, limit) => limiter.peek(id, limit), take: async (id, limit) => limiter.take(id, limit), size: limiter.size };
}

/**
 * Buckets every instance on the engine's PostgreSQL shares: one row each, taken under its row lock.
 * Rows are named by a keyed hash of the bucket's name (`space` keeps one user's names apart from
 * another's), so no client address or e-mail is stored. `sweep` removes the buckets, of every
 * space, idle long enough to be full again (a missing bucket is a full one): the service's hourly
 * maintenance runs it once for all of them.
 */
export function sharedBuckets(engine: Engine, clock: Clock, secret: InstallSecret, space: string): Buckets & { sweep(): Promise<number> } {
  const key = secret.derive(`rate-buckets/v1/${space}`);
  const rowOf = (id: string) => createHmac('sha256', key).update(id).digest('base64url');
  const decision = (tokens: number, allowed: boolean, limit: Limit, now: number): Decision => ({
    allowed,
    limit: limit.burst,
    remaining: Math.floor(tokens),
    reset: Math.ceil((now + ((limit.burst - tokens) / limit.rps) * 1000) / 1000),
    retryAfter: allowed ? 0 : Math.ceil((1 - tokens) / limit.rps),
  });
  return {
    async peek(id, limit) {
      const now = clock.now();
      const b = await bucketsRepo.byId(engine.q, rowOf(id));
      if (!b || b.rps !== limit.rps || b.burst !== limit.burst) return { allowed: true, limit: limit.burst, remaining: limit.burst, reset: Math.ceil(now / 1000), retryAfter: 0 };
      const tokens = Math.min(limit.burst, b.tokens + (Math.max(0, now - b.at_ms) / 1000) * limit.rps);
      return decision(tokens, tokens >= 1, limit, now);
    },
    async take(id, limit) {
      const now = clock.now();
      const r = await bucketsRepo.take(engine.q, rowOf(id), now, limit.rps, limit.burst);
      return decision(r.tokens, r.allowed, limit, now);
    },
    size: () => 0,
    sweep: () => bucketsRepo.removeFull(engine.q, clock.now()),
  };
}
