// Runs export rendering in a worker thread (workers/export-worker.ts), one export at a time, so
// the HTTP loop only moves the report's data in and the file's bytes out. The built worker sits
// next to the bundle (out/main/export-worker.js); running from source (tsx, vitest) the same
// TypeScript entry is started in a thread that registers tsx first. A render that runs longer than
// the timeout, or a worker that dies, fails that export; the next one starts a fresh worker.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { APP_ROOT } from '../../paths';
import { renderExport, type RenderInput } from './render';

export class RenderError extends Error {
  constructor(readonly reason: 'timeout' | 'render_failed' | 'report_unavailable') {
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
  /** Render in this thread (renderer unit tests). */
  inProcess?: boolean;
  timeoutMs?: number;
  log?: (msg: string, fields?: Record<string, string | number>) => void;
}

/** How a worker is started: the built file, or the TypeScript entry through tsx. */
function spawnWorker(): Worker {
  const built = join(APP_ROOT, 'out', 'main', 'export-worker.js');
  if (!import.meta.url.endsWith('.ts') && existsSync(built)) return new Worker(pathToFileURL(built));
  const entry = pathToFileURL(join(APP_ROOT, 'src-main', 'service', 'workers', 'export-worker.ts')).href;
  // The ESM build of tsx's API (require.resolve would name its CommonJS build).
  const tsx = pathToFileURL(join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist', 'esm', 'api', 'index.mjs')).href;
  const boot = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(boot, { eval: true });
}

export function createRenderRunner(opts: RunnerOptions = {}): RenderRunner {
  const timeoutMs = opts.timeoutMs ?? 120_000;
  let worker: Worker | null = null;
  let ready: Promise<Worker> | null = null;
  let seq = 0;
  let mode: 'worker' | 'in-process' | 'idle' = 'idle';
  const waiting = new Map<number, { resolve: (b: Uint8Array) => void; reject: (e: unknown) => void }>();

  function failAll(reason: RenderError['reason']): void {
    for (const w of waiting.values()) w.reject(new RenderError(reason));
    waiting.clear();
  }

  function start(): Promise<Worker> {
    ready ??= new Promise<Worker>((resolve, reject) => {
      const w = spawnWorker();
      worker = w;
      w.unref();
      w.on('message', (m: { ready?: true; seq?: number; bytes?: Uint8Array; error?: string }) => {
        if (m.ready) return resolve(w);
        const job = m.seq === undefined ? undefined : waiting.get(m.seq);
        if (!job || m.seq === undefined) return;
        waiting.delete(m.seq);
        if (m.bytes) job.resolve(new Uint8Array(m.bytes));
        else job.reject(new RenderError('render_failed'));
      });
      const lost = () => {
        if (worker === w) {
          worker = null;
          ready = null;
        }
        reject(new RenderError('render_failed'));
        failAll('render_failed');
      };
      w.on('error', (e) => {
        opts.log?.('export_worker_error', { name: e.name });
        lost();
      });
      w.on('exit', lost);
    });
    return ready;
  }

  return {
    async render(input) {
      if (opts.inProcess) {
        mode = 'in-process';
        return renderExport(input);
      }
      const w = await start();
      mode = 'worker';
      const id = seq++;
      return new Promise<Uint8Array>((resolve, reject) => {
        const timer = setTimeout(() => {
          // A hung render: the worker is stopped (its exit fails the job) and replaced on next use.
          waiting.delete(id);
          reject(new RenderError('timeout'));
          void w.terminate();
        }, timeoutMs);
        timer.unref();
        waiting.set(id, {
          resolve: (b) => { clearTimeout(timer); resolve(b); },
          reject: (e) => { clearTimeout(timer); reject(e); },
        });
        w.postMessage({ seq: id, input });
      });
    },
    mode: () => mode,
    async stop() {
      const w = worker;
      worker = null;
      ready = null;
      if (w) await w.terminate();
    },
  };
}
