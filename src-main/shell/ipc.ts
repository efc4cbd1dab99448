// Main-side handlers for the five shell channels. Each checks that the caller is a frame of the
// service origin and validates its arguments (bridge-validation.ts) before acting.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, shell, type IpcMainInvokeEvent, type SaveDialogOptions } from 'electron';
import type { SaveFileResult } from './bridge-types';
import { parseExternalUrl, parseSaveFileRequest, type SaveFileRequest } from './bridge-validation';
import { SHELL_CHANNELS, type ShellChannel } from './ipc-channels';
import { originOf } from './url-rules';

export interface IpcContext {
  serviceOrigin(): string | null;
  takeLoginToken(): string | null;
  /** "Change server": back to the connect page. */
  chooseServer(): void;
}

function assertFromService(event: IpcMainInvokeEvent, origin: string | null): void {
  const frameUrl = event.senderFrame?.url;
  if (origin === null || frameUrl === undefined || originOf(frameUrl) !== origin) {
    throw new Error('Refused: the caller is not the Compliance Console page.');
  }
}

function handle<T>(channel: ShellChannel, context: IpcContext, handler: (event: IpcMainInvokeEvent, arg: unknown) => T): void {
  ipcMain.handle(channel, (event, arg: unknown) => {
    assertFromService(event, context.serviceOrigin());
    return handler(event, arg);
  });
}

function defaultFolder(): string {
  try {
    return app.getPath('downloads');
  } catch {
    return app.getPath('home');
  }
}

async function saveFile(event: IpcMainInvokeEvent, request: SaveFileRequest): Promise<SaveFileResult> {
  const options: SaveDialogOptions = {
    defaultPath: join(defaultFolder(), request.defaultName),
    filters: request.filters,
    properties: ['createDirectory', 'showOverwriteConfirmation'],
  };
  const owner = BrowserWindow.fromWebContents(event.sender);
  const result = owner === null ? await dialog.showSaveDialog(options) : await dialog.showSaveDialog(owner, options);
  if (result.canceled || result.filePath === undefined || result.filePath === '') return { saved: false };
  await writeFile(result.filePath, request.content);
  return { saved: true, path: result.filePath };
}

export function registerIpcHandlers(context: IpcContext): void {
  handle(SHELL_CHANNELS.takeLoginToken, context, () => context.takeLoginToken());
  handle(SHELL_CHANNELS.saveFile, context, (event, arg) => saveFile(event, parseSaveFileRequest(arg)));
  handle(SHELL_CHANNELS.openExternal, context, async (_event, arg) => {
    await shell.openExternal(parseExternalUrl(arg));
  });
  handle(SHELL_CHANNELS.appVersion, context, () => app.getVersion());
  handle(SHELL_CHANNELS.chooseServer, context, () => context.chooseServer());
}
