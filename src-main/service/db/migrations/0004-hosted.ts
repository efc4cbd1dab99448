// Hosted verification sessions: a single-use URL token for one person's verification, made by an
// API key. The token is a credential: only its SHA-256 is kept. The row holds the customer's
// settings (redirects, page title and messages) and the session's state; never subject data.
import type Database from 'better-sqlite3';

export const version = 4;
export const name = 'hosted';

export function up(db: Database.Database): void {
  db.exec(`
    CREATE TABLE hosted_sessions (
      id TEXT PRIMARY KEY,
      token_hash TEXT NOT NULL UNIQUE,
      org_id INTEGER NOT NULL REFERENCES organizations(id),
      env TEXT NOT NULL CHECK (env IN ('test','live')),
      api_key_id TEXT REFERENCES api_keys(id),
      product TEXT NOT NULL CHECK (product IN ('human','age','identity','compliance')),
      redirect_url TEXT,
      failure_redirect_url TEXT,
      page_title TEXT,
      success_message TEXT,
      failure_message TEXT,
      min_age INTEGER,
      state TEXT NOT NULL CHECK (state IN ('created','opened','completed','revoked')),
      verification_id TEXT REFERENCES verifications(id),
      outcome TEXT CHECK (outcome IS NULL OR outcome IN ('passed','failed')),
      created_at TEXT NOT NULL,
      expires_at TEXT NOT NULL,
      opened_at TEXT,
      completed_at TEXT
    ) STRICT;
    CREATE INDEX hosted_sessions_org_env_created ON hosted_sessions(org_id, env, created_at);
  `);
}
