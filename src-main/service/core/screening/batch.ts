// Console batch rescreens: one open batch per analyst (at most BATCH_LIMITS.openPerOrganization
// in an organisation), rows arriving in chunks, results streamed back line by line. Rows and
// results exist only while a chunk is being processed; the service keeps counters and ledger
// rows, nothing about a subject. An analyst reaches only their own batch: another's id answers
// as an unknown one. Owners and admins list the organisation's open batches and end any
// (core/app/batch.ts checks the role and audits).
//
// A batch screens every row against the lists it started with, even when the lists change
// meanwhile: it holds that index until it is cancelled, finished, ended or expired, then lets it
// go. A batch without a chunk for BATCH_IDLE_MS expires: at the sweep (a timer, started with the
// service) or at the next call that looks at batches, whichever comes first.
import { CREDITS } from '../../../../src-shared/catalog';
import {
  BATCH_ENDED_TEXT, BATCH_LIMITS, type BatchChunkEnd, type BatchEndedBy, type BatchInfo, type BatchPreview, type BatchRowError,
  type CreateBatchRequest, type OpenBatch,
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

export const BATCH_IDLE_MS = BATCH_LIMITS.idleMinutes * 60_000;
/** How often the timer looks for idle batches: one ends within a minute of its idle window. */
export const BATCH_SWEEP_MS = 60_000;

/** Whose batch: the analyst signed in, in their organisation. */
export interface BatchOwner {
  orgId: number;
  userId: number;
}

/** A batch that ended without its analyst (the audit row names whose it was). */
export interface EndedBatch {
  orgId: number;
  userId: number;
  info: BatchInfo;
}
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
  userId: number;
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
  /** An owner or admin, or the expiry, ended it (the analyst is told so at their next call). */
  endedBy: BatchEndedBy | null;
}

