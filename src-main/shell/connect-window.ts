// The "Run on this computer or connect to my team's server" window. Its page (out/renderer/
// connect.html, built with the console) is served by the shell under its own privileged scheme,
// because it shows before any service runs; its preload exposes four channels that answer this
// origin only. The decisions themselves (what to trust, what to keep) are in connection.ts.
import { readFile } from 'node:fs/promises';
import { BrowserWindow, ipcMain, protocol, type IpcMainInvokeEvent } from 'electron';
import { CONSOLE_CSP } from '../../src-shared/csp';
import type { ConnectRequest, ConnectResult, ConnectState, ProbeResult } from './bridge-types';
import { connectPageFile } from './connect-page-files';
import { CONNECT_CHANNELS, CONNECT_ORIGIN, CONNECT_SCHEME } from './ipc-channels';
import { originOf } from './url-rules';

/** Before `app.whenReady()`: a standard, secure scheme, so the page has an origin and a secure context. */
export function registerConnectScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: CONNECT_SCHEME, privileges: { standard: true, secure: true } }]);
}

/** Serves connect.html and the built assets it names, nothing else of the disk (connect-page-files.ts). */
export function serveConnectPage(rendererDir: string): void {
  protocol.handle(CONNECT_SCHEME, async (request) => {
    const url = new URL(request.url);
    const found = url.host === 'connect' ? connectPageFile(rendererDir, url.pathname) : null;
    if (found === null) return new Response('Not found', { status: 404 });
    try {
      const body = await readFile(found.file);
      return new Response(body, { headers: { 'Content-Type': found.type, 'Content-Security-Policy': CONSOLE_CSP, 'Cache-Control': 'no-store' } });
    } catch {
      return new Response('Not found', { status: 404 });
    }
  });
}

export function createConnectWindow(preloadPath: string): BrowserWindow {
  const window = new BrowserWindow({
    title: 'Compliance Console',
    width: 760,
    height: 720,
    minWidth: 560,
    minHeight: 560,
    show: false,
    webPreferences: { preload: preloadPath, contextIsolation: true, nodeIntegration: false, sandbox: true, webSecurity: true, spellcheck: false },
  });
  window.once('ready-to-show', () => window.show());
  window.webContents.once('did-fail-load', () => {
    if (!window.isDestroyed() && !window.isVisible()) window.show();
  });
  window.loadURL(`${CONNECT_ORIGIN}/connect.html`).catch((error: unknown) => console.error('[shell] loading the connect page failed', error));
  return window;
}

export interface ConnectContext {
  state(): ConnectState;
  probe(serverUrl: string): Promise<ProbeResult>;
  connect(request: ConnectRequest): Promise<ConnectResult>;
  runLocally(): Promise<void>;
}

function fromConnectPage(event: IpcMainInvokeEvent): void {
  const frameUrl = event.senderFrame?.url;
  if (frameUrl === undefined || originOf(frameUrl) !== CONNECT_ORIGIN) throw new Error('Refused: the caller is not the connect page.');
}

function text(value: unknown, max = 2_000): string {
  return typeof value === 'string' ? value.slice(0, max) : '';
}

export function registerConnectHandlers(context: ConnectContext): void {
  const handle = (channel: string, handler: (arg: unknown) => unknown) =>
    ipcMain.handle(channel, (event, arg: unknown) => {
      fromConnectPage(event);
      return handler(arg);
    });
  handle(CONNECT_CHANNELS.state, () => context.state());
  handle(CONNECT_CHANNELS.probe, (arg) => context.probe(text(arg)));
  handle(CONNECT_CHANNELS.connect, (arg) => {
    const raw = (typeof arg === 'object' && arg !== null ? arg : {}) as Record<string, unknown>;
    return context.connect({ serverUrl: text(raw.serverUrl), fingerprint: text(raw.fingerprint, 200), confirmation: text(raw.confirmation, 200) });
  });
  handle(CONNECT_CHANNELS.runLocally, () => context.runLocally());
}
