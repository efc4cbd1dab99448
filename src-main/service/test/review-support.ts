// Helpers for review and audit tests: run a small batch through the HTTP API and turn one of its
// result lines into a disposition request, exactly as the console does.
import type { BatchInfo, BatchRowResult } from '../../../src-shared/contracts/batch';
import { evidenceOf, type DispositionRequest } from '../../../src-shared/contracts/review';
import type { TestService } from './harness';

export const PUTIN = { type: 'individual', first_name: 'Vladimir', last_name: 'Putin' } as const;
export const NOBODY = { type: 'individual', first_name: 'Maren', last_name: 'Quellfeather' } as const;

export interface BatchRun {
  id: string;
  rows: BatchRowResult[];
  row: (n: number) => BatchRowResult;
}

/** Opens a test batch, screens the subjects as rows 2, 3, … (row 1 is the CSV header), finishes it. */
export async function runBatch(t: TestService, cookie: string, subjects: readonly object[], extra: (i: number) => object = () => ({})): Promise<BatchRun> {
  const created = await t.json<BatchInfo>('POST', '/api/console/batches', { cookie, body: { env: 'test', total_rows: subjects.length } });
  if (created.status !== 201) throw new Error(`batch: ${created.status} ${JSON.stringify(created.body)}`);
  const id = created.body.id;
  const body = subjects.map((subject, i) => JSON.stringify({ row: i + 2, subject, ...extra(i) })).join('\n');
  const res = await t.call('POST', `/api/console/batches/${id}/rows`, { cookie, rawBody: body, headers: { 'Content-Type': 'application/x-ndjson' } });
  const rows = (await res.text()).trim().split('\n').map((l) => JSON.parse(l) as BatchRowResult).filter((l) => 'review_token' in l);
  await t.json('POST', `/api/console/batches/${id}/finish`, { cookie, body: {} });
  return { id, rows, row: (n) => rows.find((r) => r.row === n)! };
}

/** The request the console sends for a disposition of this row: its open matches and its token. */
export function disposition(batchId: string, r: BatchRowResult, d: DispositionRequest['disposition'], extra: Partial<DispositionRequest> = {}): DispositionRequest {
  return {
    batch_id: batchId, row: r.row, screening_id: r.id, review_token: r.review_token, client_reference_id: r.client_reference_id,
    matches: r.matches.filter((m) => !m.cleared).map((m) => ({ entity_id: m.entity_id, record_hash: m.record_hash, score: m.score, list: m.list, evidence: evidenceOf(m) })),
    disposition: d, ...extra,
  };
}
