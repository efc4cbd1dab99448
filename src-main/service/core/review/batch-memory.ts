// What the service holds in memory, never in SQLite, logs or files, about an analyst's batch under
// review: the notes an owner or admin writes when sending a clearance back, and what the analyst
// saw of a row they cleared (the customer, the listed people, their note) for the approver. Both
// are subject data, and both are of use only while the analyst's console still holds that batch's
// results: a value lives until the analyst opens another batch (their console then drops the old
// results), for at most `ttlMs` after it was kept (a session idles out after 12 hours), until the
// service stops, and, where the owner of the memory says so, until the analyst signs out.
import type { Clock } from '../clock';

interface Held<T> {
  orgId: number;
  analystId: number;
  batchId: string;
  value: T;
  at: number;
}

export function createBatchMemory<T>(clock: Clock, ttlMs: number) {
  /** By clearance id. */
  const held = new Map<string, Held<T>>();
  /** Each analyst's latest batch since the service started (`${orgId}:${userId}`). */
  const latest = new Map<string, string>();
  const who = (orgId: number, analystId: number) => `${orgId}:${analystId}`;

  function sweep(): void {
    const now = clock.now();
    for (const [id, n] of held) if (now - n.at >= ttlMs) held.delete(id);
  }

  function analystLeft(orgId: number, analystId: number): void {
    for (const [id, n] of held) if (n.orgId === orgId && n.analystId === analystId) held.delete(id);
  }

  return {
    /** Holds a value for the analyst's batch; false (not held) when they have opened another batch since. */
    keep(orgId: number, analystId: number, batchId: string, clearanceId: string, value: T): boolean {
      sweep();
      const current = latest.get(who(orgId, analystId));
      if (current !== undefined && current !== batchId) return false;
      held.set(clearanceId, { orgId, analystId, batchId, value, at: clock.now() });
      return true;
    },

    /** The value held for one clearance, or null once it is gone. */
    get(clearanceId: string): T | null {
      sweep();
      return held.get(clearanceId)?.value ?? null;
    },

    /** Lets one clearance's value go (it has been decided: nobody needs it any more). */
    drop(clearanceId: string): void {
      held.delete(clearanceId);
    },

    /** The analyst's values for their batch, by clearance id. */
    of(orgId: number, analystId: number, batchId: string): Map<string, T> {
      sweep();
      const out = new Map<string, T>();
      for (const [id, n] of held) if (n.orgId === orgId && n.analystId === analystId && n.batchId === batchId) out.set(id, n.value);
      return out;
    },

    /** The analyst opened a batch: what was held about their last one has no reader any more. */
    batchOpened(orgId: number, analystId: number, batchId: string): void {
      latest.set(who(orgId, analystId), batchId);
      analystLeft(orgId, analystId);
    },

    /** Lets go of everything held about the analyst's batches (they signed out: their console dropped the results). */
    analystLeft,

    /** How many values are held (tests). */
    size: (): number => {
      sweep();
      return held.size;
    },
  };
}
export type BatchMemory<T> = ReturnType<typeof createBatchMemory<T>>;
