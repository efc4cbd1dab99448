// A live store's paid selfie checks per UTC day, against the merchant's daily cap (issue 25: one
// client drained 250 credits from one store in an hour). The count is a ledger fact: each
// storefront selfie row is linked to its store in the transaction that charges it, and today's
// count is the linked rows the ledger charged (credits > 0) since 00:00 UTC, so a restart
// forgets nothing. Checks still running are held in memory, so that concurrent selfies cannot
// all pass the cap before any of them is charged. Ids and times only, nothing about the visitor.
import { DAY_MS } from '../../../../src-shared/dates';
import type { Db } from '../../db/open';
import type { Clock } from '../clock';
import { nowIso } from '../ids';
import { selfieChecksRepo } from './repo';

export interface CapRoom {
  allowed: boolean;
  /** Seconds until the store's day ends (00:00 UTC), when refused. */
  retryAfter: number;
}

export function createSelfieChecks(db: Db, clock: Clock) {
  const q = selfieChecksRepo(db);
  const running = new Map<string, number>();
  const dayOf = (now: number) => {
    const from = Math.floor(now / DAY_MS) * DAY_MS;
    return { from, to: from + DAY_MS };
  };
  const today = (storeId: string, now: number) => {
    const { from, to } = dayOf(now);
    return q.charged.get(storeId, nowIso(from), nowIso(to))!.n;
  };
  const room = (storeId: string, cap: number, now: number): CapRoom => {
    if (today(storeId, now) + (running.get(storeId) ?? 0) < cap) return { allowed: true, retryAfter: 0 };
    return { allowed: false, retryAfter: Math.max(1, Math.ceil((dayOf(now).to - now) / 1000)) };
  };

  return {
    /** The store's selfie checks charged today (UTC day). */
    today: (storeId: string): number => today(storeId, clock.now()),
    /** Whether the store may start another paid selfie check today (charged ones and those running, against the cap). */
    room: (storeId: string, cap: number): CapRoom => room(storeId, cap, clock.now()),
    /**
     * Holds one of today's checks for the store while it runs, if the cap leaves room; `release`
     * when it has been charged (or failed). Checking and holding are one step.
     */
    hold(storeId: string, cap: number): CapRoom & { release: () => void } {
      const r = room(storeId, cap, clock.now());
      if (!r.allowed) return { ...r, release: () => {} };
      running.set(storeId, (running.get(storeId) ?? 0) + 1);
      let held = true;
      return {
        ...r,
        release: () => {
          if (!held) return;
          held = false;
          const n = (running.get(storeId) ?? 1) - 1;
          if (n > 0) running.set(storeId, n);
          else running.delete(storeId);
        },
      };
    },
    /** Links a ledger row to the store whose widget made it: call inside the transaction that writes (and charges) the row. */
    link(storeId: string, verificationId: string, createdAt: number): void {
      q.link.run(verificationId, storeId, nowIso(createdAt));
    },
  };
}
export type SelfieChecks = ReturnType<typeof createSelfieChecks>;
