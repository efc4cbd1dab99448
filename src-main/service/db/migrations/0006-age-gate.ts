// The storefront age gate: one store per organisation and environment, with a public id the
// widget's script tag carries, and the merchant's settings. No visitor data is ever kept here:
// attempts are counted in memory, and attestations are ledger rows like any verification.
import type Database from 'better-sqlite3';

export const version = 6;
export const name = 'age-gate';

export function up(db: Database.Database): void {
  db.exec(`
    CREATE TABLE age_gate_stores (
      id TEXT PRIMARY KEY,
      org_id INTEGER NOT NULL REFERENCES organizations(id),
      env TEXT NOT NULL CHECK (env IN ('test','live')),
      settings TEXT NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      UNIQUE (org_id, env)
    ) STRICT;
  `);
}
