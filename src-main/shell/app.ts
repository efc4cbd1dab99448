// App lifecycle: one instance, one service, one console window. The shell stays thin; the
// product is the service it forks (service-host.ts), shown in a locked-down window (window.ts).
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { app, dialog, session, type BrowserWindow } from 'electron';
import { installContentSecurityPolicy } from './csp';
import { registerIpcHandlers } from './ipc';
import { preloadPath, resourcesDir, serviceDataDir, serviceEntryPath, sqliteBindingPath, USER_DATA_DIR_ENV } from './paths';
import { installPermissionHandlers } from './permissions';
import { ServiceHost, ServiceStartError, type RunningService, type UnexpectedExit } from './service-host';
import { createMainWindow, focusWindow, guardWebContents } from './window';

const APP_USER_MODEL_ID = 'app.complianceconsole.desktop';
// Start-up loads the watchlist index and runs migrations; a cold disk can take a while.
const READY_TIMEOUT_MS = 60_000;
// Long enough for the service to finish an in-flight transaction and checkpoint the WAL.
const SHUTDOWN_GRACE_MS = 5_000;
const CRASH_WINDOW_MS = 5 * 60_000;
const AUTO_RESTARTS_PER_WINDOW = 3;
const DIALOG_LOG_LINES = 15;

interface ShellState {
  host: ServiceHost | null;
  service: RunningService | null;
  pendingLoginToken: string | null;
  window: BrowserWindow | null;
  quitting: boolean;
  readyToQuit: boolean;
  restarting: boolean;
  crashTimes: number[];
}

const state: ShellState = {
  host: null,
  service: null,
  pendingLoginToken: null,
  window: null,
  quitting: false,
  readyToQuit: false,
  restarting: false,
  crashTimes: [],
};

const serviceOrigin = (): string | null => state.service?.url ?? null;

function takeLoginToken(): string | null {
  const token = state.pendingLoginToken;
  state.pendingLoginToken = null;
  return token;
}

