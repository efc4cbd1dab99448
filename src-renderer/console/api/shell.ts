// The Electron preload's `window.shell` (its type is shared through src-shared/contracts/shell.ts).
// Absent when the console runs in a plain browser (Chromium e2e, `npm run serve`), so every use
// has a browser fallback.

import type { SaveFileOptions, SaveFileResult, ShellBridge } from '../../../src-shared/contracts/shell';

export type { SaveFileOptions, SaveFileResult, ShellBridge };

declare global {
  interface Window {
    shell?: ShellBridge;
  }
}

export function shell(): ShellBridge | undefined {
  return window.shell;
}

/** The service's origin: the shell tells us; in a browser the console is served by the service. */
export function serviceUrl(): string {
  const fromShell = window.shell?.serviceUrl;
  return fromShell && fromShell.length > 0 ? fromShell : window.location.origin;
}

const MIME_BY_EXTENSION: Record<string, string> = {
  csv: 'text/csv',
  pdf: 'application/pdf',
  json: 'application/json',
  txt: 'text/plain',
};

/**
 * Saves a file the user asked for: the shell's save dialog in Electron, a download in a browser
 * (where the browser decides the folder, so no path comes back).
 */
export async function saveFile(options: SaveFileOptions): Promise<SaveFileResult> {
  const bridge = shell();
  if (bridge) return bridge.saveFile(options);
  const extension = options.defaultName.split('.').pop()?.toLowerCase() ?? '';
  const type = MIME_BY_EXTENSION[extension] ?? 'application/octet-stream';
  // Copy into a plain ArrayBuffer-backed view: Blob does not accept shared buffers.
  const part = typeof options.content === 'string' ? options.content : new Uint8Array(options.content);
  const url = URL.createObjectURL(new Blob([part], { type }));
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = options.defaultName;
    link.rel = 'noopener';
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // Revoke after the click has been handled; the download keeps its own reference.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
  return { saved: true };
}

/** Opens an http(s) link outside the console: the OS browser in Electron, a new tab otherwise. */
export async function openExternal(url: string): Promise<void> {
  const bridge = shell();
  if (bridge) return bridge.openExternal(url);
  window.open(url, '_blank', 'noopener,noreferrer');
}
