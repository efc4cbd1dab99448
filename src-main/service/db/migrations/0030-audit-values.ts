// The audit log's last rebuild (issue 40, item 7). Its action, setting, disposition and reason
// were CHECKs listing every allowed value; SQLite cannot change a CHECK in place, so each new
// audit action or setting rebuilt audit_log (seven migrations copied every row of it). The
// lists are now one insert trigger (`audit_log_known_values`): a later migration that adds a
// value drops and creates that trigger (`knownValues`), on PostgreSQL replaces its function, and
// never touches a row. The table is rebuilt once more without the four lists: the same columns
// in the same order, every row as written, the same indexes and append-only triggers.
import type Database from 'better-sqlite3';
import { sql } from 'kysely';
import type { Q } from '../engine';

export const version = 30;
export const name = 'audit-values';

/** The values audit_log accepts in each of its listed columns. */
export interface AuditValues {
  actions: readonly string[];
  settings: readonly string[];
  dispositions: readonly string[];
  reasons: readonly string[];
}

// As of this version (a migration never changes with later code).
const VALUES: AuditValues = {
  actions: [
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
  ],
  settings: [
    'four_eyes', 'organization_name', 'logo', 'sanctions_stale_days', 'pep_stale_days', 'app_schemes', 'public_url', 'hosted_attempts', 'require_liveness_clip',
    'webhook_private_hosts',
  ],
  dispositions: ['cleared_false_positive', 'escalated', 'needs_info'],
  reasons: ['different_dob', 'different_nationality', 'different_person_other_identifiers', 'name_only_common_name', 'list_record_outdated', 'other'],
};

const list = (xs: readonly string[]) => `(${xs.map((x) => `'${x.replace(/'/g, "''")}'`).join(',')})`;
const MESSAGE = 'audit_log: an action, setting, disposition or reason code it does not know';

/** The condition under which a new audit row is refused, on NEW (the same SQL on both engines). */
const unknown = (v: AuditValues) => `NEW.action NOT IN ${list(v.actions)}
  OR (NEW.setting IS NOT NULL AND NEW.setting NOT IN ${list(v.settings)})
  OR (NEW.disposition IS NOT NULL AND NEW.disposition NOT IN ${list(v.dispositions)})
  OR (NEW.reason_code IS NOT NULL AND NEW.reason_code NOT IN ${list(v.reasons)})`;

/**
 * The insert trigger that holds audit_log to these values: what a later migration runs (with its
 * own lists) to add an action or a setting, instead of rebuilding the table.
 */
export const knownValues = {
  sqlite: (v: AuditValues) => `
    DROP TRIGGER IF EXISTS audit_log_known_values;
    CREATE TRIGGER audit_log_known_values BEFORE INSERT ON audit_log
      WHEN ${unknown(v)}
      BEGIN SELECT RAISE(ABORT, '${MESSAGE}'); END;`,
  postgres: (v: AuditValues) => `
    CREATE OR REPLACE FUNCTION audit_log_known_values() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF ${unknown(v)} THEN RAISE EXCEPTION '${MESSAGE}'; END IF;
      RETURN NEW;
    END $$;
    DROP TRIGGER IF EXISTS audit_log_known_values ON audit_log;
    CREATE TRIGGER audit_log_known_values BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_known_values();`,
};

/** audit_log's columns as of version 26 (0026's; 0027-0029 left it alone), in their order. */
const COLUMNS = [
  'seq', 'at', 'org_id', 'actor_kind', 'actor_id', 'actor_role', 'action', 'env', 'screening_id', 'batch_id', 'row_number',
  'entity_ids', 'record_hashes', 'disposition', 'reason_code', 'has_note', 'clearance_id', 'approver_user_id', 'key_id', 'list_id',
  'setting', 'from_value', 'to_value', 'count_total', 'count_done', 'count_failed', 'risk_score', 'target_user_id', 'client_ref_hmac',
  'prev_hash', 'hash', 'invitation_id', 'override_contradiction', 'object_id', 'source_address',
].join(', ');

export function up(db: Database.Database): void {
  db.exec(`
    DROP TRIGGER audit_log_no_update;
    DROP TRIGGER audit_log_no_delete;
    ALTER TABLE audit_log RENAME TO audit_log_v29;
    CREATE TABLE audit_log (
      seq INTEGER PRIMARY KEY,
      at TEXT NOT NULL,
      org_id INTEGER NOT NULL,
      actor_kind TEXT NOT NULL CHECK (actor_kind IN ('user','cli','system')),
      actor_id TEXT,
      actor_role TEXT CHECK (actor_role IS NULL OR actor_role IN ('owner','admin','member')),
      action TEXT NOT NULL CHECK (length(action) BETWEEN 1 AND 64),
      env TEXT CHECK (env IS NULL OR env IN ('test','live')),
      screening_id TEXT CHECK (screening_id IS NULL OR length(screening_id) <= 64),
      batch_id TEXT CHECK (batch_id IS NULL OR length(batch_id) <= 64),
      row_number INTEGER,
      entity_ids TEXT,
      record_hashes TEXT,
      disposition TEXT CHECK (disposition IS NULL OR length(disposition) <= 64),
      reason_code TEXT CHECK (reason_code IS NULL OR length(reason_code) <= 64),
      has_note INTEGER CHECK (has_note IS NULL OR has_note IN (0,1)),
      clearance_id TEXT CHECK (clearance_id IS NULL OR length(clearance_id) <= 64),
      approver_user_id INTEGER,
      key_id TEXT CHECK (key_id IS NULL OR length(key_id) <= 64),
      list_id TEXT CHECK (list_id IS NULL OR length(list_id) <= 128),
      setting TEXT CHECK (setting IS NULL OR length(setting) <= 64),
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
    INSERT INTO audit_log (${COLUMNS}) SELECT ${COLUMNS} FROM audit_log_v29;
    DROP TABLE audit_log_v29;
    CREATE INDEX audit_log_org_action ON audit_log(org_id, action, seq);
    CREATE INDEX audit_log_org_actor ON audit_log(org_id, actor_id, seq);
    CREATE INDEX audit_log_org_at ON audit_log(org_id, at);
    CREATE INDEX audit_log_org_client_ref ON audit_log(org_id, client_ref_hmac);
    CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
      BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
    CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
      BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
    ${knownValues.sqlite(VALUES)}
  `);
}

/** PostgreSQL changes a CHECK in place: the four lists' constraints are dropped, the same trigger added. */
export async function postgres(q: Q): Promise<void> {
  const checks = (await sql<{ name: string }>`
    SELECT c.conname AS name FROM pg_constraint c
    JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY(c.conkey)
    WHERE c.conrelid = 'audit_log'::regclass AND c.contype = 'c' AND a.attname IN ('action', 'setting', 'disposition', 'reason_code')`.execute(q)).rows;
  for (const { name } of checks) await sql`ALTER TABLE audit_log DROP CONSTRAINT ${sql.id(name)}`.execute(q);
  await sql.raw(`
    ALTER TABLE audit_log ADD CONSTRAINT audit_log_action_length CHECK (length(action) BETWEEN 1 AND 64);
    ALTER TABLE audit_log ADD CONSTRAINT audit_log_setting_length CHECK (setting IS NULL OR length(setting) <= 64);
    ALTER TABLE audit_log ADD CONSTRAINT audit_log_disposition_length CHECK (disposition IS NULL OR length(disposition) <= 64);
    ALTER TABLE audit_log ADD CONSTRAINT audit_log_reason_code_length CHECK (reason_code IS NULL OR length(reason_code) <= 64);
    ${knownValues.postgres(VALUES)}
  `).execute(q);
}
