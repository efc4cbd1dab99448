// The console's batch rescreen calls. JSON answers go through api/client.ts and its zod checks;
// the rows endpoint streams NDJSON, read here line by line as it arrives so progress moves while
// the service works through a chunk.
import { z } from 'zod';
import type { Environment } from '../../../../src-shared/catalog';
import {
  BatchInfo, BatchPreview, type BatchChunkEnd, type BatchLine, type BatchRow, type CreateBatchRequest,
} from '../../../../src-shared/contracts/batch';
import { ApiError, request } from '../../api/client';
import { serviceUrl } from '../../api/shell';

const Lists = z.object({ state: z.enum(['loading', 'ready', 'failed']), loaded_kinds: z.array(z.string()) }).loose();
export type ListsState = z.output<typeof Lists>;

const path = (id: string, rest: string) => `/api/console/batches/${encodeURIComponent(id)}${rest}`;

export const batchApi = {
  lists: (signal?: AbortSignal) => request('GET', '/api/screening/lists', Lists, { signal }),
  preview: (env: Environment, rows: number, signal?: AbortSignal) =>
    request('GET', `/api/console/batches/preview?env=${encodeURIComponent(env)}&rows=${rows}`, BatchPreview, { signal }),
  create: (body: CreateBatchRequest) => request('POST', '/api/console/batches', BatchInfo, { body }),
  cancel: (id: string) => request('POST', path(id, '/cancel'), BatchInfo),
  finish: (id: string) => request('POST', path(id, '/finish'), BatchInfo),
};

async function errorOf(res: Response): Promise<ApiError> {
  let message = `The service answered with HTTP ${res.status}.`;
  try {
    const body = (await res.json()) as { error?: unknown; message?: unknown };
    if (typeof body.error === 'string') message = body.error;
    else if (body.error && typeof body.error === 'object' && 'message' in body.error) message = String(body.error.message);
    else if (typeof body.message === 'string') message = body.message;
  } catch {
    // Not JSON: keep the status text.
  }
  if (res.status === 401) {
    // Let the session store see the ended session the same way every other request reports it.
    void request('GET', '/api/account', z.unknown()).catch(() => undefined);
  }
  return new ApiError(res.status, message);
}

/**
 * Sends one chunk of rows and hands each batch of answered lines to `onLines` as it arrives.
 * Resolves with the chunk's last line (its summary).
 */
export async function sendRows(
  id: string,
  rows: readonly BatchRow[],
  signal: AbortSignal,
  onLines: (lines: Exclude<BatchLine, BatchChunkEnd>[]) => void,
): Promise<BatchChunkEnd> {
  let body = '';
  for (const r of rows) body += JSON.stringify(r) + '\n';
  let res: Response;
  try {
    res = await fetch(`${serviceUrl()}${path(id, '/rows')}`, {
      method: 'POST',
      credentials: 'same-origin',
      cache: 'no-store',
      headers: { 'Content-Type': 'application/x-ndjson', Accept: 'application/x-ndjson' },
      body,
      signal,
    });
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError') throw e;
    throw new ApiError(0, 'Cannot reach the Compliance Console service. Is it running?');
  }
  if (!res.ok || !res.body) throw await errorOf(res);

  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let rest = '';
  const last: { end: BatchChunkEnd | null } = { end: null };
  const take = (text: string) => {
    const parts = text.split('\n');
    rest = parts.pop() ?? '';
    const out: Exclude<BatchLine, BatchChunkEnd>[] = [];
    for (const part of parts) {
      if (part === '') continue;
      const line = JSON.parse(part) as BatchLine;
      if ('done' in line) last.end = line;
      else out.push(line);
    }
    if (out.length > 0) onLines(out);
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      take(rest + decoder.decode(value, { stream: true }));
    }
    take(rest + decoder.decode() + '\n');
  } finally {
    reader.releaseLock();
  }
  if (!last.end) throw new ApiError(0, 'The service stopped answering in the middle of a chunk.');
  return last.end;
}
