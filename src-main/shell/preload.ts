// Sandboxed preload (bundled to out/preload/preload.cjs). It exposes `window.shell` and nothing
// else: named functions over five named channels, never ipcRenderer or a generic invoke.
// Only 'electron' may be imported from node_modules; local pure modules are bundled in.
import { contextBridge, ipcRenderer } from 'electron';
import type { SaveFileOptions, SaveFileResult, ShellBridge, ShellConnection } from './bridge-types';
import { CONNECTION_ARG, SERVICE_URL_ARG, SHELL_CHANNELS } from './ipc-channels';
import { consoleOrigin } from './url-rules';

function argument(argv: readonly string[], name: string): string | undefined {
  return argv.find((value) => value.startsWith(name))?.slice(name.length);
}

function serviceUrlFromArgv(argv: readonly string[]): string {
  const arg = argument(argv, SERVICE_URL_ARG);
  return arg === undefined ? '' : (consoleOrigin(arg) ?? '');
}

/** The team server and its pinned fingerprint, for the console to show; this computer's service otherwise. */
function connectionFromArgv(argv: readonly string[], serviceUrl: string): ShellConnection {
  try {
    const value = JSON.parse(argument(argv, CONNECTION_ARG) ?? '') as { mode?: unknown; serverUrl?: unknown; fingerprint?: unknown };
    if (value.mode === 'team' && value.serverUrl === serviceUrl && typeof value.fingerprint === 'string') {
      return { mode: 'team', serverUrl: serviceUrl, fingerprint: value.fingerprint };
    }
  } catch {
    // no or unreadable argument: this computer's service
  }
  return { mode: 'local' };
}

const serviceUrl = serviceUrlFromArgv(process.argv);

function toSaveResult(value: unknown): SaveFileResult {
  if (typeof value !== 'object' || value === null) return { saved: false };
  const { saved, path } = value as { saved?: unknown; path?: unknown };
  return saved === true && typeof path === 'string' ? { saved: true, path } : { saved: false };
}

const bridge: ShellBridge = {
  serviceUrl,
  connection: connectionFromArgv(process.argv, serviceUrl),
  async takeLoginToken() {
    const token: unknown = await ipcRenderer.invoke(SHELL_CHANNELS.takeLoginToken);
    return typeof token === 'string' ? token : null;
  },
  async saveFile(options: SaveFileOptions) {
    // Rebuilt field by field so nothing but these three properties crosses into main.
    const request = { defaultName: options.defaultName, content: options.content, filters: options.filters };
    return toSaveResult(await ipcRenderer.invoke(SHELL_CHANNELS.saveFile, request));
  },
  async openExternal(url: string) {
    await ipcRenderer.invoke(SHELL_CHANNELS.openExternal, url);
  },
  async appVersion() {
    const version: unknown = await ipcRenderer.invoke(SHELL_CHANNELS.appVersion);
    return typeof version === 'string' ? version : '';
  },
  async chooseServer() {
    await ipcRenderer.invoke(SHELL_CHANNELS.chooseServer);
  },
};

contextBridge.exposeInMainWorld('shell', bridge);
