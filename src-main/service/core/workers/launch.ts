// Where a pool's worker runs (pool.ts): a worker thread, a child process, or this thread. The
// first two run the built entry beside the bundle (out/main/<name>.js) or, running from source,
// the TypeScript entry through tsx's loader. The third runs the same program (serve.ts) here,
// its messages copied and moved as between threads: from source, where a test process would
// otherwise load the face models or the lists again for every service, and in tests.
// Whichever runs it, the pool's queue, deadline and restart code is the same.
import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type ResourceLimits, type TransferListItem } from 'node:worker_threads';
import { APP_ROOT } from '../../paths';
import { serve, type WorkerProgram } from './serve';

/** One running worker, as its pool sees it. */
export interface WorkerHandle {
  /** Its own process: deadlines count that process's CPU time (deadline.ts). */
  readonly pid: number | undefined;
  send(message: unknown, transfer?: TransferListItem[]): void;
  /** Ends it as a crash would; resolves once it has ended (its exit has been reported). */
  kill(): Promise<void>;
}

export interface WorkerEvents {
  message(m: unknown): void;
  /** Once, however it ended: `error` is the name of what it threw, when it threw. */
  exit(reason: string, error?: string): void;
}

export interface Launcher {
  readonly where: 'worker' | 'in-process';
  /** Most workers worth running at once (one in this thread: a second would only interleave). */
  readonly maxSize?: number;
  launch(events: WorkerEvents): WorkerHandle;
}

/**
 * A worker's entry: the built file next to the bundle (`npm run serve`, the desktop app), else,
 * running from source (tsx, vitest) or before a build, its TypeScript source.
 */
export function workerEntry(name: string): string {
  return builtWorker(name) ?? join(APP_ROOT, 'src-main', 'service', 'workers', `${name}.ts`);
}

/** The built entry, or null running from source or before a build. */
export function builtWorker(name: string): string | null {
  if (import.meta.url.endsWith('.ts')) return null;
  const built = join(APP_ROOT, 'out', 'main', `${name}.js`);
  return existsSync(built) ? built : null;
}

/** Node 20 cannot start a TypeScript worker entry: the thread registers tsx, then imports it. */
function tsxBoot(file: string): string {
  const entry = pathToFileURL(file).href;
  // The ESM build of tsx's API (require.resolve would name its CommonJS build).
  const tsx = pathToFileURL(join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist', 'esm', 'api', 'index.mjs')).href;
  return `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); });`;
}

export interface ThreadOptions {
  workerData?: unknown;
  resourceLimits?: ResourceLimits;
  /** The thread does not keep the process alive. */
  unref?: boolean;
}

/** Workers as threads running `file` (built .js, or .ts through tsx). */
export function inThread(file: string, o: ThreadOptions = {}): Launcher {
  return {
    where: 'worker',
    launch(events) {
      const options = { workerData: o.workerData, resourceLimits: o.resourceLimits };
      const w = file.endsWith('.ts') ? new Worker(tsxBoot(file), { ...options, eval: true }) : new Worker(pathToFileURL(file), options);
      if (o.unref) w.unref();
      let gone = false;
      const lost = (reason: string, error?: string) => {
        if (gone) return;
        gone = true;
        events.exit(reason, error);
      };
      w.on('message', (m: unknown) => events.message(m));
      w.on('error', (e: unknown) => {
        const name = e instanceof Error ? e.name : 'error';
        lost(name, name);
      });
      w.on('exit', (code) => lost(`exit ${code}`));
      return {
        pid: undefined,
        send: (m, transfer) => w.postMessage(m, transfer),
        kill: () => w.terminate().then(() => undefined),
      };
    },
  };
}

/**
 * What the native libraries in workers are told: onnxruntime (the document reader's text models)
 * keeps a telemetry database and device id under the user's home directory and uploads from it
 * unless this is set. Nothing may be written outside the data directory, nor sent anywhere.
 */
export const QUIET_NATIVE_ENV = { ORT_DISABLE_TELEMETRY: '1' } as const;

/**
 * Workers as child processes running `file` (built .js, or .ts through tsx): for native code that
 * may crash or install process-wide handlers. Nothing they print reaches a log (it could hold
 * subject data); messages use the advanced serialization (typed arrays cross whole).
 */
export function inChildProcess(file: string): Launcher {
  return {
    where: 'worker',
    launch(events) {
      const proc = fork(file, [], {
        cwd: APP_ROOT,
        env: { ...process.env, ...QUIET_NATIVE_ENV },
        execArgv: file.endsWith('.ts') ? ['--import', 'tsx'] : [],
        serialization: 'advanced',
        stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
      });
      let gone = false;
      const lost = (reason: string) => {
        if (gone) return;
        gone = true;
        events.exit(reason);
      };
      proc.on('message', (m: unknown) => events.message(m));
      proc.on('exit', (code, signal) => lost(signal ?? `exit ${code}`));
      // A process that never started has no exit to wait for; one that did is ended.
      proc.on('error', () => (proc.pid === undefined ? lost('error') : proc.kill('SIGKILL')));
      return {
        pid: proc.pid,
        send: (m) => proc.send(m as Parameters<typeof proc.send>[0]),
        kill: () => new Promise<void>((resolve) => {
          if (gone || proc.exitCode !== null || proc.signalCode !== null) return resolve();
          proc.once('exit', () => resolve());
          proc.kill('SIGKILL');
        }),
      };
    },
  };
}

/**
 * Workers in this thread: `program` served as a worker of the pool like any other (it can be
 * killed, which drops its answers, and replaced). Messages are structured clones, buffers in a
 * transfer list moved, as between threads; they are delivered as microtasks, so an answer arrives
 * in the turn its work ends, as a direct call's would (a timer that expired while the work held
 * this thread does not overtake it), and nothing but the work itself keeps the process alive. A
 * job in progress cannot be stopped here: a killed worker's job runs on, unheard. One at a time.
 */
export function inThisThread<J, A, D>(program: WorkerProgram<J, A, D>, data: D): Launcher {
  return {
    where: 'in-process',
    maxSize: 1,
    launch(events) {
      let alive = true;
      let ended: Promise<void> | null = null;
      let toWorker: ((m: unknown) => void) | null = null;
      const end = (reason: string): Promise<void> => {
        if (ended) return ended;
        alive = false;
        ended = new Promise<void>((resolve) => setImmediate(() => {
          events.exit(reason);
          resolve();
        }));
        return ended;
      };
      const deliver = (m: unknown, transfer: TransferListItem[] | undefined, to: (m: unknown) => void) => {
        const copy: unknown = structuredClone(m, { transfer: transfer as Transferable[] | undefined });
        queueMicrotask(() => {
          if (alive) to(copy);
        });
      };
      serve({
        post: (m, transfer) => {
          if (alive) deliver(m, transfer, (c) => events.message(c));
        },
        onMessage: (f) => {
          toWorker = f;
        },
        // After the messages it posted before.
        exit: (code) => queueMicrotask(() => void end(`exit ${code}`)),
      }, program, data);
      return {
        pid: undefined,
        send: (m, transfer) => {
          if (alive) deliver(m, transfer, (c) => toWorker?.(c));
        },
        kill: () => end('exit 1'),
      };
    },
  };
}
