// The worker's side of the pool (pool.ts): what a worker runs is a program, a start that loads
// what its jobs need (models, lists) and a function per job. `serve` speaks the pool's messages
// for it, the same in a worker thread, a child process and this thread (launch.ts's in-process
// worker): `{ready}` once started, or `{failed}` and an exit; then `{seq, answer}` or
// `{seq, error}` per job. Errors cross by name only: a message could quote the subject.
import { parentPort, workerData, type TransferListItem } from 'node:worker_threads';

export interface Serving<J, A> {
  /** The ready message's payload (what the pool's owner learns of the loaded state). */
  ready: unknown;
  run(job: J): Promise<A> | A;
  /** Buffers of an answer (to `job`) moved to the pool rather than copied (threads). */
  transfer?(answer: A, job: J): TransferListItem[];
}

export interface WorkerProgram<J, A, D = undefined> {
  start(data: D): Promise<Serving<J, A>>;
}

/** How a worker talks to its pool. */
export interface JobPort {
  post(message: unknown, transfer?: TransferListItem[]): void;
  onMessage(f: (message: unknown) => void): void;
  exit(code: number): void;
}

type JobMessage = { seq: number; job: unknown };

const nameOf = (e: unknown) => (e instanceof Error ? e.name : 'Error');

export function serve<J, A, D>(port: JobPort, program: WorkerProgram<J, A, D>, data: D): void {
  program.start(data).then(
    (s) => {
      port.onMessage((m) => {
        const { seq, job } = m as JobMessage;
        new Promise<A>((resolve) => resolve(s.run(job as J))).then(
          (answer) => port.post({ seq, answer }, s.transfer?.(answer, job as J)),
          (e: unknown) => port.post({ seq, error: nameOf(e) }),
        );
      });
      port.post({ ready: s.ready });
    },
    (e: unknown) => {
      port.post({ failed: e instanceof Error ? e.name : 'failed to start' });
      port.exit(1);
    },
  );
}

/** In a worker thread (the entry's): the program with the thread's workerData. */
export function serveThread<J, A, D>(program: WorkerProgram<J, A, D>): void {
  const port = parentPort!;
  serve({
    post: (m, transfer) => port.postMessage(m, transfer),
    onMessage: (f) => port.on('message', f),
    exit: (code) => process.exit(code),
  }, program, workerData as D);
}

/** In a child process forked with an IPC channel (the entry's): it ends with its parent. */
export function serveProcess<J, A>(program: WorkerProgram<J, A>): void {
  process.on('disconnect', () => process.exit(0));
  serve({
    post: (m) => process.send?.(m),
    onMessage: (f) => process.on('message', f),
    exit: (code) => process.exit(code),
  }, program, undefined);
}
