// The Electron target: launches the built app (out/main/index.js via package.json "main") with a
// throw-away profile and checks that the shell forked the service, loaded the console from it,
// and exposed exactly the documented bridge. Skips, saying why, where Electron cannot run.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { _electron as electron, expect, test } from '@playwright/test';
import type { ShellBridge } from '../../src-main/shell/bridge-types';

const require = createRequire(import.meta.url);
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const electronPackageDir = dirname(require.resolve('electron/package.json'));
const electronVersion = (JSON.parse(readFileSync(join(electronPackageDir, 'package.json'), 'utf8')) as { version: string }).version;
const appVersion = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
const mainEntry = join(repoRoot, 'out', 'main', 'index.js');
const serviceEntry = join(repoRoot, 'out', 'main', 'service.js');
const preloadEntry = join(repoRoot, 'out', 'preload', 'preload.cjs');
const rendererEntry = join(repoRoot, 'out', 'renderer', 'index.html');

const NO_BINARY =
  'Electron binary not present (node_modules/electron/dist missing; Electron >= 42 downloads it on first use and this machine has no internet)';

/**
 * The same lookup as the `electron` package's index.js, minus its side effect: requiring that
 * module starts a download when the binary is missing, which hangs or fails noisily offline.
 */
function electronBinary(): string | null {
  const pathFile = join(electronPackageDir, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const executable = readFileSync(pathFile, 'utf8').trim();
  const distDir = process.env.ELECTRON_OVERRIDE_DIST_PATH ?? join(electronPackageDir, 'dist');
  const fullPath = join(distDir, executable);
  return existsSync(fullPath) ? fullPath : null;
}

function sqliteBinding(): string {
  return process.env.CONSOLE_SQLITE_BINDING ?? join(repoRoot, 'scripts', 'native', `electron-${electronVersion}`, 'better_sqlite3.node');
}

function childEnv(extra: Record<string, string>): Record<string, string> {
  const entries = Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined);
  return { ...Object.fromEntries(entries), ...extra };
}

type ShellWindow = { shell?: ShellBridge; require?: unknown; process?: unknown };

test.describe('Electron shell', () => {
  let userDataDir = '';

  test.beforeEach(() => {
    userDataDir = mkdtempSync(join(tmpdir(), 'console-electron-'));
  });

  test.afterEach(() => {
    rmSync(userDataDir, { recursive: true, force: true });
  });

  test('forks the service and opens the console from its origin', async () => {
    const executablePath = electronBinary();
    // The list reporter shows a skip as a dash only; say why where CI logs will show it.
    if (executablePath === null) console.log(`electron project skipped: ${NO_BINARY}`);
    test.skip(executablePath === null, NO_BINARY);
    const missingBuild = [mainEntry, serviceEntry, preloadEntry, rendererEntry].filter((path) => !existsSync(path));
    test.skip(missingBuild.length > 0, `App not built (missing ${missingBuild.join(', ')}): run \`npm run build\``);
    test.skip(!existsSync(sqliteBinding()), `better-sqlite3 for Electron missing (${sqliteBinding()}): run \`npm run native:electron\``);

    const app = await electron.launch({
      executablePath: executablePath ?? undefined,
      // The repo root, not the bundle: Electron then reads package.json ("main", "type": "module")
      // and app.getAppPath() is the root, as with `npm start`.
      args: [repoRoot],
      cwd: repoRoot,
      env: childEnv({ CONSOLE_USER_DATA_DIR: userDataDir }),
      timeout: 60_000,
    });
    try {
      const page = await app.firstWindow();
      await expect(page.locator('[data-testid="first-run"], [data-testid="login"]').first()).toBeVisible({ timeout: 60_000 });

      const bridge = await page.evaluate(async () => {
        const target = window as unknown as ShellWindow;
        return {
          keys: Object.keys(target.shell ?? {}).sort(),
          serviceUrl: target.shell?.serviceUrl ?? '',
          appVersion: (await target.shell?.appVersion()) ?? '',
          nodeLeaked: typeof target.require !== 'undefined' || typeof target.process !== 'undefined',
        };
      });
      expect(bridge.serviceUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(page.url().startsWith(`${bridge.serviceUrl}/`)).toBe(true);
      expect(bridge.keys).toEqual(['appVersion', 'openExternal', 'saveFile', 'serviceUrl', 'takeLoginToken']);
      expect(bridge.appVersion).toBe(appVersion);
      expect(bridge.nodeLeaked).toBe(false);

      const userData = await app.evaluate(({ app: electronApp }) => electronApp.getPath('userData'));
      expect(resolve(userData)).toBe(resolve(userDataDir));
    } finally {
      await app.close();
    }
  });
});
