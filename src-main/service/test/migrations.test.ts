// Migrations: version bookkeeping, refusal of a newer database, STRICT tables, and the query
// plans of the hot lookups use the indexes made for them.
import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DB_FILE, openDatabase } from '../db/open';
import { DatabaseTooNewError, latestVersion } from '../db/migrate';

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
    for (const t of tables) expect(t.sql, t.name).toMatch(/\)\s*STRICT$/);
  });

  it.each([
    ['SELECT * FROM api_keys WHERE key_hash = ?', 'sqlite_autoindex_api_keys'],
    ['SELECT COUNT(*) FROM verifications WHERE api_key_id = ? AND product = ?', 'verifications_key_product'],
    ['SELECT * FROM verifications WHERE org_id = ? AND env = ? AND created_at >= ?', 'verifications_org_env_created'],
    ['SELECT COALESCE(SUM(amount),0) FROM credit_entries WHERE org_id = ?', 'credit_entries_org'],
    ['SELECT * FROM idempotency_keys WHERE api_key_id = ? AND idem_key = ?', 'sqlite_autoindex_idempotency_keys'],
    ['DELETE FROM idempotency_keys WHERE expires_at < ?', 'idempotency_expires'],
    ['SELECT * FROM sessions WHERE token_hash = ?', 'sqlite_autoindex_sessions'],
  ])('query plan of %s uses %s', (sql, index) => {
    const db = openDatabase(dir());
    const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...Array(sql.split('?').length - 1).fill('x')) as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' | ')).toContain(index);
  });
});
