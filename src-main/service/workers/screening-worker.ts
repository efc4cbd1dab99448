// Worker thread for screening (core/screening/worker.ts, served to core/screening/pool.ts): holds
// the index of the lists as they were at its start, so the service's event loop only moves
// requests, answers and ledger rows, and never builds an index. Errors are answered by name only.
import { screeningWorker } from '../core/screening/worker';
import { serveThread } from '../core/workers/serve';

serveThread(screeningWorker);
