// Worker thread for report exports: renders one export's PDF or CSV per message, so a large
// report never holds the HTTP loop (architecture rule 6). Errors are answered by name only.
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { renderExport, type RenderInput } from '../core/exports/render';

const port = parentPort!;

/** Lower CPU priority than the HTTP thread, as the face workers do: on 2 cores requests come first. */
function lowerPriority(): void {
  if (process.platform !== 'linux') return;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, 10);
  } catch {
    // Best effort.
  }
}
lowerPriority();

port.on('message', (m: { seq: number; input: RenderInput }) => {
  renderExport(m.input).then(
    (bytes) => port.postMessage({ seq: m.seq, bytes }, [bytes.buffer as ArrayBuffer]),
    (e: unknown) => port.postMessage({ seq: m.seq, error: e instanceof Error ? e.name : 'Error' }),
  );
});
port.postMessage({ ready: true });
