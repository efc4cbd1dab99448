// The audit trail: what analysts and the CLI do is written as an append-only, hash-chained log
// (ids, codes, counts, hashes; a client reference only as an HMAC), listed with filters for owners
// and admins, and verified by the service and by `npm run cli -- audit verify`, which names the
// first row that was edited or removed in the database file.
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditPage, AuditVerification } from '../../../src-shared/contracts/audit';
import { CHAINED_COLUMNS } from '../core/audit/chain';
import { DB_FILE } from '../db/open';
import { cliSync } from './cli-command';
import { closeAll, testService, type TestService } from './harness';
import { disposition, NOBODY, PUTIN, runBatch } from './review-support';

function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = cliSync(args);
  return { status: r.status, stdout: r.stdout.trim(), stderr: r.stderr.trim() };
}

let t: TestService;
let cookie: string;
beforeAll(async () => {
  t = await testService({ plan: 'pro' });
  expect(await t.s.screening.ready(60_000)).not.toBeNull();
  cookie = await t.login();
}, 90_000);
afterAll(closeAll);

const page = async (query = '', c = cookie) => t.json<AuditPage>('GET', `/api/audit${query}`, { cookie: c });

describe('what is recorded', () => {
  it('console screening: who, environment, screening id, risk score and an HMAC of the client reference', async () => {
    const r = await t.json<{ id: string }>('POST', '/api/console/screen?env=test', { cookie, body: { client_reference_id: 'cust-00042', subject: PUTIN } });
    expect(r.status).toBe(200);
    const [row] = (await page('?action=screened')).body.entries;
    expect(row).toMatchObject({
      action: 'screened', actor: { kind: 'user', email: 'owner@example.test', role: 'owner' }, env: 'test', screening_id: r.body.id,
      risk_score: expect.any(Number), client_ref_hmac: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(JSON.stringify(row)).not.toContain('cust-00042');
    // The reference finds its rows through the same HMAC; another reference finds none.
    expect((await page('?client_reference=cust-00042')).body.entries.map((e) => e.seq)).toEqual([row!.seq]);
    expect((await page('?client_reference=cust-00043')).body.total).toBe(0);
  });

  it('a batch: created and finished with row counts; its dispositions, findable by the row\'s client reference', async () => {
    const b = await runBatch(t, cookie, [PUTIN, NOBODY], (i) => ({ client_reference_id: `cust-b-${i}` }));
    await t.json('POST', '/api/review/dispositions', { cookie, body: disposition(b.id, b.row(3), 'needs_info') });
    const entries = (await page()).body.entries.filter((e) => e.batch_id === b.id);
    expect(entries.map((e) => e.action)).toEqual(['disposition.set', 'batch.finished', 'batch.created']);
    const found = (await page('?client_reference=cust-b-1')).body.entries;
    expect(found.map((e) => [e.action, e.row_number])).toEqual([['disposition.set', 3]]);
    expect(JSON.stringify(found)).not.toContain('cust-b-1');
    expect(entries[2]).toMatchObject({ env: 'test', count_total: 2 });
    expect(entries[1]).toMatchObject({ count_total: 2, count_done: 2, count_failed: 0, to_value: 'finished' });
  });

  it('a cancelled batch', async () => {
    const created = await t.json<{ id: string }>('POST', '/api/console/batches', { cookie, body: { env: 'test', total_rows: 5 } });
    await t.json('POST', `/api/console/batches/${created.body.id}/cancel`, { cookie, body: {} });
    await t.json('POST', `/api/console/batches/${created.body.id}/finish`, { cookie, body: {} });
    const entries = (await page()).body.entries.filter((e) => e.batch_id === created.body.id);
    expect(entries.map((e) => [e.action, e.to_value])).toEqual([['batch.finished', 'cancelled'], ['batch.cancelled', null], ['batch.created', null]]);
  });

  it('keys created and revoked, the plan changed, a list imported and removed', async () => {
    const k = await t.json<{ key: { id: string } }>('POST', '/api/keys', { cookie, body: { name: 'k', env: 'live', scopes: ['human'] } });
    await t.json('POST', `/api/keys/${k.body.key.id}/revoke`, { cookie, body: {} });
    await t.json('POST', `/api/keys/${k.body.key.id}/revoke`, { cookie, body: {} });
    await t.json('PATCH', '/api/account/plan', { cookie, body: { plan: 'enterprise' } });
    const list = 'kind,name\npep,Example Person\n';
    await t.call('POST', '/api/screening/lists/user?name=Our%20PEPs', { cookie, rawBody: list, headers: { 'Content-Type': 'text/csv' } });
    await t.call('DELETE', '/api/screening/lists/user/our-peps', { cookie });
    const e = (await page('?per_page=6')).body.entries;
    expect(e.map((x) => x.action)).toEqual(['list.removed', 'list.imported', 'plan.changed', 'key.revoked', 'key.created', expect.any(String)]);
    expect(e[0]).toMatchObject({ list_id: 'user:our-peps' });
    expect(e[1]).toMatchObject({ list_id: 'user:our-peps', count_total: 1 });
    expect(e[2]).toMatchObject({ from_value: 'pro', to_value: 'enterprise' });
    expect(e[3]).toMatchObject({ key_id: k.body.key.id, env: 'live' });
    expect(e[4]).toMatchObject({ key_id: k.body.key.id, env: 'live' });
  });

  it('the database refuses to change or delete an audit row', () => {
    expect(() => t.s.db.prepare("UPDATE audit_log SET action = 'screened' WHERE seq = 1").run()).toThrow(/append-only/);
    expect(() => t.s.db.prepare('DELETE FROM audit_log WHERE seq = 1').run()).toThrow(/append-only/);
  });
});

describe('GET /api/audit', () => {
  it('filters by action, actor and time, newest first, in pages', async () => {
    const u = await testService({ plan: 'pro' });
    await u.s.accounts.addUser({ orgId: u.orgId, email: 'admin@example.test', name: 'Ad', password: 'admin password', role: 'admin' });
    const owner = await u.login();
    const admin = await u.login('admin@example.test', 'admin password');
    for (let i = 0; i < 3; i++) await u.json('POST', '/api/keys', { cookie: owner, body: { name: `o${i}`, env: 'test', scopes: ['human'] } });
    u.clock.advance(3600_000);
    const noon = new Date(u.clock.now()).toISOString();
    for (let i = 0; i < 2; i++) await u.json('POST', '/api/keys', { cookie: admin, body: { name: `a${i}`, env: 'test', scopes: ['human'] } });
    await u.json('PATCH', '/api/settings', { cookie: admin, body: { four_eyes: true } });

    // Both sign-ins are rows 1 and 2.
    const all = await u.json<AuditPage>('GET', '/api/audit?per_page=2', { cookie: admin });
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ total: 8, page: 1, pages: 4 });
    expect(all.body.entries.map((e) => e.seq)).toEqual([8, 7]);
    expect(all.body.actors.map((a) => a.email).sort()).toEqual(['admin@example.test', 'owner@example.test']);
    const p4 = await u.json<AuditPage>('GET', '/api/audit?per_page=2&page=4', { cookie: admin });
    expect(p4.body.entries.map((e) => [e.seq, e.action])).toEqual([[2, 'session.signed_in'], [1, 'session.signed_in']]);

    const adminId = all.body.actors.find((a) => a.email === 'admin@example.test')!.user_id;
    const byAdmin = await u.json<AuditPage>('GET', `/api/audit?actor=${adminId}&action=key.created`, { cookie: owner });
    expect(byAdmin.body.total).toBe(2);
    const since = await u.json<AuditPage>('GET', `/api/audit?from=${encodeURIComponent(noon)}`, { cookie: owner });
    expect(since.body.entries.map((e) => e.actor.email)).toEqual(['admin@example.test', 'admin@example.test', 'admin@example.test']);
    const before = await u.json<AuditPage>('GET', `/api/audit?to=${encodeURIComponent(noon)}`, { cookie: owner });
    expect(before.body.total).toBe(5);
    expect((await u.json<AuditPage>('GET', '/api/audit?actor=cli', { cookie: owner })).body.total).toBe(0);
  });

  it('400 naming the field for a bad filter', async () => {
    for (const [q, field] of [['per_page=501', 'per_page'], ['action=deleted', 'action'], ['from=yesterday', 'from'], ['actor=bob', 'actor']]) {
      const r = await t.json('GET', `/api/audit?${q}`, { cookie });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ field });
    }
  });
});

