// Links that reach and hosted retries (issue 26): the installation's public URL as saved in the
// console (one row, like the on-site server's setting: configuration, not subject data); how many
// attempts an organisation gives a person on one hosted link; and each failed attempt of a hosted
// session as the analyst sees it: its failure code and the rules' numbers, never a picture, a
// name or a date.
import type Database from 'better-sqlite3';

export const version = 18;
export const name = 'public-url';

export function up(db: Database.Database): void {
  db.exec(`
    CREATE TABLE public_url_setting (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      url TEXT NOT NULL CHECK (length(url) BETWEEN 8 AND 2048 AND (url GLOB 'https://*' OR url GLOB 'http://*')),
      updated_at TEXT NOT NULL,
      updated_by INTEGER REFERENCES users(id)
    ) STRICT;
    ALTER TABLE organizations ADD COLUMN hosted_attempts INTEGER NOT NULL DEFAULT 3 CHECK (hosted_attempts BETWEEN 1 AND 10);
    CREATE TABLE hosted_attempts (
      session_id TEXT NOT NULL REFERENCES hosted_sessions(id),
      attempt INTEGER NOT NULL CHECK (attempt BETWEEN 1 AND 10),
      at TEXT NOT NULL,
      verification_id TEXT REFERENCES verifications(id),
      reason TEXT CHECK (reason IS NULL OR (length(reason) <= 64 AND reason NOT GLOB '*[^a-z_]*')),
      rule TEXT CHECK (rule IS NULL OR (length(rule) <= 64 AND rule NOT GLOB '*[^a-z_]*')),
      checks TEXT NOT NULL CHECK (json_valid(checks) AND length(checks) <= 4096),
      PRIMARY KEY (session_id, attempt)
    ) STRICT;
  `);
}
