// Runs export rendering in a worker thread (workers/export-worker.ts), one export at a time, in the
// worker pool (core/workers/pool.ts), so the HTTP loop only moves the report's data in and the
// file's bytes out. The built worker sits next to the bundle (out/main/export-worker.js); running
// from source (tsx, vitest) the same TypeScript entry is started in a thread through tsx. A render
// that runs longer than the timeout, or a worker that dies, fails that export; the next one starts
// a fresh worker (the pool's on-demand restart).
import { inThisThread, inThread, workerEntry } from '../workers/launch';
import { createWorkerPool } from '../workers/pool';
import type { RenderInput } from './render';
import { exportWorker } from './worker';

export class RenderError extends Error {
  constructor(readonly reason: 'timeout' | 'render_failed' | 'report_unavailable' | 'insufficient_storage') {
    super(reason);
    this.name = 'RenderError';
  }
}

export interface RenderRunner {
  render(input: RenderInput): Promise<Uint8Array>;
  /** Where the last render ran (tests, logs). */
  mode(): 'worker' | 'in-process' | 'idle';
  stop(): Promise<void>;
}

export interface RunnerOptions {
  /** Render in this thread (route tests; the same pool code with the worker in this thread). */
  inProcess?: boolean;
  timeoutMs?: number;
  log?: (msg: string, fields?: Record<string, string | number>) => void;
}

export function createRenderRunner(opts: RunnerOptions = {}): RenderRunner {
  const timeoutMs = opts.timeoutMs ?? 120_000;
  const launcher = opts.inProcess ? inThisThread(exportWorker, undefined) : inThread(workerEntry('export-worker'), { unref: true });
  let mode: 'worker' | 'in-process' | 'idle' = 'idle';
  const pool = createWorkerPool<RenderInput, Uint8Array>({
    launcher,
    restart: 'on-demand',
    // A hung render: its worker is stopped and replaced on next use.
    deadline: { cpuMs: timeoutMs, wallMs: timeoutMs },
    fail: (why) => new RenderError(why === 'hung' ? 'timeout' : 'render_failed'),
    on: (e) => {
      if (e.kind === 'lost' && e.error !== undefined) opts.log?.('export_worker_error', { name: e.error });
    },
  });

  return {
    render(input) {
      mode = launcher.where;
      return pool.run(input);
    },
    mode: () => mode,
    stop: pool.stop,
  };
}
