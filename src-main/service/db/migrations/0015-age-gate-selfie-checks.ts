// The storefront's paid selfie checks by store (issue 25): which ledger rows a store's widget
// made, so its daily cap counts them from the ledger (a restart forgets nothing). Ids and a time
// only: whether a row was charged is the ledger's own `credits`, read through the join.
import type Database from 'better-sqlite3';

export const version = 15;
export const name = 'age-gate-selfie-checks';

export function up(db: Database.Database): void {
  db.exec(`
    CREATE TABLE age_gate_selfie_checks (
      verification_id TEXT PRIMARY KEY REFERENCES verifications(id),
      store_id TEXT NOT NULL REFERENCES age_gate_stores(id),
      created_at TEXT NOT NULL
    ) STRICT;
    CREATE INDEX age_gate_selfie_checks_store_created ON age_gate_selfie_checks(store_id, created_at);
  `);
}
