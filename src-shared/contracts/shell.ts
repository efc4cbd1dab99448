// The shape of `window.shell`, the only thing the Electron preload exposes to the console.
// Written once here: the preload implements it, the console consumes it (and falls back to
// plain browser behaviour when it is absent, as in Chromium e2e and `npm run serve`).

export interface SaveFileFilter {
  name: string;
  extensions: string[];
}

export interface SaveFileOptions {
  defaultName: string;
  content: string | Uint8Array;
  filters?: SaveFileFilter[];
}

export interface SaveFileResult {
  saved: boolean;
  path?: string;
}

export interface ShellBridge {
  /** `http://127.0.0.1:PORT` (no trailing slash): the origin the console was loaded from. */
  readonly serviceUrl: string;
  /** The one-time login token for POST /api/auth/token; null after the first call. */
  takeLoginToken(): Promise<string | null>;
  /** Shows a save dialog and writes the content in the main process. */
  saveFile(options: SaveFileOptions): Promise<SaveFileResult>;
  /** Opens an http(s) URL in the OS browser; rejects for any other scheme. */
  openExternal(url: string): Promise<void>;
  appVersion(): Promise<string>;
}
