// Wrong API keys are throttled per client address (issue 39, item 4): a client that keeps sending
// keys that are not keys (a scanner, a flood, a misconfigured integration in a loop) spends a
// slowly refilling bucket for its address and one for its address block (an IPv4 /24, an IPv6
// /64: one network's many addresses). While either is empty, a wrong key from there is answered
// 429 with Retry-After instead of 401. A valid key still works from a throttled address: keys are
// 32 random characters (guessing one is hopeless, so refusing it would protect nothing), and one
// misbehaving client must not lock out its neighbours behind the same address (an office's NAT,
// the desktop app's own loopback). A valid key never spends a token; nothing ever locks. A
// request without a socket (`in-process`: the test harness calling the app) has no address to
// hold it to and is not counted; tests of this throttle give one.
import { isIPv4, isIPv6 } from 'node:net';
import type { Clock } from '../clock';
import { memoryBuckets, type Buckets, type Decision, type Limit } from './token-bucket';

export const KEY_FAILURE_LIMITS = {
  /** One address: twenty wrong keys, then one every 6 s (ten a minute). */
  address: { burst: 20, rps: 1 / 6 },
  /** One address block: a hundred, then one a second. */
  block: { burst: 100, rps: 1 },
} as const satisfies Record<string, Limit>;

/** Buckets kept at most (oldest dropped first): cycling addresses cannot grow memory. */
export const MAX_KEY_BUCKETS = 20_000;

/** What http/auth.ts clientAddress says of a request with no socket. */
const IN_PROCESS = 'in-process';

/** The block an address belongs to: an IPv4 /24, an IPv6 /64; anything else (in process) is its own. */
export function addressBlock(address: string): string {
  const v4 = address.startsWith('::ffff:') && isIPv4(address.slice(7)) ? address.slice(7) : address;
  if (isIPv4(v4)) return `${v4.split('.').slice(0, 3).join('.')}.0/24`;
  if (isIPv6(address)) {
    // Expanded to eight groups, the first four kept.
    const [head, tail = ''] = address.split('::');
    const h = head ? head.split(':') : [];
    const t = tail ? tail.split(':') : [];
    const groups = address.includes('::') ? [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t] : h;
    return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
  }
  return address;
}

/** `limiter`: the buckets shared by every instance (PostgreSQL); this process's own by default. */
export function createKeyThrottle(clock: Clock, limiter: Buckets = memoryBuckets(clock, MAX_KEY_BUCKETS)) {
  const buckets = (address: string): [string, Limit][] => [
    [`addr:${address}`, KEY_FAILURE_LIMITS.address],
    [`block:${addressBlock(address)}`, KEY_FAILURE_LIMITS.block],
  ];
  return {
    /** Whether a key from `address` may be looked up now; when not, the longest wait of the empty buckets. */
    async check(address: string): Promise<Decision> {
      if (address === IN_PROCESS) return { allowed: true, limit: 0, remaining: 0, reset: 0, retryAfter: 0 };
      const refused = (await Promise.all(buckets(address).map(([id, limit]) => limiter.peek(id, limit)))).filter((d) => !d.allowed);
      if (refused.length === 0) return { allowed: true, limit: 0, remaining: 0, reset: 0, retryAfter: 0 };
      return refused.reduce((a, b) => (b.retryAfter > a.retryAfter ? b : a));
    },
    /** A key (or secret) from `address` was not one, or was revoked. */
    async failed(address: string): Promise<void> {
      if (address === IN_PROCESS) return;
      for (const [id, limit] of buckets(address)) await limiter.take(id, limit);
    },
    tracked: (): number => limiter.size(),
  };
}
export type KeyThrottle = ReturnType<typeof createKeyThrottle>;
