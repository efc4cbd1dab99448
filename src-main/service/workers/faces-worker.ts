// Worker thread for the face models: loads them once, warms them, then analyses one image per
// message. Errors are answered by name only: nothing about the image leaves this thread but the
// readings the pool asked for.
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { loadFaceEngine } from '../core/faces/engine';
import type { FaceJob } from '../core/faces/types';

const port = parentPort!;

/**
 * The models run at a lower CPU priority than the HTTP thread, so a core busy with faces never
 * delays an answer (on 2 cores the scheduler otherwise lets a model run on while /api/health
 * waits). Linux: this thread's own id from /proc/thread-self, and setpriority on it, which
 * affects only this thread. Elsewhere, or when refused, the worker runs at normal priority.
 */
function lowerPriority(): void {
  if (process.platform !== 'linux') return;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, 10);
  } catch {
    // Best effort.
  }
}
lowerPriority();

loadFaceEngine().then(
  async (engine) => {
    await engine.warm();
    port.on('message', (m: { seq: number; job: FaceJob }) => {
      engine.analyze(m.job).then(
        (answer) => port.postMessage({ seq: m.seq, answer }),
        (e: unknown) => port.postMessage({ seq: m.seq, error: e instanceof Error ? e.name : 'Error' }),
      );
    });
    port.postMessage({ ready: true });
  },
  (e: unknown) => {
    port.postMessage({ failed: e instanceof Error ? e.name : 'models failed to load' });
    process.exit(1);
  },
);
