// Worker thread for report exports: renders one export's PDF or CSV per message, so a large
// report never holds the HTTP loop (architecture rule 6). Errors are answered by name only.
import { parentPort } from 'node:worker_threads';
import { lowerThreadPriority } from './priority';
import { renderExport, type RenderInput } from '../core/exports/render';

const port = parentPort!;

lowerThreadPriority();

port.on('message', (m: { seq: number; input: RenderInput }) => {
  renderExport(m.input).then(
    (bytes) => port.postMessage({ seq: m.seq, bytes }, [bytes.buffer as ArrayBuffer]),
    (e: unknown) => port.postMessage({ seq: m.seq, error: e instanceof Error ? e.name : 'Error' }),
  );
});
port.postMessage({ ready: true });
