// The team server (issue 39). Its setting (whether it was left running, on which address and
// port) as the on-site server's (0016), so a restart brings it back; settings only, no session and
// nothing of a subject. Each act of a person gains the address it came from (`source_address`:
// the staff member's computer; hashed in the chain when set). Webhook destinations: the hosts on private networks the owner allows as
// on-premises receivers (`organizations.webhook_private_hosts`, a JSON array; none by default), a
// setting audited like the others. The audit log gains the team server's start and stop, an owner
// ending another person's sessions (`session.revoked`) and that setting; SQLite cannot change a
// CHECK in place, so audit_log is
// rebuilt as 0024 did (same columns in the same order, every row as written, the same indexes
// and triggers).
import type Database from 'better-sqlite3';

export const version = 26;
export const name = 'team-server';

// The audit actions and settings allowed as of this version (a migration never changes with later code).
const ACTIONS = [
  'screened', 'batch.created', 'batch.cancelled', 'batch.finished', 'batch.expired',
  'disposition.set', 'disposition.removed', 'clearance.requested', 'clearance.approved', 'clearance.withdrawn',
  'list.imported', 'list.removed', 'key.created', 'key.revoked', 'plan.changed', 'settings.changed', 'member.added',
  'member.invited', 'invite.cancelled', 'invite.accepted', 'member.role_changed', 'member.removed',
  'member.billing_changed',
  'webhook.added', 'webhook.removed', 'webhook.secret_rotated',
  'age_gate.created', 'age_gate.changed',
  'hosted.created', 'hosted.revoked', 'flow.published', 'flow.changed', 'flow.disabled', 'flow.enabled',
  'onsite.started', 'onsite.stopped',
  'kyc_report.generated', 'export.created', 'export.downloaded', 'export.cancelled',
  'session.signed_in', 'session.signed_out', 'session.sign_in_failed',
  'clearance.sent_back',
  'team_server.started', 'team_server.stopped', 'session.revoked',
];
const SETTINGS = [
  'four_eyes', 'organization_name', 'logo', 'sanctions_stale_days', 'pep_stale_days', 'app_schemes', 'public_url', 'hosted_attempts', 'require_liveness_clip',
  'webhook_private_hosts',
];
const DISPOSITIONS = ['cleared_false_positive', 'escalated', 'needs_info'];
const REASONS = ['different_dob', 'different_nationality', 'different_person_other_identifiers', 'name_only_common_name', 'list_record_outdated', 'other'];
const list = (xs: string[]) => xs.map((x) => `'${x}'`).join(',');

/** audit_log's columns as of version 25 (0024's), in their order. */
const AUDIT_KEPT = [
  'seq', 'at', 'org_id', 'actor_kind', 'actor_id', 'actor_role', 'action', 'env', 'screening_id', 'batch_id', 'row_number',
  'entity_ids', 'record_hashes', 'disposition', 'reason_code', 'has_note', 'clearance_id', 'approver_user_id', 'key_id', 'list_id',
  'setting', 'from_value', 'to_value', 'count_total', 'count_done', 'count_failed', 'risk_score', 'target_user_id', 'client_ref_hmac',
  'prev_hash', 'hash', 'invitation_id', 'override_contradiction', 'object_id',
].join(', ');

export function up(db: Database.Database): void {
  db.exec(`
    CREATE TABLE team_server_setting (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      running INTEGER NOT NULL CHECK (running IN (0,1)),
      host TEXT NOT NULL CHECK (length(host) BETWEEN 1 AND 64),
      port INTEGER NOT NULL CHECK (port BETWEEN 0 AND 65535),
      updated_at TEXT NOT NULL
    ) STRICT;

    ALTER TABLE organizations ADD COLUMN webhook_private_hosts TEXT NOT NULL DEFAULT '[]'
      CHECK (json_valid(webhook_private_hosts) AND json_type(webhook_private_hosts) = 'array' AND length(webhook_private_hosts) <= 6000);

    DROP TRIGGER audit_log_no_update;
    DROP TRIGGER audit_log_no_delete;
    ALTER TABLE audit_log RENAME TO audit_log_v25;
    CREATE TABLE audit_log (
      seq INTEGER PRIMARY KEY,
      at TEXT NOT NULL,
      org_id INTEGER NOT NULL,
      actor_kind TEXT NOT NULL CHECK (actor_kind IN ('user','cli','system')),
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
      setting TEXT CHECK (setting IS NULL OR setting IN (${list(SETTINGS)})),
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
      invitation_id INTEGER,
      override_contradiction TEXT,
      object_id TEXT CHECK (object_id IS NULL OR length(object_id) <= 64),
      source_address TEXT CHECK (source_address IS NULL OR length(source_address) <= 64)
    ) STRICT;
    INSERT INTO audit_log (${AUDIT_KEPT}) SELECT ${AUDIT_KEPT} FROM audit_log_v25;
    DROP TABLE audit_log_v25;
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
