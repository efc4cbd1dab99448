// Two more contradictions a clearance may override (issue 36): "name-only match on a common name"
// while the date of birth or the country agrees. `clearances.override_contradiction` has a CHECK
// listing the allowed codes, and SQLite cannot change a CHECK in place, so the table is rebuilt:
// same columns in the same order, every row as written, the same indexes. The audit log's column
// has no CHECK and is unchanged.
import type Database from 'better-sqlite3';

export const version = 23;
export const name = 'name-only-contradictions';

// As of this version (a migration never changes with later code).
const REASONS = ['different_dob', 'different_nationality', 'different_person_other_identifiers', 'name_only_common_name', 'list_record_outdated', 'other'];
const CONTRADICTIONS = ['dob_matches_exactly', 'country_matches', 'exact_name_and_dob', 'name_only_dob_agrees', 'name_only_country_matches'];
const list = (xs: string[]) => xs.map((x) => `'${x}'`).join(',');

/** clearances' columns as of version 22 (0021's). */
const KEPT = [
  'id', 'org_id', 'batch_id', 'row_number', 'screening_id', 'entity_ids', 'record_hashes', 'reason_code', 'has_note', 'client_ref_hmac',
  'state', 'requested_by', 'requested_at', 'decided_by', 'decided_at', 'override_contradiction', 'match_flags',
].join(', ');

export function up(db: Database.Database): void {
  db.exec(`
    ALTER TABLE clearances RENAME TO clearances_v22;
    DROP INDEX clearances_batch_row;
    DROP INDEX clearances_org_state;
    CREATE TABLE clearances (
      id TEXT PRIMARY KEY,
      org_id INTEGER NOT NULL REFERENCES organizations(id),
      batch_id TEXT NOT NULL,
      row_number INTEGER NOT NULL,
      screening_id TEXT NOT NULL,
      entity_ids TEXT NOT NULL,
      record_hashes TEXT NOT NULL,
      reason_code TEXT NOT NULL CHECK (reason_code IN (${list(REASONS)})),
      has_note INTEGER NOT NULL CHECK (has_note IN (0,1)),
      client_ref_hmac TEXT CHECK (client_ref_hmac IS NULL OR length(client_ref_hmac) = 64),
      state TEXT NOT NULL CHECK (state IN ('pending','approved','withdrawn','sent_back')),
      requested_by INTEGER NOT NULL REFERENCES users(id),
      requested_at TEXT NOT NULL,
      decided_by INTEGER REFERENCES users(id),
      decided_at TEXT,
      override_contradiction TEXT
        CHECK (override_contradiction IS NULL OR override_contradiction IN (${list(CONTRADICTIONS)})),
      -- Per cleared match, in entity_ids' order: [kind of list, score, dob, country, exact name] (flags, no subject data).
      match_flags TEXT CHECK (match_flags IS NULL OR length(match_flags) <= 1000)
    ) STRICT;
    INSERT INTO clearances (${KEPT}) SELECT ${KEPT} FROM clearances_v22;
    DROP TABLE clearances_v22;
    CREATE INDEX clearances_batch_row ON clearances(org_id, batch_id, row_number);
    CREATE INDEX clearances_org_state ON clearances(org_id, state, requested_at);
  `);
}
