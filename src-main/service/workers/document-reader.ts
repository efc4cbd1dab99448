// The document reader's child process: loads the text models once, warms them, then reads one
// document per job of its pool (core/documents/pool.ts, through core/workers/serve.ts). It is a
// process, not a thread, because opencv-js (in the line splitter) installs process-wide crash
// handlers and onnxruntime is native code: a crash here ends this process only. Answers carry the
// reading or an error name, nothing else; nothing is logged. Never imported by the HTTP process.
import { availableParallelism, setPriority } from 'node:os';
import { loadTextReader, type RgbImage } from '../core/documents/ocr';
import { readDocument, type DocumentReading } from '../core/documents/reader';
import { serveProcess, type WorkerProgram } from '../core/workers/serve';

// Below the HTTP process's priority, so reading a document never delays an answer (threads made
// after this inherit it).
try {
  setPriority(10);
} catch {
  // Best effort.
}

const documentReader: WorkerProgram<RgbImage, DocumentReading> = {
  async start() {
    // Two threads for each model where there are two cores: a page is read in about 0.6 s instead
    // of 1.0 s on this 2-core machine; the niceness above keeps the HTTP process first.
    const reader = await loadTextReader({ threads: Math.min(2, availableParallelism()) });
    // Warm: the first run of each model allocates its buffers.
    const blank = { rgb: new Uint8Array(320 * 64 * 3).fill(255), width: 320, height: 64 };
    await reader.read(blank, 320);
    return { ready: true, run: (job) => readDocument(reader, job) };
  },
};

serveProcess(documentReader);
