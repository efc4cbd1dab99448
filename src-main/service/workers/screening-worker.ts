// Worker thread for screening: loads the lists as they are at its start, holds their index, and
// answers single screens and batch rows, so the service's event loop only moves requests,
// answers and ledger rows, and never builds an index.
import { parentPort, workerData } from 'node:worker_threads';
import { runJob, type PoolJob } from '../core/screening/pool';
import { loadIndex, metaOf } from '../core/screening/service';

const { watchlistsDir, dataDir } = workerData as { watchlistsDir: string; dataDir: string | undefined };
const port = parentPort!;

loadIndex(watchlistsDir, dataDir).then(
  (loaded) => {
    port.on('message', (job: PoolJob & { seq: number }) => {
      try {
        port.postMessage({ seq: job.seq, answer: runJob(loaded, job) });
      } catch (e) {
        // The name of what failed, never a message that could quote the subject.
        port.postMessage({ seq: job.seq, error: e instanceof Error ? e.name : 'Error' });
      }
    });
    port.postMessage({ ready: metaOf(loaded) });
  },
  (e: unknown) => port.postMessage({ failed: e instanceof Error ? e.name : 'lists failed to load' }),
);
