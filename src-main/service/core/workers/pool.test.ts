// The worker pool every product's workers run in (screening, faces, documents, exports), with a
// stand-in program: a full queue refuses, jobs wait for a ready worker, a job past its deadline
// fails and its worker is replaced, a crashed worker fails only its job, and errors cross by
// name. The same pool code runs whatever the launcher: this thread, a thread or a process.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { StandInData, StandInJob } from '../../test/fixtures/stand-in-program';
import { standIn } from '../../test/fixtures/stand-in-program';
import { inChildProcess, inThisThread, inThread, type Launcher } from './launch';
import { createWorkerPool, type JobFailure, type PoolEvent, type WorkerPool, type WorkerPoolOptions } from './pool';

const ENTRY = fileURLToPath(new URL('../../test/fixtures/stand-in-worker.ts', import.meta.url));
const SCRIPT = fileURLToPath(new URL('../../test/fixtures/stand-in-script.ts', import.meta.url));

class Failed extends Error {
  constructor(readonly why: JobFailure, readonly errorName?: string) {
    super(why);
  }
}
class Busy extends Error {
  constructor(readonly queued: number, readonly workers: number) {
    super('busy');
  }
}

let pools: WorkerPool<StandInJob, unknown>[] = [];
afterEach(async () => {
  await Promise.all(pools.map((p) => p.stop()));
  pools = [];
});

function pool(launcher: Launcher, o: Partial<WorkerPoolOptions<StandInJob>> = {}) {
  const events: PoolEvent[] = [];
  const p = createWorkerPool<StandInJob, unknown>({
    launcher,
    fail: (why, name) => new Failed(why, name),
    busy: (s) => new Busy(s.queued, s.workers),
    on: (e) => events.push(e),
    ...o,
  });
  pools.push(p);
  const readyCount = () => events.filter((e) => e.kind === 'ready').length;
  return { p, events, readyCount };
}

/** Gates a test opens by hand, for the stand-in in this thread. */
function gates() {
  const map = new Map<string, Promise<void>>();
  const open = new Map<string, () => void>();
  const gate = (name: string) => {
    map.set(name, new Promise<void>((r) => open.set(name, r)));
    return { gate: name } as StandInJob;
  };
  return { map, gate, open: (name: string) => open.get(name)!() };
}

const here = (data: StandInData = {}) => inThisThread(standIn, data);
const failure = (why: JobFailure, errorName?: string) => expect.objectContaining({ why, ...(errorName ? { errorName } : {}) });

