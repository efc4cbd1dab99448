// Where things live: the per-user data directory and the app's own files, and the modes of what
// the service writes there.
import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository (or unpacked app) root: the nearest folder above this module with a
 * package.json. Walking up keeps it right wherever the bundler puts this code (out/main,
 * out/main/chunks) and when it runs from source (src-main/service).
 */
export const APP_ROOT = findRoot(fileURLToPath(new URL('.', import.meta.url)));

function findRoot(start: string): string {
  let dir = start;
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return resolve(start, '..', '..');
}

export function defaultDataDir(): string {
  if (process.env.CONSOLE_DATA_DIR) return process.env.CONSOLE_DATA_DIR;
  switch (process.platform) {
    case 'darwin':
      return join(homedir(), 'Library', 'Application Support', 'Compliance Console', 'data');
    case 'win32':
      return join(process.env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Compliance Console', 'data');
    default:
      return join(process.env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'compliance-console');
  }
}

export function defaultConsoleDir(): string | undefined {
  const dir = join(APP_ROOT, 'out', 'renderer');
  return existsSync(join(dir, 'index.html')) ? dir : undefined;
}

/** The hosted verification page, built by vite.hosted.config.ts. */
export function defaultHostedDir(): string | undefined {
  const dir = join(APP_ROOT, 'out', 'hosted');
  return existsSync(join(dir, 'index.html')) ? dir : undefined;
}

export function defaultWidgetDir(): string | undefined {
  const dir = join(APP_ROOT, 'out', 'widget');
  return existsSync(join(dir, 'age-gate.js')) ? dir : undefined;
}

export function defaultResourcesDir(): string {
  return process.env.CONSOLE_RESOURCES_DIR ?? join(APP_ROOT, 'resources');
}

/**
 * Everything the service writes under its data directory (the database with accounts, ledger and
 * install secret, logs, the organisation's own lists about people) is for the user who runs it
 * only: folders 0700, files 0600 on POSIX. Set explicitly rather than left to the umask, and
 * tightened when an existing install made them looser. Windows has no such modes: no-ops there.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

const POSIX = process.platform !== 'win32';

/** Sets `path` to `mode`; a path that is absent or not this user's is left as it is. */
export function tighten(path: string, mode = PRIVATE_FILE_MODE): void {
  if (!POSIX) return;
  try {
    chmodSync(path, mode);
  } catch {
    // ENOENT or EPERM: nothing of ours to tighten.
  }
}

/** Creates `dir` (and missing parents) 0700, or tightens it when it exists. Returns `dir`. */
export function privateDir(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  tighten(dir, PRIVATE_DIR_MODE);
  return dir;
}

/**
 * Writes a 0600 file. The mode given to writeFileSync applies only when it creates the file, so a
 * file that exists is tightened first, before its new content is in it.
 */
export function writePrivateFile(path: string, data: string | Uint8Array): void {
  tighten(path);
  writeFileSync(path, data, { mode: PRIVATE_FILE_MODE });
}

/** The folders under the data directory that only the service writes. */
export const DATA_FOLDERS = { logs: 'logs', lists: 'lists' } as const;

/**
 * Creates the data directory 0700, or tightens it and the folders only the service writes, with
 * everything in them (the database tightens its own files). Nothing else in it is touched: the
 * directory may be one the user chose.
 */
export function openDataDir(dataDir: string): string {
  privateDir(dataDir);
  for (const folder of Object.values(DATA_FOLDERS)) tightenTree(join(dataDir, folder));
  return dataDir;
}

/** A folder and everything in it (symbolic links are not followed). */
function tightenTree(dir: string): void {
  if (!POSIX || !existsSync(dir)) return;
  tighten(dir, PRIVATE_DIR_MODE);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) tightenTree(path);
    else if (entry.isFile()) tighten(path);
  }
}
