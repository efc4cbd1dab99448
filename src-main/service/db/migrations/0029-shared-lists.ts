// Lists shared by every instance on one PostgreSQL (issue 40): the lists folder of a data
// directory (lists/store.ts: the newer official files, the imports held for confirmation, the
// organisation's own lists and their index files) as one version row naming each file by its
// SHA-256, and the files' bytes once each. An instance that changes the lists writes a new version
// under a lock and notifies the others, which bring their own folder to it (lists/shared.ts). A
// single SQLite process keeps its lists in its data directory only and leaves these tables empty.
import type Database from 'better-sqlite3';
import { sql } from 'kysely';
import type { Q } from '../engine';

export const version = 29;
export const name = 'shared-lists';

export function up(db: Database.Database): void {
  db.exec(`
    CREATE TABLE list_store (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      version INTEGER NOT NULL CHECK (version >= 1),
      files TEXT NOT NULL,
      updated_at TEXT NOT NULL
    ) STRICT;
    CREATE TABLE list_blobs (
      sha256 TEXT PRIMARY KEY CHECK (length(sha256) = 64),
      content BLOB NOT NULL
    ) STRICT;
  `);
}

export async function postgres(q: Q): Promise<void> {
  await sql.raw(`
    CREATE TABLE list_store (
      id BIGINT PRIMARY KEY CHECK (id = 1),
      version BIGINT NOT NULL CHECK (version >= 1),
      files TEXT COLLATE "C" NOT NULL,
      updated_at TEXT COLLATE "C" NOT NULL
    );
    CREATE TABLE list_blobs (
      sha256 TEXT COLLATE "C" PRIMARY KEY CHECK (length(sha256) = 64),
      content BYTEA NOT NULL
    );
  `).execute(q);
}