function describe(error: unknown): string {
  if (error instanceof ServiceStartError) {
    const tail = error.logTail.split('\n').slice(-DIALOG_LOG_LINES).join('\n').trim();
    return tail === '' ? error.message : `${error.message}\n\nLast service output:\n${tail}`;
  }
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

function fatal(title: string, detail: string): void {
  console.error(`[shell] ${title}\n${detail}`);
  dialog.showErrorBox(title, detail);
  app.quit();
}

function openWindow(service: RunningService): void {
  const window = createMainWindow({ serviceUrl: service.url, preloadPath });
  window.on('closed', () => {
    if (state.window === window) state.window = null;
  });
  state.window = window;
}

function adopt(service: RunningService): void {
  state.service = service;
  state.pendingLoginToken = service.loginToken;
}

async function startService(host: ServiceHost, port: number): Promise<RunningService> {
  try {
    return await host.start(port);
  } catch (error) {
    // The old port may have been taken while the service was down; any free port will do.
    if (port !== 0 && error instanceof ServiceStartError && error.failure === 'exited' && !state.quitting) {
      return host.start(0);
    }
    throw error;
  }
}

async function onServiceDied(exit: UnexpectedExit): Promise<void> {
  const host = state.host;
  if (host === null || state.quitting || state.restarting) return;
  state.restarting = true;
  const previous = state.service;
  state.service = null;
  state.pendingLoginToken = null;
  try {
    const now = Date.now();
    state.crashTimes = [...state.crashTimes.filter((time) => now - time < CRASH_WINDOW_MS), now];
    if (state.crashTimes.length > AUTO_RESTARTS_PER_WINDOW) {
      const tail = exit.logTail.split('\n').slice(-DIALOG_LOG_LINES).join('\n');
      const { response } = await dialog.showMessageBox({
        type: 'error',
        title: 'Compliance Console',
        message: 'The Compliance Console service keeps stopping.',
        detail: `It exited with code ${exit.code}, ${state.crashTimes.length} times in five minutes.\n\nLast service output:\n${tail}`,
        buttons: ['Restart service', 'Quit'],
        defaultId: 0,
        cancelId: 1,
        noLink: true,
      });
      if (response !== 0) {
        app.quit();
        return;
      }
      state.crashTimes = [];
    }
    console.error(`[shell] service exited with code ${exit.code}; restarting`);
    // Same port first, so the window keeps its origin (and its cookie and open screen).
    const running = await startService(host, previous?.port ?? 0);
    if (state.quitting) return;
    adopt(running);
    const window = state.window;
    if (window === null || window.isDestroyed()) {
      openWindow(running);
    } else if (previous?.url === running.url) {
      window.loadURL(`${running.url}/`).catch((error: unknown) => console.error('[shell] reload failed', error));
    } else {
      // The preload got the old URL at window creation; a new origin needs a new window.
      window.destroy();
      openWindow(running);
    }
  } catch (error) {
    if (!state.quitting) fatal('The Compliance Console service could not be restarted', describe(error));
  } finally {
    state.restarting = false;
  }
}

async function boot(): Promise<void> {
  const binding = sqliteBindingPath();
  if (!existsSync(binding)) {
    const fix = app.isPackaged
      ? 'The installation is incomplete. Please reinstall Compliance Console.'
      : 'Build it once with `npm run native:electron` (needs internet to fetch Electron headers),\nor point CONSOLE_SQLITE_BINDING at a better_sqlite3.node built for this Electron.';
    fatal('The SQLite engine for Electron is missing', `Expected ${binding}\n\n${fix}`);
    return;
  }

  installContentSecurityPolicy(session.defaultSession, serviceOrigin);
  installPermissionHandlers(session.defaultSession, serviceOrigin);
  registerIpcHandlers({ serviceOrigin, takeLoginToken });

  const host = new ServiceHost({
    entryPath: serviceEntryPath,
    dataDir: serviceDataDir(),
    sqliteBindingPath: binding,
    resourcesDir: resourcesDir(),
    readyTimeoutMs: READY_TIMEOUT_MS,
    shutdownGraceMs: SHUTDOWN_GRACE_MS,
  });
  host.onUnexpectedExit((exit) => void onServiceDied(exit));
  state.host = host;

  let running: RunningService;
  try {
    running = await host.start(0);
  } catch (error) {
    if (!state.quitting) fatal('The Compliance Console service did not start', describe(error));
    return;
  }
  if (state.quitting) return;
  adopt(running);
  openWindow(running);
}

function onBeforeQuit(event: Electron.Event): void {
  state.quitting = true;
  const host = state.host;
  if (state.readyToQuit || host === null || !host.running) return;
  // Hold the quit until the service has closed its database cleanly (or been killed).
  event.preventDefault();
  void host.stop().finally(() => {
    state.readyToQuit = true;
    app.quit();
  });
}

export function startApp(): void {
  const userDataDir = process.env[USER_DATA_DIR_ENV];
  if (userDataDir !== undefined && userDataDir !== '') app.setPath('userData', resolve(userDataDir));

  // The lock lives in userData, so it is taken after the override: test profiles do not collide.
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  if (process.platform === 'win32') app.setAppUserModelId(APP_USER_MODEL_ID);

  app.on('second-instance', () => focusWindow(state.window));
  app.on('web-contents-created', (_event, contents) => guardWebContents(contents, serviceOrigin));
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (state.window === null && state.service !== null) openWindow(state.service);
  });
  app.on('before-quit', onBeforeQuit);
  // Ctrl+C in `npm start` or a service manager's SIGTERM: quit through before-quit, so the
  // service gets its shutdown message instead of dying mid-transaction.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => app.quit());

  app
    .whenReady()
    .then(boot)
    .catch((error: unknown) => fatal('Compliance Console could not start', describe(error)));
}
