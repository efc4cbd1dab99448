// One worker thread that screens batch rows with its own index (rule 6: CPU-heavy work off the
// HTTP loop). Started on first use; falls back to in-process screening if it cannot start.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { APP_ROOT } from '../../paths';
import { listsStamp } from './lists/store';
import { screenRows, type RowJob, type RowOutcome } from './rows';
import type { LoadedIndex } from './service';

/**
 * The worker's entry: the built file next to the bundle (`npm run serve`, the desktop app).
 * Running from source (tsx, vitest) there is no built worker, and Node 20 cannot load a
 * TypeScript worker entry, so rows are screened in-process there.
 */
function workerEntry(): URL | null {
  if (import.meta.url.endsWith('.ts')) return null;
  const built = join(APP_ROOT, 'out', 'main', 'screening-worker.js');
  return existsSync(built) ? pathToFileURL(built) : null;
}

export function createRowPool(watchlistsDir: string, dataDir: string | undefined) {
  let worker: Worker | null = null;
  let ready: Promise<boolean> | null = null;
  let seq = 0;
  let mode: 'idle' | 'worker' | 'in-process' = 'idle';
  /** The list stamp the worker loaded its index at (it loads the lists as they are at its start). */
  let workerStamp: string | null = null;
  // Each waiting job keeps its own fallback, so a worker that dies mid-job costs time, not rows.
  const waiting = new Map<number, { resolve: (r: RowOutcome[]) => void; fallback: () => RowOutcome[] }>();

  function start(): Promise<boolean> {
    ready ??= new Promise<boolean>((resolve) => {
      const entry = workerEntry();
      if (!entry) return resolve(false);
      workerStamp = listsStamp(dataDir);
      const w = new Worker(entry, { workerData: { watchlistsDir, dataDir } });
      w.unref();
      w.on('message', (m: { ready?: boolean; failed?: string; seq?: number; results?: RowOutcome[] }) => {
        if (m.ready) resolve(true);
        else if (m.failed) resolve(false);
        else if (m.seq !== undefined && m.results) {
          waiting.get(m.seq)?.resolve(m.results);
          waiting.delete(m.seq);
        }
      });
      w.on('error', () => resolve(false));
      w.on('exit', () => {
        worker = null;
        ready = null;
        for (const [id, job] of waiting) {
          waiting.delete(id);
          job.resolve(job.fallback());
        }
      });
      worker = w;
    });
    return ready;
  }

  return {
    /** Starts the worker ahead of the first batch, so its first chunk does not wait for an index. */
    warm(): void {
      void start();
    },
    /** Where the last rows were screened: observable for tests and logs. */
    mode: () => mode,
    /**
     * Screens rows in the worker, or here when the worker is unavailable or holds other lists
     * than `loaded` (a batch that began before the lists changed finishes on its own index).
     */
    async screen(loaded: LoadedIndex, job: RowJob): Promise<RowOutcome[]> {
      if ((await start()) && worker && workerStamp === loaded.stamp) {
        mode = 'worker';
        const id = seq++;
        const w = worker;
        return new Promise((resolve) => {
          waiting.set(id, { resolve, fallback: () => screenRows(loaded, job) });
          w.postMessage({ ...job, seq: id });
        });
      }
      mode = 'in-process';
      return screenRows(loaded, job);
    },
    /** Lists changed: the next batch starts a worker with the new index. */
    async restart(): Promise<void> {
      const w = worker;
      worker = null;
      ready = null;
      if (w) await w.terminate();
    },
  };
}
export type RowPool = ReturnType<typeof createRowPool>;
