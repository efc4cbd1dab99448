// The face workers: threads that each load the face models once, warm them, and analyse one image
// at a time, so the HTTP loop never runs a model (rule 6). Jobs wait in one bounded queue; when it
// is full the request is refused at once with 503 and a Retry-After estimate, rather than
// growing. A worker that crashes or hangs fails only the request it held (503, not billed) and is
// replaced. Running from source (tsx, vitest) there is no built worker: the models run in this
// thread, one job at a time, behind the same queue.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { AppError } from '../../../../src-shared/errors';
import { APP_ROOT } from '../../paths';
import { loadFaceEngine, type FaceEngine } from './engine';
import type { FaceAnalysis, FaceJob } from './types';

/** One worker per core but one (the HTTP loop and image decoding keep a core), 1 to 4. */
export function defaultPoolSize(cores = availableParallelism()): number {
  return Math.max(1, Math.min(4, cores - 1));
}

export interface FacePoolOptions {
  size?: number;
  /** Jobs that may wait for a worker; beyond it requests answer 503 (default 24 per worker, at least 32). */
  queueLimit?: number;
  /** A job running longer than this is a hung worker: it is stopped and replaced. */
  jobTimeoutMs?: number;
  log?: (msg: string, fields?: Record<string, string | number>) => void;
  /** Tests: force the in-process engine even when a built worker exists. */
  inProcess?: boolean;
  /** Tests: the built worker to run (from source there is none by default). */
  workerFile?: string;
}

type Waiting = { job: FaceJob; resolve: (a: FaceAnalysis) => void; reject: (e: unknown) => void };

interface Slot {
  worker: Worker;
  ready: boolean;
  running: (Waiting & { seq: number; timer: NodeJS.Timeout }) | null;
}

function workerEntry(): URL | null {
  if (import.meta.url.endsWith('.ts')) return null;
  const built = join(APP_ROOT, 'out', 'main', 'faces-worker.js');
  return existsSync(built) ? pathToFileURL(built) : null;
}

const failed = () => new AppError('analysis_failed');

let processEngine: Promise<FaceEngine> | null = null;
/** One engine per process for in-process mode: the models are loaded and warmed once. */
function inProcessEngine(): Promise<FaceEngine> {
  processEngine ??= loadFaceEngine().then(async (e) => (await e.warm(), e));
  processEngine.catch(() => (processEngine = null));
  return processEngine;
}

