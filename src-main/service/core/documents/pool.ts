// The document reader: one child process (workers/document-reader.ts) that holds the text models
// and reads one document at a time, in the worker pool (core/workers/pool.ts): jobs wait in a
// bounded queue (503 DOCUMENT_READER_BUSY beyond it); a reader that crashes or hangs fails only the
// request it held (503 DOCUMENT_READER_FAILED, not billed) and a fresh process takes the next one.
// From source (tsx, vitest) the child runs the TypeScript entry through tsx, so the models never
// load into the HTTP process in any mode.
import { AppError } from '../../../../src-shared/errors';
import { inChildProcess, workerEntry } from '../workers/launch';
import { createWorkerPool } from '../workers/pool';
import type { RgbImage } from './ocr';
import type { DocumentReading } from './reader';

export interface DocumentReaderOptions {
  /** Jobs that may wait; beyond it requests answer 503. */
  queueLimit?: number;
  /**
   * A read using more CPU time than this is a hung reader: the process is killed and replaced.
   * CPU time, not wall time (core/workers/deadline.ts): a reader waiting for a busy core is not hung.
   */
  jobTimeoutMs?: number;
  /** A read unanswered after this wall time is a stuck reader, whatever CPU it used. */
  jobWallLimitMs?: number;
  log?: (msg: string, fields?: Record<string, string | number>) => void;
  /** Tests: the entry to run. */
  entry?: string;
}

export function createDocumentReader(opts: DocumentReaderOptions = {}) {
  const queueLimit = opts.queueLimit ?? 16;
  const jobTimeoutMs = opts.jobTimeoutMs ?? 30_000;
  const jobWallLimitMs = opts.jobWallLimitMs ?? 4 * jobTimeoutMs;
  const log = opts.log ?? (() => {});
  let avgMs = 1200;

  const pool = createWorkerPool<RgbImage, DocumentReading>({
    launcher: inChildProcess(opts.entry ?? workerEntry('document-reader')),
    queueLimit,
    busy: (s) => new AppError('document_reader_busy', { retry_after: Math.max(1, Math.ceil(((s.queued + 1) * avgMs) / 1000)) }),
    deadline: { cpuMs: jobTimeoutMs, wallMs: jobWallLimitMs },
    backoffMs: 200,
    fail: () => new AppError('document_reader_failed'),
    on: (e) => {
      if (e.kind === 'ready') log('document_reader_ready', { restarts: e.restarts });
      else if (e.kind === 'start-failed') log('document_reader_failed_to_load', { reason: e.reason });
      else if (e.kind === 'hung') log('document_reader_hung', { by: e.by, ms: e.ms });
      else log('document_reader_replaced', { reason: e.reason, restarts: e.restarts });
    },
  });

  return {
    start: pool.start,
    /** Reads one document image (upright RGB). */
    async read(job: RgbImage): Promise<DocumentReading> {
      const answer = await pool.run(job);
      avgMs = avgMs * 0.8 + answer.ms * 0.2;
      return answer;
    },
    stats: () => {
      const s = pool.stats();
      return { started: s.workers > 0, ready: s.ready > 0, busy: s.busy > 0, queued: s.queued, restarts: s.restarts };
    },
    /** Tests and chaos: ends the reader as a crash would. */
    crash: pool.crashOne,
    stop: pool.stop,
  };
}
export type DocumentReader = ReturnType<typeof createDocumentReader>;
