// One worker thread that screens with its own copy of the index, so the HTTP loop only moves
// requests, answers and ledger rows (rule 6: CPU-heavy work off the HTTP loop): single screens
// from the API and the console, and batch rows. Started ahead of the first use; until it is
// ready, or if it cannot start or dies, work is screened in-process instead, never lost.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ScreeningResponse } from '../../../../src-shared/contracts/screening';
import { APP_ROOT } from '../../paths';
import { listsStamp } from './lists/store';
import { screenRows, type RowJob, type RowOutcome } from './rows';
import { runScreening, type LoadedIndex, type ScreenCall } from './service';

/** What the worker is asked: a chunk of batch rows, or one screening. */
export type PoolJob = { kind: 'rows'; job: RowJob } | { kind: 'screen'; call: ScreenCall };
type PoolAnswer<J extends PoolJob> = J extends { kind: 'rows' } ? RowOutcome[] : ScreeningResponse;

/** The same work, here: the worker runs exactly this. */
export function runJob(loaded: LoadedIndex, j: PoolJob): RowOutcome[] | ScreeningResponse {
  return j.kind === 'rows' ? screenRows(loaded, j.job) : runScreening(loaded, j.call);
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

export function createScreenPool(watchlistsDir: string, dataDir: string | undefined, log?: (msg: string, fields?: Record<string, string | number>) => void) {
  let worker: Worker | null = null;
  let ready: Promise<boolean> | null = null;
  let isReady = false;
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
  /** The list stamp the worker loaded its index at (it loads the lists as they are at its start). */
  let workerStamp: string | null = null;
  // Each waiting job keeps its own fallback, so a worker that dies mid-job costs time, not work.
  const waiting = new Map<number, { resolve: (r: unknown) => void; reject: (e: unknown) => void; fallback: () => unknown }>();
  const settle = (id: number, f: () => unknown) => {
    const job = waiting.get(id);
    if (!job) return;
    waiting.delete(id);
    try {
      job.resolve(f());
    } catch (e) {
      job.reject(e);
    }
  };

  function start(): Promise<boolean> {
    ready ??= new Promise<boolean>((resolve) => {
      const entry = workerEntry();
      if (!entry) return resolve(false);
      workerStamp = listsStamp(dataDir);
      const began = performance.now();
      const w = new Worker(entry, { workerData: { watchlistsDir, dataDir } });
      w.unref();
      w.on('message', (m: { ready?: boolean; failed?: string; seq?: number; answer?: unknown; error?: string }) => {
        if (m.ready) {
          if (worker === w) isReady = true;
          log?.('screen_worker_ready', { ms: Math.round(performance.now() - began) });
          resolve(true);
        } else if (m.failed) {
          resolve(false);
        } else if (m.seq !== undefined) {
          // A job that threw in the worker fails here the same way it would have in-process.
          settle(m.seq, () => {
            if (m.error !== undefined) throw new Error(m.error);
            return m.answer;
          });
        }
      });
      w.on('error', () => resolve(false));
      w.on('exit', () => {
        if (worker === w) {
          worker = null;
          ready = null;
          isReady = false;
        }
        for (const [id, job] of waiting) settle(id, job.fallback);
      });
      worker = w;
    });
    return ready;
  }

  function inWorker<J extends PoolJob>(w: Worker, loaded: LoadedIndex, j: J): Promise<PoolAnswer<J>> {
    ran(j.kind, 'worker');
    const id = seq++;
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve: resolve as (r: unknown) => void, reject, fallback: () => runJob(loaded, j) });
      w.postMessage({ ...j, seq: id });
    });
  }

  function here<J extends PoolJob>(loaded: LoadedIndex, j: J): PoolAnswer<J> {
    ran(j.kind, 'in-process');
    return runJob(loaded, j) as PoolAnswer<J>;
  }

  return {
    /** Starts the worker ahead of its first job, so that job does not wait for an index. */
    warm(): void {
      void start();
    },
    /** Where the last work was screened: observable for tests and logs. */
    mode: () => mode,
    /**
     * Screens batch rows in the worker, waiting for it to start (a batch is long: the wait pays
     * for itself), or here when it is unavailable or holds other lists than `loaded` (a batch
     * that began before the lists changed finishes on its own index).
     */
    async screen(loaded: LoadedIndex, job: RowJob): Promise<RowOutcome[]> {
      if ((await start()) && worker && workerStamp === loaded.stamp) return inWorker(worker, loaded, { kind: 'rows', job });
      return here(loaded, { kind: 'rows', job });
    },
    /**
     * One screening, in the worker when it is ready with these lists; otherwise here, at once
     * (a single screen never waits seconds for a worker's index), while the worker starts.
     */
    async screenOne(loaded: LoadedIndex, call: ScreenCall): Promise<ScreeningResponse> {
      if (isReady && worker && workerStamp === loaded.stamp) return inWorker(worker, loaded, { kind: 'screen', call });
      void start();
      return here(loaded, { kind: 'screen', call });
    },
    /** Lists changed: a worker with the new index starts now. */
    async restart(): Promise<void> {
      const w = worker;
      worker = null;
      ready = null;
      isReady = false;
      if (w) await w.terminate();
      void start();
    },
    async stop(): Promise<void> {
      const w = worker;
      worker = null;
      ready = null;
      isReady = false;
      if (w) await w.terminate();
    },
  };
}
export type ScreenPool = ReturnType<typeof createScreenPool>;
