// What a screening worker runs (workers/screening-worker.ts in a thread; from source, the pool
// runs it in this thread): loads the lists as they are at its start, says their meta when ready,
// and answers single screens, batch rows and list-file checks with that index. When the lists
// change it makes their new index over the one it holds (service.ts, reloadIndex) and keeps the
// older one only while the pool says a batch still screens with it.
import type { ScreeningResponse } from '../../../../src-shared/contracts/screening';
import type { WorkerProgram } from '../workers/serve';
import type { OfficialFile } from './lists/official';
import type { OfficialSource } from './lists/sources';
import type { CheckedFiles } from './lists/manage';
import { checkOfficial, checkUserList, currentOfficialRecords, type UserListCheck } from './lists/store';
import { screenRows, type RowJob, type RowOutcome } from './rows';
import { collectGarbage } from '../workers/collect';
import { loadIndex, metaOf, reloadIndex, runScreening, type IndexMeta, type LoadedIndex, type ScreenCall } from './service';

/**
 * What a worker is asked: a chunk of batch rows or one screening (with the lists of `stamp`, else
 * the current ones), reading an imported list file (a sanctions file is megabytes, an own list
 * thousands of rows: never parsed on the HTTP loop), making the index of the lists as they are
 * now its current one (its meta; null when it cannot be made over the current one; the one it
 * replaces is let go of at once unless `keepPrevious`: a batch screens with it), or letting go of
 * the index of `stamp`.
 */
export type PoolJob =
  | { kind: 'rows'; job: RowJob; stamp?: string }
  | { kind: 'screen'; call: ScreenCall; stamp?: string }
  | { kind: 'check-user-list'; name: string; bytes: Uint8Array }
  | { kind: 'check-official'; source: OfficialSource; files: readonly OfficialFile[]; watchlistsDir: string; dataDir: string | undefined }
  | { kind: 'reload'; keepPrevious: boolean }
  | { kind: 'drop'; stamp: string };
export type PoolAnswer<J extends PoolJob> = J extends { kind: 'rows' } ? RowOutcome[]
  : J extends { kind: 'screen' } ? ScreeningResponse
  : J extends { kind: 'check-user-list' } ? UserListCheck
  : J extends { kind: 'check-official' } ? CheckedFiles
  : J extends { kind: 'reload' } ? IndexMeta | null
  : null;

/** The files' buffers that can be moved between threads: those each file's bytes fill whole (a small one may share Node's pool). */
export function transferOf(files: readonly OfficialFile[]): ArrayBuffer[] {
  return files.flatMap((f) => (f.bytes.buffer instanceof ArrayBuffer && f.bytes.byteOffset === 0 && f.bytes.byteLength === f.bytes.buffer.byteLength ? [f.bytes.buffer] : []));
}

/**
 * The same work, wherever it runs: a worker runs exactly this, and this thread when its worker is
 * gone. Only a worker holds indexes to reload or let go of: here those answer null.
 */
export function runJob(loaded: LoadedIndex | null, j: PoolJob): PoolAnswer<PoolJob> {
  switch (j.kind) {
    case 'check-user-list': return checkUserList(j.name, j.bytes);
    case 'check-official': return checkFiles(j, false);
    case 'reload':
    case 'drop':
      return null;
    default:
      if (!loaded) throw new Error('no index');
      return j.kind === 'rows' ? screenRows(loaded, j.job) : runScreening(loaded, j.call);
  }
}

/**
 * An official file set's check. The edition in use is read only to compare with (not kept). In
 * the worker that holds the lists, the new file's records are kept for the reload that splices
 * them in once the file is stored (`handOver`, ReadOptions): it is parsed once.
 */
function checkFiles(j: Extract<PoolJob, { kind: 'check-official' }>, handOver: boolean): CheckedFiles {
  const current = () => currentOfficialRecords(j.watchlistsDir, j.dataDir, j.source, { remember: false });
  const check = checkOfficial(j.source, j.files, current, { handOver });
  collectGarbage();
  return { check, files: j.files };
}

export interface ScreeningWorkerData {
  watchlistsDir: string;
  dataDir: string | undefined;
}

export const screeningWorker: WorkerProgram<PoolJob, PoolAnswer<PoolJob>, ScreeningWorkerData> = {
  async start({ watchlistsDir, dataDir }) {
    let current = await loadIndex(watchlistsDir, dataDir);
    const held = new Map([[current.stamp, current]]);
    return {
      ready: metaOf(current),
      // The files a check was given go back as they came: moved, not copied.
      transfer: (answer, job) => (job.kind === 'check-official' ? transferOf((answer as CheckedFiles).files) : []),
      run: (job) => {
        switch (job.kind) {
          case 'reload': {
            const next = reloadIndex(current, watchlistsDir, dataDir);
            if (next === null) return null;
            // Before the new index is written to the data directory (once this answer is sent).
            if (!job.keepPrevious && next !== current && held.delete(current.stamp)) collectGarbage();
            held.set(next.stamp, next);
            current = next;
            return metaOf(next);
          }
          case 'drop':
            if (job.stamp !== current.stamp && held.delete(job.stamp)) collectGarbage();
            return null;
          case 'check-official':
            return checkFiles(job, true);
          case 'screen':
            return runJob((job.stamp !== undefined ? held.get(job.stamp) : undefined) ?? current, job);
          case 'rows': {
            // A batch's rows only ever with its own lists, which the pool keeps here until it ends.
            const lists = job.stamp !== undefined ? held.get(job.stamp) : current;
            if (!lists) throw new Error('lists_released');
            return runJob(lists, job);
          }
          default:
            return runJob(current, job);
        }
      },
    };
  },
};
