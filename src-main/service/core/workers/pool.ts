// One worker pool for the service's CPU-heavy work (screening, the face models, the document
// reader, export rendering), so the HTTP loop only moves jobs and answers (rule 6). Jobs wait in
// one bounded queue and a full queue refuses at once (the owner's busy error: 503 with a
// Retry-After) rather than growing; each worker takes one job at a time once it has said it is
// ready; a job has a deadline (CPU time where its worker is a process of its own, wall time
// otherwise: deadline.ts); a worker that crashes or hangs fails only the job it held and is
// replaced. Where the workers run is the launcher's (launch.ts): a thread, a process, or this
// thread. Each product keeps only its jobs, its errors and its log lines.
import type { TransferListItem } from 'node:worker_threads';
import { watchDeadline } from './deadline';
import type { Launcher, WorkerHandle } from './launch';

/** Why a job got no answer from its worker. */
export type JobFailure =
  /** Its worker ended (crashed, was killed, or could not start). */
  | 'crashed'
  /** It passed its deadline: its worker is killed and replaced. */
  | 'hung'
  /** The pool was stopped. */
  | 'stopped'
  /** The worker answered with an error (`name`: the error's name, never its message). */
  | 'error';

export type PoolEvent =
  | { kind: 'ready'; payload: unknown; ready: number; restarts: number }
  /** A worker said it cannot start (it then exits: a `lost` follows). */
  | { kind: 'start-failed'; reason: string }
  | { kind: 'hung'; by: 'cpu' | 'wall'; ms: number }
  /** A worker ended other than by stop(); `error` when it threw. Not reported once stopped. */
  | { kind: 'lost'; reason: string; error?: string; wasReady: boolean; restarts: number };

export interface WorkerPoolOptions<J> {
  launcher: Launcher;
  /** Workers (default 1; at most the launcher's maxSize). */
  size?: number;
  /** Jobs that may wait for a worker (default: no limit); beyond it run() rejects with busy(). */
  queueLimit?: number;
  busy?: (s: { queued: number; workers: number }) => Error;
  /**
   * A job's limits, from the moment its worker takes it: `cpuMs` of the worker's CPU time where it
   * is a process (wall time for a thread or this thread), `wallMs` of wall time whatever it used.
   */
  deadline?: { cpuMs: number; wallMs: number; everyMs?: number };
  /**
   * After a worker is lost: 'eager' starts another at once (a worker that never became ready
   * after a backoff, so one that cannot start is not respawned in a tight loop); 'on-demand' at
   * the next job (the jobs that waited for a worker that never became ready fail); 'never' leaves
   * the pool without it (with none left, waiting and later jobs fail).
   */
  restart?: 'eager' | 'on-demand' | 'never';
  /** Backoff step for a worker that never became ready (× restarts so far, at most 30 s). */
  backoffMs?: number;
  /** The error a job fails with. */
  fail: (why: JobFailure, name?: string) => Error;
  /** Buffers of a job moved to the worker rather than copied (threads). */
  transfer?: (job: J) => TransferListItem[];
  on?: (e: PoolEvent) => void;
}

export interface WorkerPoolStats {
  where: 'worker' | 'in-process';
  workers: number;
  ready: number;
  busy: number;
  queued: number;
  queueLimit: number;
  restarts: number;
}

export interface WorkerPool<J, A> {
  /** Starts the workers (run() does too). */
  start(): void;
  run(job: J): Promise<A>;
  stats(): WorkerPoolStats;
  /** Tests and chaos: ends one worker (the busy one if any) as a crash would. */
  crashOne(): boolean;
  /** Fails what waits or runs ('stopped') and ends every worker. */
  stop(): Promise<void>;
}

interface Waiting<A> {
  job: unknown;
  resolve: (a: A) => void;
  reject: (e: unknown) => void;
}

interface Slot<A> {
  handle: WorkerHandle;
  ready: boolean;
  /** Killed for a hung job: takes nothing more while it ends. */
  killed: boolean;
  /** Its end has been handled (lost or stopped). */
  gone: boolean;
  running: (Waiting<A> & { seq: number; unwatch: () => void }) | null;
}

type WorkerMessage = { ready?: unknown; failed?: string; seq?: number; answer?: unknown; error?: string };