export function createFacePool(opts: FacePoolOptions = {}) {
  const size = opts.size ?? defaultPoolSize();
  const queueLimit = opts.queueLimit ?? Math.max(32, 24 * size);
  const jobTimeoutMs = opts.jobTimeoutMs ?? 30_000;
  const log = opts.log ?? (() => {});
  const entry = opts.inProcess ? null : opts.workerFile ? pathToFileURL(opts.workerFile) : workerEntry();
  const queue: Waiting[] = [];
  const slots: Slot[] = [];
  let seq = 0;
  let stopped = false;
  let started = false;
  /** Recent inference time per job, for the Retry-After estimate. */
  let avgMs = 400;
  let restarts = 0;

  // In-process: the process's one engine (shared by every service in a test process), one job at a time.
  let local: Promise<FaceEngine> | null = null;
  let localBusy = false;
  const localEngine = () => (local ??= inProcessEngine());

  function spawn(): void {
    if (stopped || !entry) return;
    const worker = new Worker(entry, { resourceLimits: { maxOldGenerationSizeMb: 1024 } });
    const slot: Slot = { worker, ready: false, running: null };
    slots.push(slot);
    worker.on('message', (m: { ready?: true; failed?: string; seq?: number; answer?: FaceAnalysis; error?: string; ms?: number }) => {
      if (m.ready) {
        slot.ready = true;
        log('faces_worker_ready', { workers: slots.filter((s) => s.ready).length });
        pump();
        return;
      }
      if (m.failed) {
        log('faces_worker_failed', { reason: m.failed });
        return;
      }
      const run = slot.running;
      if (!run || run.seq !== m.seq) return;
      clearTimeout(run.timer);
      slot.running = null;
      if (m.answer) {
        avgMs = avgMs * 0.8 + m.answer.inferenceMs * 0.2;
        run.resolve(m.answer);
      } else {
        run.reject(failed());
      }
      pump();
    });
    const lost = (why: string) => {
      const i = slots.indexOf(slot);
      if (i < 0) return;
      slots.splice(i, 1);
      if (slot.running) {
        clearTimeout(slot.running.timer);
        slot.running.reject(failed());
        slot.running = null;
      }
      if (stopped) return;
      restarts += 1;
      log('faces_worker_replaced', { reason: why, restarts });
      // A worker that cannot even start must not be respawned in a tight loop.
      setTimeout(spawn, slot.ready ? 0 : Math.min(30_000, 500 * restarts)).unref();
      pump();
    };
    worker.on('error', (e) => lost(e instanceof Error ? e.name : 'error'));
    worker.on('exit', (code) => lost(`exit ${code}`));
  }

  function pump(): void {
    if (entry) {
      for (const slot of slots) {
        if (!slot.ready || slot.running) continue;
        const next = queue.shift();
        if (!next) return;
        const id = ++seq;
        const timer = setTimeout(() => {
          log('faces_worker_hung', { ms: jobTimeoutMs });
          void slot.worker.terminate();
        }, jobTimeoutMs);
        slot.running = { ...next, seq: id, timer };
        // The pixels move to the worker; nothing of them stays here.
        const { rgb, width, height, describe, match, portrait } = next.job;
        slot.worker.postMessage({ seq: id, job: { rgb, width, height, describe, match, portrait } }, [rgb.buffer as ArrayBuffer]);
      }
      return;
    }
    if (localBusy) return;
    const next = queue.shift();
    if (!next) return;
    localBusy = true;
    localEngine()
      .then((engine) => engine.analyze(next.job))
      .then(
        (a) => {
          avgMs = avgMs * 0.8 + a.inferenceMs * 0.2;
          next.resolve(a);
        },
        () => next.reject(failed()),
      )
      .finally(() => {
        localBusy = false;
        pump();
      });
  }

  function start(): void {
    if (started) return;
    started = true;
    if (entry) for (let i = 0; i < size; i++) spawn();
    else void localEngine();
    log('faces_pool', { in: entry ? 'worker' : 'in-process', workers: entry ? size : 0, queue: queueLimit });
  }

  return {
    /** Loads and warms the models in the background (the service's start calls it). */
    start,
    /** Analyses one decoded image; its pixels are handed over (the caller must not reuse them). */
    analyze(job: FaceJob): Promise<FaceAnalysis> {
      if (stopped) return Promise.reject(failed());
      start();
      if (queue.length >= queueLimit) {
        const workers = Math.max(1, entry ? slots.length : 1);
        const retry = Math.max(1, Math.ceil(((queue.length / workers) * avgMs) / 1000));
        return Promise.reject(new AppError('analysis_busy', { retry_after: retry }));
      }
      // A copy the pool owns, so a transfer never detaches the caller's buffer.
      const rgb = new Uint8Array(job.rgb);
      return new Promise<FaceAnalysis>((resolve, reject) => {
        queue.push({ job: { rgb, width: job.width, height: job.height, describe: job.describe !== false, match: job.match === true, portrait: job.portrait === true }, resolve, reject });
        pump();
      });
    },
    stats() {
      return {
        mode: entry ? ('worker' as const) : ('in-process' as const),
        workers: entry ? slots.length : 1,
        ready: entry ? slots.filter((s) => s.ready).length : local ? 1 : 0,
        busy: entry ? slots.filter((s) => s.running).length : localBusy ? 1 : 0,
        queued: queue.length,
        queueLimit,
        restarts,
      };
    },
    /** Tests and chaos: stop one worker as a crash would. */
    crashOne(): boolean {
      const slot = slots.find((s) => s.running) ?? slots[0];
      if (!slot) return false;
      void slot.worker.terminate();
      return true;
    },
    async stop(): Promise<void> {
      stopped = true;
      for (const w of queue.splice(0)) w.reject(failed());
      await Promise.all(slots.splice(0).map((s) => s.worker.terminate()));
    },
  };
}
export type FacePool = ReturnType<typeof createFacePool>;
