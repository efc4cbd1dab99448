// Structured log lines. Callers pass ids, route patterns, statuses and timings only: never
// bodies, query strings, headers or anything a subject typed. The file lives under
// <data-dir>/logs and is capped by size.
import { appendFileSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DATA_FOLDERS, PRIVATE_FILE_MODE, privateDir } from './paths';

export type LogFields = Record<string, string | number | boolean | null>;

export interface Logger {
  info(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
}

const MAX_BYTES = 5 * 1024 * 1024;

export function createLogger(opts: { dataDir?: string; stdout?: boolean }): Logger {
  let file: string | undefined;
  if (opts.dataDir) {
    file = join(privateDir(join(opts.dataDir, DATA_FOLDERS.logs)), 'service.log');
  }
  function write(level: string, msg: string, fields?: LogFields): void {
    const line = JSON.stringify({ t: new Date().toISOString(), level, msg, ...fields }) + '\n';
    if (opts.stdout) process.stdout.write(line);
    if (!file) return;
    try {
      if ((statSync(file, { throwIfNoEntry: false })?.size ?? 0) > MAX_BYTES) renameSync(file, file + '.1');
      appendFileSync(file, line, { mode: PRIVATE_FILE_MODE });
    } catch {
      // Logging must never take the service down.
    }
  }
  return {
    info: (msg, fields) => write('info', msg, fields),
    error: (msg, fields) => write('error', msg, fields),
  };
}

export const silentLogger: Logger = { info: () => {}, error: () => {} };
