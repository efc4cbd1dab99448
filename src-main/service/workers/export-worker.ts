// Worker thread for report exports (core/exports/worker.ts, served to core/exports/runner.ts): a
// large report never holds the HTTP loop (architecture rule 6). Errors are answered by name only.
import { lowerThreadPriority } from './priority';
import { exportWorker } from '../core/exports/worker';
import { serveThread } from '../core/workers/serve';

lowerThreadPriority();
serveThread(exportWorker);
