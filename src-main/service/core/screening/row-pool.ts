// One worker thread that screens batch rows with its own index (rule 6: CPU-heavy work off the
// HTTP loop). Started on first use; falls back to in-process screening if it cannot start.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { APP_ROOT } from '../../paths';
import { screenRows, type RowJob, type RowOutcome } from './rows';
import type { LoadedIndex } from './service';

function workerEntry(): { file: string; execArgv: string[] } | null {
  const fromSource = import.meta.url.endsWith('.ts');
  const file = fromSource
    ? join(APP_ROOT, 'src-main', 'service', 'workers', 'screening-worker.ts')
    : join(APP_ROOT, 'out', 'main', 'screening-worker.js');
  if (!existsSync(file)) return null;
  return { file, execArgv: fromSource ? ['--import', 'tsx'] : [] };
}

export function createRowPool(watchlistsDir: string, dataDir: string | undefined) {
  let worker: Worker | null = null;
  let ready: Promise<boolean> | null = null;
  let seq = 0;
  // Each waiting job keeps its own fallback, so a worker that dies mid-job costs time, not rows.
  const waiting = new Map<number, { resolve: (r: RowOutcome[]) => void; fallback: () => RowOutcome[] }>();

  function start(): Promise<boolean> {
    ready ??= new Promise<boolean>((resolve) => {
      const entry = workerEntry();
      if (!entry) return resolve(false);
      const w = new Worker(entry.file, { workerData: { watchlistsDir, dataDir }, execArgv: entry.execArgv });
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
    /** Screens rows in the worker, or here when the worker is unavailable. */
    async screen(loaded: LoadedIndex, job: RowJob): Promise<RowOutcome[]> {
      if ((await start()) && worker) {
        const id = seq++;
        const w = worker;
        return new Promise((resolve) => {
          waiting.set(id, { resolve, fallback: () => screenRows(loaded, job) });
          w.postMessage({ ...job, seq: id });
        });
      }
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
