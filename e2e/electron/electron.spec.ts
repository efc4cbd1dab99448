// The Electron target: launches the built app (out/main/index.js via package.json "main") with a
// throw-away profile. First start asks where Compliance Console runs (the connect page, on the
// shell's own scheme with only `window.connect`); "Run on this computer" forks the service and
// loads the console from it with exactly the documented bridge; "Connect to my team's server"
// looks at a team server (the built service with --team on 127.0.0.1), pins its fingerprint,
// shows its sign-in in a window that trusts exactly that certificate, keeps nothing but the URL
// and the fingerprint, and refuses a changed certificate until the new fingerprint is confirmed.
// Skips, saying why, where Electron cannot run (the Chromium fake covers the same flow:
// e2e/chromium/connect-team-server.spec.ts).
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { _electron as electron, expect, test, type ElectronApplication, type Page } from '@playwright/test';
import type { ConnectBridge, ShellBridge } from '../../src-main/shell/bridge-types';
import { fingerprintOf } from '../../src-main/service/core/onsite/certificate';
import { cli } from '../../src-main/service/test/cli-command';
import { ConnectPage } from '../pages/connect-page';
import { LoginPage } from '../pages/login-page';
import { startService, stopService } from '../support/service';

const require = createRequire(import.meta.url);
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const electronPackageDir = dirname(require.resolve('electron/package.json'));
const electronVersion = (JSON.parse(readFileSync(join(electronPackageDir, 'package.json'), 'utf8')) as { version: string }).version;
const appVersion = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
const mainEntry = join(repoRoot, 'out', 'main', 'index.js');
const serviceEntry = join(repoRoot, 'out', 'main', 'service.js');
const preloadEntry = join(repoRoot, 'out', 'preload', 'preload.cjs');
const rendererEntry = join(repoRoot, 'out', 'renderer', 'index.html');
const connectPreloadEntry = join(repoRoot, 'out', 'preload', 'connect-preload.cjs');
const connectEntry = join(repoRoot, 'out', 'renderer', 'connect.html');

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

type ShellWindow = { shell?: ShellBridge; connect?: ConnectBridge; require?: unknown; process?: unknown };

/** Skips, saying why, unless the binary, the build and the Electron-ABI binding are all here. */
function requireElectron(): string {
  const executablePath = electronBinary();
  // The list reporter shows a skip as a dash only; say why where CI logs will show it.
  if (executablePath === null) console.log(`electron project skipped: ${NO_BINARY}`);
  test.skip(executablePath === null, NO_BINARY);
  const missingBuild = [mainEntry, serviceEntry, preloadEntry, rendererEntry, connectPreloadEntry, connectEntry].filter((path) => !existsSync(path));
  test.skip(missingBuild.length > 0, `App not built (missing ${missingBuild.join(', ')}): run \`npm run build\``);
  test.skip(!existsSync(sqliteBinding()), `better-sqlite3 for Electron missing (${sqliteBinding()}): run \`npm run native:electron\``);
  return executablePath!;
}

function launch(executablePath: string, userDataDir: string): Promise<ElectronApplication> {
  return electron.launch({
    executablePath,
    // The repo root, not the bundle: Electron then reads package.json ("main", "type": "module")
    // and app.getAppPath() is the root, as with `npm start`.
    args: [repoRoot],
    cwd: repoRoot,
    env: childEnv({ CONSOLE_USER_DATA_DIR: userDataDir }),
    timeout: 60_000,
  });
}

/** The window showing `origin` (the shell replaces the connect window with the console's). */
async function windowAt(app: ElectronApplication, origin: string): Promise<Page> {
  await expect.poll(() => app.windows().find((w) => w.url().startsWith(origin))?.url() ?? '', { timeout: 60_000 }).not.toBe('');
  return app.windows().find((w) => w.url().startsWith(origin))!;
}

async function bridgeOf(page: Page) {
  return page.evaluate(async () => {
    const target = window as unknown as ShellWindow;
    return {
      keys: Object.keys(target.shell ?? {}).sort(),
      connectKeys: Object.keys(target.connect ?? {}).sort(),
      serviceUrl: target.shell?.serviceUrl ?? '',
      connection: target.shell?.connection ?? null,
      appVersion: (await target.shell?.appVersion()) ?? '',
      loginToken: (await target.shell?.takeLoginToken()) ?? null,
      nodeLeaked: typeof target.require !== 'undefined' || typeof target.process !== 'undefined',
    };
  });
}

const BRIDGE_KEYS = ['appVersion', 'chooseServer', 'connection', 'openExternal', 'saveFile', 'serviceUrl', 'takeLoginToken'];

