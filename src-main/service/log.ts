// Structured log lines. Callers pass ids, route patterns, statuses and timings only: never
// bodies, query strings, headers or anything a subject typed. The file lives under
// <data-dir>/logs and is capped by size.
//
// Lines are written off the event loop: they collect in memory and go to the file in one
// asynchronous append at most every FLUSH_MS (at once for errors), one append at a time so they
// stay in order. A synchronous append per line used to stall the HTTP loop for 100-350 ms under
// heavy traffic whenever the kernel held the write back (measured by `npm run bench:verification`
// with /api/health polled 500 times a second). At exit whatever is still buffered is written
// synchronously.
import { appendFileSync, renameSync, statSync } from 'node:fs';
import { appendFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { DATA_FOLDERS, PRIVATE_FILE_MODE, privateDir } from './paths';

export type LogFields = Record<string, string | number | boolean | null>;

export interface Logger {
  info(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** Resolves once every line logged so far is in the file. */
  flush(): Promise<void>;
}

const MAX_BYTES = 5 * 1024 * 1024;
const FLUSH_MS = 50;

/** Loggers with lines still in memory, written synchronously when the process exits. */
const open = new Set<() => void>();
let exitHook = false;

export function createLogger(opts: { dataDir?: string; stdout?: boolean }): Logger {
  let file: string | undefined;
  if (opts.dataDir) {
    file = join(privateDir(join(opts.dataDir, DATA_FOLDERS.logs)), 'service.log');
  }
  let buffer: string[] = [];
  let size: number | null = null;
  let writing: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;

  const sizeNow = (path: string) => (size ??= statSync(path, { throwIfNoEntry: false })?.size ?? 0);

  function drainSync(): void {
    if (!file || buffer.length === 0) return;
    const chunk = buffer.join('');
    buffer = [];
    try {
      if (sizeNow(file) > MAX_BYTES) {
        renameSync(file, file + '.1');
        size = 0;
      }
      appendFileSync(file, chunk, { mode: PRIVATE_FILE_MODE });
      size = (size ?? 0) + Buffer.byteLength(chunk);
    } catch {
      // Logging must never take the service down.
    }
  }

  async function drain(): Promise<void> {
    while (file && buffer.length > 0) {
      const chunk = buffer.join('');
      buffer = [];
      try {
        if (sizeNow(file) > MAX_BYTES) {
          await rename(file, file + '.1');
          size = 0;
        }
        await appendFile(file, chunk, { mode: PRIVATE_FILE_MODE });
        size = (size ?? 0) + Buffer.byteLength(chunk);
      } catch {
        // Logging must never take the service down.
      }
    }
    open.delete(drainSync);
  }

  function schedule(now: boolean): void {
    open.add(drainSync);
    if (!exitHook) {
      exitHook = true;
      process.once('exit', () => open.forEach((d) => d()));
    }
    if (writing) return;
    if (timer && !now) return;
    if (timer) clearTimeout(timer);
    const start = () => {
      timer = null;
      writing = drain().finally(() => {
        writing = null;
        if (buffer.length > 0) schedule(false);
      });
    };
    if (now) start();
    else {
      timer = setTimeout(start, FLUSH_MS);
      timer.unref();
    }
  }

  function write(level: string, msg: string, fields?: LogFields): void {
    const line = JSON.stringify({ t: new Date().toISOString(), level, msg, ...fields }) + '\n';
    if (opts.stdout) process.stdout.write(line);
    if (!file) return;
    buffer.push(line);
    schedule(level === 'error');
  }

  return {
    info: (msg, fields) => write('info', msg, fields),
    error: (msg, fields) => write('error', msg, fields),
    async flush() {
      while (writing || buffer.length > 0 || timer) {
        if (!writing && (buffer.length > 0 || timer)) schedule(true);
        await writing;
      }
    },
  };
}

export const silentLogger: Logger = { info: () => {}, error: () => {}, flush: async () => {} };
