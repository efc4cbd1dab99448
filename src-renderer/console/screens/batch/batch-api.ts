// The console's batch rescreen calls, through api/client.ts. The rows endpoint streams NDJSON,
// each line checked against the contract's `BatchLine` as it arrives, so progress moves while the service works
// through a chunk.
import type { Environment } from '../../../../src-shared/catalog';
import {
  BatchInfo, BatchLine, BatchPreview, OpenBatchList, type BatchChunkEnd, type BatchRow, type CreateBatchRequest,
} from '../../../../src-shared/contracts/batch';
import { ApiError, request, streamLines } from '../../api/client';

const path = (id: string, rest: string) => `/api/console/batches/${encodeURIComponent(id)}${rest}`;

export const batchApi = {
  preview: (env: Environment, rows: number, signal?: AbortSignal) =>
    request('GET', `/api/console/batches/preview?env=${encodeURIComponent(env)}&rows=${rows}`, BatchPreview, { signal }),
  create: (body: CreateBatchRequest) => request('POST', '/api/console/batches', BatchInfo, { body }),
  cancel: (id: string) => request('POST', path(id, '/cancel'), BatchInfo),
  finish: (id: string) => request('POST', path(id, '/finish'), BatchInfo),
  /** Owners and admins: every open batch of the organisation. */
  open: (signal?: AbortSignal) => request('GET', '/api/console/batches', OpenBatchList, { signal }),
  /** Owners and admins: end anyone's open batch. */
  end: (id: string) => request('POST', path(id, '/end'), BatchInfo),
};

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
  const last: { end: BatchChunkEnd | null } = { end: null };
  await streamLines(path(id, '/rows'), BatchLine, (lines) => {
    const answered: Exclude<BatchLine, BatchChunkEnd>[] = [];
    for (const line of lines) {
      if ('done' in line) last.end = line;
      else answered.push(line);
    }
    if (answered.length > 0) onLines(answered);
  }, { body, contentType: 'application/x-ndjson', signal });
  if (!last.end) throw new ApiError(0, 'The service stopped answering in the middle of a chunk.');
  return last.end;
}