export function createBatches(deps: {
  clock: Clock;
  billing: Billing;
  balance: (orgId: number) => Promise<number>;
  pool: ScreenPool;
  /** Signs result rows for the review (hex). */
  reviewKey: () => string;
  log?: (msg: string, fields: Record<string, string | number>) => void;
  /**
   * Audits an expiry before it happens (core/app/batch.ts); a throw (a full disk) leaves the
   * batch open until the next sweep, so no batch ends unaudited.
   */
  onExpire?: (batch: EndedBatch) => Promise<void>;
}) {
  /** Each analyst's batch, open or ended and not yet finished (ended ones say how at the next call). */
  const byUser = new Map<number, Batch>();
  let timer: ReturnType<typeof setInterval> | null = null;
  const perRow = (env: 'test' | 'live') => (env === 'live' ? CREDITS.rescreen : 0);

  /** The batch's own lists and matcher, whatever the service has loaded since. */
  function info(b: Batch): BatchInfo {
    return {
      id: b.id, env: b.payer.env, total_rows: b.total, credits_per_row: perRow(b.payer.env), state: b.state,
      processed: b.processed, errors: b.errors, credits_charged: b.charged,
      list_versions: b.listVersions, matcher_version: MATCHER_VERSION, lists_checked: b.listsChecked,
      created_at: nowIso(b.createdAt), ended_by: b.endedBy,
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

  /** Batches whose expiry is being audited (by a sweep that has not finished): not swept twice. */
  const expiring = new Set<Batch>();

  /** Ends every open batch idle for BATCH_IDLE_MS (not one whose chunk is being screened). */
  async function sweep(): Promise<number> {
    const now = deps.clock.now();
    let expired = 0;
    for (const b of [...byUser.values()]) {
      if (b.state !== 'open' || b.busy || expiring.has(b) || now - b.lastActivity < BATCH_IDLE_MS) continue;
      expiring.add(b);
      try {
        await deps.onExpire?.({ orgId: b.orgId, userId: b.userId, info: { ...info(b), state: 'cancelled', ended_by: 'expiry' } });
      } catch (e) {
        deps.log?.('batch_expiry_failed', { reason: isAppError(e) ? e.code : 'error' });
        continue;
      } finally {
        expiring.delete(b);
      }
      // Ended meanwhile by its analyst or an administrator: their end stands (and its audit row).
      if (b.state !== 'open') continue;
      b.state = 'cancelled';
      b.endedBy = 'expiry';
      release(b);
      expired++;
    }
    return expired;
  }

  /** The analyst's own batch; anyone else's answers as an unknown batch. */
  async function get(owner: BatchOwner, id: string): Promise<Batch> {
    await sweep();
    const b = byUser.get(owner.userId);
    if (!b || b.id !== id || b.orgId !== owner.orgId) throw new AppError('batch_not_found');
    return b;
  }

  /** An open batch of the organisation, whoever opened it. */
  function openOf(orgId: number, id: string): Batch {
    for (const b of byUser.values()) {
      if (b.id !== id || b.orgId !== orgId) continue;
      if (b.state !== 'open') throw new AppError('conflict', { message: 'This batch has already ended.' });
      return b;
    }
    throw new AppError('batch_not_found');
  }

  const openIn = (orgId: number) => [...byUser.values()].filter((b) => b.orgId === orgId && b.state === 'open');

  return {
    async preview(orgId: number, env: 'test' | 'live', rows: number): Promise<BatchPreview> {
      const balance = await deps.balance(orgId);
      const total = perRow(env) * rows;
      return { env, rows, credits_per_row: perRow(env), total_credits: total, balance, sufficient: env === 'test' || balance >= total };
    },

    async create(owner: BatchOwner, req: { env: 'test' | 'live'; total_rows: number; lists?: ListKind[] | undefined; reason: Batch['reason']; confirm_credits?: number | undefined }, loaded: LoadedIndex | null, staleWindows?: ListFreshnessSettings): Promise<BatchInfo> {
      const { orgId } = owner;
      // Read before the checks below, which then run and take the slot without yielding: two
      // starts at once cannot both find it free.
      await sweep();
      const balance = req.env === 'live' ? await deps.balance(orgId) : 0;
      const now = deps.clock.now();
      const current = byUser.get(owner.userId);
      if (current?.state === 'open') {
        throw new AppError('conflict', {
          message: `You already have a batch running. Cancel or finish it first: it ends by itself after ${BATCH_LIMITS.idleMinutes} minutes without activity, and an owner or admin can end it.`,
        });
      }
      const limit = BATCH_LIMITS.openPerOrganization;
      if (openIn(orgId).length >= limit) {
        throw new AppError('resource_limit', {
          message: `${limit} batches are running in this organization, the most at once. Wait for one to finish, or ask an owner or admin to end one.`,
          team_limit: limit,
        });
      }
      const cost = perRow(req.env) * req.total_rows;
      if (req.env === 'live') {
        if (req.confirm_credits !== cost) {
          throw new AppError('account_validation', { field: 'confirm_credits', message: `Confirm the cost of this live batch: ${cost} credits` });
        }
        if (balance < cost) throw insufficient(balance, cost);
      }
      const listsChecked = loaded ? listsToCheck(loaded.loadedKinds, req.lists) : [];
      const b: Batch = {
        id: newId('bat', 16), orgId, userId: owner.userId, payer: { id: null, orgId, env: req.env, demo: false }, total: req.total_rows,
        lists: req.lists, reason: req.reason, state: 'open', processed: 0, errors: 0, charged: 0,
        createdAt: now, lastActivity: now, busy: false,
        loaded, listsChecked, // Stale as of the batch's start: the lists it screens against do not change while it runs.
        listVersions: loaded ? withFreshness(loaded.versions.filter((v) => listsChecked.includes(v.kind)), staleWindows, now) : [],
        endedBy: null,
      };
      // Takes the place of the analyst's ended batch that was never finished (its index went when it ended).
      if (loaded) deps.pool.retain(loaded.stamp);
      byUser.set(owner.userId, b);
      return info(b);
    },

    /** `_current` (the service's index now) is not used: a batch reports the lists it runs on. */
    info: async (owner: BatchOwner, id: string, _current: LoadedIndex | null) => info(await get(owner, id)),

    async cancel(owner: BatchOwner, id: string, _current: LoadedIndex | null): Promise<BatchInfo> {
      const b = await get(owner, id);
      if (b.state === 'open') b.state = 'cancelled';
      release(b);
      return info(b);
    },

    async finish(owner: BatchOwner, id: string, _current: LoadedIndex | null): Promise<BatchInfo> {
      const b = await get(owner, id);
      if (b.state === 'open') b.state = 'finished';
      release(b);
      byUser.delete(owner.userId);
      return info(b);
    },

    /** The organisation's open batches, oldest first, with whose they are (owners and admins). */
    async open(orgId: number): Promise<(Omit<OpenBatch, 'user'> & { user_id: number })[]> {
      await sweep();
      return openIn(orgId).sort((a, b) => a.createdAt - b.createdAt).map((b) => ({
        id: b.id, env: b.payer.env, user_id: b.userId, total_rows: b.total, processed: b.processed, errors: b.errors, credits_charged: b.charged,
        created_at: nowIso(b.createdAt), last_activity_at: nowIso(b.lastActivity), expires_at: nowIso(b.lastActivity + BATCH_IDLE_MS), screening: b.busy,
      }));
    },

    /** Whose open batch `id` is, in the organisation: 404 for none, 409 once it has ended. */
    whose: async (orgId: number, id: string): Promise<EndedBatch> => {
      await sweep();
      const b = openOf(orgId, id);
      return { orgId, userId: b.userId, info: info(b) };
    },

    /**
     * An owner or admin ends an open batch of the organisation (anyone's): a chunk being screened
     * stops at its next slice, and the analyst's next call says who ended it. Called right after
     * `whose` (and its audit row), with no sweep between: the batch it names is the one ended.
     */
    end(orgId: number, id: string): EndedBatch {
      const b = openOf(orgId, id);
      b.state = 'cancelled';
      b.endedBy = 'administrator';
      release(b);
      return { orgId, userId: b.userId, info: info(b) };
    },

    /** Ends idle batches now (the timer calls it; tests call it after moving the clock). */
    sweep,

    /** With the service: sweeps every `everyMs` so an abandoned batch ends even if nobody calls. */
    start(everyMs = BATCH_SWEEP_MS): void {
      if (timer) return;
      timer = setInterval(() => void sweep(), everyMs);
      timer.unref();
    },

    stop(): void {
      if (timer) clearInterval(timer);
      timer = null;
    },

    /**
     * Screens one chunk of parsed NDJSON rows, yielding one output line per row and a last line,
     * against the batch's own index (`current`, the service's index now, only for a batch made
     * without one).
     */
    async *processChunk(owner: BatchOwner, id: string, rows: string[], current: LoadedIndex): AsyncGenerator<string> {
      const b = await get(owner, id);
      if (b.state !== 'open') {
        throw new AppError('conflict', { message: b.endedBy ? `${BATCH_ENDED_TEXT[b.endedBy]} This batch takes no more rows.` : `Batch is ${b.state}` });
      }
      const loaded = b.loaded ?? current;
      if (b.busy) throw new AppError('conflict', { message: 'This batch is already processing a chunk' });
      if (rows.length > BATCH_LIMITS.rowsPerChunk) {
        throw new AppError('account_validation', { field: 'rows', message: `At most ${BATCH_LIMITS.rowsPerChunk} rows per chunk` });
      }
      b.busy = true;
      b.lastActivity = deps.clock.now();
      try {
        // The chunk is accepted: an empty first line, before any row is screened or charged, so
        // that a caller answers its refusals (above) at once and starts the response before it
        // asks for the first slice (routes/batch.ts). A slice is charged before its lines go out;
        // the less time between the two, the fewer rows a crash there leaves charged and unsent.
        yield '';
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
              b.charged += (await deps.billing.recordMany(b.payer, 'rescreen', items)).charged;
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
        const end: BatchChunkEnd = {
          done: true, processed: b.processed, errors: b.errors, credits_charged: b.charged, state: b.state, ...(b.endedBy ? { ended_by: b.endedBy } : {}),
        };
        yield JSON.stringify(end) + '\n';
      } finally {
        b.busy = false;
        release(b);
      }
    },
  };
}
export type Batches = ReturnType<typeof createBatches>;
