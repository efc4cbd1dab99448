// Sandboxed preload (bundled to out/preload/preload.cjs). It exposes `window.shell` and nothing
// else: named functions over four named channels, never ipcRenderer or a generic invoke.
// Only 'electron' may be imported from node_modules; local pure modules are bundled in.
import { contextBridge, ipcRenderer } from 'electron';
import type { SaveFileOptions, SaveFileResult, ShellBridge } from './bridge-types';
import { SERVICE_URL_ARG, SHELL_CHANNELS } from './ipc-channels';
import { loopbackOrigin } from './url-rules';

function serviceUrlFromArgv(argv: readonly string[]): string {
  const arg = argv.find((value) => value.startsWith(SERVICE_URL_ARG));
  return arg === undefined ? '' : (loopbackOrigin(arg.slice(SERVICE_URL_ARG.length)) ?? '');
}

function toSaveResult(value: unknown): SaveFileResult {
  if (typeof value !== 'object' || value === null) return { saved: false };
  const { saved, path } = value as { saved?: unknown; path?: unknown };
  return saved === true && typeof path === 'string' ? { saved: true, path } : { saved: false };
}

const bridge: ShellBridge = {
  serviceUrl: serviceUrlFromArgv(process.argv),
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
};

contextBridge.exposeInMainWorld('shell', bridge);
