// Where the shell finds its parts, in dev (`electron .` from the repo) and when packaged.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { app } from 'electron';

// Resolved from this bundle rather than the cwd: out/main/index.js sits next to service.js,
// and out/preload is its sibling, both in the repo and inside app.asar.
const mainBundleDir = dirname(fileURLToPath(import.meta.url));

export const serviceEntryPath = join(mainBundleDir, 'service.js');
export const preloadPath = join(mainBundleDir, '..', 'preload', 'preload.cjs');
export const connectPreloadPath = join(mainBundleDir, '..', 'preload', 'connect-preload.cjs');
/** The built console and the connect page (out/renderer), beside out/main. */
export const rendererDir = join(mainBundleDir, '..', 'renderer');

/** Lets tests and side-by-side installs run with their own profile (and own single-instance lock). */
export const USER_DATA_DIR_ENV = 'CONSOLE_USER_DATA_DIR';

/** "Run here or connect to the team's server": the choice, and a team server's URL and pinned fingerprint (connection.ts). */
export function connectionFile(): string {
  return join(app.getPath('userData'), 'connection.json');
}

export function serviceDataDir(): string {
  return join(app.getPath('userData'), 'data');
}

function projectRoot(): string {
  const appPath = app.getAppPath();
  // `electron out/main/index.js` makes out/main the app path; the repo root is two levels up.
  return existsSync(join(appPath, 'package.json')) ? appPath : resolve(mainBundleDir, '..', '..');
}

/**
 * Watchlists, fonts and model files. Packaged, electron-builder's extraResources puts them next to
 * app.asar (the service bundle inside the asar cannot see the repo's resources/ folder).
 */
export function resourcesDir(): string {
  return app.isPackaged ? join(process.resourcesPath, 'resources') : join(projectRoot(), 'resources');
}

/**
 * better-sqlite3 built for Electron's ABI (scripts/build-native-electron.mjs). node_modules keeps
 * the Node build so vitest and `npm run serve` work; the service is told which file to load.
 * An explicit CONSOLE_SQLITE_BINDING wins, for custom builds and CI.
 */
export function sqliteBindingPath(): string {
  const override = process.env.CONSOLE_SQLITE_BINDING;
  if (override !== undefined && override !== '') return resolve(override);
  if (app.isPackaged) return join(process.resourcesPath, 'native', 'better_sqlite3.node');
  return join(projectRoot(), 'scripts', 'native', `electron-${process.versions.electron}`, 'better_sqlite3.node');
}
