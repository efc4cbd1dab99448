// Worker thread for the face models: loads them once, warms them, then analyses one image per
// message. Errors are answered by name only: nothing about the image leaves this thread but the
// readings the pool asked for.
import { parentPort } from 'node:worker_threads';
import { lowerThreadPriority } from './priority';
import { loadFaceEngine } from '../core/faces/engine';
import type { FaceJob } from '../core/faces/types';

const port = parentPort!;

lowerThreadPriority();

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
