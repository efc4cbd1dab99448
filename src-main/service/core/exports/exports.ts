// Report exports (account spec, "Export job"; issue 13): a durable job queue in the database. A job
// is queued by POST, claimed (running) by one instance's runner with a lease it renews while it
// works (issue 40: several instances on one PostgreSQL take each job once), its report data
// gathered here, its file rendered in a worker thread, then stored with the succeeded state in one
// transaction, or failed with a short code. A job whose instance died is queued again, or failed
// as interrupted once it has had MAX_ATTEMPTS tries (a report that kills the process every time
// must not do so forever): on SQLite at the next start (one process runs the queue), on
// PostgreSQL by any instance once the lease has run out. A full disk (issue 25) refuses a new
// export with 507 before anything is queued, and fails a queued job as `insufficient_storage`
// when its file cannot be stored; a job is never acknowledged and then lost. Files are removed 24 hours after they
// were made; the job row stays (succeeded, without a download link).
import { type Environment, type Plan } from '../../../../src-shared/catalog';
import {
  EXPORT_FILE_HOURS, EXPORT_FORMATS, REPORT_TYPES, type ExportFormat, type ExportJob, type ExportListItem, type ReportBundle, type ReportType,
} from '../../../../src-shared/contracts/reports';
import { AppError, isAppError } from '../../../../src-shared/errors';
import { databaseUnreachable, type Engine, type Q } from '../../db/engine';
import type { OrgRow, UserRow } from '../accounts/repo';
import type { Clock } from '../clock';
import { nowIso } from '../ids';
import { checkRange } from '../reports/params';
import type { Who as ReportWho } from '../reports/reports';
import type { ListVersion } from '../../../../src-shared/contracts/screening';
import { CONTENT_TYPES } from './render';
import { exportsRepo, type Claim, type ExportErrorCode, type ExportRow } from './repo';
import { RenderError, type RenderRunner } from './runner';
import type { Storage } from '../storage/storage';
import { may, planIncludes } from '../../../../src-shared/policy';

/** Tries a job gets when the process dies under it before it is failed as interrupted. */
export const MAX_ATTEMPTS = 3;
/** Unfinished (queued or running) exports one organisation may have at once. */
export const MAX_UNFINISHED = 10;
const FILE_MS = EXPORT_FILE_HOURS * 3600_000;
/** How long a claim holds a job without being renewed; renewed every third of it while the job runs. */
export const LEASE_MS = 60_000;

export type { ReportWho };
export interface ReportParams { env: Environment; from: string; to: string }
/** The reports service's bundle (core/reports): the data of the report an export is made of. */
export type BundleSource = (type: ReportType, who: ReportWho, params: ReportParams) => ReportBundle | Promise<ReportBundle>;
/** The organisation's branding for the PDF header (accounts: name and logo). */
export type BrandingSource = (orgId: number) => Promise<{ name: string; logo_png: Uint8Array | null }>;

export interface ExportDeps {
  bundle: BundleSource;
  /** Feature flag REPORT_EXPORTS_ENABLED (core/reports/flags): off, every export route answers 404. */
  enabled?: () => boolean;
  branding: BrandingSource;
  /** The lists loaded now, with the organisation's stale flags (screening + list freshness); absent: exports do not state them. */
  lists?: (orgId: number, now: number) => Promise<ListVersion[]>;
  runner: RenderRunner;
  /** Free space on the data directory's disk: no export is accepted, and no file stored, below its reserve. */
  storage?: Pick<Storage, 'require' | 'has' | 'isFull' | 'written'>;
  log?: (msg: string, fields?: Record<string, string | number>) => void;
  /** Takes the organisation's row lock in `tx` (PostgreSQL), so two exports queued at once count each other. */
  lockOrg?: (tx: Q, orgId: number) => Promise<void>;
  /** False once the service closed its database: a job finishing then writes nothing (it runs again at the next start). */
  open?: () => boolean;
  /** How often a started service looks for queued jobs and expired files. */
  pollMs?: number;
  /** How long a claim holds a job unrenewed (LEASE_MS; tests shorten it). */
  leaseMs?: number;
  sweepMs?: number;
}

export interface CreateExport { report_type?: string | undefined; format?: string | undefined; env?: string | undefined; from?: string | undefined; to?: string | undefined }