describe('worker pool: queue and back-pressure', () => {
  it('runs one job per worker, queues up to the limit and refuses beyond it at once; queued jobs still finish', async () => {
    const g = gates();
    const { p, readyCount } = pool(here({ gates: g.map }), { queueLimit: 2 });
    p.start();
    await expect.poll(readyCount).toBe(1);
    const jobs = ['a', 'b', 'c'].map((n) => p.run(g.gate(n)));
    expect(p.stats()).toMatchObject({ busy: 1, queued: 2 });
    const refused = await p.run({ echo: 'd' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Busy);
    expect(refused).toMatchObject({ queued: 2, workers: 1 });
    for (const n of ['a', 'b', 'c']) g.open(n);
    expect(await Promise.all(jobs)).toEqual(['a', 'b', 'c']);
    expect(p.stats()).toMatchObject({ busy: 0, queued: 0 });
  });

  it('holds jobs until a worker says it is ready, then runs them in order; the ready payload is reported', async () => {
    let started!: () => void;
    const starting = new Promise<void>((r) => (started = r));
    const { p, events } = pool(here({ starting }));
    const first = p.run({ echo: 1 });
    const second = p.run({ echo: 2 });
    await new Promise((r) => setTimeout(r, 20));
    expect(p.stats()).toMatchObject({ workers: 1, ready: 0, busy: 0, queued: 2 });
    started();
    expect(await Promise.all([first, second])).toEqual([1, 2]);
    expect(events.find((e) => e.kind === 'ready')).toMatchObject({ payload: { program: 'stand-in' }, ready: 1 });
  });

  it('a job that throws fails with the error name only, and the worker takes the next job', async () => {
    const calls: unknown[] = [];
    const { p } = pool(here(), { fail: (why, name) => (calls.push([why, name]), new Failed(why, name)) });
    await expect(p.run({ throws: 'Zyqsecret Putin 1952-10-07' })).rejects.toEqual(failure('error', 'TypeError'));
    expect(calls).toEqual([['error', 'TypeError']]);
    expect(await p.run({ echo: 'next' })).toBe('next');
    expect(p.stats().restarts).toBe(0);
  });
});

describe('worker pool: deadline, crash and restart', () => {
  it('a job past its deadline fails as hung, its worker is replaced, and the next job is answered', async () => {
    const { p, events } = pool(here(), { deadline: { cpuMs: 150, wallMs: 150, everyMs: 10 } });
    await expect(p.run({ hang: true })).rejects.toEqual(failure('hung'));
    expect(events.find((e) => e.kind === 'hung')).toMatchObject({ by: 'wall' });
    expect(await p.run({ echo: 'after' })).toBe('after');
    expect(p.stats()).toMatchObject({ workers: 1, restarts: 1 });
  });

  it('a job that answers within its deadline is not touched', async () => {
    const { p, events } = pool(here(), { deadline: { cpuMs: 5_000, wallMs: 5_000, everyMs: 10 } });
    expect(await p.run({ sleepMs: 50, echo: 'slow' })).toBe('slow');
    expect(events.filter((e) => e.kind === 'hung' || e.kind === 'lost')).toEqual([]);
  });

  it('a crashed worker fails only the job it held; the queued job is answered by a fresh worker', async () => {
    const g = gates();
    const { p, events, readyCount } = pool(here({ gates: g.map }));
    p.start();
    await expect.poll(readyCount).toBe(1);
    const held = p.run(g.gate('held'));
    const queued = p.run({ echo: 'queued' });
    expect(p.crashOne()).toBe(true);
    await expect(held).rejects.toEqual(failure('crashed'));
    expect(await queued).toBe('queued');
    expect(events.find((e) => e.kind === 'lost')).toMatchObject({ wasReady: true, restarts: 1 });
    expect(readyCount()).toBe(2);
  });

  it('a worker that cannot start is replaced after a backoff, not at once; a job meanwhile waits for it', async () => {
    const { p, events } = pool(here({ failStart: true }), { backoffMs: 60_000 });
    p.start();
    await expect.poll(() => events.filter((e) => e.kind === 'lost').length).toBe(1);
    expect(events[0]).toMatchObject({ kind: 'start-failed', reason: 'RangeError' });
    expect(events[1]).toMatchObject({ kind: 'lost', wasReady: false, restarts: 1 });
    // A worker that was ready is replaced at once (the crash test); this one waits its backoff.
    expect(p.stats()).toMatchObject({ workers: 0, restarts: 1 });
    void p.run({ echo: 1 }).catch(() => {});
    expect(p.stats()).toMatchObject({ workers: 0, queued: 1 });
  });

  it("'on-demand': a lost worker is replaced by the next job; jobs that waited for one that never started fail", async () => {
    const { p } = pool(here({ failStart: true }), { restart: 'on-demand' });
    await expect(p.run({ echo: 1 })).rejects.toEqual(failure('crashed'));
    expect(p.stats().workers).toBe(0);
    const again = p.run({ echo: 2 });
    expect(p.stats().workers).toBe(1);
    await expect(again).rejects.toEqual(failure('crashed'));
  });

  it("'never': once its worker is lost, what waits and what comes fail as crashed", async () => {
    const g = gates();
    const { p, readyCount } = pool(here({ gates: g.map }), { restart: 'never' });
    p.start();
    await expect.poll(readyCount).toBe(1);
    const held = p.run(g.gate('held'));
    const queued = p.run({ echo: 'queued' });
    p.crashOne();
    await expect(held).rejects.toEqual(failure('crashed'));
    await expect(queued).rejects.toEqual(failure('crashed'));
    await expect(p.run({ echo: 'later' })).rejects.toEqual(failure('crashed'));
    expect(p.stats().workers).toBe(0);
  });

  it('stop fails what runs and waits, and refuses later jobs', async () => {
    const g = gates();
    const { p, readyCount } = pool(here({ gates: g.map }));
    p.start();
    await expect.poll(readyCount).toBe(1);
    const held = p.run(g.gate('held')).catch((e: unknown) => e);
    const queued = p.run({ echo: 'queued' }).catch((e: unknown) => e);
    await p.stop();
    expect(await held).toEqual(failure('stopped'));
    expect(await queued).toEqual(failure('stopped'));
    await expect(p.run({ echo: 'later' })).rejects.toEqual(failure('stopped'));
  });
});

describe('worker pool: a worker in this thread and the process', () => {
  it('jobs and answers are copied, and buffers in the transfer list moved, as to and from a thread', async () => {
    const { p, readyCount } = pool(here(), { transfer: (job) => ('echo' in job && job.echo instanceof Uint8Array ? [job.echo.buffer as ArrayBuffer] : []) });
    p.start();
    await expect.poll(readyCount).toBe(1);
    const bytes = new Uint8Array([1, 2, 3]);
    const moved = p.run({ echo: bytes });
    expect(bytes.byteLength).toBe(0);
    expect(await moved).toEqual(new Uint8Array([1, 2, 3]));
    const record = { name: 'copied' };
    const copy = await p.run({ echo: record });
    expect(copy).toEqual(record);
    expect(copy).not.toBe(record);
  });

  it('says it is ready in the turn its start ends, as a direct call would: a timer that expired meanwhile does not overtake it', async () => {
    const order: string[] = [];
    const { p } = pool(here({ busyStartMs: 50 }), { on: (e) => e.kind === 'ready' && order.push('ready') });
    setTimeout(() => order.push('timer'), 1);
    p.start();
    await expect.poll(() => order.length).toBe(2);
    // What a wait with a timeout (screening.ready) sees from source while the lists index here.
    expect(order).toEqual(['ready', 'timer']);
  });

  it('a script awaiting its answer gets it, then exits by itself with the worker idle', async () => {
    const run = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = execFile(process.execPath, ['--import', 'tsx', SCRIPT], { timeout: 20_000 }, (_e, out) => resolve({ code: child.exitCode, out }));
    });
    expect(run).toEqual({ code: 0, out: 'answered' });
  }, 30_000);
});

