// What a face worker runs (workers/faces-worker.ts in a thread; from source, the pool runs it in
// this thread): loads the models once, warms them, then analyses one image per job. Ready without
// the face-match descriptor: it loads once the worker has been idle a moment (or with the first
// job that matches), so the first liveness answer does not wait for it.
import type { WorkerProgram } from '../workers/serve';
import { loadFaceEngine, type FaceEngine } from './engine';
import type { FaceAnalysis, FaceJob } from './types';

/** How long the worker waits without a job before it loads the descriptor network. */
const IDLE_MS = 300;

let loaded: Promise<FaceEngine> | null = null;
/**
 * The models, loaded and warmed once per thread: each worker thread has its own, and in this
 * thread every pool (every service of a test process) and every replacement worker shares one.
 */
function engineOnce(): Promise<FaceEngine> {
  loaded ??= loadFaceEngine().then(async (e) => (await e.warm(), e));
  loaded.catch(() => (loaded = null));
  return loaded;
}

export const facesWorker: WorkerProgram<FaceJob, FaceAnalysis> = {
  async start() {
    const engine = await engineOnce();
    let idle: ReturnType<typeof setTimeout> | undefined;
    const whenIdle = () => {
      idle = setTimeout(() => engine.warmMatch(), IDLE_MS);
      idle.unref();
    };
    whenIdle();
    return {
      ready: true,
      run(job) {
        clearTimeout(idle);
        return engine.analyze(job).finally(whenIdle);
      },
    };
  },
};
