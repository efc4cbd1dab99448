// What the export worker runs (workers/export-worker.ts in a thread; `inProcess`, the pool runs it
// in this thread): one export's PDF or CSV per job, its bytes moved back rather than copied.
import type { WorkerProgram } from '../workers/serve';
import { renderExport, type RenderInput } from './render';

export const exportWorker: WorkerProgram<RenderInput, Uint8Array> = {
  async start() {
    return { ready: true, run: renderExport, transfer: (bytes) => [bytes.buffer as ArrayBuffer] };
  },
};