describe('worker pool: the same code in a thread and in a child process (the entry through tsx)', () => {
  it('a thread that exits fails its job and a new thread answers the next', async () => {
    const { p, events } = pool(inThread(ENTRY));
    expect(await p.run({ echo: 'thread' })).toBe('thread');
    await expect(p.run({ exit: 3 })).rejects.toEqual(failure('crashed'));
    expect(events.find((e) => e.kind === 'lost')).toMatchObject({ reason: 'exit 3' });
    expect(await p.run({ echo: 'again' })).toBe('again');
    expect(p.stats()).toMatchObject({ where: 'worker', restarts: 1 });
  }, 30_000);

  it.runIf(process.platform === 'linux')("a process's deadline counts its CPU time: a spinning process is killed by it, a sleeping one is not", async () => {
    const { p, events } = pool(inChildProcess(ENTRY), { deadline: { cpuMs: 300, wallMs: 60_000, everyMs: 50 } });
    expect(await p.run({ sleepMs: 800, echo: 'slept' })).toBe('slept');
    await expect(p.run({ spin: true })).rejects.toEqual(failure('hung'));
    expect(events.find((e) => e.kind === 'hung')).toMatchObject({ by: 'cpu' });
    expect(await p.run({ echo: 'fresh' })).toBe('fresh');
    expect(events.find((e) => e.kind === 'lost')).toMatchObject({ reason: 'SIGKILL', restarts: 1 });
  }, 30_000);
});
