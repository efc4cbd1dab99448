// Sandboxed preload of the connect page (bundled to out/preload/connect-preload.cjs). It exposes
// `window.connect` and nothing else: four named functions over the four connect channels, whose
// main-side handlers answer the connect page's origin only (connect-window.ts).
import { contextBridge, ipcRenderer } from 'electron';
import type { ConnectBridge, ConnectRequest, ConnectResult, ConnectState, ProbeResult } from './bridge-types';
import { CONNECT_CHANNELS } from './ipc-channels';

const bridge: ConnectBridge = {
  async state() {
    return (await ipcRenderer.invoke(CONNECT_CHANNELS.state)) as ConnectState;
  },
  async probe(serverUrl: string) {
    return (await ipcRenderer.invoke(CONNECT_CHANNELS.probe, String(serverUrl))) as ProbeResult;
  },
  async connect(request: ConnectRequest) {
    // Rebuilt field by field: nothing but these three strings crosses into main.
    const sent = { serverUrl: String(request.serverUrl), fingerprint: String(request.fingerprint), confirmation: String(request.confirmation ?? '') };
    return (await ipcRenderer.invoke(CONNECT_CHANNELS.connect, sent)) as ConnectResult;
  },
  async runLocally() {
    await ipcRenderer.invoke(CONNECT_CHANNELS.runLocally);
  },
};

contextBridge.exposeInMainWorld('connect', bridge);
