// When the SQLite file's write-ahead log is copied back into the database (a checkpoint). SQLite's
// own rule runs it inside the COMMIT that takes the log past 1,000 pages: that commit then waits
// for the copy and two fsyncs (15-50 ms on a busy disk, against 0.7 ms for a commit). Work charged
// in that transaction is durable, while its result is not yet on its way to the client: a batch
// slice's lines, an API screen's answer. A crash in those milliseconds leaves a charge the client
// never saw (`npm run chaos` found one in CI). Here the commits never checkpoint; a timer does, in
// a task of its own, between requests' work rather than inside one.
import type { Db } from './open';

/** How often the log is checkpointed: a second of writes is at most a few MB of log. */
export const CHECKPOINT_EVERY_MS = 1000;

export interface Checkpoints {
  stop(): void;
}

/**
 * From now on `db`'s commits leave the log alone and a passive checkpoint (one that waits for no
 * reader or writer) runs every `everyMs`. Stopping gives the commits SQLite's own rule back.
 */
export function checkpointOnTimer(db: Db, opts: { everyMs?: number; onError?: (e: unknown) => void } = {}): Checkpoints {
  const autocheckpoint = db.pragma('wal_autocheckpoint', { simple: true }) as number;
  db.pragma('wal_autocheckpoint = 0');
  const timer = setInterval(() => {
    if (!db.open) return;
    try {
      db.pragma('wal_checkpoint(PASSIVE)');
    } catch (e) {
      opts.onError?.(e);
    }
  }, opts.everyMs ?? CHECKPOINT_EVERY_MS);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      if (db.open) db.pragma(`wal_autocheckpoint = ${autocheckpoint}`);
    },
  };
}
