// SQL for report export jobs and their files (migrations 0011, 0016, 0027), on either engine
// (db/engine.ts). Each function takes the query builder to run on: the engine's, or the caller's
// transaction. A job is claimed by one instance, with a lease it renews while it works; every
// later write about the job names the claim (its attempt number), so an instance whose lease ran
// out (stalled, or dead and replaced) can no longer write over the job another instance took.
import { sql, type Selectable } from 'kysely';
import type { Environment, Plan } from '../../../../src-shared/catalog';
import type { ExportErrorCode, ExportFormat, ReportType } from '../../../../src-shared/contracts/reports';
import { changedOne, type Dialect, type Q } from '../../db/engine';
import type { ReportExportsTable } from '../../db/tables';

export type { ExportErrorCode };

export type ExportRow = Selectable<ReportExportsTable>;

/** One claim of a job: its id and the attempt the claim began. */
export interface Claim { id: number; attempts: number }

const jobs = (q: Q) => q.selectFrom('report_exports').selectAll();
const running = (q: Q, c: Claim) => q.updateTable('report_exports').where('id', '=', c.id).where('status', '=', 'running').where('attempts', '=', c.attempts);

export function exportsRepo(dialect: Dialect) {
  return {
    async insert(q: Q, row: { org_id: number; created_by: number; report_type: ReportType; format: ExportFormat; env: Environment; from_date: string; to_date: string; plan: Plan; with_credits: 0 | 1; created_at: string }): Promise<ExportRow> {
      return q.insertInto('report_exports').values({ ...row, status: 'queued' }).returningAll().executeTakeFirstOrThrow();
    },
    byId: (q: Q, orgId: number, id: number): Promise<ExportRow | undefined> => jobs(q).where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst(),
    page: (q: Q, orgId: number, limit: number, offset: number): Promise<ExportRow[]> =>
      jobs(q).where('org_id', '=', orgId).orderBy('id', 'desc').limit(limit).offset(offset).execute(),
    async count(q: Q, orgId: number): Promise<number> {
      return Number((await q.selectFrom('report_exports').select((e) => e.fn.countAll<number>().as('n')).where('org_id', '=', orgId).executeTakeFirstOrThrow()).n);
    },
    async unfinished(q: Q, orgId: number): Promise<number> {
      return Number((await q.selectFrom('report_exports').select((e) => e.fn.countAll<number>().as('n'))
        .where('org_id', '=', orgId).where('status', 'in', ['queued', 'running']).executeTakeFirstOrThrow()).n);
    },
    /**
     * The oldest queued job, claimed: one conditional UPDATE, so a job is claimed once however many
     * instances race (on PostgreSQL the candidate is read `FOR UPDATE SKIP LOCKED`: a job another
     * instance is claiming is passed over, not waited for).
     */
    async claim(q: Q, at: string, leaseUntil: string): Promise<ExportRow | undefined> {
      let next = q.selectFrom('report_exports').select('id').where('status', '=', 'queued').orderBy('id').limit(1);
      if (dialect === 'postgres') next = next.forUpdate().skipLocked();
      return q.updateTable('report_exports')
        .set((e) => ({ status: 'running', attempts: sql<number>`${e.ref('attempts')} + 1`, started_at: at, lease_until: leaseUntil }))
        .where('id', '=', next).where('status', '=', 'queued')
        .returningAll().executeTakeFirst();
    },
    /** The claim's lease, renewed; false when the claim is no longer this one's (its lease ran out and the job moved on). */
    async renew(q: Q, c: Claim, leaseUntil: string): Promise<boolean> {
      return changedOne(await running(q, c).set({ lease_until: leaseUntil }).executeTakeFirst());
    },
    /** The file and the succeeded state commit together (in `tx`): never a succeeded job without its file. */
    async succeed(tx: Q, c: Claim, content: Uint8Array, at: string, expiresAt: string): Promise<boolean> {
      if (!changedOne(await running(tx, c).set({ status: 'succeeded', completed_at: at, expires_at: expiresAt, file_size_bytes: content.byteLength, error_code: null, lease_until: null }).executeTakeFirst())) return false;
      await tx.insertInto('report_export_files').values({ export_id: c.id, content })
        .onConflict((oc) => oc.column('export_id').doUpdateSet({ content })).execute();
      return true;
    },
    async fail(q: Q, c: Claim, code: ExportErrorCode, at: string): Promise<boolean> {
      return changedOne(await running(q, c).set({ status: 'failed', error_code: code, completed_at: at, lease_until: null }).executeTakeFirst());
    },
    async requeue(q: Q, c: Claim): Promise<boolean> {
      return changedOne(await running(q, c).set({ status: 'queued', started_at: null, lease_until: null }).executeTakeFirst());
    },
    /** Running jobs whose lease ran out before `now` (every running job when `now` is null: a start on SQLite, where no other process runs them). */
    orphans: (q: Q, now: string | null): Promise<ExportRow[]> => {
      let query = jobs(q).where('status', '=', 'running');
      if (now !== null) query = query.where((e) => e.or([e('lease_until', 'is', null), e('lease_until', '<', now)]));
      return query.orderBy('id').execute();
    },
    /** Only a queued job is cancelled: the DELETE is conditional, so a job claimed meanwhile stays. */
    async cancel(q: Q, orgId: number, id: number): Promise<boolean> {
      return changedOne(await q.deleteFrom('report_exports').where('org_id', '=', orgId).where('id', '=', id).where('status', '=', 'queued').executeTakeFirst());
    },
    file: async (q: Q, id: number): Promise<Uint8Array | undefined> =>
      (await q.selectFrom('report_export_files').select('content').where('export_id', '=', id).executeTakeFirst())?.content,
    async downloaded(q: Q, id: number, at: string): Promise<void> {
      await q.updateTable('report_exports').set((e) => ({ download_count: sql<number>`${e.ref('download_count')} + 1`, last_downloaded_at: at })).where('id', '=', id).execute();
    },
    /** Deletes the files of expired exports (in `tx`); their rows stay. Returns how many were removed. */
    async sweep(tx: Q, now: string): Promise<number> {
      const ids = (await tx.selectFrom('report_exports').select('id')
        .where('file_removed_at', 'is', null).where('expires_at', 'is not', null).where('expires_at', '<=', now).execute()).map((r) => r.id);
      if (ids.length === 0) return 0;
      await tx.deleteFrom('report_export_files').where('export_id', 'in', ids).execute();
      await tx.updateTable('report_exports').set({ file_removed_at: now }).where('id', 'in', ids).execute();
      return ids.length;
    },
  };
}
