// App lifecycle: one instance, one console window, shown from one of two places: the service it
// forks on this computer (service-host.ts), or the team's server over HTTPS, its certificate pinned
// (connection.ts). The first start asks which (connect-window.ts). The shell stays thin; the
// product is the service, shown in a locked-down window (window.ts).
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { app, dialog, session, type BrowserWindow, type Session } from 'electron';
import type { ConnectRefusal, ConnectState } from './bridge-types';
import { connectAnswers, serverHost, startupPlan, verifyTeamCertificate, type TeamConnection } from './connection';
import { createConnectWindow, registerConnectHandlers, registerConnectScheme, serveConnectPage } from './connect-window';
import { installContentSecurityPolicy } from './csp';
import { registerIpcHandlers } from './ipc';
import { connectionFile, connectPreloadPath, preloadPath, rendererDir, resourcesDir, serviceDataDir, serviceEntryPath, sqliteBindingPath, USER_DATA_DIR_ENV } from './paths';
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
  /** The team server the window shows, when it shows one (then no service runs here). */
  team: TeamConnection | null;
  connectWindow: BrowserWindow | null;
  /** Why the connect page shows instead of the console; null at first start or on "change server". */
  refusal: ConnectState['refusal'];
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
  team: null,
  connectWindow: null,
  refusal: null,
  pendingLoginToken: null,
  window: null,
  quitting: false,
  readyToQuit: false,
  restarting: false,
  crashTimes: [],
};

/** The origin the window may show and the bridge answers: the team server's, or this computer's service's. */
const serviceOrigin = (): string | null => state.team?.serverUrl ?? state.service?.url ?? null;

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
  trackWindow(createMainWindow({ serviceUrl: service.url, preloadPath, connection: { mode: 'local' } }));
}

function trackWindow(window: BrowserWindow): void {
  window.on('closed', () => {
    if (state.window === window) state.window = null;
  });
  state.window = window;
  closeConnectWindow();
}

function closeConnectWindow(): void {
  const connect = state.connectWindow;
  state.connectWindow = null;
  if (connect !== null && !connect.isDestroyed()) connect.close();
}

/** Shows the connect page (again, with the reason, if it is open); the console window, if any, closes after it. */
function showConnect(refusal: ConnectState['refusal']): void {
  state.refusal = refusal;
  const existing = state.connectWindow;
  if (existing !== null && !existing.isDestroyed()) {
    existing.webContents.reload();
    focusWindow(existing);
  } else {
    const window = createConnectWindow(connectPreloadPath);
    window.on('closed', () => {
      if (state.connectWindow === window) state.connectWindow = null;
    });
    state.connectWindow = window;
  }
  const main = state.window;
  state.window = null;
  state.team = null;
  // close(), not destroy(): the console's own "unsaved dispositions" guard still asks.
  if (main !== null && !main.isDestroyed()) main.close();
}

// ---- a team server --------------------------------------------------------------------------

let teamSession: Session | null = null;

/** One in-memory session (no `persist:`): cookies, cache and storage of the team's console never reach this disk. */
function teamServerSession(): Session {
  if (teamSession !== null) return teamSession;
  const made = session.fromPartition('team-server');
  installContentSecurityPolicy(made, serviceOrigin);
  installPermissionHandlers(made, serviceOrigin);
  made.setCertificateVerifyProc((request, callback) => {
    const team = state.team;
    if (team === null || request.hostname.replace(/^\[|\]$/g, '') !== serverHost(team.serverUrl)) {
      callback(-3); // not the team server: Chromium's own verdict (the window never shows it anyway)
      return;
    }
    const refusal = verifyTeamCertificate(request.certificate.data, team);
    if (refusal === null) {
      callback(0);
      return;
    }
    callback(-2);
    onTeamRefused(refusal);
  });
  teamSession = made;
  return made;
}