/** The export list and the job view (the contract's shapes) from a row, as of `now`. */
function listItem(r: ExportRow): ExportListItem {
  return {
    id: r.id, report_type: r.report_type, format: r.format, status: r.status,
    file_size_bytes: r.file_size_bytes, created_at: r.created_at, completed_at: r.completed_at,
    error_code: r.status === 'failed' ? r.error_code : null,
  };
}

function fileAvailable(r: ExportRow, now: number): boolean {
  return r.status === 'succeeded' && r.file_removed_at === null && r.expires_at !== null && Date.parse(r.expires_at) > now;
}

export function toJob(r: ExportRow, now: number): ExportJob {
  return {
    ...listItem(r),
    params: { env: r.env, from: r.from_date, to: r.to_date },
    download_url: fileAvailable(r, now) ? `/api/reports/exports/${r.id}/download` : null,
    expires_at: r.expires_at,
  };
}

/** Who may cancel a queued export: whoever made it, and the owner and admins. */
export function mayCancel(user: Pick<UserRow, 'id' | 'role'>, r: ExportRow): boolean {
  return r.created_by === user.id || may(user.role, 'exports.cancel_all');
}

export function createExports(engine: Engine, clock: Clock, deps: ExportDeps) {
  const repo = exportsRepo(engine.dialect);
  const { q } = engine;
  const open = deps.open ?? (() => true);
  const log = deps.log ?? (() => {});
  let pumping: Promise<void> | null = null;
  let started = false;
  let stopping = false;
  let timers: NodeJS.Timeout[] = [];

  function requirePlan(org: OrgRow): void {
    if (deps.enabled && !deps.enabled()) throw new AppError('report_exports_disabled');
    if (!planIncludes(org.plan, 'exports')) throw new AppError('exports_plan');
  }

  /** The reporting API's own check of env, from, to and the plan's range, with its texts (without its schema_version: an export is no report envelope). */
  function checkParams(body: CreateExport, plan: Plan): ReportParams {
    try {
      return checkRange(body, plan, '1.0');
    } catch (e) {
      if (isAppError(e)) {
        const { schema_version: _dropped, ...details } = e.details;
        throw new AppError(e.code, details);
      }
      throw e;
    }
  }

  async function find(orgId: number, id: number, on: Q = q): Promise<ExportRow> {
    const r = await repo.byId(on, orgId, id);
    if (!r) throw new AppError('export_not_found');
    return r;
  }

  /** Whether an error is the disk being full (SQLITE_FULL, ENOSPC...). */
  const isFull = (e: unknown): boolean => deps.storage?.isFull(e) ?? false;

  /**
   * Jobs whose failure could not be written (the disk was full for that too): written again on the
   * next pump, so they end as failed rather than running until the next start.
   */
  const unrecorded = new Map<number, { claim: Claim; code: ExportErrorCode }>();

  async function recordFailure(claim: Claim, code: ExportErrorCode): Promise<void> {
    try {
      await repo.fail(q, claim, code, nowIso(clock.now()));
      unrecorded.delete(claim.id);
      log('export_failed', { export_id: claim.id, reason: code });
    } catch (e) {
      if (!isFull(e)) throw e;
      unrecorded.set(claim.id, { claim, code });
      log('export_fail_unrecorded', { export_id: claim.id, reason: code });
    }
  }

  const leaseMs = deps.leaseMs ?? LEASE_MS;
  const leaseFrom = (now: number) => nowIso(now + leaseMs);

  async function runOne(job: ExportRow): Promise<void> {
    const claim: Claim = { id: job.id, attempts: job.attempts };
    // The lease renewed while the job runs; a renewal that finds the job gone to another instance ends nothing here
    // (the render runs on), but every write below names this claim and is refused.
    const renewing = setInterval(() => {
      if (open()) repo.renew(q, claim, leaseFrom(clock.now())).catch(() => {});
    }, leaseMs / 3);
    renewing.unref();
    try {
      await render(job, claim);
    } finally {
      clearInterval(renewing);
    }
  }

  async function render(job: ExportRow, claim: Claim): Promise<void> {
    const began = performance.now();
    const generatedAt = clock.now();
    let code: ExportErrorCode;
    try {
      // No file can be stored below the reserve: fail now, with the reason, rather than render.
      if (deps.storage && !deps.storage.has()) throw new RenderError('insufficient_storage');
      let bundle: ReportBundle;
      try {
        bundle = await deps.bundle(job.report_type, { orgId: job.org_id, plan: job.plan, canViewCredits: job.with_credits === 1 }, {
          env: job.env, from: job.from_date, to: job.to_date,
        });
      } catch (e) {
        // A report the service refuses (a range or a report the plan no longer allows) is not retried.
        if (isAppError(e)) throw new RenderError('report_unavailable');
        throw e;
      }
      const bytes = await deps.runner.render({
        exportId: job.id, reportType: job.report_type, format: job.format, env: job.env, from: job.from_date, to: job.to_date,
        generatedAt: nowIso(generatedAt), organisation: await deps.branding(job.org_id), bundle,
        ...(deps.lists ? { lists: await deps.lists(job.org_id, generatedAt) } : {}),
      });
      const at = clock.now();
      if (!open()) return;
      // The file goes into the WAL, then into the database at the checkpoint: twice its size, above the reserve.
      if (deps.storage && !deps.storage.has(2 * bytes.byteLength)) throw new RenderError('insufficient_storage');
      if (await engine.transaction((tx) => repo.succeed(tx, claim, bytes, nowIso(at), nowIso(at + FILE_MS)))) {
        deps.storage?.written();
        log('export_succeeded', { export_id: job.id, format: job.format, bytes: bytes.byteLength, ms: Math.round(performance.now() - began) });
      }
      return;
    } catch (e) {
      code = e instanceof RenderError ? e.reason : isFull(e) ? 'insufficient_storage' : 'render_failed';
    }
    if (!open()) return;
    // Cut off by a shutdown: it runs again on the next start, like a job a crash left behind.
    if (stopping && job.attempts < MAX_ATTEMPTS && await repo.requeue(q, claim)) return;
    await recordFailure(claim, code);
  }

  /**
   * Jobs a dead process or instance left running: queued again, or failed once they have had
   * their tries. `all`: every running job (a start on SQLite, where no other process runs the
   * queue); otherwise those whose lease ran out.
   */
  async function recoverOrphans(all: boolean): Promise<{ requeued: number; failed: number }> {
    let requeued = 0;
    let failed = 0;
    const now = clock.now();
    for (const r of await repo.orphans(q, all ? null : nowIso(now))) {
      const claim = { id: r.id, attempts: r.attempts };
      if (r.attempts >= MAX_ATTEMPTS) {
        if (await repo.fail(q, claim, 'interrupted', nowIso(now))) failed++;
      } else if (await repo.requeue(q, claim)) {
        requeued++;
      }
    }
    if (requeued + failed > 0) log('exports_recovered', { requeued, failed });
    return { requeued, failed };
  }

  /** Runs queued jobs one at a time until none is left. */
  function pump(): Promise<void> {
    // Cleared in a .finally callback, which runs after the assignment: a `finally` block inside
    // the async function would run synchronously when the queue is empty, before `pumping` is
    // set, and leave a settled promise there for good (no job would run again).
    pumping ??= (async () => {
      try {
        for (const { claim, code } of [...unrecorded.values()]) await recordFailure(claim, code);
        if (open() && !stopping) await recoverOrphans(false);
        while (open() && !stopping) {
          const now = clock.now();
          const job = await repo.claim(q, nowIso(now), leaseFrom(now));
          if (!job) break;
          await runOne(job);
        }
      } catch (e) {
        // A claim (or a failure) that could not be written, for lack of space or a database out of
        // reach: the job stays as the database has it (queued, or running until its lease runs
        // out) and the next poll tries again. Never an unhandled rejection from a timer.
        if (isFull(e)) log('exports_paused', { reason: 'insufficient_storage' });
        else if (databaseUnreachable(e)) log('exports_paused', { reason: 'database_unavailable' });
        else throw e;
      }
    })().finally(() => {
      pumping = null;
    });
    return pumping;
  }

  return {
    repo,

    /**
     * Validates and queues an export in `tx` (spec texts for every mistake, in the order the fields
     * are listed); `kick` once it committed, to run it without waiting for the next poll.
     */
    async create(user: UserRow, org: OrgRow, body: CreateExport, canViewCredits: boolean, tx: Q): Promise<ExportRow> {
      requirePlan(org);
      if (!(REPORT_TYPES as readonly string[]).includes(body.report_type ?? '')) throw new AppError('invalid_report_type', { field: 'report_type' });
      const format = body.format ?? 'pdf';
      if (!(EXPORT_FORMATS as readonly string[]).includes(format)) throw new AppError('invalid_export_format', { field: 'format' });
      const params = checkParams(body, org.plan);
      await deps.lockOrg?.(tx, org.id);
      if (await repo.unfinished(tx, org.id) >= MAX_UNFINISHED) throw new AppError('export_queue_full');
      // Nothing is acknowledged that the disk cannot hold (its file included, later): 507 instead of a 201.
      deps.storage?.require();
      return repo.insert(tx, {
        org_id: org.id, created_by: user.id, report_type: body.report_type as ReportType, format: format as ExportFormat, env: params.env,
        from_date: params.from, to_date: params.to, plan: org.plan, with_credits: canViewCredits ? 1 : 0, created_at: nowIso(clock.now()),
      });
    },

    /** A job was queued (its transaction committed): a started service runs it on the next turn. */
    kick(): void {
      if (started) setImmediate(() => void pump());
    },

    async list(org: OrgRow, page: number, perPage: number): Promise<{ exports: ExportListItem[]; total: number; page: number; pages: number }> {
      requirePlan(org);
      const total = await repo.count(q, org.id);
      return { exports: (await repo.page(q, org.id, perPage, (page - 1) * perPage)).map(listItem), total, page, pages: Math.ceil(total / perPage) };
    },

    async get(org: OrgRow, id: number): Promise<ExportJob> {
      requirePlan(org);
      return toJob(await find(org.id, id), clock.now());
    },

    /** Only a queued job is cancelled, in `tx`; it is then removed (docs/decisions.md). Returns the job as it was. */
    async cancel(user: UserRow, org: OrgRow, id: number, tx: Q): Promise<ExportRow> {
      requirePlan(org);
      const r = await find(org.id, id, tx);
      if (r.status !== 'queued') throw new AppError('export_not_cancellable', { message: `Cannot cancel export with status: ${r.status}` });
      if (!mayCancel(user, r)) throw new AppError('permission_denied');
      // Claimed between the read and now: it is running, and says so.
      if (!(await repo.cancel(tx, org.id, id))) throw new AppError('export_not_cancellable', { message: `Cannot cancel export with status: ${(await find(org.id, id, tx)).status}` });
      return r;
    },

    /** The file, its download counted in `tx`. */
    async download(org: OrgRow, id: number, tx: Q): Promise<{ bytes: Uint8Array; contentType: string; filename: string; env: Environment; report_type: ReportType; format: ExportFormat }> {
      requirePlan(org);
      const r = await find(org.id, id, tx);
      const now = clock.now();
      const bytes = fileAvailable(r, now) ? await repo.file(tx, r.id) : undefined;
      if (!bytes) throw new AppError('export_file_not_found');
      await repo.downloaded(tx, r.id, nowIso(now));
      return { bytes, contentType: CONTENT_TYPES[r.format], filename: `report_${r.id}.${r.format}`, env: r.env, report_type: r.report_type, format: r.format };
    },

    /**
     * Jobs a dead process left running, at a start: queued again, or failed once they have had
     * their tries. On SQLite every running job (no other process runs the queue); on PostgreSQL
     * those whose lease ran out (the others are other instances' work).
     */
    recover: (): Promise<{ requeued: number; failed: number }> => recoverOrphans(engine.dialect === 'sqlite'),

    /** Removes the files of exports made more than 24 hours ago. */
    async sweep(): Promise<number> {
      const removed = await engine.transaction((tx) => repo.sweep(tx, nowIso(clock.now())));
      if (removed > 0) log('export_files_removed', { count: removed });
      return removed;
    },

    /** Where the last export was rendered: 'worker' in the service (tests, logs). */
    renderedIn: () => deps.runner.mode(),

    /** Runs every queued job now (tests drive the queue with this; a started service runs it itself). */
    drain: pump,

    /** With the service: recovers, sweeps, then runs queued jobs as they come and sweeps every hour. */
    async start(): Promise<void> {
      if (started) return;
      started = true;
      await this.recover();
      await this.sweep();
      void pump();
      const poll = setInterval(() => void pump(), deps.pollMs ?? 5000);
      const sweep = setInterval(() => void this.sweep().catch((e: unknown) => {
        if (!isFull(e)) log('export_sweep_failed', { reason: e instanceof Error ? e.name : 'error' });
      }), deps.sweepMs ?? 3600_000);
      poll.unref();
      sweep.unref();
      timers = [poll, sweep];
    },

    async stop(): Promise<void> {
      started = false;
      stopping = true;
      for (const t of timers) clearInterval(t);
      timers = [];
      const running = pumping;
      await deps.runner.stop();
      if (running) await running.catch(() => undefined);
    },
  };
}
export type Exports = ReturnType<typeof createExports>;
