// The screening workers: threads that each hold a copy of the index of one state of the lists
// and screen with it, so the HTTP loop only moves requests, answers and ledger rows (rule 6:
// CPU-heavy work off the HTTP loop). Single screens from the API and the console, and batch rows.
// Each worker is a worker pool of one (core/workers/pool.ts) that is never restarted: its lists
// may no longer be the current ones.
//
// The lists are loaded in a worker, not here, and this thread only learns an index's meta
// (remoteIndex). When they change (an import), the worker makes the new index over the one it
// holds (service.ts, reloadIndex: the lists' records and names are shared, not loaded a second
// time beside them); only when that cannot be done is a new worker started, the old one
// answering meanwhile. A worker keeps an older index while an open batch still screens with it
// (retain/release); a worker holding no index still wanted is stopped. A single screening that
// took lists since replaced (its billing took a few round trips to PostgreSQL while another
// instance's import reloaded them) is screened with the lists in use: its answer names them.
// Running from source there is no built worker: the same worker program runs in this thread,
// behind the same pool.
import { join } from 'node:path';
import type { ScreeningResponse } from '../../../../src-shared/contracts/screening';
import { builtWorker, inThisThread, inThread } from '../workers/launch';
import { createWorkerPool, type WorkerPool } from '../workers/pool';
import type { CheckedFiles, ListChecker } from './lists/manage';
import type { OfficialFile } from './lists/official';
import type { OfficialSource } from './lists/sources';
import type { UserListCheck } from './lists/store';
import type { RowJob, RowOutcome } from './rows';
import { remoteIndex, type IndexMeta, type LoadedIndex, type ScreenCall } from './service';
import { runJob, screeningWorker, transferOf, type PoolAnswer, type PoolJob } from './worker';

/** A job its worker did not answer (the worker ended): it is screened here instead. */
class WorkerGone extends Error {}

/** Why an official file moved to a worker that ended before checking it is not imported. */
const GONE = 'the file could not be read to the end (the reader stopped); send it again';

interface Slot {
  pool: WorkerPool<PoolJob, unknown>;
  where: 'worker' | 'in-process';
  /** The stamps of the lists whose index the worker holds: the ones it loaded, then those made over them. */
  stamps: Set<string>;
  /** No longer needed: stopped once its last job is answered. */
  retiring: boolean;
  /** Jobs given to it and not yet answered. */
  pending: number;
}

