// SQL for report export jobs and their files (migrations 0011, 0016).
// An INSERT or UPDATE ... RETURNING read with `.get()` outside a transaction loses a commit that
// fails (a full disk: better-sqlite3 steps once, gets the row, and the autocommit's error at the
// statement's reset is dropped), so the row it returned may not exist: a 201 for an export that
// then vanished (issue 25). Those statements run inside `db.transaction`, whose COMMIT throws.
import type { Environment, Plan } from '../../../../src-shared/catalog';
import type { ExportErrorCode, ExportFormat, ExportStatus, ReportType } from '../../../../src-shared/contracts/reports';
import type { Db } from '../../db/open';

export type { ExportErrorCode };

export interface ExportRow {
  id: number;
  org_id: number;
  created_by: number;
  report_type: ReportType;
  format: ExportFormat;
  env: Environment;
  from_date: string;
  to_date: string;
  plan: Plan;
  with_credits: 0 | 1;
  status: ExportStatus;
  attempts: number;
  error_code: ExportErrorCode | null;
  file_size_bytes: number | null;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  expires_at: string | null;
  file_removed_at: string | null;
  download_count: number;
  last_downloaded_at: string | null;
}

export function exportsRepo(db: Db) {
  const s = {
    insert: db.prepare<[number, number, ReportType, ExportFormat, Environment, string, string, Plan, 0 | 1, string], ExportRow>(
      `INSERT INTO report_exports (org_id, created_by, report_type, format, env, from_date, to_date, plan, with_credits, status, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'queued', ?) RETURNING *`,
    ),
    byId: db.prepare<[number, number], ExportRow>('SELECT * FROM report_exports WHERE org_id = ? AND id = ?'),
    page: db.prepare<[number, number, number], ExportRow>('SELECT * FROM report_exports WHERE org_id = ? ORDER BY id DESC LIMIT ? OFFSET ?'),
    count: db.prepare<[number], { n: number }>('SELECT COUNT(*) AS n FROM report_exports WHERE org_id = ?'),
    unfinished: db.prepare<[number], { n: number }>("SELECT COUNT(*) AS n FROM report_exports WHERE org_id = ? AND status IN ('queued','running')"),
    // Oldest first; one conditional UPDATE, so a job is claimed once however many callers race.
    claim: db.prepare<[string], ExportRow>(
      `UPDATE report_exports SET status = 'running', attempts = attempts + 1, started_at = ?
        WHERE id = (SELECT id FROM report_exports WHERE status = 'queued' ORDER BY id LIMIT 1) RETURNING *`,
    ),
    insertFile: db.prepare<[number, Uint8Array]>('INSERT OR REPLACE INTO report_export_files (export_id, content) VALUES (?, ?)'),
    succeed: db.prepare<[string, string, number, number]>(
      "UPDATE report_exports SET status = 'succeeded', completed_at = ?, expires_at = ?, file_size_bytes = ?, error_code = NULL WHERE id = ? AND status = 'running'",
    ),
    fail: db.prepare<[ExportErrorCode, string, number]>(
      "UPDATE report_exports SET status = 'failed', error_code = ?, completed_at = ? WHERE id = ? AND status = 'running'",
    ),
    requeue: db.prepare<[number]>("UPDATE report_exports SET status = 'queued', started_at = NULL WHERE id = ? AND status = 'running'"),
    running: db.prepare<[], ExportRow>("SELECT * FROM report_exports WHERE status = 'running'"),
    // Only a queued job is cancelled: the DELETE is conditional, so a job claimed meanwhile stays.
    cancel: db.prepare<[number, number]>("DELETE FROM report_exports WHERE org_id = ? AND id = ? AND status = 'queued'"),
    file: db.prepare<[number], { content: Uint8Array }>('SELECT content FROM report_export_files WHERE export_id = ?'),
    downloaded: db.prepare<[string, number]>('UPDATE report_exports SET download_count = download_count + 1, last_downloaded_at = ? WHERE id = ?'),
    expired: db.prepare<[string], { id: number }>(
      'SELECT id FROM report_exports WHERE file_removed_at IS NULL AND expires_at IS NOT NULL AND expires_at <= ?',
    ),
    removeFile: db.prepare<[number]>('DELETE FROM report_export_files WHERE export_id = ?'),
    markRemoved: db.prepare<[string, number]>('UPDATE report_exports SET file_removed_at = ? WHERE id = ?'),
  };
  return {
    insert: db.transaction((orgId: number, userId: number, type: ReportType, format: ExportFormat, env: Environment, from: string, to: string, plan: Plan, withCredits: boolean, at: string) =>
      s.insert.get(orgId, userId, type, format, env, from, to, plan, withCredits ? 1 : 0, at)!),
    byId: (orgId: number, id: number) => s.byId.get(orgId, id),
    page: (orgId: number, limit: number, offset: number) => s.page.all(orgId, limit, offset),
    count: (orgId: number) => s.count.get(orgId)!.n,
    unfinished: (orgId: number) => s.unfinished.get(orgId)!.n,
    claim: db.transaction((at: string) => s.claim.get(at)),
    /** The file and the succeeded state commit together: never a succeeded job without its file. */
    succeed: db.transaction((id: number, content: Uint8Array, at: string, expiresAt: string) => {
      if (s.succeed.run(at, expiresAt, content.byteLength, id).changes !== 1) return false;
      s.insertFile.run(id, content);
      return true;
    }),
    fail: (id: number, code: ExportErrorCode, at: string) => s.fail.run(code, at, id).changes === 1,
    requeue: (id: number) => s.requeue.run(id).changes === 1,
    running: () => s.running.all(),
    cancel: (orgId: number, id: number) => s.cancel.run(orgId, id).changes === 1,
    file: (id: number) => s.file.get(id)?.content,
    downloaded: (id: number, at: string) => s.downloaded.run(at, id),
    /** Deletes the files of expired exports; their rows stay. Returns how many were removed. */
    sweep: db.transaction((now: string) => {
      const ids = s.expired.all(now);
      for (const { id } of ids) {
        s.removeFile.run(id);
        s.markRemoved.run(now, id);
      }
      return ids.length;
    }),
  };
}
