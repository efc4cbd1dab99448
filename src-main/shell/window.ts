// The console window and the guards every web contents gets: it may show the service origin
// and nothing else; links elsewhere go to the OS browser, and only http(s) ones.
import { BrowserWindow, dialog, shell, type Session, type WebContents } from 'electron';
import type { ShellConnection } from './bridge-types';
import { CONNECTION_ARG, SERVICE_URL_ARG } from './ipc-channels';
import { isExternalWebUrl, originOf } from './url-rules';

function openInBrowser(url: string): void {
  if (!isExternalWebUrl(url)) return;
  shell.openExternal(url).catch((error: unknown) => console.error('[shell] openExternal failed', error));
}

export function guardWebContents(contents: WebContents, serviceOrigin: () => string | null): void {
  const isService = (url: string): boolean => {
    const origin = serviceOrigin();
    return origin !== null && originOf(url) === origin;
  };

  contents.on('will-navigate', (event) => {
    if (isService(event.url)) return;
    event.preventDefault();
    openInBrowser(event.url);
  });
  // A same-origin link that the server redirects elsewhere must not escape either.
  contents.on('will-redirect', (event) => {
    if (event.isMainFrame && !isService(event.url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    openInBrowser(url);
    return { action: 'deny' };
  });
}

export interface MainWindowOptions {
  serviceUrl: string;
  preloadPath: string;
  connection: ShellConnection;
  /** A team server's window uses its own in-memory session: nothing of it is written to this disk. */
  session?: Session;
}

export function createMainWindow({ serviceUrl, preloadPath, connection, session }: MainWindowOptions): BrowserWindow {
  const window = new BrowserWindow({
    title: 'Compliance Console',
    width: 1280,
    height: 820,
    minWidth: 960,
    minHeight: 600,
    show: false,
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      nodeIntegration: false,
      sandbox: true,
      webSecurity: true,
      ...(session ? { session } : {}),
      additionalArguments: [`${SERVICE_URL_ARG}${serviceUrl}`, `${CONNECTION_ARG}${JSON.stringify(connection)}`],
      // Spellcheck would send typed subject names through the OS spellchecker and, on Linux,
      // download dictionaries from Google: neither belongs in a compliance tool.
      spellcheck: false,
    },
  });
  window.once('ready-to-show', () => window.show());
  // Electron never asks "leave this page?" by itself: when the console's beforeunload guard holds
  // the window (unsaved dispositions), the shell asks, and unloads only on "Leave".
  window.webContents.on('will-prevent-unload', (event) => {
    const choice = dialog.showMessageBoxSync(window, {
      type: 'warning',
      buttons: ['Leave without saving', 'Stay'],
      defaultId: 1,
      cancelId: 1,
      title: 'Unsaved dispositions',
      message: 'Leave without saving your dispositions?',
      detail: 'They exist only in this window until you save the results.',
    });
    if (choice === 0) event.preventDefault();
  });
  // A failed load never fires ready-to-show; show the window anyway so the app is not invisible.
  window.webContents.once('did-fail-load', () => {
    if (!window.isDestroyed() && !window.isVisible()) window.show();
  });
  // Loaded over HTTP from the service, not file://: the session cookie is SameSite=Strict and
  // HttpOnly, so the console must be same-origin with the API.
  window.loadURL(`${serviceUrl}/`).catch((error: unknown) => console.error('[shell] loading the console failed', error));
  return window;
}

export function focusWindow(window: BrowserWindow | null): void {
  if (window === null || window.isDestroyed()) return;
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}
