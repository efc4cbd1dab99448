// Password guessing is throttled, and an attacker cannot lock the real user out.
//
// Failed logins spend tokens from slowly refilling buckets: per account and client address, per
// client address, and per account. While a bucket is empty the attempt is refused with 429 and
// Retry-After *before* the password is checked, so a throttled attempt says nothing about it.
// Nothing ever locks: a bucket refills by itself.
//
// The desktop console and the attacker usually share an address (loopback), so address buckets
// alone would let anyone on the machine hold the owner out. A browser that has logged in to an
// account before carries a device cookie for it (an HMAC of the e-mail under the install secret,
// OWASP's "device cookie"): its attempts spend only that device's own bucket, which the attacker
// cannot reach without the cookie.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../clock';
import type { InstallSecret } from '../install-secret';
import { memoryBuckets, type Buckets, type Decision, type Limit } from '../rate-limit/token-bucket';

export const LOGIN_LIMITS = {
  /** One account from one address: five tries, then one every 30 s. */
  accountAddress: { burst: 5, rps: 1 / 30 },
  /** One address, any accounts: a flood from one client. */
  address: { burst: 20, rps: 1 / 10 },
  /** One account, any addresses: a guess spread over many clients. */
  account: { burst: 20, rps: 1 / 10 },
  /** A device that signed in to this account before: its own allowance. */
  device: { burst: 10, rps: 1 / 30 },
} as const satisfies Record<string, Limit>;

/** Buckets kept at most (oldest dropped first): cycling e-mails cannot grow memory. */
export const MAX_BUCKETS = 20_000;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** `limiter`: the buckets shared by every instance (PostgreSQL); this process's own by default. */
export function createLoginThrottle(clock: Clock, secret: InstallSecret, limiter: Buckets = memoryBuckets(clock, MAX_BUCKETS)) {
  const deviceToken = (email: string) =>
    createHmac('sha256', secret.derive('login-device/v1')).update(normalizeEmail(email)).digest('base64url');

  function buckets(email: string, address: string, device: string | undefined): [string, Limit][] {
    const e = normalizeEmail(email);
    if (device !== undefined) {
      const want = Buffer.from(deviceToken(e));
      const given = Buffer.from(device);
      if (given.length === want.length && timingSafeEqual(given, want)) return [[`device:${e}`, LOGIN_LIMITS.device]];
    }
    return [
      [`acct-addr:${e}|${address}`, LOGIN_LIMITS.accountAddress],
      [`addr:${address}`, LOGIN_LIMITS.address],
      [`acct:${e}`, LOGIN_LIMITS.account],
    ];
  }

  return {
    /** Whether an attempt may be checked now; when not, the longest wait of the empty buckets. */
    async check(email: string, address: string, device: string | undefined): Promise<Decision> {
      const refused = (await Promise.all(buckets(email, address, device).map(([id, limit]) => limiter.peek(id, limit)))).filter((d) => !d.allowed);
      if (refused.length === 0) return { allowed: true, limit: 0, remaining: 0, reset: 0, retryAfter: 0 };
      return refused.reduce((a, b) => (b.retryAfter > a.retryAfter ? b : a));
    },
    async failed(email: string, address: string, device: string | undefined): Promise<void> {
      for (const [id, limit] of buckets(email, address, device)) await limiter.take(id, limit);
    },
    /** The device cookie's value for an account just signed in to. */
    deviceToken,
    /** Buckets held now: never more than MAX_BUCKETS. */
    tracked: (): number => limiter.size(),
  };
}
export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