function onTeamRefused(refusal: ConnectRefusal): void {
  if (state.team === null) return;
  console.error(`[shell] the team server was refused: ${refusal.problem}`);
  showConnect(refusal);
}

/** Whatever the connection file now says: the connect page (with why), this computer's service, or the team server. */
async function openChosen(): Promise<void> {
  const plan = await startupPlan(connectionFile());
  if (plan.open === 'connect') showConnect(plan.refusal);
  else if (plan.open === 'local') await startLocal();
  else await openTeamServer(plan.team);
}

/** The team server's console, in its own session; no service runs on this computer meanwhile. */
async function openTeamServer(team: TeamConnection): Promise<void> {
  if (state.host?.running) await state.host.stop();
  state.service = null;
  state.pendingLoginToken = null;
  state.team = team;
  state.refusal = null;
  trackWindow(createMainWindow({ serviceUrl: team.serverUrl, preloadPath, connection: team, session: teamServerSession() }));
}

// ---- this computer's service -----------------------------------------------------------------

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

async function startLocal(): Promise<void> {
  if (state.service !== null) {
    // "Change server", then this computer again: the service never stopped.
    state.team = null;
    if (state.window === null || state.window.isDestroyed()) openWindow(state.service);
    else {
      closeConnectWindow();
      focusWindow(state.window);
    }
    return;
  }
  const binding = sqliteBindingPath();
  if (!existsSync(binding)) {
    const fix = app.isPackaged
      ? 'The installation is incomplete. Please reinstall Compliance Console.'
      : 'Build it once with `npm run native:electron` (needs internet to fetch Electron headers),\nor point CONSOLE_SQLITE_BINDING at a better_sqlite3.node built for this Electron.';
    fatal('The SQLite engine for Electron is missing', `Expected ${binding}\n\n${fix}`);
    return;
  }
  state.team = null;
  state.host ??= (() => {
    const host = new ServiceHost({
      entryPath: serviceEntryPath,
      dataDir: serviceDataDir(),
      sqliteBindingPath: binding,
      resourcesDir: resourcesDir(),
      readyTimeoutMs: READY_TIMEOUT_MS,
      shutdownGraceMs: SHUTDOWN_GRACE_MS,
    });
    host.onUnexpectedExit((exit) => void onServiceDied(exit));
    return host;
  })();

  let running: RunningService;
  try {
    running = await state.host.start(0);
  } catch (error) {
    if (!state.quitting) fatal('The Compliance Console service did not start', describe(error));
    return;
  }
  if (state.quitting) return;
  adopt(running);
  openWindow(running);
}

async function boot(): Promise<void> {
  serveConnectPage(rendererDir);
  installContentSecurityPolicy(session.defaultSession, serviceOrigin);
  installPermissionHandlers(session.defaultSession, serviceOrigin);
  registerIpcHandlers({ serviceOrigin, takeLoginToken, chooseServer: () => showConnect(null) });
  const answers = connectAnswers(connectionFile(), () => state.refusal);
  registerConnectHandlers({
    state: answers.state,
    probe: answers.probe,
    connect: async (request) => {
      const result = await answers.connect(request);
      if (result.ok) await openChosen();
      return result;
    },
    runLocally: async () => {
      answers.runLocally();
      state.refusal = null;
      await startLocal();
    },
  });
  await openChosen();
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

  // Before ready: the connect page's scheme must be privileged before any session exists.
  registerConnectScheme();
  // The lock lives in userData, so it is taken after the override: test profiles do not collide.
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  if (process.platform === 'win32') app.setAppUserModelId(APP_USER_MODEL_ID);

  // A second launch brings this one forward: the console, or the connect page while it asks.
  app.on('second-instance', () => focusWindow(state.window ?? state.connectWindow));
  app.on('web-contents-created', (_event, contents) => guardWebContents(contents, serviceOrigin));
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (state.window !== null || state.connectWindow !== null) return;
    if (state.service !== null) openWindow(state.service);
    else void openChosen();
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