describe('chain verification', () => {
  async function tampered(edit: (raw: Database.Database) => void): Promise<{ http: AuditVerification; cli: ReturnType<typeof cli>; dataDir: string }> {
    const u = await testService({ plan: 'pro' });
    const c = await u.login();
    for (let i = 0; i < 5; i++) await u.json('POST', '/api/keys', { cookie: c, body: { name: `k${i}`, env: 'test', scopes: ['human'] } });
    // Row 1 is the sign-in; rows 2 to 6 the keys.
    const before = await u.json<AuditVerification>('GET', '/api/audit/verify', { cookie: c });
    expect(before.body).toEqual({ ok: true, rows: 6, head_seq: 6, head_hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    // Someone with the file edits it behind the service's back: the triggers are dropped first.
    const raw = new Database(join(u.dataDir, DB_FILE));
    raw.exec('DROP TRIGGER audit_log_no_update; DROP TRIGGER audit_log_no_delete;');
    edit(raw);
    raw.close();
    return { http: (await u.json<AuditVerification>('GET', '/api/audit/verify', { cookie: c })).body, cli: cli('audit', 'verify', '--data-dir', u.dataDir), dataDir: u.dataDir };
  }

  it('an intact log: the CLI exits 0 with a one-line summary', async () => {
    const u = await testService({ plan: 'pro' });
    const c = await u.login();
    await u.json('PATCH', '/api/settings', { cookie: c, body: { four_eyes: true } });
    u.s.close();
    const r = cli('audit', 'verify', '--data-dir', u.dataDir);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Audit log intact: 2 rows; last row 2, hash [0-9a-f]{64}$/);
  });

  it('an edited row is named: by the service and by the CLI (exit 1)', async () => {
    const r = await tampered((raw) => raw.prepare("UPDATE audit_log SET env = 'live' WHERE seq = 3").run());
    expect(r.http).toEqual({ ok: false, rows: 2, first_bad_seq: 3, reason: 'row 3 was changed after it was written' });
    expect(r.cli.status).toBe(1);
    expect(r.cli.stdout).toBe('Audit log broken at row 3: row 3 was changed after it was written (2 rows before it hold)');
  });

  it('an edited row is found even when the whole chain after it is re-computed by someone without the key', async () => {
    const r = await tampered((raw) => {
      raw.prepare("UPDATE audit_log SET key_id = 'key_forged' WHERE seq = 2").run();
      // The attacker knows the scheme (the chain's formula and column order) but not the install
      // secret: they re-chain with a plain SHA-256 and move the recorded head along.
      let prev = (raw.prepare('SELECT hash FROM audit_log WHERE seq = 1').get() as { hash: string }).hash;
      for (const row of raw.prepare('SELECT * FROM audit_log WHERE seq >= 2 ORDER BY seq').all() as Record<string, string | number | null>[]) {
        const hash = createHash('sha256').update(prev).update('\n').update(JSON.stringify(CHAINED_COLUMNS.map((c) => row[c] ?? null))).digest('hex');
        raw.prepare('UPDATE audit_log SET prev_hash = ?, hash = ? WHERE seq = ?').run(prev, hash, row.seq);
        prev = hash;
      }
      raw.prepare("UPDATE meta SET value = ? WHERE key = 'audit_head'").run(`6:${prev}`);
    });
    expect(r.http).toMatchObject({ ok: false, first_bad_seq: 2, reason: 'row 2 was changed after it was written' });
  });

  it('a deleted row in the middle, and rows cut off the end, are named', async () => {
    const middle = await tampered((raw) => raw.prepare('DELETE FROM audit_log WHERE seq = 4').run());
    expect(middle.http).toMatchObject({ ok: false, first_bad_seq: 4, reason: 'row 4 is missing' });
    expect(middle.cli.stdout).toContain('broken at row 4');
    const end = await tampered((raw) => raw.prepare('DELETE FROM audit_log WHERE seq >= 4').run());
    expect(end.http).toMatchObject({ ok: false, first_bad_seq: 4, reason: 'rows 4 to 6 are missing from the end' });
  });
});

describe('the CLI writes to the log too', () => {
  it('members add, plan set and keys are recorded with the actor cli; audit export writes the log as CSV', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cc-audit-cli-'));
    expect(cli('init', '--data-dir', dir, '--org', 'O', '--owner-email', 'o@example.test', '--owner-password', 'owner password', '--plan', 'starter').status).toBe(0);
    const added = cli('members', 'add', '--data-dir', dir, '--email', 'Ad@Example.test', '--password', 'admin password', '--role', 'admin');
    expect(added).toMatchObject({ status: 0, stdout: 'Added ad@example.test as admin' });
    expect(cli('members', 'add', '--data-dir', dir, '--email', 'ad@example.test', '--password', 'admin password', '--role', 'admin')).toMatchObject({ status: 2, stderr: expect.stringContaining('already a member') });
    expect(cli('members', 'add', '--data-dir', dir, '--email', 'm@example.test', '--password', 'member password', '--role', 'owner').status).toBe(2);
    expect(cli('members', 'add', '--data-dir', dir, '--email', 'm@example.test', '--password', 'member password', '--role', 'member').status).toBe(0);
    expect(cli('members', 'add', '--data-dir', dir, '--email', 'n@example.test', '--password', 'member password', '--role', 'member')).toMatchObject({ status: 1, stderr: expect.stringContaining('Team limit reached') });
    expect(cli('plan', 'set', '--data-dir', dir, 'pro').status).toBe(0);
    const key = JSON.parse(cli('keys', 'create', '--data-dir', dir, '--env', 'test', '--scopes', 'human', '--json').stdout) as { id: string };
    expect(cli('keys', 'revoke', '--data-dir', dir, key.id).status).toBe(0);

    const out = cli('audit', 'export', '--data-dir', dir);
    expect(out.status).toBe(0);
    const rows = Papa.parse<Record<string, string>>(out.stdout.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true }).data;
    expect(rows.map((r) => [r.seq, r.actor, r.action])).toEqual([
      ['5', 'cli', 'key.revoked'], ['4', 'cli', 'key.created'], ['3', 'cli', 'plan.changed'], ['2', 'cli', 'member.added'], ['1', 'cli', 'member.added'],
    ]);
    expect(rows.find((r) => r.action === 'plan.changed')).toMatchObject({ from_value: 'starter', to_value: 'pro' });
    expect(rows.find((r) => r.seq === '1')).toMatchObject({ target_user: 'ad@example.test', to_value: 'admin' });
    expect(cli('audit', 'verify', '--data-dir', dir).status).toBe(0);
    // Eleven CLI processes (tsx start-up each): 20 s was not enough on a loaded 2-core machine.
  }, 90_000);
});
