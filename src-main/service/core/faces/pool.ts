// The face workers: threads that each load the face models once, warm them, and analyse one image
// at a time, so the HTTP loop never runs a model (rule 6), in the worker pool
// (core/workers/pool.ts). Jobs wait in one bounded queue; when it is full the request is refused
// at once with 503 and a Retry-After estimate, rather than growing. A worker that crashes or hangs
// fails only the request it held (503, not billed) and is replaced. Running from source (tsx,
// vitest) there is no built worker: the same worker program runs in this thread, one job at a
// time, behind the same queue, deadline and restart code.
import { availableParallelism } from 'node:os';
import { AppError } from '../../../../src-shared/errors';
import { builtWorker, inThisThread, inThread } from '../workers/launch';
import { createWorkerPool } from '../workers/pool';
import type { FaceAnalysis, FaceJob } from './types';
import { facesWorker } from './worker';

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
  /** Tests: force the in-process worker even when a built worker exists. */
  inProcess?: boolean;
  /** Tests: the built worker to run (from source there is none by default). */
  workerFile?: string;
}

export function createFacePool(opts: FacePoolOptions = {}) {
  const size = opts.size ?? defaultPoolSize();
  const queueLimit = opts.queueLimit ?? Math.max(32, 24 * size);
  const jobTimeoutMs = opts.jobTimeoutMs ?? 30_000;
  const log = opts.log ?? (() => {});
  const built = opts.inProcess ? null : (opts.workerFile ?? builtWorker('faces-worker'));
  const launcher = built ? inThread(built, { resourceLimits: { maxOldGenerationSizeMb: 1024 } }) : inThisThread(facesWorker, undefined);
  /** Recent inference time per job, for the Retry-After estimate. */
  let avgMs = 400;
  let started = false;

  const pool = createWorkerPool<FaceJob, FaceAnalysis>({
    launcher,
    size,
    queueLimit,
    busy: (s) => new AppError('analysis_busy', { retry_after: Math.max(1, Math.ceil(((s.queued / s.workers) * avgMs) / 1000)) }),
    deadline: { cpuMs: jobTimeoutMs, wallMs: jobTimeoutMs },
    fail: () => new AppError('analysis_failed'),
    // The pixels move to the worker; nothing of them stays here.
    transfer: (job) => [job.rgb.buffer as ArrayBuffer],
    on: (e) => {
      if (e.kind === 'ready') log('faces_worker_ready', { workers: e.ready });
      else if (e.kind === 'start-failed') log('faces_worker_failed', { reason: e.reason });
      else if (e.kind === 'hung') log('faces_worker_hung', { ms: jobTimeoutMs });
      else log('faces_worker_replaced', { reason: e.reason, restarts: e.restarts });
    },
  });

  function start(): void {
    if (started) return;
    started = true;
    pool.start();
    const where = launcher.where;
    log('faces_pool', { in: where, workers: where === 'worker' ? size : 0, queue: queueLimit });
  }

  return {
    /** Loads and warms the models in the background (the service's start calls it). */
    start,
    /** Analyses one decoded image; its pixels are handed over (the caller must not reuse them). */
    async analyze(job: FaceJob): Promise<FaceAnalysis> {
      start();
      // A copy the pool owns, so a transfer never detaches the caller's buffer.
      const rgb = new Uint8Array(job.rgb);
      const a = await pool.run({ rgb, width: job.width, height: job.height, describe: job.describe !== false, match: job.match === true, portrait: job.portrait === true });
      avgMs = avgMs * 0.8 + a.inferenceMs * 0.2;
      return a;
    },
    stats() {
      const s = pool.stats();
      return { mode: s.where, workers: s.workers, ready: s.ready, busy: s.busy, queued: s.queued, queueLimit, restarts: s.restarts };
    },
    /** Tests and chaos: stop one worker as a crash would. */
    crashOne: pool.crashOne,
    stop: pool.stop,
  };
}
export type FacePool = ReturnType<typeof createFacePool>;
