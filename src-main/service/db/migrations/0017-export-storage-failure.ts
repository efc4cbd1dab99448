// Report exports may fail as `insufficient_storage` (issue 25: the disk had no room for the file).
// SQLite cannot change a CHECK constraint in place, so both export tables are rebuilt: the files
// table first under a new name referring to the new jobs table, because dropping the old jobs
// table with foreign keys on deletes its rows first and would cascade into the files. The renames
// rewrite the files table's reference (legacy_alter_table is off). Same columns, same indexes.
import type Database from 'better-sqlite3';

export const version = 17;
export const name = 'export-storage-failure';

export function up(db: Database.Database): void {
  db.exec(`
    CREATE TABLE report_exports_new (
      id INTEGER PRIMARY KEY,
      org_id INTEGER NOT NULL REFERENCES organizations(id),
      created_by INTEGER NOT NULL REFERENCES users(id),
      report_type TEXT NOT NULL CHECK (report_type IN
        ('overview','volume','usage','risk-summary','widget-performance','full','verification-v21','full-v21')),
      format TEXT NOT NULL CHECK (format IN ('pdf','csv')),
      env TEXT NOT NULL CHECK (env IN ('test','live')),
      from_date TEXT NOT NULL,
      to_date TEXT NOT NULL,
      plan TEXT NOT NULL CHECK (plan IN ('free','starter','growth','pro','enterprise')),
      with_credits INTEGER NOT NULL CHECK (with_credits IN (0,1)),
      status TEXT NOT NULL CHECK (status IN ('queued','running','succeeded','failed')),
      attempts INTEGER NOT NULL DEFAULT 0,
      error_code TEXT CHECK (error_code IN ('render_failed','timeout','interrupted','report_unavailable','insufficient_storage')),
      file_size_bytes INTEGER,
      created_at TEXT NOT NULL,
      started_at TEXT,
      completed_at TEXT,
      expires_at TEXT,
      file_removed_at TEXT,
      download_count INTEGER NOT NULL DEFAULT 0,
      last_downloaded_at TEXT
    ) STRICT;
    INSERT INTO report_exports_new SELECT * FROM report_exports;
    CREATE TABLE report_export_files_new (
      export_id INTEGER PRIMARY KEY REFERENCES report_exports_new(id) ON DELETE CASCADE,
      content BLOB NOT NULL
    ) STRICT;
    INSERT INTO report_export_files_new SELECT * FROM report_export_files;
    DROP TABLE report_export_files;
    DROP TABLE report_exports;
    ALTER TABLE report_exports_new RENAME TO report_exports;
    ALTER TABLE report_export_files_new RENAME TO report_export_files;
    CREATE INDEX report_exports_org_id ON report_exports(org_id, id);
    CREATE INDEX report_exports_status ON report_exports(status, id);
    CREATE INDEX report_exports_expiry ON report_exports(expires_at) WHERE file_removed_at IS NULL AND expires_at IS NOT NULL;
  `);
}
