// The screening workers: threads that each hold a copy of the index of one state of the lists
// and screen with it, so the HTTP loop only moves requests, answers and ledger rows (rule 6:
// CPU-heavy work off the HTTP loop). Single screens from the API and the console, and batch rows.
//
// The lists are loaded in a worker, not here: an import of an own list builds the new index in a
// new worker while the old one keeps answering, and this thread only learns the new index's meta
// (remoteIndex). A worker stays while the current lists are its lists or an open batch still
// screens with them (retain/release), then it is stopped. Running from source there is no built
// worker: everything is loaded and screened in this thread, as before.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ScreeningResponse } from '../../../../src-shared/contracts/screening';
import { APP_ROOT } from '../../paths';
import type { ListChecker } from './lists/manage';
import type { OfficialFile } from './lists/official';
import type { OfficialSource } from './lists/sources';
import { checkOfficial, checkUserList, type OfficialCheck, type UserListCheck } from './lists/store';
import { screenRows, type RowJob, type RowOutcome } from './rows';
import { remoteIndex, runScreening, type IndexMeta, type LoadedIndex, type ScreenCall } from './service';

/**
 * What a worker is asked: a chunk of batch rows, one screening, or reading an imported list file
 * (a sanctions file is megabytes, an own list thousands of rows: never parsed on the HTTP loop).
 */
export type PoolJob =
  | { kind: 'rows'; job: RowJob }
  | { kind: 'screen'; call: ScreenCall }
  | { kind: 'check-user-list'; name: string; bytes: Uint8Array }
  | { kind: 'check-official'; source: OfficialSource; files: readonly OfficialFile[] };
type PoolAnswer<J extends PoolJob> = J extends { kind: 'rows' } ? RowOutcome[]
  : J extends { kind: 'screen' } ? ScreeningResponse
  : J extends { kind: 'check-user-list' } ? UserListCheck
  : OfficialCheck;

/** The same work, here: a worker runs exactly this. */
export function runJob(loaded: LoadedIndex | null, j: PoolJob): PoolAnswer<PoolJob> {
  switch (j.kind) {
    case 'check-user-list': return checkUserList(j.name, j.bytes);
    case 'check-official': return checkOfficial(j.source, j.files);
    default:
      if (!loaded) throw new Error('no index');
      return j.kind === 'rows' ? screenRows(loaded, j.job) : runScreening(loaded, j.call);
  }
}

/**
 * The worker's entry: the built file next to the bundle (`npm run serve`, the desktop app).
 * Running from source (tsx, vitest) there is no built worker, and Node 20 cannot load a
 * TypeScript worker entry, so work is screened in-process there.
 */
function workerEntry(): URL | null {
  if (import.meta.url.endsWith('.ts')) return null;
  const built = join(APP_ROOT, 'out', 'main', 'screening-worker.js');
  return existsSync(built) ? pathToFileURL(built) : null;
}

interface Slot {
  worker: Worker;
  /** The lists' stamp, once the worker has loaded them. */
  stamp: string | null;
  /** Open batches screening with these lists. */
  refs: number;
  /** No longer needed: stopped once its last job is answered. */
  retiring: boolean;
  waiting: Map<number, { resolve: (r: unknown) => void; reject: (e: unknown) => void; fallback: () => unknown }>;
}

