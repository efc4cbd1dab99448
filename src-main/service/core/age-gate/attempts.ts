// Age-gate attempts per visitor (spec: 5 per hour per visitor, then Too Many Attempts). A visitor
// is known only by a keyed hash of the store and the client address (`visitorOf`): never by what
// the client says about itself, such as its user agent, which it can change at will (issue 25:
// one client rotating its agent had 25 paid selfie checks in an hour). The key is
// random, held in memory and replaced every hour; the hash of the previous hour is still
// computed so a rotation gives nobody a fresh allowance, and after two rotations nothing links a
// visitor to anything. No address, agent or date of birth is kept, here or anywhere.
import { createHmac, randomBytes } from 'node:crypto';
import { isIPv6 } from 'node:net';
import type { Clock } from '../clock';

export const HOUR_MS = 3_600_000;

/**
 * Who an address stands for: an IPv4 address itself (also when the socket gives it mapped into
 * IPv6), an IPv6 address's /64, which one host or home is usually given whole (counting single
 * IPv6 addresses would hand it 2^64 allowances).
 */
export function visitorOf(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1]!;
  const bare = address.split('%')[0]!;
  if (!isIPv6(bare)) return address;
  const groups = (part: string) => (part === '' ? [] : part.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g])));
  const [head = '', tail] = bare.split('::');
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const all = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return `${all.slice(0, 4).map((g) => parseInt(g, 16).toString(16)).join(':')}::/64`;
}
/** Visitors tracked at most (the oldest are dropped first): a flood of fresh agents cannot grow memory. */
const MAX_VISITORS = 50_000;

interface Generation {
  key: Buffer;
  from: number;
  visits: Map<string, number[]>;
}

export function createAgeGateAttempts(clock: Clock, perHour: number) {
  const fresh = (from: number): Generation => ({ key: randomBytes(32), from, visits: new Map() });
  let current = fresh(clock.now());
  let previous: Generation | null = null;

  const rotate = (now: number) => {
    if (now - current.from < HOUR_MS) return;
    previous = now - current.from < 2 * HOUR_MS ? current : null;
    current = fresh(now);
  };
  const hashOf = (g: Generation, visitor: readonly string[]) => createHmac('sha256', g.key).update(visitor.join('\u0000')).digest('base64url');
  const recent = (g: Generation | null, visitor: readonly string[], now: number) =>
    g ? (g.visits.get(hashOf(g, visitor)) ?? []).filter((t) => now - t < HOUR_MS) : [];

  return {
    /**
     * Counts one attempt by this visitor if the hour allows it (`count` false: only checks). Answers whether it was allowed,
     * the attempts left after it, and (when refused) the seconds until the oldest one ages out.
     */
    take(visitor: readonly string[], count = true): { allowed: boolean; remaining: number; retryAfter: number } {
      const now = clock.now();
      rotate(now);
      const times = [...recent(previous, visitor, now), ...recent(current, visitor, now)].sort((a, b) => a - b);
      if (times.length >= perHour) {
        return { allowed: false, remaining: 0, retryAfter: Math.max(1, Math.ceil((times[0]! + HOUR_MS - now) / 1000)) };
      }
      if (!count) return { allowed: true, remaining: perHour - times.length, retryAfter: 0 };
      const id = hashOf(current, visitor);
      const mine = recent(current, visitor, now);
      current.visits.delete(id);
      current.visits.set(id, [...mine, now]);
      if (current.visits.size > MAX_VISITORS) current.visits.delete(current.visits.keys().next().value!);
      return { allowed: true, remaining: perHour - times.length - 1, retryAfter: 0 };
    },
    /** Visitors held in memory (tests: the memory is bounded and forgets). */
    size: () => current.visits.size + (previous?.visits.size ?? 0),
  };
}
export type AgeGateAttempts = ReturnType<typeof createAgeGateAttempts>;
