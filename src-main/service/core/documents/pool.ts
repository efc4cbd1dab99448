// The document reader: one child process (workers/document-reader.ts) that holds the text models
// and reads one document at a time; jobs wait in a bounded queue. A reader that crashes or hangs
// fails only the request it held (503 DOCUMENT_READER_FAILED, not billed) and a fresh process
// takes the next one. From source (tsx, vitest) the child runs the TypeScript entry through tsx,
// so the models never load into the HTTP process in any mode.
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../../../src-shared/errors';
import { APP_ROOT } from '../../paths';
import { watchDeadline } from '../workers/deadline';
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

type Waiting = { job: RgbImage; resolve: (r: DocumentReading) => void; reject: (e: unknown) => void };

function defaultEntry(): { file: string; execArgv: string[] } {
  const built = join(APP_ROOT, 'out', 'main', 'document-reader.js');
  if (!import.meta.url.endsWith('.ts') && existsSync(built)) return { file: built, execArgv: [] };
  return { file: join(APP_ROOT, 'src-main', 'service', 'workers', 'document-reader.ts'), execArgv: ['--import', 'tsx'] };
}

export function createDocumentReader(opts: DocumentReaderOptions = {}) {
  const queueLimit = opts.queueLimit ?? 16;
  const jobTimeoutMs = opts.jobTimeoutMs ?? 30_000;
  const jobWallLimitMs = opts.jobWallLimitMs ?? 4 * jobTimeoutMs;
  const log = opts.log ?? (() => {});
  const entry = opts.entry ? { file: opts.entry, execArgv: opts.entry.endsWith('.ts') ? ['--import', 'tsx'] : [] } : defaultEntry();
  const queue: Waiting[] = [];
  let child: ChildProcess | null = null;
  let ready = false;
  let running: (Waiting & { seq: number; unwatch: () => void }) | null = null;
  let seq = 0;
  let restarts = 0;
  let stopped = false;
  let avgMs = 1200;

  const failed = () => new AppError('document_reader_failed');

  let respawn: NodeJS.Timeout | null = null;

  function spawn(): void {
    respawn = null;
    if (stopped || child) return;
    ready = false;
    const proc = fork(entry.file, [], {
      cwd: APP_ROOT,
      execArgv: entry.execArgv,
      serialization: 'advanced',
      // Nothing the reader prints can reach a log: it holds subject data.
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    });
    child = proc;
    proc.on('message', (m: { ready?: true; failed?: string; seq?: number; answer?: DocumentReading; error?: string }) => {
      if (m.ready) {
        ready = true;
        log('document_reader_ready', { restarts });
        pump();
        return;
      }
      if (m.failed) {
        log('document_reader_failed_to_load', { reason: m.failed });
        return;
      }
      const run = running;
      if (!run || run.seq !== m.seq) return;
      run.unwatch();
      running = null;
      if (m.answer) {
        avgMs = avgMs * 0.8 + m.answer.ms * 0.2;
        run.resolve(m.answer);
      } else run.reject(failed());
      pump();
    });
    proc.on('exit', (code, signal) => {
      if (child !== proc) return;
      child = null;
      ready = false;
      if (running) {
        running.unwatch();
        running.reject(failed());
        running = null;
      }
      if (stopped) return;
      restarts += 1;
      log('document_reader_replaced', { reason: signal ?? `exit ${code}`, restarts });
      respawn = setTimeout(spawn, Math.min(30_000, 200 * restarts));
    });
    proc.on('error', () => proc.kill('SIGKILL'));
  }

  function pump(): void {
    if (!child || !ready || running) return;
    const next = queue.shift();
    if (!next) return;
    const id = ++seq;
    const proc = child;
    const unwatch = watchDeadline({
      pid: proc.pid, cpuMs: jobTimeoutMs, wallMs: jobWallLimitMs,
      onHung: (why, ms) => {
        log('document_reader_hung', { by: why, ms });
        proc.kill('SIGKILL');
      },
    });
    running = { ...next, seq: id, unwatch };
    proc.send({ seq: id, job: next.job });
  }

  function start(): void {
    if (child || stopped || respawn) return;
    spawn();
  }

  return {
    start,
    /** Reads one document image (upright RGB). */
    read(job: RgbImage): Promise<DocumentReading> {
      if (stopped) return Promise.reject(failed());
      start();
      if (queue.length >= queueLimit) {
        return Promise.reject(new AppError('document_reader_busy', { retry_after: Math.max(1, Math.ceil(((queue.length + 1) * avgMs) / 1000)) }));
      }
      return new Promise<DocumentReading>((resolve, reject) => {
        queue.push({ job, resolve, reject });
        pump();
      });
    },
    stats: () => ({ ready, busy: Boolean(running), queued: queue.length, restarts }),
    /** Tests and chaos: ends the reader as a crash would. */
    crash(): boolean {
      if (!child) return false;
      child.kill('SIGKILL');
      return true;
    },
    async stop(): Promise<void> {
      stopped = true;
      if (respawn) clearTimeout(respawn);
      for (const w of queue.splice(0)) w.reject(failed());
      const proc = child;
      child = null;
      if (proc && proc.exitCode === null) {
        await new Promise<void>((resolve) => {
          proc.once('exit', () => resolve());
          proc.kill('SIGKILL');
        });
      }
    },
  };
}
export type DocumentReader = ReturnType<typeof createDocumentReader>;
