// Console batch rescreens: one open batch per organisation, rows arriving in chunks, results
// streamed back line by line. Rows and results exist only while a chunk is being processed;
// the service keeps counters and ledger rows, nothing about a subject.
//
// A batch screens every row against the lists it started with, even when the lists change
// meanwhile: it holds that index until it is cancelled, finished or replaced, then lets it go.
import { CREDITS } from '../../../../src-shared/catalog';
import {
  BATCH_LIMITS, type BatchChunkEnd, type BatchInfo, type BatchPreview, type BatchRowError,
  type CreateBatchRequest,
} from '../../../../src-shared/contracts/batch';
import type { ListFreshnessSettings } from '../../../../src-shared/contracts/organization';
import type { ListKind, ListVersion } from '../../../../src-shared/contracts/screening';
import { withFreshness } from './lists/freshness';
import { AppError, isAppError } from '../../../../src-shared/errors';
import type { Clock } from '../clock';
import { insufficient } from '../credits/credits';
import { newId, nowIso } from '../ids';
import type { Billing, Payer } from '../verification/billing';
import { MATCHER_VERSION } from './match/version';
import type { ScreenPool } from './pool';
import { listsToCheck, type LoadedIndex } from './service';
import { SCREENING_HIT } from './hits';

export const BATCH_IDLE_MS = 10 * 60_000;
/**
 * Rows sent to the worker at once and charged in one transaction: a small first slice so the
 * first result lines stream back at once, then slices small enough that single screens queued
 * behind a batch in the worker wait tens of milliseconds, not seconds.
 */
export const BATCH_SLICES = { first: 25, then: 100 } as const;

/** Where each slice of an n-row chunk ends. */
export function sliceEnds(n: number): number[] {
  const out: number[] = [];
  for (let end = Math.min(n, BATCH_SLICES.first); ; end = Math.min(n, end + BATCH_SLICES.then)) {
    out.push(end);
    if (end >= n) return out;
  }
}

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
  /** The index every chunk is screened with; null once the batch ended (released). */
  loaded: LoadedIndex | null;
  /** What the batch screens against, kept after the index is released. */
  listsChecked: ListKind[];
  listVersions: ListVersion[];
}

