// Console batch rescreen over HTTP: preview the cost, open a batch, send rows in NDJSON chunks
// and read results back as a stream, cancel, finish; each analyst reaches only their own batch.
// Owners and admins list the organisation's open batches and end anyone's. Session-authenticated;
// API-key rate limits do not apply, credits do (live only).
import { z } from 'zod';
import { ENVIRONMENTS } from '../../../../src-shared/catalog';
import {
  BATCH_LIMITS, BatchInfo, BatchLine, BatchPreview, BatchRow, CreateBatchRequest, OpenBatchList,
} from '../../../../src-shared/contracts/batch';
import { cancelBatch, endBatch, finishBatch, listOpenBatches, openBatch, ownerOf } from '../../core/app/batch';
import type { Router } from '../router';

const PreviewQuery = z.object({ env: z.enum(ENVIRONMENTS), rows: z.coerce.number().int().min(1).max(BATCH_LIMITS.rows) });
const CHUNK_BYTES = 16 * 1024 * 1024;
const TAGS = ['batch'];
const COMPLIANCE = { kind: 'session', product: 'compliance' } as const;
const MANAGE_ALL = { kind: 'session', act: 'batches.manage_all' } as const;

export function batchRoutes({ route, services }: Router): void {
  const { batches, screening } = services;

  route({
    method: 'GET', path: '/api/console/batches/preview', auth: { kind: 'session' }, tags: TAGS,
    summary: 'What a batch rescreen of this many rows would cost',
    request: { query: PreviewQuery },
    responses: { 200: BatchPreview },
    handler: async (c, input) => {
      const s = c.get('session');
      const q = input.query();
      return c.json<BatchPreview>(await batches.preview(s.org.id, q.env, q.rows));
    },
  });

  route({
    method: 'POST', path: '/api/console/batches', auth: COMPLIANCE, tags: TAGS,
    summary: 'Open a batch rescreen (one open batch per analyst)',
    request: { body: CreateBatchRequest },
    responses: { 201: BatchInfo },
    handler: async (c, input) => {
      const body = await input.body();
      return c.json<BatchInfo>(await openBatch(services, c.get('session'), body), 201);
    },
  });

  route({
    method: 'GET', path: '/api/console/batches', auth: MANAGE_ALL, tags: TAGS,
    summary: 'Every open batch of the organisation: whose, how far, last activity (owners and admins)',
    responses: { 200: OpenBatchList },
    handler: async (c) => c.json<OpenBatchList>(await listOpenBatches(services, c.get('session'))),
  });

  route({
    method: 'GET', path: '/api/console/batches/:id', auth: { kind: 'session' }, tags: TAGS,
    summary: 'The state and counts of one\'s own batch',
    description: 'Another analyst\'s batch answers 404, as an unknown one.',
    responses: { 200: BatchInfo },
    handler: async (c) =>
      c.json<BatchInfo>(await batches.info(ownerOf(c.get('session')), c.req.param('id') ?? '', screening.current())),
  });

  route({
    method: 'POST', path: '/api/console/batches/:id/rows', auth: COMPLIANCE, tags: TAGS,
    summary: 'Screen a chunk of rows; results stream back, one line per row and a summary line',
    request: {
      body: {
        contentType: 'application/x-ndjson', accept: ['application/jsonl'], description: `One row per line, at most ${BATCH_LIMITS.rowsPerChunk} rows`, schema: BatchRow,
      },
      maxBytes: CHUNK_BYTES,
    },
    responses: {
      200: { contentType: 'application/x-ndjson', description: 'One result or error line per row, then the chunk\'s summary line', schema: BatchLine },
    },
    handler: async (c, input) => {
      const s = c.get('session');
      const text = await input.text();
      // An unknown batch answers 404 at once, not after the lists have loaded.
      await batches.info(ownerOf(s), c.req.param('id') ?? '', null);
      // Each chunk is billable work: refused while the disk is below its reserve (507).
      services.storage.require();
      const loaded = await screening.ready();
      if (!loaded) throw screening.unavailable();
      // The lines go to the worker as sent; it parses them (a 5,000-row chunk is not parsed here).
      const rows = text.split('\n').filter((line) => line.trim() !== '');
      const lines = batches.processChunk(ownerOf(s), c.req.param('id') ?? '', rows, loaded);
      // Fail fast (unknown batch, cancelled, too many rows) before the stream starts: the first
      // step accepts the chunk and screens nothing.
      await lines.next();
      const encoder = new TextEncoder();
      // No slice is screened and charged ahead of the one being sent (a queue of none): the next
      // is asked for once the last was handed to the connection, or had drained where the client
      // reads slowly. A crash between a slice's charge and its lines reaching the client then
      // finds one slice in that state, not one more waiting behind it (`npm run chaos`).
      const stream = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const next = await lines.next();
          if (next.done) controller.close();
          else controller.enqueue(encoder.encode(next.value));
        },
        async cancel() {
          await lines.return(undefined);
        },
      }, { highWaterMark: 0 });
      return c.body(stream, 200, { 'Content-Type': 'application/x-ndjson; charset=utf-8' });
    },
  });

  route({
    method: 'POST', path: '/api/console/batches/:id/cancel', auth: { kind: 'session' }, tags: TAGS,
    summary: 'Cancel one\'s batch (rows already screened stay charged)',
    responses: { 200: BatchInfo },
    handler: async (c) => c.json<BatchInfo>(await cancelBatch(services, c.get('session'), c.req.param('id') ?? '')),
  });

  // Finishing frees the analyst's batch slot whatever the run's end; the row says how it ended.
  route({
    method: 'POST', path: '/api/console/batches/:id/finish', auth: { kind: 'session' }, tags: TAGS,
    summary: 'Finish one\'s batch and free one\'s batch slot',
    responses: { 200: BatchInfo },
    handler: async (c) => c.json<BatchInfo>(await finishBatch(services, c.get('session'), c.req.param('id') ?? '')),
  });

  route({
    method: 'POST', path: '/api/console/batches/:id/end', auth: MANAGE_ALL, tags: TAGS,
    summary: 'End an open batch of the organisation, anyone\'s (owners and admins; audited)',
    description: 'A chunk being screened stops at its next slice; the analyst\'s next chunk is refused with 409 "Ended by an administrator", and their batch reads `ended_by: administrator`. 404 for no such batch in the organisation, 409 once it has ended.',
    responses: { 200: BatchInfo },
    handler: async (c) => c.json<BatchInfo>(await endBatch(services, c.get('session'), c.req.param('id') ?? '')),
  });
}
