// The document reader's child process: loads the text models once, warms them, then reads one
// document per message. It is a process, not a thread, because opencv-js (in the line splitter)
// installs process-wide crash handlers and onnxruntime is native code: a crash here ends this
// process only. Answers carry the reading or an error name, nothing else; nothing is logged.
import { availableParallelism, setPriority } from 'node:os';
import { loadTextReader } from '../core/documents/ocr';
import { readDocument } from '../core/documents/reader';

const send = (m: unknown) => process.send?.(m);

// Below the HTTP process's priority, so reading a document never delays an answer (threads made
// after this inherit it).
try {
  setPriority(10);
} catch {
  // Best effort.
}

process.on('disconnect', () => process.exit(0));

// Two threads for each model where there are two cores: a page is read in about 0.6 s instead of
// 1.0 s on this 2-core machine; the niceness above keeps the HTTP process first.
loadTextReader({ threads: Math.min(2, availableParallelism()) }).then(
  async (reader) => {
    // Warm: the first run of each model allocates its buffers.
    const blank = { rgb: new Uint8Array(320 * 64 * 3).fill(255), width: 320, height: 64 };
    await reader.read(blank, 320);
    process.on('message', (m: { seq: number; job: { rgb: Uint8Array; width: number; height: number } }) => {
      readDocument(reader, m.job).then(
        (answer) => send({ seq: m.seq, answer }),
        (e: unknown) => send({ seq: m.seq, error: e instanceof Error ? e.name : 'Error' }),
      );
    });
    send({ ready: true });
  },
  (e: unknown) => {
    send({ failed: e instanceof Error ? e.name : 'models failed to load' });
    process.exit(1);
  },
);
