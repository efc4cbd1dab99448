// One service per data directory. Its per-process rules (one open batch per organisation, the
// rate limits, the idempotency of requests in flight, the on-site listener) hold only if one
// process serves the directory: a second service on it would split them between two. The
// service takes `service.lock` (its process id) when it starts and removes it when it stops; a
// second start finds the holder alive and exits, naming it. A lock whose process is gone (a
// crash, a kill -9) is taken over. The admin CLI takes no lock: it is meant to run beside the
// service (its writes go through SQLite's own locking).
import { linkSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

export const LOCK_FILE = 'service.lock';

export class DataDirInUse extends Error {
  constructor(readonly dataDir: string, readonly pid: number) {
    super(`${dataDir} is already served by process ${pid}. Stop it first, or start this one with another --data-dir.`);
    this.name = 'DataDirInUse';
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists, owned by someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function holder(path: string): number | null {
  try {
    const pid = Number(readFileSync(path, 'utf8').trim().split(/\s+/)[0]);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : 0;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

/**
 * Takes the data directory for this process, or throws DataDirInUse naming the live holder.
 * Returns the release (idempotent), which removes the lock only while it is still this process's.
 */
export function lockDataDir(dataDir: string, pid = process.pid): () => void {
  const path = join(dataDir, LOCK_FILE);
  // Written whole under a unique name, then linked into place: link() fails when the lock exists,
  // so two starts at once cannot both take it.
  const mine = join(dataDir, `.service.lock.${pid}.${randomBytes(4).toString('hex')}`);
  writeFileSync(mine, `${pid}\n`, { mode: 0o600 });
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        linkSync(mine, path);
        let released = false;
        return () => {
          if (released) return;
          released = true;
          if (holder(path) === pid) rmSync(path, { force: true });
        };
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const held = holder(path);
      if (held === null) continue; // removed in between: try again
      if (held > 0 && held !== pid && alive(held)) throw new DataDirInUse(dataDir, held);
      if (held === pid) throw new DataDirInUse(dataDir, held);
      // Stale (its process is gone, or unreadable): moved aside under a unique name, so that of
      // two starts taking it over at once only one removes it.
      const aside = `${path}.stale.${randomBytes(4).toString('hex')}`;
      try {
        renameSync(path, aside);
        rmSync(aside, { force: true });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      }
    }
    throw new Error(`could not take ${path}`);
  } finally {
    rmSync(mine, { force: true });
  }
}
