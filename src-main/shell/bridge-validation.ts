// Validation of what the renderer sends over IPC. The renderer is treated as untrusted input
// (a compromised page must not turn the save dialog into "write anywhere" or openExternal into
// "run anything"), so every argument is checked here before main acts on it. Pure: no electron.
import type { SaveFileFilter } from './bridge-types';
import { isExternalWebUrl } from './url-rules';

export class BridgeArgumentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BridgeArgumentError';
  }
}

export interface SaveFileRequest {
  defaultName: string;
  content: string | Uint8Array;
  filters: SaveFileFilter[];
}

/** Larger payloads should be streamed by the service as a download, not pushed through IPC. */
export const MAX_SAVE_BYTES = 512 * 1024 * 1024;
const MAX_NAME_LENGTH = 200;
const MAX_FILTERS = 10;
const MAX_EXTENSIONS = 20;
const EXTENSION = /^(\*|[A-Za-z0-9]{1,16})$/;
// Path separators, characters Windows refuses, and control characters: the name is only a
// suggestion inside the chosen folder, never a path.
const UNSAFE_NAME_CHARS = /[\\/:*?"<>|\u0000-\u001f\u007f]/g;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function sanitizeFileName(raw: string): string {
  const cleaned = raw.replace(UNSAFE_NAME_CHARS, '_').trim().replace(/^\.+/, '').slice(0, MAX_NAME_LENGTH);
  return cleaned === '' ? 'export' : cleaned;
}

function parseFilters(raw: unknown): SaveFileFilter[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw) || raw.length > MAX_FILTERS) {
    throw new BridgeArgumentError(`filters must be an array of at most ${MAX_FILTERS} entries`);
  }
  return raw.map((entry: unknown, index) => {
    if (!isRecord(entry)) throw new BridgeArgumentError(`filters[${index}] must be an object`);
    const { name, extensions } = entry;
    if (typeof name !== 'string' || name.length === 0 || name.length > 100) {
      throw new BridgeArgumentError(`filters[${index}].name must be a string of 1-100 characters`);
    }
    if (
      !Array.isArray(extensions) ||
      extensions.length === 0 ||
      extensions.length > MAX_EXTENSIONS ||
      !extensions.every((ext: unknown) => typeof ext === 'string' && EXTENSION.test(ext))
    ) {
      throw new BridgeArgumentError(`filters[${index}].extensions must list 1-${MAX_EXTENSIONS} plain extensions`);
    }
    return { name, extensions: extensions.map((ext: unknown) => String(ext)) };
  });
}

export function parseSaveFileRequest(raw: unknown): SaveFileRequest {
  if (!isRecord(raw)) throw new BridgeArgumentError('saveFile expects an options object');
  const { defaultName, content, filters } = raw;
  if (typeof defaultName !== 'string') throw new BridgeArgumentError('defaultName must be a string');
  if (typeof content === 'string') {
    // A UTF-16 length bound is enough to stop runaway payloads; exact bytes do not matter here.
    if (content.length > MAX_SAVE_BYTES) throw new BridgeArgumentError('content is too large');
  } else if (content instanceof Uint8Array) {
    if (content.byteLength > MAX_SAVE_BYTES) throw new BridgeArgumentError('content is too large');
  } else {
    throw new BridgeArgumentError('content must be a string or a Uint8Array');
  }
  return { defaultName: sanitizeFileName(defaultName), content, filters: parseFilters(filters) };
}

export function parseExternalUrl(raw: unknown): string {
  if (typeof raw !== 'string' || raw.length > 4096 || !isExternalWebUrl(raw)) {
    throw new BridgeArgumentError('openExternal accepts only http(s) URLs');
  }
  return new URL(raw).href;
}
