// Team management (issue 13): invitations by e-mail with a one-time token (only its SHA-256 is
// kept), members who join and leave, and the audit log's team actions. A removed member's user
// row stays (marked `removed_at`) so the audit log, which keeps user ids only, can still name who
// did what; the row can no longer sign in and holds no session.
import type Database from 'better-sqlite3';

export const version = 8;
export const name = 'team';

// The audit actions allowed as of this version (a migration never changes with later code).
const ACTIONS = [
  'screened', 'batch.created', 'batch.cancelled', 'batch.finished',
  'disposition.set', 'disposition.removed', 'clearance.requested', 'clearance.approved', 'clearance.withdrawn',
  'list.imported', 'list.removed', 'key.created', 'key.revoked', 'plan.changed', 'settings.changed', 'member.added',
  'member.invited', 'invite.cancelled', 'invite.accepted', 'member.role_changed', 'member.removed',
];
const DISPOSITIONS = ['cleared_false_positive', 'escalated', 'needs_info'];
const REASONS = ['different_dob', 'different_nationality', 'different_person_other_identifiers', 'name_only_common_name', 'list_record_outdated', 'other'];
const list = (xs: string[]) => xs.map((x) => `'${x}'`).join(',');

export function up(db: Database.Database): void {
  db.exec(`
    ALTER TABLE users ADD COLUMN joined_at TEXT;
    UPDATE users SET joined_at = created_at;
    ALTER TABLE users ADD COLUMN removed_at TEXT;

    -- Pending = accepted_at, cancelled_at NULL and expires_at in the future (7 days from creation).
    CREATE TABLE team_invitations (
      id INTEGER PRIMARY KEY,
      org_id INTEGER NOT NULL REFERENCES organizations(id),
      email TEXT NOT NULL CHECK (length(email) <= 254),
      role TEXT NOT NULL CHECK (role IN ('admin','member')),
      token_hash TEXT NOT NULL UNIQUE CHECK (length(token_hash) = 64),
      invited_by INTEGER NOT NULL REFERENCES users(id),
      created_at TEXT NOT NULL,
      expires_at TEXT NOT NULL,
      accepted_at TEXT,
      accepted_by INTEGER REFERENCES users(id),
      cancelled_at TEXT,
      cancelled_by INTEGER REFERENCES users(id)
    ) STRICT;
    CREATE INDEX team_invitations_org_email ON team_invitations(org_id, email);

    -- The audit log gains the team actions and an invitation id. SQLite cannot change a CHECK in
    -- place: the table is rebuilt with every row as it was (the hash chain covers values, not the
    -- table), and its indexes and append-only triggers are made again.
    DROP TRIGGER audit_log_no_update;
    DROP TRIGGER audit_log_no_delete;
    ALTER TABLE audit_log RENAME TO audit_log_v3;
    CREATE TABLE audit_log (
      seq INTEGER PRIMARY KEY,
      at TEXT NOT NULL,
      org_id INTEGER NOT NULL,
      actor_kind TEXT NOT NULL CHECK (actor_kind IN ('user','cli')),
      actor_id TEXT,
      actor_role TEXT CHECK (actor_role IS NULL OR actor_role IN ('owner','admin','member')),
      action TEXT NOT NULL CHECK (action IN (${list(ACTIONS)})),
      env TEXT CHECK (env IS NULL OR env IN ('test','live')),
      screening_id TEXT CHECK (screening_id IS NULL OR length(screening_id) <= 64),
      batch_id TEXT CHECK (batch_id IS NULL OR length(batch_id) <= 64),
      row_number INTEGER,
      entity_ids TEXT,
      record_hashes TEXT,
      disposition TEXT CHECK (disposition IS NULL OR disposition IN (${list(DISPOSITIONS)})),
      reason_code TEXT CHECK (reason_code IS NULL OR reason_code IN (${list(REASONS)})),
      has_note INTEGER CHECK (has_note IS NULL OR has_note IN (0,1)),
      clearance_id TEXT CHECK (clearance_id IS NULL OR length(clearance_id) <= 64),
      approver_user_id INTEGER,
      key_id TEXT CHECK (key_id IS NULL OR length(key_id) <= 64),
      list_id TEXT CHECK (list_id IS NULL OR length(list_id) <= 128),
      setting TEXT CHECK (setting IS NULL OR setting IN ('four_eyes')),
      from_value TEXT CHECK (from_value IS NULL OR length(from_value) <= 32),
      to_value TEXT CHECK (to_value IS NULL OR length(to_value) <= 32),
      count_total INTEGER,
      count_done INTEGER,
      count_failed INTEGER,
      risk_score INTEGER,
      target_user_id INTEGER,
      client_ref_hmac TEXT CHECK (client_ref_hmac IS NULL OR length(client_ref_hmac) = 64),
      prev_hash TEXT NOT NULL,
      hash TEXT NOT NULL,
      invitation_id INTEGER
    ) STRICT;
    INSERT INTO audit_log (
      seq, at, org_id, actor_kind, actor_id, actor_role, action, env, screening_id, batch_id, row_number, entity_ids,
      record_hashes, disposition, reason_code, has_note, clearance_id, approver_user_id, key_id, list_id, setting,
      from_value, to_value, count_total, count_done, count_failed, risk_score, target_user_id, client_ref_hmac, prev_hash, hash
    ) SELECT
      seq, at, org_id, actor_kind, actor_id, actor_role, action, env, screening_id, batch_id, row_number, entity_ids,
      record_hashes, disposition, reason_code, has_note, clearance_id, approver_user_id, key_id, list_id, setting,
      from_value, to_value, count_total, count_done, count_failed, risk_score, target_user_id, client_ref_hmac, prev_hash, hash
    FROM audit_log_v3;
    DROP TABLE audit_log_v3;
    CREATE INDEX audit_log_org_action ON audit_log(org_id, action, seq);
    CREATE INDEX audit_log_org_actor ON audit_log(org_id, actor_id, seq);
    CREATE INDEX audit_log_org_at ON audit_log(org_id, at);
    CREATE INDEX audit_log_org_client_ref ON audit_log(org_id, client_ref_hmac);
    CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
      BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
    CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
      BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
  `);
}
