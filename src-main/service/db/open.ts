// Opens the SQLite database: WAL, foreign keys, a busy timeout so the CLI and the service can
// work on one data directory at once, and the pending migrations.
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { migrate } from './migrate';

export type Db = Database.Database;

export interface OpenOptions {
  /** A better_sqlite3.node built for another ABI (Electron); the Node build is used otherwise. */
  nativeBinding?: string;
  readonly?: boolean;
}

export const DB_FILE = 'console.db';

export function openDatabase(dataDir: string, opts: OpenOptions = {}): Db {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = join(dataDir, DB_FILE);
  const db = new Database(file, opts.nativeBinding ? { nativeBinding: opts.nativeBinding } : {});
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // Deleted pages are zeroed, so nothing removed lingers in the file.
  db.pragma('secure_delete = ON');
  migrate(db);
  return db;
}
