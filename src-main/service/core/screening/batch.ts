// Console batch rescreens: one open batch per organisation, rows arriving in chunks, results
// streamed back line by line. Rows and results exist only while a chunk is being processed;
// the service keeps counters and ledger rows, nothing about a subject.
import { CREDITS } from '../../../../src-shared/catalog';
import {
  BATCH_LIMITS, BatchRow, type BatchChunkEnd, type BatchInfo, type BatchPreview, type BatchRowError, type BatchRowResult,
  type CreateBatchRequest,
} from '../../../../src-shared/contracts/batch';
import type { ListKind } from '../../../../src-shared/contracts/screening';
import { AppError, isAppError } from '../../../../src-shared/errors';
import type { Clock } from '../clock';
import { insufficient } from '../credits/credits';
import { newId, nowIso } from '../ids';
import type { Billing, Payer } from '../verification/billing';
import { fieldIssues } from '../../../../src-shared/validation';
import { listsToCheck, runScreening, type LoadedIndex } from './service';

export const BATCH_IDLE_MS = 10 * 60_000;
/** Rows screened between two yields to the event loop, and charged in one transaction. */
const SLICE = 250;

interface Batch {
  id: string;
  orgId: number;
  payer: Payer;
  total: number;
  lists: ListKind[] | undefined;
  reason: NonNullable<CreateBatchRequest['reason']>;
  state: BatchInfo['state'];
  processed: number;
  errors: number;
  charged: number;
  createdAt: number;
  lastActivity: number;
  busy: boolean;
}