export function createBatches(deps: {
  clock: Clock;
  billing: Billing;
  balance: (orgId: number) => number;
  pool: ScreenPool;
  /** Signs result rows for the review (hex). */
  reviewKey: () => string;
  log?: (msg: string, fields: Record<string, string | number>) => void;
}) {
  const open = new Map<number, Batch>();
  const perRow = (env: 'test' | 'live') => (env === 'live' ? CREDITS.rescreen : 0);

  /** The batch's own lists and matcher, whatever the service has loaded since. */
  function info(b: Batch): BatchInfo {
    return {
      id: b.id, env: b.payer.env, total_rows: b.total, credits_per_row: perRow(b.payer.env), state: b.state,
      processed: b.processed, errors: b.errors, credits_charged: b.charged,
      list_versions: b.listVersions, matcher_version: MATCHER_VERSION, lists_checked: b.listsChecked,
      created_at: nowIso(b.createdAt),
    };
  }

  /**
   * An ended batch no longer needs its index (a chunk in progress keeps its own reference), nor
   * the worker holding it.
   */
  function release(b: Batch): void {
    if (b.state === 'open' || !b.loaded) return;
    deps.pool.release(b.loaded.stamp);
    b.loaded = null;
  }

  function get(orgId: number, id: string): Batch {
    const b = open.get(orgId);
    if (!b || b.id !== id) throw new AppError('batch_not_found');
    return b;
  }

  return {
    preview(orgId: number, env: 'test' | 'live', rows: number): BatchPreview {
      const balance = deps.balance(orgId);
      const total = perRow(env) * rows;
      return { env, rows, credits_per_row: perRow(env), total_credits: total, balance, sufficient: env === 'test' || balance >= total };
    },

    create(orgId: number, req: { env: 'test' | 'live'; total_rows: number; lists?: ListKind[] | undefined; reason: Batch['reason']; confirm_credits?: number | undefined }, loaded: LoadedIndex | null, staleWindows?: ListFreshnessSettings): BatchInfo {
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
      const listsChecked = loaded ? listsToCheck(loaded.loadedKinds, req.lists) : [];
      const b: Batch = {
        id: newId('bat', 16), orgId, payer: { id: null, orgId, env: req.env, demo: false }, total: req.total_rows,
        lists: req.lists, reason: req.reason, state: 'open', processed: 0, errors: 0, charged: 0,
        createdAt: now, lastActivity: now, busy: false,
        loaded, listsChecked, // Stale as of the batch's start: the lists it screens against do not change while it runs.
        listVersions: loaded ? withFreshness(loaded.versions.filter((v) => listsChecked.includes(v.kind)), staleWindows, now) : [],
      };
      // Replaces (and so releases) an idle batch of this organisation.
      if (current && current.loaded) {
        if (current.state === 'open') current.state = 'cancelled';
        release(current);
      }
      if (loaded) deps.pool.retain(loaded.stamp);
      open.set(orgId, b);
      return info(b);
    },

    /** `_current` (the service's index now) is not used: a batch reports the lists it runs on. */
    info: (orgId: number, id: string, _current: LoadedIndex | null) => info(get(orgId, id)),

    cancel(orgId: number, id: string, _current: LoadedIndex | null): BatchInfo {
      const b = get(orgId, id);
      if (b.state === 'open') b.state = 'cancelled';
      release(b);
      return info(b);
    },

    finish(orgId: number, id: string, _current: LoadedIndex | null): BatchInfo {
      const b = get(orgId, id);
      if (b.state === 'open') b.state = 'finished';
      release(b);
      open.delete(orgId);
      return info(b);
    },

    /**
     * Screens one chunk of parsed NDJSON rows, yielding one output line per row and a last line,
     * against the batch's own index (`current`, the service's index now, only for a batch made
     * without one).
     */
    async *processChunk(orgId: number, id: string, rows: string[], current: LoadedIndex): AsyncGenerator<string> {
      const b = get(orgId, id);
      if (b.state !== 'open') throw new AppError('conflict', { message: `Batch is ${b.state}` });
      const loaded = b.loaded ?? current;
      if (b.busy) throw new AppError('conflict', { message: 'This batch is already processing a chunk' });
      if (rows.length > BATCH_LIMITS.rowsPerChunk) {
        throw new AppError('account_validation', { field: 'rows', message: `At most ${BATCH_LIMITS.rowsPerChunk} rows per chunk` });
      }
      b.busy = true;
      try {
        let from = 0;
        for (const end of sliceEnds(rows.length)) {
          if (b.state !== 'open') break;
          const slice = rows.slice(from, end);
          from = end;
          const outcomes = await deps.pool.screen(loaded, {
            lines: slice, lists: b.lists, reason: b.reason, livemode: b.payer.env === 'live', now: deps.clock.now(),
            review: { batchId: b.id, key: deps.reviewKey() },
          });
          const now = deps.clock.now();
          const items = outcomes.flatMap((o) => (o.screened ? [{ id: o.screened.id, createdAt: now, status: 'completed', confidence: o.screened.confidence, latencyMs: o.screened.latencyMs,
            errorCode: o.screened.hits ? SCREENING_HIT : null, hitCategories: o.screened.hits,
          }] : []));
          let lines = outcomes.map((o) => o.line);
          b.errors += outcomes.length - items.length;
          if (items.length) {
            try {
              b.charged += deps.billing.recordMany(b.payer, 'rescreen', items).charged;
            } catch (e) {
              if (!isAppError(e)) throw e;
              // Unpaid results are never sent: the slice's rows fail and the batch stops.
              b.state = 'cancelled';
              b.errors += items.length;
              lines = outcomes.map((o) =>
                o.screened
                  ? JSON.stringify({ row: o.row, error: { type: 'insufficient_credits', code: e.code, message: e.message } } satisfies BatchRowError)
                  : o.line,
              );
            }
          }
          b.processed += slice.length;
          yield lines.join('\n') + (lines.length ? '\n' : '');
          b.lastActivity = deps.clock.now();
        }
        deps.log?.('batch_chunk', { rows: rows.length, screened_in: deps.pool.mode() });
        const end: BatchChunkEnd = { done: true, processed: b.processed, errors: b.errors, credits_charged: b.charged, state: b.state };
        yield JSON.stringify(end) + '\n';
      } finally {
        b.busy = false;
        release(b);
      }
    },
  };
}
export type Batches = ReturnType<typeof createBatches>;
