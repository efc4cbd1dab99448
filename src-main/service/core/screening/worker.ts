// What a screening worker runs (workers/screening-worker.ts in a thread; from source, the pool
// runs it in this thread): loads the lists as they are at its start, says their meta when ready,
// and answers single screens, batch rows and list-file checks with that index.
import type { ScreeningResponse } from '../../../../src-shared/contracts/screening';
import type { WorkerProgram } from '../workers/serve';
import type { OfficialFile } from './lists/official';
import type { OfficialSource } from './lists/sources';
import { checkOfficial, checkUserList, currentOfficialRecords, type OfficialCheck, type UserListCheck } from './lists/store';
import { screenRows, type RowJob, type RowOutcome } from './rows';
import { loadIndex, metaOf, runScreening, type LoadedIndex, type ScreenCall } from './service';

/**
 * What a worker is asked: a chunk of batch rows, one screening, or reading an imported list file
 * (a sanctions file is megabytes, an own list thousands of rows: never parsed on the HTTP loop).
 */
export type PoolJob =
  | { kind: 'rows'; job: RowJob }
  | { kind: 'screen'; call: ScreenCall }
  | { kind: 'check-user-list'; name: string; bytes: Uint8Array }
  | { kind: 'check-official'; source: OfficialSource; files: readonly OfficialFile[]; watchlistsDir: string; dataDir: string | undefined };
export type PoolAnswer<J extends PoolJob> = J extends { kind: 'rows' } ? RowOutcome[]
  : J extends { kind: 'screen' } ? ScreeningResponse
  : J extends { kind: 'check-user-list' } ? UserListCheck
  : OfficialCheck;

/** The same work, wherever it runs: a worker runs exactly this, and this thread when its worker is gone. */
export function runJob(loaded: LoadedIndex | null, j: PoolJob): PoolAnswer<PoolJob> {
  switch (j.kind) {
    case 'check-user-list': return checkUserList(j.name, j.bytes);
    case 'check-official': return checkOfficial(j.source, j.files, () => currentOfficialRecords(j.watchlistsDir, j.dataDir, j.source));
    default:
      if (!loaded) throw new Error('no index');
      return j.kind === 'rows' ? screenRows(loaded, j.job) : runScreening(loaded, j.call);
  }
}

export interface ScreeningWorkerData {
  watchlistsDir: string;
  dataDir: string | undefined;
  /** A worker for one list-file check (pool.ts): no index is loaded, and it is stopped once it answers. */
  checkOnly?: boolean;
}

export const screeningWorker: WorkerProgram<PoolJob, PoolAnswer<PoolJob>, ScreeningWorkerData> = {
  async start({ watchlistsDir, dataDir, checkOnly }) {
    if (checkOnly) return { ready: null, run: (job) => runJob(null, job) };
    const loaded = await loadIndex(watchlistsDir, dataDir);
    return { ready: metaOf(loaded), run: (job) => runJob(loaded, job) };
  },
};
