// Clearing reasons checked against the evidence (issue 23): a clearance, and its audit rows, say
// which contradiction the analyst overrode with a note (a code, never the note or subject data).
// The audit column is chained only when set (see core/audit/chain.ts), so earlier rows keep their hashes.
import type Database from 'better-sqlite3';

export const version = 14;
export const name = 'clearance-override';

export function up(db: Database.Database): void {
  db.exec(`
    ALTER TABLE clearances ADD COLUMN override_contradiction TEXT
      CHECK (override_contradiction IS NULL OR override_contradiction IN ('dob_matches_exactly','country_matches','exact_name_and_dob'));
    ALTER TABLE audit_log ADD COLUMN override_contradiction TEXT;
  `);
}
