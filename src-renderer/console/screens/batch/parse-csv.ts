// Starts the CSV worker for a chosen file and feeds its chunks into the batch store. One import
// at a time: choosing another file (or discarding) stops the worker that is still reading. The
// analyst may read the same file again another way (its encoding, day-first dates): the file is
// kept in the store's memory for that, never anywhere else.
import { todayUtc } from '../../../../src-shared/dates';
import { DEFAULT_PARSE_OPTIONS, useBatch, type ParseOptions } from '../../stores/batch';
import type { ParseMessage, ParseRequest } from './csv-worker';

let current: Worker | null = null;

function stop(): void {
  current?.terminate();
  current = null;
}

export function importFile(file: File, options: ParseOptions = DEFAULT_PARSE_OPTIONS): void {
  stop();
  useBatch.getState().startImport(file, options);
  const worker = new Worker(new URL('./csv-worker.ts', import.meta.url), { type: 'module', name: 'batch-csv' });
  current = worker;

  worker.addEventListener('message', (e: MessageEvent<ParseMessage>) => {
    if (current !== worker) return;
    const m = e.data;
    const store = useBatch.getState();
    switch (m.type) {
      case 'text':
        store.setParse({ text: { encoding: m.encoding, detected: m.detected } });
        break;
      case 'header':
        store.setParse({ ignoredColumns: m.ignored, fromResults: m.fromResults });
        break;
      case 'chunk':
        store.addParsed(m.rows, m.issues, { rowsRead: m.rowsRead, invalidRows: m.invalidRows, bytesRead: m.bytesRead });
        break;
      case 'done':
        stop();
        store.setParse({ status: 'done', rowsRead: m.rowsRead, invalidRows: m.invalidRows, bytesRead: file.size, dates: m.dates });
        break;
      case 'failed':
        stop();
        store.setParse({ status: 'failed', error: m.message });
        break;
    }
  });
  worker.addEventListener('error', () => {
    if (current !== worker) return;
    stop();
    useBatch.getState().setParse({ status: 'failed', error: 'The file could not be read. Is it a CSV file?' });
  });
  const request: ParseRequest = { file, today: todayUtc(), options };
  worker.postMessage(request);
}

/** The file imported last, read again with some of its options changed. */
export function readAgain(change: Partial<ParseOptions>): void {
  const { file, options } = useBatch.getState().parse;
  if (file) importFile(file, { ...options, ...change });
}

export function stopImport(): void {
  stop();
}
