// Hosted liveness sessions (issue 22): the head-turn challenge's missed recordings are counted with
// the session, so a restart of the service gives no attempts back; and the session names the one
// ledger row that bills it, so its retries are recorded without a second charge (the claim is
// made in the same transaction as that row and its charge). A count and an id: never subject data.
import type Database from 'better-sqlite3';

export const version = 12;
export const name = 'hosted-attempts';

export function up(db: Database.Database): void {
  db.exec(`
    ALTER TABLE hosted_sessions ADD COLUMN challenge_misses INTEGER NOT NULL DEFAULT 0 CHECK (challenge_misses >= 0);
    ALTER TABLE hosted_sessions ADD COLUMN billed_verification_id TEXT REFERENCES verifications(id);
  `);
}