test.describe('Electron shell', () => {
  let userDataDir = '';

  test.beforeEach(() => {
    userDataDir = mkdtempSync(join(tmpdir(), 'console-electron-'));
  });

  test.afterEach(() => {
    rmSync(userDataDir, { recursive: true, force: true });
  });

  test('first start asks; "Run on this computer" forks the service and opens the console from its origin', async () => {
    const executablePath = requireElectron();
    let app = await launch(executablePath, userDataDir);
    try {
      const first = await app.firstWindow();
      expect(first.url()).toBe('console-app://connect/connect.html');
      const connect = new ConnectPage(first);
      await expect(connect.heading).toHaveText('Where does Compliance Console run?');
      const onConnectPage = await bridgeOf(first);
      expect(onConnectPage.connectKeys).toEqual(['connect', 'probe', 'runLocally', 'state']);
      expect(onConnectPage.keys).toEqual([]);
      expect(onConnectPage.nodeLeaked).toBe(false);
      await connect.chooseThisComputer();

      const page = await windowAt(app, 'http://127.0.0.1:');
      await expect(page.locator('[data-testid="first-run"], [data-testid="login"]').first()).toBeVisible({ timeout: 60_000 });
      const bridge = await bridgeOf(page);
      expect(bridge.serviceUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(page.url().startsWith(`${bridge.serviceUrl}/`)).toBe(true);
      expect(bridge.keys).toEqual(BRIDGE_KEYS);
      expect(bridge.connectKeys).toEqual([]);
      expect(bridge.connection).toEqual({ mode: 'local' });
      expect(bridge.appVersion).toBe(appVersion);
      expect(bridge.nodeLeaked).toBe(false);

      const userData = await app.evaluate(({ app: electronApp }) => electronApp.getPath('userData'));
      expect(resolve(userData)).toBe(resolve(userDataDir));
      expect(JSON.parse(readFileSync(join(userDataDir, 'connection.json'), 'utf8'))).toEqual({ mode: 'local' });
    } finally {
      await app.close();
    }
    // The choice is kept: the next start goes straight to the console.
    app = await launch(executablePath, userDataDir);
    try {
      const page = await app.firstWindow();
      await expect(page.locator('[data-testid="first-run"], [data-testid="login"]').first()).toBeVisible({ timeout: 60_000 });
      expect(page.url()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    } finally {
      await app.close();
    }
  });

  test('"Connect to my team\'s server" pins the fingerprint, signs in there, keeps nothing else, and refuses a changed certificate until it is confirmed', async () => {
    test.setTimeout(240_000);
    const executablePath = requireElectron();
    const serverDir = mkdtempSync(join(tmpdir(), 'console-electron-team-'));
    const owner = { organization: 'Desk Two Ltd', email: 'head@desktwo.test', password: 'head of compliance 2' };
    const made = await cli('init', '--data-dir', serverDir, '--org', owner.organization, '--owner-email', owner.email, '--owner-password', owner.password, '--plan', 'pro');
    expect(made.status, made.stderr).toBe(0);
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const team = `https://127.0.0.1:${port}`;
    const certificate = () => fingerprintOf(readFileSync(join(serverDir, 'team', 'team-cert.pem'), 'utf8'));
    const serve = async () => (await startService(serverDir, 'bundle', {}, ['--team', `127.0.0.1:${port}`, '--lazy-models'])).child;
    let server: ChildProcess = await serve();
    try {
      let app = await launch(executablePath, userDataDir);
      try {
        const connect = new ConnectPage(await app.firstWindow());
        await connect.chooseTeamServer(team);
        await connect.expectShown(certificate());
        await connect.submit.click();
        const page = await windowAt(app, `${team}/`);
        await expect(page.getByTestId('login')).toBeVisible({ timeout: 60_000 });
        const bridge = await bridgeOf(page);
        expect(bridge.serviceUrl).toBe(team);
        expect(bridge.connection).toEqual({ mode: 'team', serverUrl: team, fingerprint: certificate() });
        // No service here, so no desktop token: the normal sign-in.
        expect(bridge.loginToken).toBeNull();
        await new LoginPage(page).login(owner.email, owner.password);
        await expect(page.getByTestId('login')).toHaveCount(0);
      } finally {
        await app.close();
      }
      // This computer keeps the URL and the fingerprint: no service data, cookies or cache of the team's console.
      expect(JSON.parse(readFileSync(join(userDataDir, 'connection.json'), 'utf8'))).toEqual({ mode: 'team', serverUrl: team, fingerprint: certificate() });
      expect(existsSync(join(userDataDir, 'data'))).toBe(false);
      expect(readdirSync(userDataDir)).not.toContain('Partitions');

      // The server's certificate is replaced: refused at the next start until the new fingerprint is typed.
      const pinned = certificate();
      await stopService(server);
      rmSync(join(serverDir, 'team', 'team-cert.pem'));
      rmSync(join(serverDir, 'team', 'team-key.pem'));
      server = await serve();
      app = await launch(executablePath, userDataDir);
      try {
        const connect = new ConnectPage(await app.firstWindow());
        await expect(connect.heading).toHaveText("The team server's certificate has changed");
        expect(ConnectPage.hex(await connect.pinnedFingerprint.textContent())).toBe(ConnectPage.hex(pinned));
        await connect.confirmation.fill(pinned);
        await connect.submit.click();
        await expect(connect.confirmationError).toContainText('Do not connect');
        await connect.confirmation.fill(certificate());
        await connect.submit.click();
        await expect((await windowAt(app, `${team}/`)).getByTestId('login')).toBeVisible({ timeout: 60_000 });
      } finally {
        await app.close();
      }
    } finally {
      await stopService(server);
      rmSync(serverDir, { recursive: true, force: true });
    }
  });
});