export function createBatches(deps: { clock: Clock; billing: Billing; balance: (orgId: number) => number }) {
  const open = new Map<number, Batch>();
  const perRow = (env: 'test' | 'live') => (env === 'live' ? CREDITS.rescreen : 0);

  function info(b: Batch, loaded: LoadedIndex | null): BatchInfo {
    const lists = loaded ? listsToCheck(loaded.loadedKinds, b.lists) : [];
    return {
      id: b.id, env: b.payer.env, total_rows: b.total, credits_per_row: perRow(b.payer.env), state: b.state,
      processed: b.processed, errors: b.errors, credits_charged: b.charged,
      list_versions: loaded ? loaded.versions.filter((v) => lists.includes(v.kind)) : [], lists_checked: lists,
      created_at: nowIso(b.createdAt),
    };
  }

  function get(orgId: number, id: string): Batch {
    const b = open.get(orgId);
    if (!b || b.id !== id) throw new AppError('account_not_found', { message: 'Batch not found' });
    return b;
  }

  return {
    preview(orgId: number, env: 'test' | 'live', rows: number): BatchPreview {
      const balance = deps.balance(orgId);
      const total = perRow(env) * rows;
      return { env, rows, credits_per_row: perRow(env), total_credits: total, balance, sufficient: env === 'test' || balance >= total };
    },

    create(orgId: number, req: { env: 'test' | 'live'; total_rows: number; lists?: ListKind[] | undefined; reason: Batch['reason']; confirm_credits?: number | undefined }, loaded: LoadedIndex | null): BatchInfo {
      const now = deps.clock.now();
      const current = open.get(orgId);
      if (current && current.state === 'open' && now - current.lastActivity < BATCH_IDLE_MS) {
        throw new AppError('conflict', { message: 'Another batch is running for this organization. Cancel or finish it first.' });
      }
      const cost = perRow(req.env) * req.total_rows;
      if (req.env === 'live') {
        if (req.confirm_credits !== cost) {
          throw new AppError('account_validation', { field: 'confirm_credits', message: `Confirm the cost of this live batch: ${cost} credits` });
        }
        const balance = deps.balance(orgId);
        if (balance < cost) throw insufficient(balance, cost);
      }
      const b: Batch = {
        id: newId('bat', 16), orgId, payer: { id: null, orgId, env: req.env, demo: false }, total: req.total_rows,
        lists: req.lists, reason: req.reason, state: 'open', processed: 0, errors: 0, charged: 0,
        createdAt: now, lastActivity: now, busy: false,
      };
      open.set(orgId, b);
      return info(b, loaded);
    },

    info: (orgId: number, id: string, loaded: LoadedIndex | null) => info(get(orgId, id), loaded),

    cancel(orgId: number, id: string, loaded: LoadedIndex | null): BatchInfo {
      const b = get(orgId, id);
      if (b.state === 'open') b.state = 'cancelled';
      return info(b, loaded);
    },

    finish(orgId: number, id: string, loaded: LoadedIndex | null): BatchInfo {
      const b = get(orgId, id);
      if (b.state === 'open') b.state = 'finished';
      open.delete(orgId);
      return info(b, loaded);
    },

    /** Screens one chunk of parsed NDJSON rows, yielding one output line per row and a last line. */
    async *processChunk(orgId: number, id: string, rows: unknown[], loaded: LoadedIndex): AsyncGenerator<string> {
      const b = get(orgId, id);
      if (b.state !== 'open') throw new AppError('conflict', { message: `Batch is ${b.state}` });
      if (b.busy) throw new AppError('conflict', { message: 'This batch is already processing a chunk' });
      if (rows.length > BATCH_LIMITS.rowsPerChunk) {
        throw new AppError('account_validation', { field: 'rows', message: `At most ${BATCH_LIMITS.rowsPerChunk} rows per chunk` });
      }
      b.busy = true;
      try {
        for (let i = 0; i < rows.length && b.state === 'open'; i += SLICE) {
          const slice = rows.slice(i, i + SLICE);
          const results: BatchRowResult[] = [];
          const lines: string[] = [];
          const items: { id: string; createdAt: number; status: string; confidence: number | null; latencyMs: number }[] = [];
          for (const raw of slice) {
            const parsed = BatchRow.safeParse(raw);
            const rowNo = typeof (raw as { row?: unknown })?.row === 'number' ? (raw as { row: number }).row : 0;
            if (!parsed.success) {
              const f = fieldIssues(parsed.error)[0];
              const message = (raw as { invalid_json?: unknown })?.invalid_json === true
                ? 'Line is not valid JSON'
                : `Invalid field '${f?.field ?? 'row'}': ${f?.issue ?? 'invalid'}`;
              const err: BatchRowError = { row: rowNo, error: { type: 'invalid_request', code: 'invalid_subject', message } };
              b.errors++;
              lines.push(JSON.stringify(err));
              continue;
            }
            const r = parsed.data;
            const started = performance.now();
            const created = deps.clock.now();
            const sid = newId('scr');
            const resp = runScreening(loaded, {
              id: sid, created, livemode: b.payer.env === 'live', subject: r.subject, lists: b.lists,
              clientReferenceId: r.client_reference_id,
              rescreen: { previous_screening_id: r.previous_screening_id ?? '', reason: b.reason, summary: r.previous_result_summary },
            });
            results.push({
              row: r.row, id: sid, client_reference_id: r.client_reference_id ?? null,
              previous_screening_id: r.previous_screening_id ?? null, risk: resp.risk, flags: resp.flags,
              risk_change: resp.rescreen!.risk_change, matches: resp.matches.slice(0, BATCH_LIMITS.matchesPerRow),
            });
            items.push({ id: sid, createdAt: created, status: 'completed', confidence: resp.risk.score, latencyMs: Math.round(performance.now() - started) });
          }
          if (items.length) {
            try {
              b.charged += deps.billing.recordMany(b.payer, 'rescreen', items).charged;
            } catch (e) {
              if (!isAppError(e)) throw e;
              // Unpaid results are never sent: the slice's rows fail and the batch stops.
              b.state = 'cancelled';
              for (const r of results) {
                b.errors++;
                lines.push(JSON.stringify({ row: r.row, error: { type: 'insufficient_credits', code: e.code, message: e.message } } satisfies BatchRowError));
              }
              results.length = 0;
            }
          }
          b.processed += slice.length;
          for (const r of results) lines.push(JSON.stringify(r));
          yield lines.join('\n') + (lines.length ? '\n' : '');
          b.lastActivity = deps.clock.now();
          // Let the HTTP loop breathe between slices.
          await new Promise((resolve) => setImmediate(resolve));
        }
        const end: BatchChunkEnd = { done: true, processed: b.processed, errors: b.errors, credits_charged: b.charged, state: b.state };
        yield JSON.stringify(end) + '\n';
      } finally {
        b.busy = false;
      }
    },
  };
}
export type Batches = ReturnType<typeof createBatches>;
