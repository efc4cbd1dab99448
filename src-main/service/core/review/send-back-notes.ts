// The notes an owner or admin writes when sending a clearance back: free text about a subject's
// match, so held in service memory only (never SQLite, logs or files), for the analyst's batch.
// Each analyst runs one batch at a time and reviews it in their console, which keeps the rows;
// a note lives while that can still be the case: until the analyst opens another batch (their
// console then drops the old results), for at most `ttlMs` after it was written (the console's
// results go at sign-out and a session idles out after 12 hours), or until the service stops.
import type { Clock } from '../clock';

interface Held {
  orgId: number;
  analystId: number;
  batchId: string;
  text: string;
  at: number;
}

export function createSendBackNotes(clock: Clock, ttlMs: number) {
  /** By clearance id. */
  const notes = new Map<string, Held>();
  /** Each analyst's latest batch since the service started (`${orgId}:${userId}`). */
  const latest = new Map<string, string>();
  const who = (orgId: number, analystId: number) => `${orgId}:${analystId}`;

  function sweep(): void {
    const now = clock.now();
    for (const [id, n] of notes) if (now - n.at >= ttlMs) notes.delete(id);
  }

  return {
    /** Holds the note for the analyst; false (not held) when they have opened another batch since. */
    keep(orgId: number, analystId: number, batchId: string, clearanceId: string, text: string): boolean {
      sweep();
      const current = latest.get(who(orgId, analystId));
      if (current !== undefined && current !== batchId) return false;
      notes.set(clearanceId, { orgId, analystId, batchId, text, at: clock.now() });
      return true;
    },

    /** The analyst's notes for their batch, by clearance id. */
    of(orgId: number, analystId: number, batchId: string): Map<string, string> {
      sweep();
      const out = new Map<string, string>();
      for (const [id, n] of notes) if (n.orgId === orgId && n.analystId === analystId && n.batchId === batchId) out.set(id, n.text);
      return out;
    },

    /** The analyst opened a batch: the notes about their last one have no reader any more. */
    batchOpened(orgId: number, analystId: number, batchId: string): void {
      latest.set(who(orgId, analystId), batchId);
      for (const [id, n] of notes) if (n.orgId === orgId && n.analystId === analystId) notes.delete(id);
    },

    /** How many notes are held (tests). */
    size: (): number => {
      sweep();
      return notes.size;
    },
  };
}
export type SendBackNotes = ReturnType<typeof createSendBackNotes>;
