// Report exports (issue 13; account spec "Export job"): a durable queue of PDF/CSV report jobs and
// the files they make. A job row holds ids, the report's parameters, its state and timings, a
// short error code and the file's size: never subject data (an export is made of ledger
// aggregates). The finished file is a blob in its own table, written in the same transaction that
// marks the job succeeded (no half-written or orphaned file after a crash), and deleted by the
// sweeper 24 hours later; the job row stays.
import type Database from 'better-sqlite3';

export const version = 12;
export const name = 'report-exports';

export function up(db: Database.Database): void {
  db.exec(`
    CREATE TABLE report_exports (
      id INTEGER PRIMARY KEY,
      org_id INTEGER NOT NULL REFERENCES organizations(id),
      created_by INTEGER NOT NULL REFERENCES users(id),
      report_type TEXT NOT NULL CHECK (report_type IN
        ('overview','volume','usage','risk-summary','widget-performance','full','verification-v21','full-v21')),
      format TEXT NOT NULL CHECK (format IN ('pdf','csv')),
      env TEXT NOT NULL CHECK (env IN ('test','live')),
      from_date TEXT NOT NULL,
      to_date TEXT NOT NULL,
      -- What the creator could see when the job was made: the plan (breakdown sizes) and the
      -- credits section (owner, admin or billing). The report follows these, not later changes.
      plan TEXT NOT NULL CHECK (plan IN ('free','starter','growth','pro','enterprise')),
      with_credits INTEGER NOT NULL CHECK (with_credits IN (0,1)),
      status TEXT NOT NULL CHECK (status IN ('queued','running','succeeded','failed')),
      attempts INTEGER NOT NULL DEFAULT 0,
      error_code TEXT CHECK (error_code IN ('render_failed','timeout','interrupted','report_unavailable')),
      file_size_bytes INTEGER,
      created_at TEXT NOT NULL,
      started_at TEXT,
      completed_at TEXT,
      expires_at TEXT,
      file_removed_at TEXT,
      download_count INTEGER NOT NULL DEFAULT 0,
      last_downloaded_at TEXT
    ) STRICT;
    CREATE INDEX report_exports_org_id ON report_exports(org_id, id);
    CREATE INDEX report_exports_status ON report_exports(status, id);
    CREATE INDEX report_exports_expiry ON report_exports(expires_at) WHERE file_removed_at IS NULL AND expires_at IS NOT NULL;

    CREATE TABLE report_export_files (
      export_id INTEGER PRIMARY KEY REFERENCES report_exports(id) ON DELETE CASCADE,
      content BLOB NOT NULL
    ) STRICT;
  `);
}
