// Free space on the data directory's disk (issue 25, "Disk full is an answer, not a loss").
// Billable work and new exports are refused with 507 INSUFFICIENT_STORAGE while the disk has less
// than the reserve free, so nothing is acknowledged that cannot be stored; a write that fails for
// lack of space anyway (the reserve is a guess, another program fills the disk, a quota) is told
// apart from other faults here and gets the same answer. Nothing is sticky: the free space is read
// again at most every `cacheMs`, and a refused write is only remembered until the next write that
// succeeds, or `RECENT_FULL_MS`, whichever comes first.
import { statfsSync } from 'node:fs';
import { AppError } from '../../../../src-shared/errors';

/** Below this much free space the service takes no new billable work or export (docs/decisions.md). */
export const STORAGE_RESERVE_BYTES = 64 * 1024 * 1024;
/** How long one reading of the free space is used (hot paths never call statfs per request). */
export const STORAGE_CACHE_MS = 1000;
/** How long a write refused for lack of space keeps `/api/health` degraded when no write has succeeded since. */
export const RECENT_FULL_MS = 60_000;

export interface StorageOptions {
  /** The free bytes on the data directory's filesystem (tests simulate a full disk); statfs by default. */
  freeBytes?: () => number;
  reserveBytes?: number;
  cacheMs?: number;
  /** Milliseconds, for the cache and the memory of a refused write (monotonic by default). */
  now?: () => number;
}

export interface StorageReading {
  /** null when the filesystem cannot be asked (then nothing is refused for space in advance). */
  freeBytes: number | null;
  reserveBytes: number;
  /** Free space below the reserve: new billable work and exports are refused. */
  low: boolean;
  /** When a write was refused for lack of space (epoch ms), if within RECENT_FULL_MS and none has succeeded since. */
  refusedAt: number | null;
}

// SQLite's result codes for a full disk or quota (SQLITE_FULL: the unix VFS maps ENOSPC to it),
// and Node's for file writes. SQLITE_IOERR_* is a disk-full answer only when the disk is low.
const FULL_CODES = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT']);

function codeOf(e: unknown): string | null {
  if (typeof e !== 'object' || e === null || !('code' in e)) return null;
  const code = (e as { code: unknown }).code;
  return typeof code === 'string' ? code : null;
}

export function createStorage(dataDir: string, opts: StorageOptions = {}) {
  const reserve = opts.reserveBytes ?? STORAGE_RESERVE_BYTES;
  const cacheMs = opts.cacheMs ?? STORAGE_CACHE_MS;
  const now = opts.now ?? (() => performance.now());
  const read = opts.freeBytes ?? (() => {
    const s = statfsSync(dataDir);
    return Number(s.bavail) * Number(s.bsize);
  });
  let cached: { at: number; bytes: number | null } | null = null;
  let refused: { at: number; wall: number } | null = null;

  function freeBytes(): number | null {
    const t = now();
    if (!cached || t - cached.at >= cacheMs) {
      let bytes: number | null;
      try {
        bytes = read();
      } catch {
        bytes = null;
      }
      cached = { at: t, bytes };
    }
    return cached.bytes;
  }

  /** Whether `needBytes` more can be written and still leave the reserve free. */
  function has(needBytes = 0): boolean {
    const free = freeBytes();
    return free === null || free - needBytes >= reserve;
  }

  return {
    reserveBytes: reserve,
    freeBytes,
    has,

    /** Throws 507 INSUFFICIENT_STORAGE unless `needBytes` more fit above the reserve. */
    require(needBytes = 0): void {
      if (!has(needBytes)) throw new AppError('insufficient_storage');
    },

    /**
     * Whether an error is a write that failed for lack of space. A disk-full one is remembered (for
     * /api/health) and the next reading of the free space is a fresh one.
     */
    isFull(e: unknown): boolean {
      const code = codeOf(e);
      if (code === null) return false;
      let full = FULL_CODES.has(code);
      if (!full && code.startsWith('SQLITE_IOERR')) {
        cached = null;
        full = !has();
      }
      if (full) {
        refused = { at: now(), wall: Date.now() };
        cached = null;
      }
      return full;
    },

    /** A write that needed space succeeded: a refused one is no longer news. */
    written(): void {
      refused = null;
    },

    reading(): StorageReading {
      const free = freeBytes();
      return {
        freeBytes: free,
        reserveBytes: reserve,
        low: free !== null && free < reserve,
        refusedAt: refused !== null && now() - refused.at < RECENT_FULL_MS ? refused.wall : null,
      };
    },
  };
}
export type Storage = ReturnType<typeof createStorage>;
