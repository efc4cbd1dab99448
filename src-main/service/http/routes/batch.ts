// Console batch rescreen over HTTP: preview the cost, open a batch, send rows in NDJSON chunks
// and read results back as a stream, cancel, finish. Session-authenticated; API-key rate limits
// do not apply, credits do (live only).
import { z } from 'zod';
import { ENVIRONMENTS, PLAN_INFO } from '../../../../src-shared/catalog';
import { BATCH_LIMITS, CreateBatchRequest, type BatchInfo } from '../../../../src-shared/contracts/batch';
import { AppError } from '../../../../src-shared/errors';
import type { SessionContext } from '../../core/accounts/accounts';
import { actorOf } from '../../core/audit/audit';
import type { Router } from '../app';
import { parseJson, parseQuery, readBody } from '../validate';

const PreviewQuery = z.object({ env: z.enum(ENVIRONMENTS), rows: z.coerce.number().int().min(1).max(BATCH_LIMITS.rows) });
const account = { error: 'account_validation' } as const;
const CHUNK_BYTES = 16 * 1024 * 1024;

function requireCompliance(s: SessionContext): void {
  if (!PLAN_INFO[s.org.plan].compliance) throw new AppError('plan_restriction', { message: 'Screening requires the Pro or Enterprise plan' });
}

export function batchRoutes({ route, services }: Router): void {
  const { batches, screening } = services;

  route('GET', '/api/console/batches/preview', { kind: 'session' }, (c) => {
    const s = c.get('session');
    const q = parseQuery(c, PreviewQuery, account);
    // The analyst is about to run a batch: start the worker's index now, not at the first chunk.
    services.rowPool.warm();
    return c.json(batches.preview(s.org.id, q.env, q.rows));
  });

  route('POST', '/api/console/batches', { kind: 'session' }, async (c) => {
    const s = c.get('session');
    requireCompliance(s);
    const body = await parseJson(c, CreateBatchRequest, account);
    const loaded = await screening.ready();
    if (!loaded) throw new AppError('provider_unavailable');
    const info = batches.create(s.org.id, body, loaded);
    services.audit.record({ orgId: s.org.id, actor: actorOf(s.user), action: 'batch.created', batchId: info.id, env: info.env, counts: { total: info.total_rows } });
    return c.json(info, 201);
  });

  route('GET', '/api/console/batches/:id', { kind: 'session' }, (c) =>
    c.json(batches.info(c.get('session').org.id, c.req.param('id') ?? '', screening.current())),
  );

  route('POST', '/api/console/batches/:id/rows', { kind: 'session' }, async (c) => {
    const s = c.get('session');
    requireCompliance(s);
    const loaded = await screening.ready();
    if (!loaded) throw new AppError('provider_unavailable');
    const text = await readBody(c, CHUNK_BYTES);
    const rows: unknown[] = [];
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      try {
        rows.push(JSON.parse(line));
      } catch {
        rows.push({ row: 0, invalid_json: true });
      }
    }
    const lines = batches.processChunk(s.org.id, c.req.param('id') ?? '', rows, loaded);
    // Fail fast (unknown batch, cancelled, too many rows) before the stream starts.
    const first = await lines.next();
    const encoder = new TextEncoder();
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        if (!first.done) controller.enqueue(encoder.encode(first.value));
      },
      async pull(controller) {
        const next = await lines.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      },
      async cancel() {
        await lines.return(undefined);
      },
    });
    return c.body(stream, 200, { 'Content-Type': 'application/x-ndjson; charset=utf-8' });
  });

  const counts = (info: BatchInfo) => ({ total: info.total_rows, done: info.processed, failed: info.errors });

  route('POST', '/api/console/batches/:id/cancel', { kind: 'session' }, (c) => {
    const s = c.get('session');
    const id = c.req.param('id') ?? '';
    const wasOpen = batches.info(s.org.id, id, null).state === 'open';
    const info = batches.cancel(s.org.id, id, screening.current());
    if (wasOpen) services.audit.record({ orgId: s.org.id, actor: actorOf(s.user), action: 'batch.cancelled', batchId: info.id, env: info.env, counts: counts(info) });
    return c.json(info);
  });

  // Finishing frees the organisation's batch slot whatever the run's end; the row says how it ended.
  route('POST', '/api/console/batches/:id/finish', { kind: 'session' }, (c) => {
    const s = c.get('session');
    const info = batches.finish(s.org.id, c.req.param('id') ?? '', screening.current());
    services.audit.record({
      orgId: s.org.id, actor: actorOf(s.user), action: 'batch.finished', batchId: info.id, env: info.env, counts: counts(info), to: info.state,
    });
    return c.json(info);
  });
}
