// Worker thread for the face models: loads them once, warms them, then analyses one image per
// message. Errors are answered by name only: nothing about the image leaves this thread but the
// readings the pool asked for.
import { parentPort } from 'node:worker_threads';
import { lowerThreadPriority } from './priority';
import { loadFaceEngine } from '../core/faces/engine';
import type { FaceJob } from '../core/faces/types';

const port = parentPort!;
/** How long the worker waits without a job before it loads the descriptor network. */
const IDLE_MS = 300;

lowerThreadPriority();

loadFaceEngine().then(
  async (engine) => {
    await engine.warm();
    // Ready without the face-match descriptor: it loads once the worker has been idle a moment
    // (or with the first job that matches), so the first liveness answer does not wait for it.
    let idle: ReturnType<typeof setTimeout> | undefined;
    const whenIdle = () => {
      idle = setTimeout(() => engine.warmMatch(), IDLE_MS);
      idle.unref();
    };
    port.on('message', (m: { seq: number; job: FaceJob }) => {
      clearTimeout(idle);
      engine.analyze(m.job).then(
        (answer) => port.postMessage({ seq: m.seq, answer }),
        (e: unknown) => port.postMessage({ seq: m.seq, error: e instanceof Error ? e.name : 'Error' }),
      ).finally(whenIdle);
    });
    port.postMessage({ ready: true });
    whenIdle();
  },
  (e: unknown) => {
    port.postMessage({ failed: e instanceof Error ? e.name : 'models failed to load' });
    process.exit(1);
  },
);
