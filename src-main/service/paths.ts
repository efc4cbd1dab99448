// Where things live: the per-user data directory and the app's own files.
import { existsSync } from 'node:fs';
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

export function defaultResourcesDir(): string {
  return process.env.CONSOLE_RESOURCES_DIR ?? join(APP_ROOT, 'resources');
}
