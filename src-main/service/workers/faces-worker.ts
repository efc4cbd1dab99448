// Worker thread for the face models (core/faces/worker.ts, served to core/faces/pool.ts). Errors
// are answered by name only: nothing about the image leaves this thread but the readings the pool
// asked for.
import { lowerThreadPriority } from './priority';
import { facesWorker } from '../core/faces/worker';
import { serveThread } from '../core/workers/serve';

lowerThreadPriority();
serveThread(facesWorker);
