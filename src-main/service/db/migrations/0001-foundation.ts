// Organisation, users, sessions, API keys, the credits ledger, the verification ledger and
// idempotency records. No column here can hold subject data: ids, products, statuses,
// credits, timings and confidences only.
import type Database from 'better-sqlite3';

export const version = 1;
export const name = 'foundation';

export function up(db: Database.Database): void {
  db.exec(`
    CREATE TABLE meta (
      key TEXT PRIMARY KEY,
      value TEXT NOT NULL
    ) STRICT;

    CREATE TABLE organizations (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      plan TEXT NOT NULL CHECK (plan IN ('free','starter','growth','pro','enterprise')),
      created_at TEXT NOT NULL
    ) STRICT;

    CREATE TABLE users (
      id INTEGER PRIMARY KEY,
      org_id INTEGER NOT NULL REFERENCES organizations(id),
      email TEXT NOT NULL UNIQUE,
      name TEXT NOT NULL,
      password_hash TEXT NOT NULL,
      role TEXT NOT NULL CHECK (role IN ('owner','admin','member')),
      billing INTEGER NOT NULL DEFAULT 0 CHECK (billing IN (0,1)),
      created_at TEXT NOT NULL,
      last_active_at TEXT
    ) STRICT;
    CREATE INDEX users_org ON users(org_id);

    CREATE TABLE sessions (
      token_hash TEXT PRIMARY KEY,
      user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      created_at TEXT NOT NULL,
      expires_at TEXT NOT NULL,
      idle_expires_at TEXT NOT NULL
    ) STRICT;
    CREATE INDEX sessions_user ON sessions(user_id);

    CREATE TABLE api_keys (
      id TEXT PRIMARY KEY,
      org_id INTEGER NOT NULL REFERENCES organizations(id),
      name TEXT NOT NULL,
      key_hash TEXT NOT NULL UNIQUE,
      secret_hash TEXT NOT NULL UNIQUE,
      prefix TEXT NOT NULL,
      env TEXT NOT NULL CHECK (env IN ('test','live')),
      scopes TEXT NOT NULL,
      demo INTEGER NOT NULL DEFAULT 0 CHECK (demo IN (0,1)),
      created_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
      created_at TEXT NOT NULL,
      revoked_at TEXT,
      last_used_at TEXT
    ) STRICT;
    CREATE INDEX api_keys_org ON api_keys(org_id, env);

    CREATE TABLE verifications (
      id TEXT PRIMARY KEY,
      org_id INTEGER NOT NULL REFERENCES organizations(id),
      api_key_id TEXT REFERENCES api_keys(id),
      product TEXT NOT NULL CHECK (product IN ('human','age','identity','compliance','screen','rescreen')),
      env TEXT NOT NULL CHECK (env IN ('test','live')),
      status TEXT NOT NULL,
      confidence REAL,
      credits INTEGER NOT NULL DEFAULT 0,
      billable INTEGER NOT NULL DEFAULT 1 CHECK (billable IN (0,1)),
      error_code TEXT,
      latency_ms INTEGER,
      created_at TEXT NOT NULL,
      completed_at TEXT
    ) STRICT;
    CREATE INDEX verifications_org_env_created ON verifications(org_id, env, created_at);
    CREATE INDEX verifications_key_product ON verifications(api_key_id, product);

    -- Append-only: balance = SUM(amount). Charges are negative and point at what they paid for.
    CREATE TABLE credit_entries (
      id INTEGER PRIMARY KEY,
      org_id INTEGER NOT NULL REFERENCES organizations(id),
      amount INTEGER NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('grant','charge','adjustment')),
      product TEXT,
      verification_id TEXT REFERENCES verifications(id),
      env TEXT CHECK (env IS NULL OR env IN ('test','live')),
      note TEXT,
      created_at TEXT NOT NULL
    ) STRICT;
    CREATE INDEX credit_entries_org ON credit_entries(org_id, id);
    CREATE TRIGGER credit_entries_no_update BEFORE UPDATE ON credit_entries
      BEGIN SELECT RAISE(ABORT, 'credit_entries is append-only'); END;
    CREATE TRIGGER credit_entries_no_delete BEFORE DELETE ON credit_entries
      BEGIN SELECT RAISE(ABORT, 'credit_entries is append-only'); END;

    -- idem_key and fingerprint are keyed hashes (HMAC with meta.idempotency_secret) of the
    -- client's Idempotency-Key and of method, path and body: a retried request is recognised
    -- without keeping either (clients may put a customer reference in the key).
    CREATE TABLE idempotency_keys (
      api_key_id TEXT NOT NULL REFERENCES api_keys(id),
      idem_key TEXT NOT NULL,
      fingerprint TEXT NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('in_progress','done')),
      verification_id TEXT,
      status_code INTEGER,
      created_at TEXT NOT NULL,
      expires_at TEXT NOT NULL,
      PRIMARY KEY (api_key_id, idem_key)
    ) STRICT;
    CREATE INDEX idempotency_expires ON idempotency_keys(expires_at);
  `);
}
