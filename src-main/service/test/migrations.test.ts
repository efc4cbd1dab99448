// Migrations: version bookkeeping, refusal of a newer database, STRICT tables, and the query
// plans of the hot lookups use the indexes made for them.
import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DB_FILE, openDatabase } from '../db/open';
import { DatabaseTooNewError, latestVersion } from '../db/migrate';
import { MIGRATIONS } from '../db/migrations';
import { knownValues } from '../db/migrations/0030-audit-values';
import { AUDIT_ACTIONS, AUDIT_SETTINGS } from '../../../src-shared/contracts/audit';
import { DISPOSITIONS, REASON_CODES } from '../../../src-shared/contracts/review';

/** An audit row with an action, setting, disposition or reason code audit_log does not know (0030's trigger). */
const UNKNOWN_VALUE = /does not know/;

function dir(): string {
  return mkdtempSync(join(tmpdir(), 'cc-mig-'));
}

describe('migrations', () => {
  it('bring a new database to the latest version in WAL mode, idempotently', () => {
    const d = dir();
    const db = openDatabase(d);
    expect(db.pragma('user_version', { simple: true })).toBe(latestVersion());
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
    const again = openDatabase(d);
    expect(again.pragma('user_version', { simple: true })).toBe(latestVersion());
    again.close();
  });

  it('refuse a database from a newer version', () => {
    const d = dir();
    openDatabase(d).close();
    const raw = new Database(join(d, DB_FILE));
    raw.pragma(`user_version = ${latestVersion() + 1}`);
    raw.close();
    expect(() => openDatabase(d)).toThrow(DatabaseTooNewError);
  });

  it('make every table STRICT', () => {
    const db = openDatabase(dir());
    const tables = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as { name: string; sql: string }[];
    expect(tables.length).toBeGreaterThan(5);
    for (const t of tables) expect(t.sql, t.name).toMatch(/\)\s*STRICT(, WITHOUT ROWID)?$/);
  });

  it.each([
    ['SELECT * FROM api_keys WHERE key_hash = ?', 'sqlite_autoindex_api_keys'],
    ['SELECT COUNT(*) FROM verifications WHERE api_key_id = ? AND product = ?', 'verifications_key_product'],
    ['SELECT * FROM verifications WHERE org_id = ? AND env = ? AND created_at >= ?', 'verifications_org_env_created'],
    ['SELECT COALESCE(SUM(amount),0) FROM credit_entries WHERE org_id = ?', 'credit_entries_org'],
    ['SELECT balance, last_entry_id FROM credit_balances WHERE org_id = ?', 'credit_balances USING INTEGER PRIMARY KEY'],
    ['SELECT SUM(amount) FROM credit_entries WHERE org_id = ? AND id > ?', 'credit_entries_org'],
    ['SELECT * FROM idempotency_keys WHERE api_key_id = ? AND idem_key = ?', 'sqlite_autoindex_idempotency_keys'],
    ['DELETE FROM idempotency_keys WHERE expires_at < ?', 'idempotency_expires'],
    ['SELECT * FROM sessions WHERE token_hash = ?', 'sqlite_autoindex_sessions'],
    ['SELECT * FROM audit_log WHERE org_id = ? AND action = ? ORDER BY seq DESC LIMIT 50', 'audit_log_org_action'],
    ["SELECT * FROM audit_log WHERE org_id = ? AND actor_id = ? AND actor_kind = 'user' ORDER BY seq DESC LIMIT 50", 'audit_log_org_actor'],
    ['SELECT * FROM audit_log WHERE org_id = ? AND at >= ? AND at < ? ORDER BY seq DESC LIMIT 50', 'audit_log_org_at'],
    ['SELECT * FROM audit_log WHERE org_id = ? AND client_ref_hmac = ? ORDER BY seq DESC LIMIT 50', 'audit_log_org_client_ref'],
    ["SELECT * FROM clearances WHERE org_id = ? AND batch_id = ? AND row_number = ? AND state = 'pending'", 'clearances_batch_row'],
    // The approval queue and the home screen's count (migration 0021).
    ["SELECT * FROM clearances WHERE org_id = ? AND state = 'pending' ORDER BY requested_at, id LIMIT 500", 'clearances_org_state'],
    ["SELECT count(*) AS n FROM clearances WHERE org_id = ? AND state = 'pending'", 'clearances_org_state'],
    ["SELECT COUNT(*) FROM hosted_sessions WHERE flow_id = ? AND state = 'completed'", 'hosted_sessions_flow_state'],
    ['SELECT * FROM published_flows WHERE org_id = ? AND env = ? ORDER BY created_at DESC LIMIT 200', 'published_flows_org_env_created'],
    ['SELECT * FROM published_flows WHERE slug = ?', 'sqlite_autoindex_published_flows'],
    ['SELECT * FROM team_invitations WHERE org_id = ? AND email = ? AND accepted_at IS NULL AND cancelled_at IS NULL AND expires_at > ?', 'team_invitations_org_email'],
    ['SELECT * FROM report_exports WHERE org_id = ? ORDER BY id DESC LIMIT 20 OFFSET 0', 'report_exports_org_id'],
    ["SELECT id FROM report_exports WHERE status = 'queued' ORDER BY id LIMIT 1", 'report_exports_status'],
    ['SELECT id FROM report_exports WHERE file_removed_at IS NULL AND expires_at IS NOT NULL AND expires_at <= ?', 'report_exports_expiry'],
    ['SELECT * FROM team_invitations WHERE token_hash = ?', 'sqlite_autoindex_team_invitations'],
    // A live store's selfie checks charged today, against its daily cap (migration 0015).
    ['SELECT COUNT(*) FROM age_gate_selfie_checks g JOIN verifications v ON v.id = g.verification_id WHERE g.store_id = ? AND g.created_at >= ? AND g.created_at < ? AND v.credits > 0', 'age_gate_selfie_checks_store_created'],
    // Reports read the daily rollups by organisation, environment and day (migration 0010).
    ['SELECT * FROM report_daily WHERE org_id = ? AND env = ? AND day >= ? AND day <= ?', 'report_daily USING PRIMARY KEY (org_id=? AND env=? AND day>? AND day<?)'],
    ['SELECT conf10, SUM(n) FROM report_confidence WHERE org_id = ? AND env = ? AND day >= ? AND day <= ? GROUP BY conf10', 'report_confidence USING PRIMARY KEY (org_id=? AND env=? AND day>? AND day<?)'],
  ])('query plan of %s uses %s', (sql, index) => {
    const db = openDatabase(dir());
    const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...Array(sql.split('?').length - 1).fill('x')) as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' | ')).toContain(index);
  });

  it('0003 brings an existing organisation in with four-eyes off and an empty audit log', () => {
    const d = dir();
    const raw = new Database(join(d, DB_FILE));
    for (const m of MIGRATIONS.slice(0, 2)) m.up(raw);
    raw.pragma('user_version = 2');
    raw.prepare("INSERT INTO organizations (name, plan, created_at) VALUES ('Old Org', 'pro', '2025-01-01T00:00:00.000Z')").run();
    raw.close();
    const db = openDatabase(d);
    expect(db.prepare('SELECT plan, four_eyes FROM organizations').get()).toEqual({ plan: 'pro', four_eyes: 0 });
    expect(db.prepare('SELECT COUNT(*) AS n FROM audit_log').get()).toEqual({ n: 0 });
    expect(() => db.prepare('UPDATE organizations SET four_eyes = 2').run()).toThrow(/CHECK/);
  });

  it('0008 keeps every audit row as written, its indexes and append-only triggers, and gives users a join time', () => {
    const d = dir();
    const raw = new Database(join(d, DB_FILE));
    for (const m of MIGRATIONS.slice(0, 7)) m.up(raw);
    raw.pragma('user_version = 7');
    raw.prepare("INSERT INTO organizations (name, plan, created_at) VALUES ('Old Org', 'pro', '2025-01-01T00:00:00.000Z')").run();
    raw.prepare("INSERT INTO users (org_id, email, name, password_hash, role, created_at) VALUES (1, 'o@example.test', 'O', 'x', 'owner', '2025-01-01T00:00:00.000Z')").run();
    raw.prepare(`INSERT INTO audit_log (seq, at, org_id, actor_kind, action, key_id, prev_hash, hash)
      VALUES (1, '2025-01-02T00:00:00.000Z', 1, 'cli', 'key.created', 'key_1', '${'0'.repeat(64)}', '${'a'.repeat(64)}')`).run();
    const before = raw.prepare('SELECT * FROM audit_log').all();
    raw.close();
    const db = openDatabase(d);
    const after = db.prepare('SELECT * FROM audit_log').all() as Record<string, unknown>[];
    expect(after).toEqual((before as Record<string, unknown>[]).map((r) => ({ ...r, invitation_id: null, override_contradiction: null, object_id: null, source_address: null })));
    expect(() => db.prepare('UPDATE audit_log SET key_id = NULL').run()).toThrow(/append-only/);
    expect(() => db.prepare('DELETE FROM audit_log').run()).toThrow(/append-only/);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'audit_log' ORDER BY name").all().map((r) => (r as { name: string }).name))
      .toEqual(['audit_log_org_action', 'audit_log_org_actor', 'audit_log_org_at', 'audit_log_org_client_ref']);
    expect(db.prepare('SELECT joined_at, removed_at FROM users').get()).toEqual({ joined_at: '2025-01-01T00:00:00.000Z', removed_at: null });
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'audit_log_v3'").get()).toBeUndefined();
  });

  it('0009 backfills the checkpointed balance of every organisation and keeps the audit log as written', () => {
    const d = dir();
    const raw = new Database(join(d, DB_FILE));
    for (const m of MIGRATIONS.slice(0, 8)) m.up(raw);
    raw.pragma('user_version = 8');
    const org = raw.prepare("INSERT INTO organizations (name, plan, created_at) VALUES (?, 'pro', '2025-01-01T00:00:00.000Z')");
    org.run('A');
    org.run('B');
    org.run('C');
    const entry = raw.prepare("INSERT INTO credit_entries (org_id, amount, kind, created_at) VALUES (?, ?, ?, '2025-01-01T00:00:00.000Z')");
    for (const [o, a] of [[1, 500], [2, 40], [1, -30], [1, -1], [2, -10], [1, 5]] as const) entry.run(o, a, a > 0 ? 'grant' : 'adjustment');
    raw.prepare(`INSERT INTO audit_log (seq, at, org_id, actor_kind, action, key_id, prev_hash, hash, invitation_id)
      VALUES (1, '2025-01-02T00:00:00.000Z', 1, 'cli', 'member.invited', NULL, '${'0'.repeat(64)}', '${'a'.repeat(64)}', 7)`).run();
    const before = raw.prepare('SELECT * FROM audit_log').all();
    raw.close();
    const db = openDatabase(d);
    expect(db.prepare('SELECT * FROM credit_balances ORDER BY org_id').all()).toEqual([
      { org_id: 1, balance: 474, last_entry_id: 6 },
      { org_id: 2, balance: 30, last_entry_id: 5 },
    ]);
    db.prepare("INSERT INTO credit_entries (org_id, amount, kind, created_at) VALUES (3, 9, 'grant', 'x')").run();
    db.prepare("INSERT INTO credit_entries (org_id, amount, kind, created_at) VALUES (1, -4, 'adjustment', 'x')").run();
    expect(db.prepare('SELECT * FROM credit_balances ORDER BY org_id').all()).toEqual([
      { org_id: 1, balance: 470, last_entry_id: 8 },
      { org_id: 2, balance: 30, last_entry_id: 5 },
      { org_id: 3, balance: 9, last_entry_id: 7 },
    ]);
    // Migration 14 adds override_contradiction and 18 object_id (null on every earlier row).
    expect(db.prepare('SELECT * FROM audit_log').all()).toEqual((before as Record<string, unknown>[]).map((r) => ({ ...r, override_contradiction: null, object_id: null, source_address: null })));
    expect(() => db.prepare('DELETE FROM audit_log').run()).toThrow(/append-only/);
    expect(db.prepare('SELECT logo_png, logo_updated_at FROM organizations WHERE id = 1').get()).toEqual({ logo_png: null, logo_updated_at: null });
  });

  it('0010 (reports) sums the ledger rows already there into the daily rollups and the confidence histogram', () => {
    const d = dir();
    const raw = new Database(join(d, DB_FILE));
    const before = MIGRATIONS.findIndex((m) => m.name === 'reports');
    for (const m of MIGRATIONS.slice(0, before)) m.up(raw);
    raw.pragma(`user_version = ${before}`);
    raw.prepare("INSERT INTO organizations (name, plan, created_at) VALUES ('Old Org', 'pro', '2025-01-01T00:00:00.000Z')").run();
    const ins = raw.prepare(`INSERT INTO verifications (id, org_id, product, env, status, confidence, credits, error_code, latency_ms, created_at)
      VALUES (?, 1, ?, 'live', ?, ?, ?, ?, 100, ?)`);
    ins.run('a', 'human', 'PASS', 90, 1, null, '2025-06-01T10:00:00.000Z');
    ins.run('b', 'human', 'PASS', 60.04, 1, null, '2025-06-01T11:00:00.000Z');
    ins.run('c', 'identity', 'FAIL', null, 30, 'document_unreadable', '2025-06-01T12:00:00.000Z');
    raw.close();
    const db = openDatabase(d);
    expect(db.prepare('SELECT day, product, status, error_code, screened, hits, n, conf_n, conf_sum, lat_sum, credits, c_lt50, c_50_69, c_70_84, c_85_up FROM report_daily ORDER BY product').all()).toEqual([
      { day: '2025-06-01', product: 'human', status: 'PASS', error_code: '', screened: 0, hits: '', n: 2, conf_n: 2, conf_sum: 150.04, lat_sum: 200, credits: 2, c_lt50: 0, c_50_69: 1, c_70_84: 0, c_85_up: 1 },
      { day: '2025-06-01', product: 'identity', status: 'FAIL', error_code: 'document_unreadable', screened: 0, hits: '', n: 1, conf_n: 0, conf_sum: 0, lat_sum: 100, credits: 30, c_lt50: 0, c_50_69: 0, c_70_84: 0, c_85_up: 0 },
    ]);
    expect(db.prepare('SELECT conf10, n FROM report_confidence ORDER BY conf10').all()).toEqual([{ conf10: 600, n: 1 }, { conf10: 900, n: 1 }]);
    expect(db.prepare('SELECT hit_categories FROM verifications WHERE id = ?').get('a')).toEqual({ hit_categories: null });
  });

  it('0025 (reports without demo) rebuilds the rollups from the ledger without demo-key rows, and its triggers skip them from then on', () => {
    const d = dir();
    const raw = new Database(join(d, DB_FILE));
    const before = MIGRATIONS.findIndex((m) => m.name === 'reports-without-demo');
    for (const m of MIGRATIONS.slice(0, before)) m.up(raw);
    raw.pragma(`user_version = ${before}`);
    raw.prepare("INSERT INTO organizations (name, plan, created_at) VALUES ('Old Org', 'pro', '2025-01-01T00:00:00.000Z')").run();
    const key = raw.prepare(`INSERT INTO api_keys (id, org_id, name, key_hash, secret_hash, prefix, env, scopes, demo, created_at)
      VALUES (?, 1, ?, ?, ?, 'svk-', 'test', 'human', ?, '2025-01-01T00:00:00.000Z')`);
    key.run('key_real', 'Real', 'h1', 's1', 0);
    key.run('key_demo', 'Demo', 'h2', 's2', 1);
    const ins = raw.prepare(`INSERT INTO verifications (id, org_id, api_key_id, product, env, status, confidence, credits, error_code, latency_ms, created_at, hit_categories)
      VALUES (?, 1, ?, ?, 'test', ?, ?, 0, NULL, 100, ?, ?)`);
    ins.run('a', 'key_real', 'human', 'PASS', 90, '2025-06-01T10:00:00.000Z', null);
    ins.run('b', 'key_demo', 'human', 'PASS', 99, '2025-06-01T11:00:00.000Z', null);
    ins.run('c', null, 'screen', 'completed', null, '2025-06-01T12:00:00.000Z', 'sanctions');
    raw.close();
    const db = openDatabase(d);
    const daily = () => db.prepare('SELECT product, api_key_id, screened, hits, n FROM report_daily ORDER BY product, api_key_id').all();
    expect(daily()).toEqual([
      { product: 'human', api_key_id: 'key_real', screened: 0, hits: '', n: 1 },
      { product: 'screen', api_key_id: '', screened: 1, hits: 'sanctions', n: 1 },
    ]);
    expect(db.prepare('SELECT conf10, n FROM report_confidence').all()).toEqual([{ conf10: 900, n: 1 }]);
    // Later rows: a demo key's are kept in the ledger and left out of the rollups, whatever happens to them.
    const later = db.prepare(`INSERT INTO verifications (id, org_id, api_key_id, product, env, status, confidence, credits, error_code, latency_ms, created_at)
      VALUES (?, 1, ?, 'human', 'test', 'PASS', 80, 0, NULL, 100, '2025-06-02T10:00:00.000Z')`);
    later.run('d', 'key_demo');
    later.run('e', 'key_real');
    expect(db.prepare("SELECT sum(n) AS n FROM report_daily WHERE product = 'human'").get()).toEqual({ n: 2 });
    db.prepare("UPDATE verifications SET status = 'FAIL' WHERE id IN ('b', 'd')").run();
    db.prepare("DELETE FROM verifications WHERE id = 'b'").run();
    expect(db.prepare("SELECT count(*) AS n FROM verifications WHERE api_key_id = 'key_demo'").get()).toEqual({ n: 1 });
    expect(db.prepare("SELECT sum(n) AS n FROM report_daily WHERE product = 'human'").get()).toEqual({ n: 2 });
    expect(db.prepare("SELECT count(*) AS n FROM report_daily WHERE api_key_id = 'key_demo' AND n != 0").get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT sum(n) AS n FROM report_confidence').get()).toEqual({ n: 2 });
  });

  it('0012 (hosted attempts) gives open sessions no missed recordings and no billing row; the count cannot go negative, the row must exist', () => {
    const d = dir();
    const raw = new Database(join(d, DB_FILE));
    const before = MIGRATIONS.findIndex((m) => m.name === 'hosted-attempts');
    expect(before).toBe(11);
    for (const m of MIGRATIONS.slice(0, before)) m.up(raw);
    raw.pragma(`user_version = ${before}`);
    raw.prepare("INSERT INTO organizations (name, plan, created_at) VALUES ('Old Org', 'pro', '2025-01-01T00:00:00.000Z')").run();
    raw.prepare(`INSERT INTO hosted_sessions (id, token_hash, org_id, env, product, state, created_at, expires_at)
      VALUES ('hs_old', 'h', 1, 'live', 'human', 'opened', '2025-01-01T00:00:00.000Z', '2025-01-02T00:00:00.000Z')`).run();
    const old = raw.prepare('SELECT * FROM hosted_sessions').get() as Record<string, unknown>;
    raw.close();
    const db = openDatabase(d);
    expect(db.prepare('SELECT * FROM hosted_sessions').get()).toEqual({ ...old, challenge_misses: 0, billed_verification_id: null });
    expect(() => db.prepare('UPDATE hosted_sessions SET challenge_misses = -1').run()).toThrow(/CHECK/);
    expect(() => db.prepare("UPDATE hosted_sessions SET billed_verification_id = 'ver_nowhere'").run()).toThrow(/FOREIGN KEY/);
    db.prepare(`INSERT INTO verifications (id, org_id, product, env, status, credits, created_at) VALUES ('ver_1', 1, 'human', 'live', 'FAIL', 1, '2025-01-01T00:00:00.000Z')`).run();
    db.prepare("UPDATE hosted_sessions SET challenge_misses = challenge_misses + 2, billed_verification_id = 'ver_1'").run();
    expect(db.prepare('SELECT challenge_misses, billed_verification_id FROM hosted_sessions').get()).toEqual({ challenge_misses: 2, billed_verification_id: 'ver_1' });
  });

  it('0017 (export storage failure) keeps every export and its file, allows insufficient_storage, keeps the cascade', () => {
    const d = dir();
    const raw = new Database(join(d, DB_FILE));
    const before = MIGRATIONS.findIndex((m) => m.name === 'export-storage-failure');
    expect(before).toBe(16);
    for (const m of MIGRATIONS.slice(0, before)) m.up(raw);
    raw.pragma(`user_version = ${before}`);
    raw.prepare("INSERT INTO organizations (name, plan, created_at) VALUES ('Old Org', 'pro', '2025-01-01T00:00:00.000Z')").run();
    raw.prepare("INSERT INTO users (org_id, email, name, password_hash, role, created_at) VALUES (1, 'o@example.test', 'O', 'x', 'owner', '2025-01-01T00:00:00.000Z')").run();
    const ins = raw.prepare(`INSERT INTO report_exports (org_id, created_by, report_type, format, env, from_date, to_date, plan, with_credits, status, error_code, created_at)
      VALUES (1, 1, 'overview', 'pdf', 'live', '2025-01-01', '2025-01-31', 'pro', 1, ?, ?, '2025-02-01T00:00:00.000Z')`);
    ins.run('succeeded', null);
    ins.run('failed', 'timeout');
    raw.prepare('INSERT INTO report_export_files (export_id, content) VALUES (1, ?)').run(Buffer.from('%PDF-1.7'));
    const rows = raw.prepare('SELECT * FROM report_exports ORDER BY id').all();
    raw.close();
    const db = openDatabase(d);
    // Every row as it was (and, from 0027, without a lease).
    expect(db.prepare('SELECT * FROM report_exports ORDER BY id').all()).toEqual(rows.map((r) => ({ ...(r as object), lease_until: null })));
    expect(db.prepare('SELECT export_id, content FROM report_export_files').all()).toEqual([{ export_id: 1, content: Buffer.from('%PDF-1.7') }]);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    db.prepare("UPDATE report_exports SET error_code = 'insufficient_storage' WHERE id = 2").run();
    expect(() => db.prepare("UPDATE report_exports SET error_code = 'disk_gone' WHERE id = 2").run()).toThrow(/CHECK/);
    db.prepare('DELETE FROM report_exports WHERE id = 1').run();
    expect(db.prepare('SELECT COUNT(*) AS n FROM report_export_files').get()).toEqual({ n: 0 });
  });

  it('0019 (batch expiry) keeps every audit row as written, its indexes and triggers, and allows batch.expired by the system', () => {
    const d = dir();
    const raw = new Database(join(d, DB_FILE));
    const before = MIGRATIONS.findIndex((m) => m.name === 'batch-expiry');
    expect(before).toBe(18);
    for (const m of MIGRATIONS.slice(0, before)) m.up(raw);
    raw.pragma(`user_version = ${before}`);
    const insert = raw.prepare(`INSERT INTO audit_log (seq, at, org_id, actor_kind, actor_id, actor_role, action, batch_id, count_total, prev_hash, hash, invitation_id, override_contradiction)
      VALUES (?, '2025-01-02T00:00:00.000Z', 1, ?, ?, ?, ?, ?, ?, '${'0'.repeat(64)}', '${'a'.repeat(64)}', ?, ?)`);
    insert.run(1, 'user', '1', 'owner', 'batch.created', 'bat_1', 10, null, null);
    insert.run(2, 'cli', null, null, 'member.invited', null, null, 7, null);
    insert.run(3, 'user', '2', 'admin', 'clearance.requested', null, null, null, 'dob_matches_exactly');
    expect(() => insert.run(4, 'system', null, null, 'batch.expired', 'bat_1', 10, null, null)).toThrow(/CHECK/);
    const rows = raw.prepare('SELECT * FROM audit_log ORDER BY seq').all();
    raw.close();
    const db = openDatabase(d);
    // Later migrations add a column (0020: object_id), never change what a row says.
    expect(db.prepare('SELECT * FROM audit_log ORDER BY seq').all()).toEqual(rows.map((r) => ({ ...(r as object), object_id: null, source_address: null })));
    db.prepare(`INSERT INTO audit_log (seq, at, org_id, actor_kind, action, batch_id, target_user_id, prev_hash, hash)
      VALUES (4, '2025-01-03T00:00:00.000Z', 1, 'system', 'batch.expired', 'bat_1', 1, 'x', 'y')`).run();
    expect(() => db.prepare(`INSERT INTO audit_log (seq, at, org_id, actor_kind, action, prev_hash, hash) VALUES (5, 'x', 1, 'robot', 'batch.expired', 'x', 'y')`).run()).toThrow(/CHECK/);
    expect(() => db.prepare(`INSERT INTO audit_log (seq, at, org_id, actor_kind, action, prev_hash, hash) VALUES (5, 'x', 1, 'system', 'batch.vanished', 'x', 'y')`).run()).toThrow(UNKNOWN_VALUE);
    expect(() => db.prepare('UPDATE audit_log SET batch_id = NULL').run()).toThrow(/append-only/);
    expect(() => db.prepare('DELETE FROM audit_log').run()).toThrow(/append-only/);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'audit_log' ORDER BY name").all().map((r) => (r as { name: string }).name))
      .toEqual(['audit_log_org_action', 'audit_log_org_actor', 'audit_log_org_at', 'audit_log_org_client_ref']);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'audit_log_v18'").get()).toBeUndefined();
  });

  it('0021 (approval queue) keeps every clearance and audit row as written, allows sent_back and clearance.sent_back, keeps indexes and triggers', () => {
    const d = dir();
    const raw = new Database(join(d, DB_FILE));
    const before = MIGRATIONS.findIndex((m) => m.name === 'approval-queue');
    expect(before).toBe(20);
    for (const m of MIGRATIONS.slice(0, before)) m.up(raw);
    raw.pragma(`user_version = ${before}`);
    raw.prepare("INSERT INTO organizations (id, name, plan, created_at) VALUES (1, 'Org', 'pro', '2025-01-01T00:00:00.000Z')").run();
    raw.prepare("INSERT INTO users (id, org_id, email, name, password_hash, role, created_at) VALUES (1, 1, 'a@example.test', 'A', 'x', 'member', '2025-01-01T00:00:00.000Z')").run();
    const clearance = raw.prepare(`INSERT INTO clearances (id, org_id, batch_id, row_number, screening_id, entity_ids, record_hashes, reason_code, has_note, state, requested_by, requested_at, override_contradiction)
      VALUES (?, 1, 'bat_1', ?, 'scr_1', '["e1"]', '["h1"]', 'different_dob', 1, ?, 1, '2025-01-02T00:00:00.000Z', ?)`);
    clearance.run('clr_1', 2, 'pending', null);
    clearance.run('clr_2', 3, 'approved', 'dob_matches_exactly');
    expect(() => clearance.run('clr_3', 4, 'sent_back', null)).toThrow(/CHECK/);
    const audit = raw.prepare(`INSERT INTO audit_log (seq, at, org_id, actor_kind, actor_id, actor_role, action, clearance_id, object_id, prev_hash, hash)
      VALUES (?, '2025-01-02T00:00:00.000Z', 1, 'user', '1', 'admin', ?, ?, ?, '${'0'.repeat(64)}', '${'a'.repeat(64)}')`);
    audit.run(1, 'clearance.requested', 'clr_1', null);
    audit.run(2, 'export.created', null, 'exp_1');
    expect(() => audit.run(3, 'clearance.sent_back', 'clr_1', null)).toThrow(/CHECK/);
    const clearances = raw.prepare('SELECT * FROM clearances ORDER BY id').all();
    const rows = raw.prepare('SELECT * FROM audit_log ORDER BY seq').all();
    raw.close();
    const db = openDatabase(d);
    expect(db.prepare('SELECT * FROM clearances ORDER BY id').all()).toEqual(clearances.map((r) => ({ ...(r as object), match_flags: null })));
    expect(db.prepare('SELECT * FROM audit_log ORDER BY seq').all()).toEqual(rows.map((r) => ({ ...(r as object), source_address: null })));
    db.prepare("UPDATE clearances SET state = 'sent_back' WHERE id = 'clr_1'").run();
    expect(() => db.prepare("UPDATE clearances SET state = 'rejected' WHERE id = 'clr_1'").run()).toThrow(/CHECK/);
    db.prepare(`INSERT INTO audit_log (seq, at, org_id, actor_kind, actor_id, actor_role, action, clearance_id, target_user_id, prev_hash, hash)
      VALUES (3, '2025-01-03T00:00:00.000Z', 1, 'user', '1', 'admin', 'clearance.sent_back', 'clr_1', 1, 'x', 'y')`).run();
    expect(() => db.prepare('UPDATE audit_log SET clearance_id = NULL').run()).toThrow(/append-only/);
    expect(() => db.prepare('DELETE FROM audit_log').run()).toThrow(/append-only/);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('audit_log', 'clearances') ORDER BY name").all().map((r) => (r as { name: string }).name))
      .toEqual(['audit_log_org_action', 'audit_log_org_actor', 'audit_log_org_at', 'audit_log_org_client_ref', 'clearances_batch_row', 'clearances_org_state', 'sqlite_autoindex_clearances_1']);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name IN ('audit_log_v20', 'clearances_v20')").all()).toEqual([]);
  });
  it('0026 (team server) keeps every audit row as written, allows the team server\'s start and stop and session.revoked, keeps indexes and triggers', () => {
    const d = dir();
    const raw = new Database(join(d, DB_FILE));
    const before = MIGRATIONS.findIndex((m) => m.name === 'team-server');
    expect(before).toBe(25);
    for (const m of MIGRATIONS.slice(0, before)) m.up(raw);
    raw.pragma(`user_version = ${before}`);
    raw.prepare("INSERT INTO organizations (id, name, plan, created_at) VALUES (1, 'Org', 'pro', '2025-01-01T00:00:00.000Z')").run();
    const audit = raw.prepare(`INSERT INTO audit_log (seq, at, org_id, actor_kind, actor_id, actor_role, action, to_value, prev_hash, hash)
      VALUES (?, '2025-01-02T00:00:00.000Z', 1, 'user', '1', 'owner', ?, ?, '${'0'.repeat(64)}', '${'a'.repeat(64)}')`);
    audit.run(1, 'onsite.started', '192.168.1.20:8443');
    audit.run(2, 'session.signed_in', 'password');
    expect(() => audit.run(3, 'team_server.started', '192.168.1.20:8443')).toThrow(/CHECK/);
    const rows = raw.prepare('SELECT * FROM audit_log ORDER BY seq').all();
    raw.close();
    const db = openDatabase(d);
    expect(db.prepare('SELECT * FROM audit_log ORDER BY seq').all()).toEqual(rows.map((r) => ({ ...(r as object), source_address: null })));
    const next = db.prepare(`INSERT INTO audit_log (seq, at, org_id, actor_kind, action, to_value, prev_hash, hash) VALUES (?, '2025-01-03T00:00:00.000Z', 1, 'system', ?, ?, 'x', 'y')`);
    next.run(3, 'team_server.started', '192.168.1.20:8443');
    next.run(4, 'team_server.stopped', null);
    next.run(5, 'session.revoked', null);
    expect(() => next.run(6, 'team_server.exploded', null)).toThrow(UNKNOWN_VALUE);
    expect(() => db.prepare('UPDATE audit_log SET to_value = NULL').run()).toThrow(/append-only/);
    expect(() => db.prepare('DELETE FROM audit_log').run()).toThrow(/append-only/);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'audit_log' ORDER BY name").all().map((r) => (r as { name: string }).name))
      .toEqual(['audit_log_org_action', 'audit_log_org_actor', 'audit_log_org_at', 'audit_log_org_client_ref']);
    db.prepare("INSERT INTO team_server_setting (id, running, host, port, updated_at) VALUES (1, 1, '10.0.0.5', 8443, 'x')").run();
    expect(() => db.prepare("INSERT INTO team_server_setting (id, running, host, port, updated_at) VALUES (2, 1, '10.0.0.5', 8443, 'x')").run()).toThrow(/CHECK/);
    db.close();
  });

  it('0030 (audit values) keeps every audit row as written, refuses the same unknown values by a trigger, and lets a later migration add one without a rebuild', () => {
    const d = dir();
    const raw = new Database(join(d, DB_FILE));
    const before = MIGRATIONS.findIndex((m) => m.name === 'audit-values');
    expect(before).toBe(29);
    for (const m of MIGRATIONS.slice(0, before)) m.up(raw);
    raw.pragma(`user_version = ${before}`);
    const audit = raw.prepare(`INSERT INTO audit_log (seq, at, org_id, actor_kind, actor_id, actor_role, action, setting, disposition, reason_code, to_value, source_address, prev_hash, hash)
      VALUES (?, '2025-01-02T00:00:00.000Z', 1, 'user', '1', 'owner', ?, ?, ?, ?, ?, '10.0.0.7', '${'0'.repeat(64)}', '${'a'.repeat(64)}')`);
    audit.run(1, 'settings.changed', 'webhook_private_hosts', null, null, '1');
    audit.run(2, 'disposition.set', null, 'cleared_false_positive', 'name_only_common_name', null);
    audit.run(3, 'session.revoked', null, null, null, null);
    const rows = raw.prepare('SELECT * FROM audit_log ORDER BY seq').all();
    raw.close();
    const db = openDatabase(d);
    expect(db.prepare('SELECT * FROM audit_log ORDER BY seq').all()).toEqual(rows);
    const next = db.prepare(`INSERT INTO audit_log (seq, at, org_id, actor_kind, action, setting, disposition, reason_code, prev_hash, hash)
      VALUES (?, '2025-01-03T00:00:00.000Z', 1, 'system', ?, ?, ?, ?, 'x', 'y')`);
    // Every value the code writes is accepted; an unknown one in any of the four columns is refused.
    let seq = 10;
    for (const action of AUDIT_ACTIONS) next.run(seq++, action, null, null, null);
    for (const setting of AUDIT_SETTINGS) next.run(seq++, 'settings.changed', setting, null, null);
    for (const disposition of DISPOSITIONS) next.run(seq++, 'disposition.set', null, disposition, null);
    for (const reason of REASON_CODES) next.run(seq++, 'clearance.requested', null, null, reason);
    expect(() => next.run(seq, 'batch.vanished', null, null, null)).toThrow(UNKNOWN_VALUE);
    expect(() => next.run(seq, 'settings.changed', 'favourite_colour', null, null)).toThrow(UNKNOWN_VALUE);
    expect(() => next.run(seq, 'disposition.set', null, 'shrugged', null)).toThrow(UNKNOWN_VALUE);
    expect(() => next.run(seq, 'clearance.requested', null, null, 'felt_like_it')).toThrow(UNKNOWN_VALUE);
    expect(() => db.prepare('UPDATE audit_log SET to_value = NULL').run()).toThrow(/append-only/);
    expect(() => db.prepare('DELETE FROM audit_log').run()).toThrow(/append-only/);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'audit_log' ORDER BY name").all().map((r) => (r as { name: string }).name))
      .toEqual(['audit_log_org_action', 'audit_log_org_actor', 'audit_log_org_at', 'audit_log_org_client_ref']);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'audit_log_v29'").get()).toBeUndefined();
    // A later migration adds an action by replacing the trigger: the table (its root page) and its rows stay where they are.
    const page = () => db.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'audit_log'").get();
    const at = page();
    const count = db.prepare('SELECT count(*) AS n FROM audit_log').get();
    db.exec(knownValues.sqlite({ actions: [...AUDIT_ACTIONS, 'batch.vanished'], settings: AUDIT_SETTINGS, dispositions: DISPOSITIONS, reasons: REASON_CODES }));
    next.run(seq, 'batch.vanished', null, null, null);
    expect(page()).toEqual(at);
    expect(db.prepare('SELECT count(*) AS n FROM audit_log').get()).toEqual({ n: (count as { n: number }).n + 1 });
    db.close();
  });

  it('0023 (name-only contradictions) keeps every clearance as written, allows the two new override codes, keeps the indexes', () => {
    const d = dir();
    const raw = new Database(join(d, DB_FILE));
    const before = MIGRATIONS.findIndex((m) => m.name === 'name-only-contradictions');
    expect(before).toBe(22);
    for (const m of MIGRATIONS.slice(0, before)) m.up(raw);
    raw.pragma(`user_version = ${before}`);
    raw.prepare("INSERT INTO organizations (id, name, plan, created_at) VALUES (1, 'Org', 'pro', '2025-01-01T00:00:00.000Z')").run();
    raw.prepare("INSERT INTO users (id, org_id, email, name, password_hash, role, created_at) VALUES (1, 1, 'a@example.test', 'A', 'x', 'member', '2025-01-01T00:00:00.000Z')").run();
    const clearance = raw.prepare(`INSERT INTO clearances (id, org_id, batch_id, row_number, screening_id, entity_ids, record_hashes, reason_code, has_note, state, requested_by, requested_at, override_contradiction, match_flags)
      VALUES (?, 1, 'bat_1', ?, 'scr_1', '["e1"]', '["h1"]', 'name_only_common_name', 1, 'pending', 1, '2025-01-02T00:00:00.000Z', ?, '[["sanctions",97,"exact","match",true]]')`);
    clearance.run('clr_1', 2, null);
    clearance.run('clr_2', 3, 'exact_name_and_dob');
    expect(() => clearance.run('clr_3', 4, 'name_only_dob_agrees')).toThrow(/CHECK/);
    const rows = raw.prepare('SELECT * FROM clearances ORDER BY id').all();
    raw.close();
    const db = openDatabase(d);
    expect(db.prepare('SELECT * FROM clearances ORDER BY id').all()).toEqual(rows);
    db.prepare("UPDATE clearances SET override_contradiction = 'name_only_dob_agrees' WHERE id = 'clr_1'").run();
    db.prepare("UPDATE clearances SET override_contradiction = 'name_only_country_matches' WHERE id = 'clr_1'").run();
    expect(() => db.prepare("UPDATE clearances SET override_contradiction = 'made_up' WHERE id = 'clr_1'").run()).toThrow(/CHECK/);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'clearances' ORDER BY name").all().map((r) => (r as { name: string }).name))
      .toEqual(['clearances_batch_row', 'clearances_org_state', 'sqlite_autoindex_clearances_1']);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'clearances_v22'").get()).toBeUndefined();
  });

  it('0031 (list blob parts) keeps every shared file\'s bytes, as its part 0', () => {
    const d = dir();
    const raw = new Database(join(d, DB_FILE));
    const before = MIGRATIONS.findIndex((m) => m.name === 'list-blob-parts');
    expect(before).toBe(30);
    for (const m of MIGRATIONS.slice(0, before)) m.up(raw);
    raw.pragma(`user_version = ${before}`);
    const bytes = Buffer.from('kind,name\npep,Person One\n');
    raw.prepare('INSERT INTO list_blobs (sha256, content) VALUES (?, ?)').run('a'.repeat(64), bytes);
    raw.close();
    const db = openDatabase(d);
    expect(db.prepare('SELECT sha256, part, content FROM list_blob_parts').all()).toEqual([{ sha256: 'a'.repeat(64), part: 0, content: bytes }]);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'list_blobs'").get()).toBeUndefined();
  });
});
