// A live store's paid selfie checks per UTC day, against the merchant's daily cap (issue 25: one
// client drained 250 credits from one store in an hour). The count is a ledger fact: each
// storefront selfie row is linked to its store in the transaction that charges it, and today's
// count is the linked rows the ledger charged (credits > 0) since 00:00 UTC, so a restart
// forgets nothing. Checks still running are held in memory, so that concurrent selfies on one
// instance cannot all pass the cap before any of them is charged; and the charging transaction
// counts once more under the store's row lock (PostgreSQL), so that selfies charged through
// several instances at once never pass it: the one that would is refused and not charged.
// Ids and times only, nothing about the visitor.
import { DAY_MS } from '../../../../src-shared/dates';
import type { Engine, Q } from '../../db/engine';
import type { Clock } from '../clock';
import { nowIso } from '../ids';
import { selfieChecksRepo } from './repo';

export interface CapRoom {
  allowed: boolean;
  /** Seconds until the store's day ends (00:00 UTC), when refused. */
  retryAfter: number;
}

export function createSelfieChecks(engine: Engine, clock: Clock) {
  const repo = selfieChecksRepo(engine.dialect);
  const running = new Map<string, number>();
  const dayOf = (now: number) => {
    const from = Math.floor(now / DAY_MS) * DAY_MS;
    return { from, to: from + DAY_MS };
  };
  const today = (storeId: string, now: number, q: Q = engine.q) => {
    const { from, to } = dayOf(now);
    return repo.charged(q, storeId, nowIso(from), nowIso(to));
  };
  const refused = (now: number): CapRoom => ({ allowed: false, retryAfter: Math.max(1, Math.ceil((dayOf(now).to - now) / 1000)) });
  const room = async (storeId: string, cap: number, now: number): Promise<CapRoom> => {
    if ((await today(storeId, now)) + (running.get(storeId) ?? 0) < cap) return { allowed: true, retryAfter: 0 };
    return refused(now);
  };

  return {
    /** The store's selfie checks charged today (UTC day). */
    today: (storeId: string): Promise<number> => today(storeId, clock.now()),
    /** Whether the store may start another paid selfie check today (charged ones and those running, against the cap). */
    room: (storeId: string, cap: number): Promise<CapRoom> => room(storeId, cap, clock.now()),
    /**
     * Holds one of today's checks for the store while it runs, if the cap leaves room; `release`
     * when it has been charged (or failed). The hold is taken before the count is read, so two
     * checks starting together on this instance each see the other.
     */
    async hold(storeId: string, cap: number): Promise<CapRoom & { release: () => void }> {
      const now = clock.now();
      running.set(storeId, (running.get(storeId) ?? 0) + 1);
      const drop = () => {
        const n = (running.get(storeId) ?? 1) - 1;
        if (n > 0) running.set(storeId, n);
        else running.delete(storeId);
      };
      let r: CapRoom;
      try {
        r = (await today(storeId, now)) + (running.get(storeId) ?? 0) <= cap ? { allowed: true, retryAfter: 0 } : refused(now);
      } catch (e) {
        drop();
        throw e;
      }
      if (!r.allowed) {
        drop();
        return { ...r, release: () => {} };
      }
      let held = true;
      return {
        ...r,
        release: () => {
          if (!held) return;
          held = false;
          drop();
        },
      };
    },
    /**
     * Links a ledger row to the store whose widget made it, in the transaction `tx` that writes
     * (and charges) the row; answers refused, and the caller rolls the charge back, if with it the
     * store's charged checks today would pass `cap` (checks charged through other instances).
     * No cap (a test store): only linked.
     */
    async link(storeId: string, verificationId: string, createdAt: number, tx: Q, cap?: number): Promise<CapRoom> {
      if (cap !== undefined) await repo.lockStore(tx, storeId);
      await repo.link(tx, verificationId, storeId, nowIso(createdAt));
      if (cap === undefined || (await today(storeId, createdAt, tx)) <= cap) return { allowed: true, retryAfter: 0 };
      return refused(clock.now());
    },
  };
}
export type SelfieChecks = ReturnType<typeof createSelfieChecks>;