export function createScreenPool(resourcesDir: string, dataDir: string | undefined, log?: (msg: string, fields?: Record<string, string | number>) => void) {
  const watchlistsDir = join(resourcesDir, 'watchlists');
  const byStamp = new Map<string, Slot>();
  /** Open batches screening with the lists of each stamp. */
  const refs = new Map<string, number>();
  let current: Slot | null = null;
  let currentStamp: string | null = null;
  let mode: 'idle' | 'worker' | 'in-process' = 'idle';
  /** Where each kind of job ran last: a change is logged (observable, and quiet in steady state). */
  const lastWhere = new Map<PoolJob['kind'], string>();
  const ran = (kind: PoolJob['kind'], where: 'worker' | 'in-process') => {
    mode = where;
    if (lastWhere.get(kind) === where) return;
    lastWhere.set(kind, where);
    log?.('screening_runs', { job: kind, in: where });
  };

  /**
   * The built worker thread; from source (tsx, vitest) the worker program in this thread. Its
   * young generation is 16 MB: an official file's parse and splice made in it take 40-60 MB less
   * than with 64 (bench:import: 149-178 MB in 10 runs; with 32, one run in 8 reached 206), and screening is
   * still ready 0.7-1.0 s after a start (bench:start).
   */
  function launcher() {
    const built = builtWorker('screening-worker');
    const data = { watchlistsDir, dataDir };
    return built ? inThread(built, { workerData: data, unref: true, resourceLimits: { maxYoungGenerationSizeMb: 16 } }) : inThisThread(screeningWorker, data);
  }

  /** Stops a worker that holds no index still wanted, once its last job is answered. */
  function retire(slot: Slot): void {
    if (slot === current || slot.stamps.size > 0) return;
    slot.retiring = true;
    if (slot.pending === 0) void slot.pool.stop();
  }

  /** Lets go of the index of `stamp` unless it is current or an open batch screens with it. */
  function letGo(stamp: string): void {
    if (stamp === currentStamp || (refs.get(stamp) ?? 0) > 0) return;
    const slot = byStamp.get(stamp);
    if (!slot) return;
    byStamp.delete(stamp);
    forget(slot, stamp);
  }

  /** `slot`'s worker no longer holds the index of `stamp` for this pool: it drops it, or stops when it holds no other. */
  function forget(slot: Slot, stamp: string): void {
    slot.stamps.delete(stamp);
    if (slot.stamps.size === 0) retire(slot);
    else void Promise.resolve(run(slot, null, { kind: 'drop', stamp })).catch(() => {});
  }

  /** Starts a worker on the lists as they are now; its meta once loaded, null if it cannot. */
  function spawn(): Promise<{ slot: Slot; meta: IndexMeta } | null> {
    const began = performance.now();
    const l = launcher();
    return new Promise((resolve) => {
      const slot = { where: l.where, stamps: new Set<string>(), retiring: false, pending: 0 } as Omit<Slot, 'pool'> as Slot;
      slot.pool = createWorkerPool<PoolJob, unknown>({
        launcher: l,
        restart: 'never',
        transfer: (j) => (j.kind === 'check-official' ? transferOf(j.files) : []),
        // A job that threw in the worker fails here the same way it would have in-process; one its
        // worker did not answer is screened here (run): costs time, never work.
        fail: (why, name) => (why === 'error' ? new Error(name) : new WorkerGone()),
        on: (e) => {
          if (e.kind === 'ready') {
            const meta = e.payload as IndexMeta;
            // Another worker holding the same lists (two loads at once) lets go of them.
            const twin = byStamp.get(meta.stamp);
            slot.stamps.add(meta.stamp);
            byStamp.set(meta.stamp, slot);
            if (twin && twin !== slot) forget(twin, meta.stamp);
            log?.('screen_worker_ready', { ms: Math.round(performance.now() - began) });
            resolve({ slot, meta });
          } else if (e.kind === 'start-failed') {
            void slot.pool.stop();
            resolve(null);
          } else if (e.kind === 'lost') {
            for (const stamp of slot.stamps) if (byStamp.get(stamp) === slot) byStamp.delete(stamp);
            slot.stamps.clear();
            resolve(null);
            if (slot === current) {
              current = null;
              currentStamp = null;
              log?.('screen_worker_exited');
            }
          }
        },
      });
      slot.pool.start();
    });
  }

  /** In slot's worker, or here when there is none (no index: a list check, with no worker yet). */
  function run<J extends PoolJob>(slot: Slot | undefined, loaded: LoadedIndex | null, j: J): Promise<PoolAnswer<J>> | PoolAnswer<J> {
    if (!slot || slot.retiring) {
      ran(j.kind, 'in-process');
      return runJob(loaded, j) as PoolAnswer<J>;
    }
    ran(j.kind, slot.where);
    slot.pending++;
    // An official file's bytes are moved to the worker (spawn's transfer): if it ends holding
    // them, they cannot be checked here.
    const moves = j.kind === 'check-official' && transferOf(j.files).length > 0;
    return slot.pool.run(j).then(
      (answer) => answer as PoolAnswer<J>,
      (e: unknown) => {
        if (!(e instanceof WorkerGone)) throw e;
        if (moves) return { check: { ok: false, reason: GONE }, files: [] } as CheckedFiles as PoolAnswer<J>;
        return runJob(loaded, j) as PoolAnswer<J>;
      },
    ).finally(() => {
      slot.pending--;
      if (slot.retiring && slot.pending === 0) void slot.pool.stop();
    });
  }

  /**
   * An official list file's check, in the current worker (here when there is none): the files
   * are moved to it and back with the check, not copied, and the records it read stay there for
   * the reload that splices them in once the file is stored (ReadOptions.handOver), so a 30 MB
   * file is parsed once, in the thread whose index it changes. Screens wait for it (~1 s).
   */
  async function checkOfficial(source: OfficialSource, files: readonly OfficialFile[]): Promise<CheckedFiles> {
    return run(current ?? undefined, null, { kind: 'check-official', source, files, watchlistsDir, dataDir });
  }

  return {
    /**
     * Loads the lists as they are now in a new worker and answers their index (meta here, the
     * index in the worker); null when no worker can run, so the caller loads them itself.
     */
    async load(): Promise<LoadedIndex | null> {
      const slot = current;
      if (slot && !slot.retiring) {
        const meta = await run(slot, null, { kind: 'reload', keepPrevious: currentStamp !== null && (refs.get(currentStamp) ?? 0) > 0 });
        if (meta !== null && current === slot) {
          const before = currentStamp;
          slot.stamps.add(meta.stamp);
          byStamp.set(meta.stamp, slot);
          currentStamp = meta.stamp;
          if (before !== null && before !== meta.stamp) letGo(before);
          return remoteIndex(meta, watchlistsDir, dataDir);
        }
      }
      const started = await spawn();
      if (!started) return null;
      const before = current;
      current = started.slot;
      currentStamp = started.meta.stamp;
      if (before && before !== current) {
        for (const stamp of [...before.stamps]) letGo(stamp);
        retire(before);
      }
      return remoteIndex(started.meta, watchlistsDir, dataDir);
    },
    /** Where the last work was screened: observable for tests and logs. */
    mode: () => mode,
    /** Batch rows, in the worker holding the batch's lists (here when there is none). */
    async screen(loaded: LoadedIndex, job: RowJob): Promise<RowOutcome[]> {
      return run(byStamp.get(loaded.stamp), loaded, { kind: 'rows', job, stamp: loaded.stamp });
    },
    /**
     * One screening, in the worker holding these lists; when they were replaced since it took them
     * (their worker is gone), in the worker of the lists in use (its answer names the lists that
     * screened it); here when there is none.
     */
    async screenOne(loaded: LoadedIndex, call: ScreenCall): Promise<ScreeningResponse> {
      return run(byStamp.get(loaded.stamp) ?? (current?.retiring === false ? current : undefined), loaded, { kind: 'screen', call, stamp: loaded.stamp });
    },
    /** Reads an imported list file in the current worker (here when there is none): ListManagement.check. */
    checks: {
      userList: async (name: string, bytes: Uint8Array): Promise<UserListCheck> => run(current ?? undefined, null, { kind: 'check-user-list', name, bytes }),
      official: checkOfficial,
    } satisfies ListChecker,
    /** An open batch screens with these lists: their index stays until release. */
    retain(stamp: string): void {
      if (byStamp.has(stamp)) refs.set(stamp, (refs.get(stamp) ?? 0) + 1);
    },
    release(stamp: string): void {
      const n = refs.get(stamp);
      if (n === undefined) return;
      if (n > 1) refs.set(stamp, n - 1);
      else refs.delete(stamp);
      letGo(stamp);
    },
    /** Workers running now (tests, logs). */
    workers: (): number => new Set(byStamp.values()).size,
    /** Indexes of the lists held by the workers now: the current one and those open batches screen with (tests, logs). */
    indexes: (): number => byStamp.size,
    /** Tests and chaos: ends the current lists' worker as a crash would. */
    crashOne: (): boolean => current?.pool.crashOne() ?? false,
    async stop(): Promise<void> {
      const all = [...new Set(byStamp.values())];
      byStamp.clear();
      refs.clear();
      current = null;
      currentStamp = null;
      await Promise.all(all.map((s) => s.pool.stop()));
    },
  };
}
export type ScreenPool = ReturnType<typeof createScreenPool>;