export function createWorkerPool<J, A>(o: WorkerPoolOptions<J>): WorkerPool<J, A> {
  const size = Math.max(1, Math.min(o.size ?? 1, o.launcher.maxSize ?? Infinity));
  const queueLimit = o.queueLimit ?? Infinity;
  const restart = o.restart ?? 'eager';
  const backoffMs = o.backoffMs ?? 500;
  const emit = o.on ?? (() => {});
  const queue: Waiting<A>[] = [];
  const slots: Slot<A>[] = [];
  const respawns = new Set<NodeJS.Timeout>();
  let seq = 0;
  let restarts = 0;
  let started = false;
  let stopped = false;

  const failWaiting = (why: JobFailure) => {
    for (const w of queue.splice(0)) w.reject(o.fail(why));
  };
  /** Fails the job a worker holds, if any: it will get no answer. */
  const failRunning = (slot: Slot<A>, why: JobFailure) => {
    const run = slot.running;
    if (!run) return;
    slot.running = null;
    run.unwatch();
    run.reject(o.fail(why));
  };

  function spawn(): void {
    const slot = { ready: false, killed: false, gone: false, running: null } as Omit<Slot<A>, 'handle'> as Slot<A>;
    slot.handle = o.launcher.launch({
      message: (raw) => {
        // Only the protocol's objects (serve.ts); anything else a worker may send is ignored.
        if (slot.gone || typeof raw !== 'object' || raw === null) return;
        const m = raw as WorkerMessage;
        if ('ready' in m) {
          slot.ready = true;
          emit({ kind: 'ready', payload: m.ready, ready: slots.filter((s) => s.ready).length, restarts });
          pump();
          return;
        }
        if (m.failed !== undefined) {
          emit({ kind: 'start-failed', reason: m.failed });
          return;
        }
        const run = slot.running;
        if (!run || run.seq !== m.seq) return;
        run.unwatch();
        slot.running = null;
        if (m.error !== undefined) run.reject(o.fail('error', m.error));
        else run.resolve(m.answer as A);
        pump();
      },
      exit: (reason, error) => lost(slot, reason, error),
    });
    slots.push(slot);
  }

  function lost(slot: Slot<A>, reason: string, error?: string): void {
    if (slot.gone) return;
    slot.gone = true;
    const at = slots.indexOf(slot);
    if (at >= 0) slots.splice(at, 1);
    failRunning(slot, 'crashed');
    if (stopped) return;
    restarts += 1;
    emit({ kind: 'lost', reason, ...(error !== undefined ? { error } : {}), wasReady: slot.ready, restarts });
    if (restart === 'eager') {
      const t = setTimeout(() => {
        respawns.delete(t);
        if (!stopped) spawn();
      }, slot.ready ? 0 : Math.min(30_000, backoffMs * restarts));
      t.unref();
      respawns.add(t);
    } else if (restart === 'on-demand') {
      if (!slot.ready) failWaiting('crashed');
      else if (queue.length > 0) start();
    } else if (slots.length === 0) {
      failWaiting('crashed');
    }
    pump();
  }

  function pump(): void {
    for (const slot of slots) {
      if (!slot.ready || slot.killed || slot.running) continue;
      const next = queue.shift();
      if (!next) return;
      const id = ++seq;
      const d = o.deadline;
      const unwatch = d
        ? watchDeadline({
          pid: slot.handle.pid, cpuMs: d.cpuMs, wallMs: d.wallMs, everyMs: d.everyMs,
          onHung: (by, ms) => {
            emit({ kind: 'hung', by, ms });
            const run = slot.running;
            if (run?.seq === id) {
              slot.running = null;
              run.reject(o.fail('hung'));
            }
            slot.killed = true;
            void slot.handle.kill();
          },
        })
        : () => {};
      slot.running = { ...next, seq: id, unwatch };
      try {
        slot.handle.send({ seq: id, job: next.job }, o.transfer?.(next.job as J));
      } catch {
        // A worker that cannot be written to has ended: its exit fails the job.
        slot.killed = true;
        void slot.handle.kill();
      }
    }
  }

  function start(): void {
    if (stopped || (restart === 'never' && started)) return;
    started = true;
    while (slots.length + respawns.size < size) spawn();
  }

  return {
    start,
    run(job) {
      if (stopped) return Promise.reject(o.fail('stopped'));
      start();
      if (slots.length + respawns.size === 0) return Promise.reject(o.fail('crashed'));
      if (queue.length >= queueLimit) {
        const s = { queued: queue.length, workers: Math.max(1, slots.length) };
        return Promise.reject(o.busy ? o.busy(s) : o.fail('crashed'));
      }
      return new Promise<A>((resolve, reject) => {
        queue.push({ job, resolve, reject });
        pump();
      });
    },
    stats: () => ({
      where: o.launcher.where,
      workers: slots.length,
      ready: slots.filter((s) => s.ready && !s.killed).length,
      busy: slots.filter((s) => s.running).length,
      queued: queue.length,
      queueLimit,
      restarts,
    }),
    crashOne() {
      const slot = slots.find((s) => s.running) ?? slots[0];
      if (!slot) return false;
      void slot.handle.kill();
      return true;
    },
    async stop() {
      stopped = true;
      for (const t of respawns) clearTimeout(t);
      respawns.clear();
      failWaiting('stopped');
      const all = slots.splice(0);
      for (const slot of all) {
        slot.gone = true;
        failRunning(slot, 'stopped');
      }
      await Promise.all(all.map((s) => s.handle.kill()));
    },
  };
}