export function createScreenPool(resourcesDir: string, dataDir: string | undefined, log?: (msg: string, fields?: Record<string, string | number>) => void) {
  const watchlistsDir = join(resourcesDir, 'watchlists');
  const byStamp = new Map<string, Slot>();
  let current: Slot | null = null;
  let seq = 0;
  let mode: 'idle' | 'worker' | 'in-process' = 'idle';
  /** Where each kind of job ran last: a change is logged (observable, and quiet in steady state). */
  const lastWhere = new Map<PoolJob['kind'], string>();
  const ran = (kind: PoolJob['kind'], where: 'worker' | 'in-process') => {
    mode = where;
    if (lastWhere.get(kind) === where) return;
    lastWhere.set(kind, where);
    log?.('screening_runs', { job: kind, in: where });
  };

  function settle(slot: Slot, id: number, f: () => unknown): void {
    const job = slot.waiting.get(id);
    if (!job) return;
    slot.waiting.delete(id);
    try {
      job.resolve(f());
    } catch (e) {
      job.reject(e);
    }
    if (slot.retiring && slot.waiting.size === 0) void slot.worker.terminate();
  }

  /** Stops a worker whose lists are neither current nor used by an open batch. */
  function retire(slot: Slot): void {
    if (slot === current || slot.refs > 0) return;
    if (slot.stamp !== null && byStamp.get(slot.stamp) === slot) byStamp.delete(slot.stamp);
    slot.retiring = true;
    if (slot.waiting.size === 0) void slot.worker.terminate();
  }

  /** Starts a worker on the lists as they are now; its meta once loaded, null if it cannot. */
  function spawn(): Promise<{ slot: Slot; meta: IndexMeta } | null> {
    const entry = workerEntry();
    if (!entry) return Promise.resolve(null);
    const began = performance.now();
    return new Promise((resolve) => {
      const worker = new Worker(entry, { workerData: { watchlistsDir, dataDir } });
      worker.unref();
      const slot: Slot = { worker, stamp: null, refs: 0, retiring: false, waiting: new Map() };
      worker.on('message', (m: { ready?: IndexMeta; failed?: string; seq?: number; answer?: unknown; error?: string }) => {
        if (m.ready) {
          slot.stamp = m.ready.stamp;
          byStamp.get(slot.stamp)?.worker.terminate();
          byStamp.set(slot.stamp, slot);
          log?.('screen_worker_ready', { ms: Math.round(performance.now() - began) });
          resolve({ slot, meta: m.ready });
        } else if (m.failed) {
          void worker.terminate();
          resolve(null);
        } else if (m.seq !== undefined) {
          // A job that threw in the worker fails here the same way it would have in-process.
          settle(slot, m.seq, () => {
            if (m.error !== undefined) throw new Error(m.error);
            return m.answer;
          });
        }
      });
      worker.on('error', () => resolve(null));
      worker.on('exit', () => {
        if (slot.stamp !== null && byStamp.get(slot.stamp) === slot) byStamp.delete(slot.stamp);
        // Jobs it held are screened here instead: costs time, never work.
        for (const [id, job] of slot.waiting) settle(slot, id, job.fallback);
        resolve(null);
        if (slot === current) {
          current = null;
          log?.('screen_worker_exited');
        }
      });
    });
  }

  /** In slot's worker, or here when there is none (no index: a list check, with no worker yet). */
  function run<J extends PoolJob>(slot: Slot | undefined, loaded: LoadedIndex | null, j: J): Promise<PoolAnswer<J>> | PoolAnswer<J> {
    if (!slot || slot.retiring) {
      ran(j.kind, 'in-process');
      return runJob(loaded, j) as PoolAnswer<J>;
    }
    ran(j.kind, 'worker');
    const id = seq++;
    return new Promise((resolve, reject) => {
      slot.waiting.set(id, { resolve: resolve as (r: unknown) => void, reject, fallback: () => runJob(loaded, j) });
      slot.worker.postMessage({ ...j, seq: id });
    });
  }

  return {
    /**
     * Loads the lists as they are now in a new worker and answers their index (meta here, the
     * index in the worker); null when no worker can run, so the caller loads them itself.
     */
    async load(): Promise<LoadedIndex | null> {
      const started = await spawn();
      if (!started) return null;
      const before = current;
      current = started.slot;
      if (before && before !== current) retire(before);
      return remoteIndex(started.meta, watchlistsDir, dataDir);
    },
    /** Where the last work was screened: observable for tests and logs. */
    mode: () => mode,
    /** Batch rows, in the worker holding the batch's lists (here when there is none). */
    async screen(loaded: LoadedIndex, job: RowJob): Promise<RowOutcome[]> {
      return run(byStamp.get(loaded.stamp), loaded, { kind: 'rows', job });
    },
    /** One screening, in the worker holding these lists (here when there is none). */
    async screenOne(loaded: LoadedIndex, call: ScreenCall): Promise<ScreeningResponse> {
      return run(byStamp.get(loaded.stamp), loaded, { kind: 'screen', call });
    },
    /** Reads an imported list file in the current worker (here when there is none): ListManagement.check. */
    checks: {
      userList: async (name: string, bytes: Uint8Array): Promise<UserListCheck> => run(current ?? undefined, null, { kind: 'check-user-list', name, bytes }),
      official: async (source: OfficialSource, files: readonly OfficialFile[]): Promise<OfficialCheck> => run(current ?? undefined, null, { kind: 'check-official', source, files }),
    } satisfies ListChecker,
    /** An open batch screens with these lists: their worker stays until release. */
    retain(stamp: string): void {
      const slot = byStamp.get(stamp);
      if (slot) slot.refs++;
    },
    release(stamp: string): void {
      const slot = byStamp.get(stamp);
      if (!slot) return;
      slot.refs = Math.max(0, slot.refs - 1);
      retire(slot);
    },
    /** Workers running now (tests, logs). */
    workers: (): number => byStamp.size,
    async stop(): Promise<void> {
      const all = [...byStamp.values()];
      byStamp.clear();
      current = null;
      await Promise.all(all.map((s) => s.worker.terminate()));
    },
  };
}
export type ScreenPool = ReturnType<typeof createScreenPool>;
