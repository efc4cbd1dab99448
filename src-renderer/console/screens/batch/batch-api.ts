// The console's batch rescreen calls, through api/client.ts. The rows endpoint streams NDJSON,
// each line checked against `Line` as it arrives, so progress moves while the service works
// through a chunk.
import { z } from 'zod';
import type { Environment } from '../../../../src-shared/catalog';
import type {
  BatchChunkEnd, BatchInfo, BatchLine, BatchPreview, BatchRow, CreateBatchRequest,
} from '../../../../src-shared/contracts/batch';
import { RISK_CHANGES, RISK_LEVELS, ScreeningMatch } from '../../../../src-shared/contracts/screening';
import { ApiError, request, streamLines } from '../../api/client';

const Preview = z.object({
  env: z.enum(['test', 'live']),
  rows: z.number(),
  credits_per_row: z.number(),
  total_credits: z.number(),
  balance: z.number(),
  sufficient: z.boolean(),
});

const Info = z.object({
  id: z.string(),
  env: z.enum(['test', 'live']),
  total_rows: z.number(),
  credits_per_row: z.number(),
  state: z.enum(['open', 'cancelled', 'finished']),
  processed: z.number(),
  errors: z.number(),
  credits_charged: z.number(),
  list_versions: z.array(z.object({
    source: z.string(), kind: z.enum(['sanctions', 'pep', 'rca', 'wanted']), list_date: z.string().nullable(),
    retrieval_date: z.string().nullable(), sha256: z.string(),
  })),
  lists_checked: z.array(z.string()),
  created_at: z.string(),
});

const RowResult = z.object({
  row: z.number(),
  id: z.string(),
  client_reference_id: z.string().nullable(),
  previous_screening_id: z.string().nullable(),
  risk: z.object({
    score: z.number(), level: z.enum(RISK_LEVELS), decision: z.enum(['clear', 'review', 'high_risk_review']), reasons: z.array(z.string()),
  }),
  flags: z.array(z.string()),
  risk_change: z.enum(RISK_CHANGES),
  matches: z.array(ScreeningMatch),
  review_token: z.string(),
});
const RowError = z.object({ row: z.number(), error: z.object({ type: z.string(), code: z.string(), message: z.string() }) });
const ChunkEnd = z.object({
  done: z.literal(true), processed: z.number(), errors: z.number(), credits_charged: z.number(),
  state: z.enum(['open', 'cancelled', 'finished']),
});
/** One line of the rows endpoint's NDJSON answer. */
const Line = z.union([ChunkEnd, RowError, RowResult]);

// Compile-time only: the schemas above must describe the contract's types.
const previewFits: z.output<typeof Preview> extends BatchPreview ? true : never = true;
const infoFits: z.output<typeof Info> extends BatchInfo ? true : never = true;
const lineFits: z.output<typeof Line> extends BatchLine ? true : never = true;
void previewFits;
void infoFits;
void lineFits;

const path = (id: string, rest: string) => `/api/console/batches/${encodeURIComponent(id)}${rest}`;

export const batchApi = {
  preview: (env: Environment, rows: number, signal?: AbortSignal) =>
    request('GET', `/api/console/batches/preview?env=${encodeURIComponent(env)}&rows=${rows}`, Preview, { signal }),
  create: (body: CreateBatchRequest) => request('POST', '/api/console/batches', Info, { body }),
  cancel: (id: string) => request('POST', path(id, '/cancel'), Info),
  finish: (id: string) => request('POST', path(id, '/finish'), Info),
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
  await streamLines(path(id, '/rows'), Line, (lines) => {
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
