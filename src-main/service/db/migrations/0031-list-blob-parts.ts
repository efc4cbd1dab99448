// The shared lists' file bytes in parts of at most a MiB (issue 38): a 30 MB official file
// written as one value was serialised whole by the PostgreSQL driver, several copies of it at
// once (~60 MB more of an import's memory), and read back as one 60 MB hex string. Each stored
// file becomes its part 0; later files are written in parts (lists/shared-repo.ts).
import type Database from 'better-sqlite3';
import { sql } from 'kysely';
import type { Q } from '../engine';

export const version = 31;
export const name = 'list-blob-parts';

export function up(db: Database.Database): void {
  db.exec(`
    CREATE TABLE list_blob_parts (
      sha256 TEXT NOT NULL CHECK (length(sha256) = 64),
      part INTEGER NOT NULL CHECK (part >= 0),
      content BLOB NOT NULL,
      PRIMARY KEY (sha256, part)
    ) STRICT;
    INSERT INTO list_blob_parts (sha256, part, content) SELECT sha256, 0, content FROM list_blobs;
    DROP TABLE list_blobs;
  `);
}

export async function postgres(q: Q): Promise<void> {
  await sql.raw(`
    CREATE TABLE list_blob_parts (
      sha256 TEXT COLLATE "C" NOT NULL CHECK (length(sha256) = 64),
      part BIGINT NOT NULL CHECK (part >= 0),
      content BYTEA NOT NULL,
      PRIMARY KEY (sha256, part)
    );
    INSERT INTO list_blob_parts (sha256, part, content) SELECT sha256, 0, content FROM list_blobs;
    DROP TABLE list_blobs;
  `).execute(q);
}
