// Worker thread for batch rescreens: holds its own copy of the list index and turns rows into
// finished NDJSON lines, so the service's event loop only moves strings and writes the ledger.
import { parentPort, workerData } from 'node:worker_threads';
import { screenRows, type RowJob } from '../core/screening/rows';
import { loadIndex } from '../core/screening/service';

const { watchlistsDir, dataDir } = workerData as { watchlistsDir: string; dataDir: string | undefined };
const port = parentPort!;

loadIndex(watchlistsDir, dataDir).then(
  (loaded) => {
    port.on('message', (job: RowJob & { seq: number }) => {
      port.postMessage({ seq: job.seq, results: screenRows(loaded, job) });
    });
    port.postMessage({ ready: true });
  },
  (e: unknown) => port.postMessage({ failed: e instanceof Error ? e.message : 'lists failed to load' }),
);
