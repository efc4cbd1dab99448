// Opens the SQLite database: WAL, foreign keys, a busy timeout so the CLI and the service can
// work on one data directory at once, and the pending migrations.
import Database from 'better-sqlite3';
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { openDataDir, PRIVATE_FILE_MODE, tighten } from '../paths';
import { migrate } from './migrate';

export type Db = Database.Database;

export interface OpenOptions {
  /** A better_sqlite3.node built for another ABI (Electron); the Node build is used otherwise. */
  nativeBinding?: string;
  readonly?: boolean;
}

export const DB_FILE = 'console.db';

export function openDatabase(dataDir: string, opts: OpenOptions = {}): Db {
  openDataDir(dataDir);
  const file = join(dataDir, DB_FILE);
  // SQLite makes a new database file 0644 (whatever the umask allows) and its -wal and -shm with
  // the database file's mode: an empty file made 0600 here first (an empty file is an empty
  // database) keeps all three private. Files an older install left looser are tightened.
  closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
  const files = [file, `${file}-wal`, `${file}-shm`];
  for (const f of files) tighten(f);
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
