// A complete audit log (issue 26): every act that changes what the service exposes is performed
// over HTTP here and its audit row checked (action, actor, the object it was about), together with
// what the row must never hold (URLs, messages, tokens, a typed e-mail, anything about a person).
// Members and other organisations cannot read the rows; the chain holds across them; and a log
// written before migration 18 still verifies after it.
import Database from 'better-sqlite3';
import { createHmac } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgeGateStore } from '../../../src-shared/contracts/age-gate';
import type { AuditAction, AuditEntry, AuditPage, AuditVerification } from '../../../src-shared/contracts/audit';
import type { ComplianceResult, ReportResult } from '../../../src-shared/contracts/documents';
import type { HostedGenerateResponse, PublishedFlowView } from '../../../src-shared/contracts/hosted';
import type { OnsiteStatus } from '../../../src-shared/contracts/onsite';
import type { CreatedExport } from '../../../src-shared/contracts/reports';
import type { TeamActivity } from '../../../src-shared/contracts/team';
import type { CreatedWebhook, RotatedWebhookSecret } from '../../../src-shared/contracts/webhooks';
import { hashPassword } from '../core/accounts/passwords';
import { loadInstallSecret } from '../core/install-secret';
import { sqliteEngine } from '../db/engine';
import { DB_FILE } from '../db/open';
import { MIGRATIONS } from '../db/migrations';
import { cliSync } from './cli-command';
import { degrade, HOLDERS, renderSpecimen } from './document-fixtures';
import * as fx from './face-fixtures';
import { closeAll, cookieFrom, OWNER, testService, type TestService } from './harness';
import { makeCanaries } from './privacy';
import { recordedModels } from './recorded-models';

afterAll(closeAll);

const PASSWORD = 'a member password';
const c = makeCanaries();

let t: TestService;
let owner: string;
beforeAll(async () => {
  // The KYC report needs a KYC-plus try: its models replay the documents route test's recording.
  t = await testService({ plan: 'pro', models: recordedModels('documents'), exports: { runner: { inProcess: true } } });
  owner = await t.login();
}, 60_000);

async function audit(query = '', cookie = owner): Promise<AuditEntry[]> {
  const r = await t.json<AuditPage>('GET', `/api/audit?per_page=500${query}`, { cookie });
  expect(r.status).toBe(200);
  return r.body.entries;
}
const of = async (action: AuditAction) => audit(`&action=${action}`);
const byOwner = () => ({ kind: 'user', user_id: t.ownerId, email: OWNER.email, role: 'owner' });

/** Neither the API's rows nor the table's own (every column) hold any of these. */
async function holdsNone(needles: readonly string[]): Promise<void> {
  const api = JSON.stringify((await t.s.audit.page(t.orgId, { page: 1, per_page: 500 })).entries);
  const table = JSON.stringify(t.s.db.prepare('SELECT * FROM audit_log').all());
  for (const n of needles) {
    expect(api, n).not.toContain(n);
    expect(table, n).not.toContain(n);
  }
}

describe('each act is recorded by who did it and the id of what it was about, nothing more', () => {
  it('webhook endpoints: added, secret rotated, removed, by endpoint id and environment; never the URL', async () => {
    const url = `https://hooks.example.test/${c.clientReference}?token=${c.documentNumber}`;
    const made = await t.json<CreatedWebhook>('POST', '/api/webhooks', { cookie: owner, body: { url, env: 'live', events: ['verification.completed'], description: c.fullName } });
    expect(made.status).toBe(201);
    const id = made.body.endpoint.id;
    const rotated = await t.json<RotatedWebhookSecret>('POST', `/api/webhooks/${id}/rotate-secret`, { cookie: owner });
    expect(rotated.status).toBe(200);
    expect((await t.json('DELETE', `/api/webhooks/${id}`, { cookie: owner })).status).toBe(200);
    // Removing it again finds nothing and records nothing.
    expect((await t.json('DELETE', `/api/webhooks/${id}`, { cookie: owner })).status).toBe(404);

    const rows = (await audit()).filter((e) => e.action.startsWith('webhook.'));
    expect(rows.map((e) => [e.action, e.object_id, e.env])).toEqual([
      ['webhook.removed', id, 'live'], ['webhook.secret_rotated', id, 'live'], ['webhook.added', id, 'live'],
    ]);
    for (const e of rows) expect(e.actor).toEqual(byOwner());
    await holdsNone([url, 'hooks.example.test', c.clientReference, c.documentNumber, c.fullName, made.body.secret, rotated.body.secret]);
  });

  it('the age gate: the first save creates the store, a change names how many settings changed and the gate on or off; a save that changes nothing is no act', async () => {
    const redirect = `https://shop.example.test/too-young/${c.clientReference}`;
    const save = (settings: Record<string, unknown>) => t.json<AgeGateStore>('PUT', '/api/age-gate', { cookie: owner, body: { env: 'live', settings } });
    const first = await save({ enabled: true, underage_redirect_url: redirect, custom_message: `Hello ${c.fullName}` });
    expect(first.status).toBe(200);
    const store = first.body.store_id!;
    await save({ enabled: true, underage_redirect_url: redirect, custom_message: `Hello ${c.fullName}` });
    await save({ enabled: false, underage_redirect_url: redirect, custom_message: 'Welcome', min_age: 21 });

    const rows = (await audit()).filter((e) => e.action.startsWith('age_gate.'));
    expect(rows.map((e) => [e.action, e.object_id, e.env, e.from_value, e.to_value, e.count_total])).toEqual([
      ['age_gate.changed', store, 'live', 'on', 'off', 3],
      ['age_gate.created', store, 'live', null, 'on', null],
    ]);
    expect(rows[0]!.actor).toEqual(byOwner());
    await holdsNone([redirect, 'shop.example.test', c.fullName, 'Welcome']);
  });

  it('hosted sessions made and revoked in the console, and published flows published, changed, switched off and on', async () => {
    const title = `Check for ${c.fullName}`;
    const redirect = `https://app.example.test/done?ref=${c.clientReference}`;
    const made = await t.json<HostedGenerateResponse>('POST', '/api/hosted/sessions', {
      cookie: owner, body: { env: 'test', product: 'age', page_title: title, redirect_url: redirect, success_message: c.dob },
    });
    expect(made.status).toBe(200);
    expect((await t.json('POST', `/api/hosted/sessions/${made.body.session_id}/revoke`, { cookie: owner })).status).toBe(200);
    expect((await t.json('POST', `/api/hosted/sessions/${made.body.session_id}/revoke`, { cookie: owner })).status).toBe(410);
    // A session an API key makes is the customer's backend acting, not a person in the console: not in the log.
    const key = await t.key();
    expect((await t.json('POST', '/hosted/generate', { headers: { Authorization: `Bearer ${key.api_key}` }, body: { product: 'age' } })).status).toBe(200);

    const flow = await t.json<PublishedFlowView>('POST', '/api/hosted/flows', {
      cookie: owner, body: { env: 'live', name: c.lastName, product: 'age', page_title: title, redirect_url: redirect },
    });
    expect(flow.status).toBe(200);
    const id = flow.body.id;
    const put = (body: Record<string, unknown>) => t.json('PUT', `/api/hosted/flows/${id}`, { cookie: owner, body });
    expect((await put({ name: c.lastName, product: 'age', page_title: title, redirect_url: redirect })).status).toBe(200);
    expect((await put({ name: c.lastName, product: 'age', page_title: 'Age check', redirect_url: redirect })).status).toBe(200);
    for (const step of ['disable', 'disable', 'enable']) expect((await t.json('POST', `/api/hosted/flows/${id}/${step}`, { cookie: owner })).status).toBe(200);

    const rows = (await audit()).filter((e) => e.action.startsWith('hosted.') || e.action.startsWith('flow.'));
    expect(rows.map((e) => [e.action, e.object_id, e.env, e.to_value])).toEqual([
      ['flow.enabled', id, 'live', null],
      ['flow.disabled', id, 'live', null],
      ['flow.changed', id, 'live', null],
      ['flow.published', id, 'live', 'age'],
      ['hosted.revoked', made.body.session_id, 'test', null],
      ['hosted.created', made.body.session_id, 'test', 'age'],
    ]);
    for (const e of rows) expect(e.actor).toEqual(byOwner());
    await holdsNone([made.body.token, made.body.hosted_url, flow.body.url, redirect, title, c.lastName, c.dob, c.clientReference]);
  });

  it('the on-site server: started and stopped by the analyst with its address; a stop of a stopped server is no act', async () => {
    const on = await t.json<OnsiteStatus>('POST', '/api/onsite/start', { cookie: owner, body: { host: '127.0.0.1', port: 0 } });
    expect(on.status).toBe(200);
    expect((await t.json('POST', '/api/onsite/stop', { cookie: owner })).status).toBe(200);
    expect((await t.json('POST', '/api/onsite/stop', { cookie: owner })).status).toBe(200);
    const rows = (await audit()).filter((e) => e.action.startsWith('onsite.'));
    expect(rows.map((e) => [e.action, e.actor.kind, e.from_value, e.to_value, e.object_id])).toEqual([
      ['onsite.stopped', 'user', `127.0.0.1:${on.body.port}`, null, null],
      ['onsite.started', 'user', null, `127.0.0.1:${on.body.port}`, null],
    ]);
  }, 30_000);

  it('a KYC report generated from a console try: the verification id and whether the PDF has a password; nothing the document said', async () => {
    expect(await t.s.screening.ready(60_000)).not.toBeNull();
    const holder = HOLDERS[1]!;
    const kyc = await t.json<ComplianceResult>('POST', '/api/console/try/kyc', {
      cookie: owner,
      body: { selfie_b64: (await fx.selfie('c')).toString('base64'), id_front_b64: (await degrade(await renderSpecimen(holder), 'clean')).toString('base64') },
    });
    expect(kyc.status).toBe(200);
    const id = kyc.body.verification_id;
    const plain = await t.json<ReportResult>('POST', '/api/console/try/report', { cookie: owner, body: { verification_id: id } });
    expect(plain.status).toBe(200);
    const locked = await t.json<ReportResult>('POST', '/api/console/try/report', { cookie: owner, body: { verification_id: id, report_password: 'report password 1' } });
    expect(locked.body.encrypted).toBe(true);
    // One that is not held (another id) is refused and recorded nowhere.
    expect((await t.json('POST', '/api/console/try/report', { cookie: owner, body: { verification_id: 'kyc_nothing_held' } })).status).toBe(404);

    const rows = await of('kyc_report.generated');
    expect(rows.map((e) => [e.object_id, e.env, e.to_value])).toEqual([[id, 'test', 'encrypted'], [id, 'test', 'not_encrypted']]);
    expect(rows[0]!.actor).toEqual(byOwner());
    const doc = kyc.body.document_data;
    expect(doc?.name).toBeTruthy();
    await holdsNone([doc?.name, doc?.document_number, doc?.date_of_birth, holder.surname, holder.number, holder.dob, 'report password 1', 'kyc_nothing_held'].filter((x): x is string => !!x));
  }, 90_000);

  it('report exports: created, downloaded (each time), cancelled; by export id, with the report and its format', async () => {
    const body = { report_type: 'overview', format: 'csv', env: 'live', from: '2026-01-01', to: '2026-01-31' };
    const made = await t.json<CreatedExport>('POST', '/api/reports/exports', { cookie: owner, body });
    expect(made.status).toBe(201);
    await t.s.exports.drain();
    for (let i = 0; i < 2; i++) expect((await t.call('GET', `/api/reports/exports/${made.body.id}/download`, { cookie: owner })).status).toBe(200);
    const queued = await t.json<CreatedExport>('POST', '/api/reports/exports', { cookie: owner, body: { ...body, report_type: 'usage', format: 'pdf' } });
    expect((await t.json('DELETE', `/api/reports/exports/${queued.body.id}`, { cookie: owner })).status).toBe(200);
    // Gone now: a second download or cancel is refused and recorded nowhere.
    expect((await t.json('DELETE', `/api/reports/exports/${queued.body.id}`, { cookie: owner })).status).toBe(404);

    const rows = (await audit()).filter((e) => e.action.startsWith('export.'));
    const a = String(made.body.id);
    const b = String(queued.body.id);
    expect(rows.map((e) => [e.action, e.object_id, e.env, e.to_value])).toEqual([
      ['export.cancelled', b, 'live', 'usage/pdf'],
      ['export.created', b, 'live', 'usage/pdf'],
      ['export.downloaded', a, 'live', 'overview/csv'],
      ['export.downloaded', a, 'live', 'overview/csv'],
      ['export.created', a, 'live', 'overview/csv'],
    ]);
    for (const e of rows) expect(e.actor).toEqual(byOwner());
  });

  it('the app schemes: a change is settings.changed `app_schemes` with how many before and after, never the schemes', async () => {
    const put = (schemes: string[]) => t.json('PUT', '/api/settings/app-schemes', { cookie: owner, body: { app_schemes: schemes } });
    expect((await put(['zyqapp'])).status).toBe(200);
    expect((await put(['zyqapp'])).status).toBe(200);
    expect((await put(['vorthapp', 'zyqapp'])).status).toBe(200);
    expect((await put(['vorthapp', 'quillapp'])).status).toBe(200);
    const rows = (await of('settings.changed')).filter((e) => e.setting === 'app_schemes');
    expect(rows.map((e) => [e.from_value, e.to_value])).toEqual([['2', '2'], ['1', '2'], ['0', '1']]);
    expect(rows[0]!.actor).toEqual(byOwner());
    await holdsNone(['zyqapp', 'vorthapp', 'quillapp']);
  });

  it('sign-in and sign-out; a wrong password for a member is the service\'s row about them; an e-mail that names nobody is kept nowhere', async () => {
    await t.s.accounts.addUser({ orgId: t.orgId, email: 'mia@example.test', name: 'Mia', password: PASSWORD, role: 'member' });
    const mia = (await t.s.accounts.userByEmail('mia@example.test'))!;
    const typo = `${c.firstName.toLowerCase()}@example.test`;
    expect((await t.json('POST', '/api/auth/login', { body: { email: 'mia@example.test', password: 'not her password' } })).status).toBe(401);
    expect((await t.json('POST', '/api/auth/login', { body: { email: typo, password: 'whatever password' } })).status).toBe(401);
    const cookie = await t.login('mia@example.test', PASSWORD);
    expect((await t.json('POST', '/api/auth/logout', { cookie })).status).toBe(200);

    const rows = (await audit()).filter((e) => e.action.startsWith('session.') && (e.actor.user_id === mia.id || e.target?.user_id === mia.id));
    expect(rows.map((e) => [e.action, e.actor.kind, e.actor.user_id, e.actor.role, e.target?.user_id ?? null, e.to_value])).toEqual([
      ['session.signed_out', 'user', mia.id, 'member', null, null],
      ['session.signed_in', 'user', mia.id, 'member', null, 'password'],
      ['session.sign_in_failed', 'system', null, null, mia.id, 'wrong_password'],
    ]);
    expect(rows[2]!.target).toEqual({ user_id: mia.id, email: 'mia@example.test' });
    // The unknown address's attempt left no row, and the address is in no row, no log line, no table.
    expect((await of('session.sign_in_failed')).length).toBe(1);
    await holdsNone([typo, c.firstName, 'not her password', PASSWORD]);
    const everything = JSON.stringify(t.s.db.prepare("SELECT group_concat(name) AS n FROM sqlite_master WHERE type = 'table'").get());
    for (const table of JSON.parse(everything).n.split(',') as string[]) {
      expect(JSON.stringify(t.s.db.prepare(`SELECT * FROM "${table}"`).all(), (_k, v: unknown) => (Buffer.isBuffer(v) ? '' : v)), table).not.toContain(typo);
    }
  });

  it('the desktop sign-ins and the first run are sign-ins too, each saying how', async () => {
    const TOKEN = 'one-time-token-0123456789abcdef';
    const solo = await testService({ loginToken: TOKEN });
    expect((await solo.json('POST', '/api/auth/token', { body: { token: TOKEN } })).status).toBe(200);
    expect((await solo.s.audit.page(solo.orgId, { page: 1, per_page: 10 })).entries.map((e) => [e.action, e.actor.user_id, e.to_value]))
      .toEqual([['session.signed_in', solo.ownerId, 'desktop_token']]);

    const shared = await testService({ loginToken: TOKEN });
    const ann = await shared.s.accounts.addUser({ orgId: shared.orgId, email: 'ann@example.test', name: 'Ann', password: PASSWORD, role: 'admin' });
    const choice = await shared.call('POST', '/api/auth/token', { body: { token: TOKEN } });
    const desktop = /cc_desktop=([^;]*)/.exec(choice.headers.get('set-cookie') ?? '')![0];
    expect((await shared.json('POST', '/api/auth/desktop/login', { cookie: desktop, body: { user_id: ann.id, password: 'not her password' } })).status).toBe(401);
    expect((await shared.json('POST', '/api/auth/desktop/login', { cookie: desktop, body: { user_id: ann.id, password: PASSWORD } })).status).toBe(200);
    expect((await shared.s.audit.page(shared.orgId, { page: 1, per_page: 10 })).entries.map((e) => [e.action, e.actor.kind, e.actor.user_id, e.target?.user_id ?? null, e.to_value]))
      .toEqual([['session.signed_in', 'user', ann.id, null, 'desktop_password'], ['session.sign_in_failed', 'system', null, ann.id, 'wrong_password']]);

    const fresh = await testService({ setup: false });
    const setup = await fresh.call('POST', '/api/setup', { body: { organization: 'New Org', name: 'Nia', email: 'nia@example.test', password: PASSWORD, plan: 'pro' } });
    expect(setup.status).toBe(201);
    const nia = await fresh.json<{ user: { id: number } }>('GET', '/api/auth/me', { cookie: cookieFrom(setup) });
    expect((await fresh.s.audit.page(fresh.orgId, { page: 1, per_page: 10 })).entries.map((e) => [e.action, e.actor.user_id, e.actor.role, e.to_value]))
      .toEqual([['session.signed_in', nia.body.user.id, 'owner', 'first_run']]);
  });

  it('the on-site server left running is started again by the service after a restart: the actor is `system`', async () => {
    const u = await testService({ plan: 'pro' });
    const cookie = await u.login();
    const on = await u.json<OnsiteStatus>('POST', '/api/onsite/start', { cookie, body: { host: '127.0.0.1', port: 0 } });
    expect(on.status).toBe(200);
    const v = await u.restart();
    try {
      const rows = (await v.s.audit.page(v.orgId, { action: 'onsite.started', page: 1, per_page: 10 })).entries;
      expect(rows.map((e) => [e.actor, e.to_value])).toEqual([
        [{ kind: 'system', user_id: null, email: null, role: null }, `127.0.0.1:${on.body.port}`],
        [{ kind: 'user', user_id: v.ownerId, email: OWNER.email, role: 'owner' }, `127.0.0.1:${on.body.port}`],
      ]);
      const owner2 = await v.login();
      const system = await v.json<AuditPage>('GET', '/api/audit?actor=system', { cookie: owner2 });
      expect(system.body.entries.map((e) => e.action)).toEqual(['onsite.started']);
    } finally {
      await v.s.onsite.stop();
    }
  }, 60_000);

  it('the admin CLI\'s webhook endpoints are recorded with the actor cli, and its CSV export names every new column', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cc-audit-complete-cli-'));
    const run = (...args: string[]) => cliSync([...args, '--data-dir', dir]);
    expect(run('init', '--org', 'O', '--owner-email', 'o@example.test', '--owner-password', 'owner password').status).toBe(0);
    const added = run('webhooks', 'add', '--url', 'https://cli-hooks.example.test/in', '--env', 'test', '--events', 'verification.completed', '--json');
    expect(added.status).toBe(0);
    const id = (JSON.parse(added.stdout) as CreatedWebhook).endpoint.id;
    expect(run('webhooks', 'remove', id).status).toBe(0);
    const out = run('audit', 'export');
    expect(out.status).toBe(0);
    const rows = Papa.parse<Record<string, string>>(out.stdout.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true }).data;
    expect(rows.map((r) => [r.actor, r.action, r.action_label, r.object_id, r.env])).toEqual([
      ['cli', 'webhook.removed', 'Webhook removed', id, 'test'],
      ['cli', 'webhook.added', 'Webhook added', id, 'test'],
    ]);
    expect(out.stdout).not.toContain('cli-hooks.example.test');
  }, 60_000);
});

describe('who may read them', () => {
  it('a member gets 403; another organisation sees none of them; the member\'s team activity has the shared configuration only', async () => {
    await t.s.accounts.addUser({ orgId: t.orgId, email: 'max@example.test', name: 'Max', password: PASSWORD, role: 'member' });
    const member = await t.login('max@example.test', PASSWORD);
    for (const path of ['/api/audit', '/api/audit/verify', '/api/audit?action=webhook.added']) {
      expect((await t.json('GET', path, { cookie: member })).status).toBe(403);
    }
    const other = await t.addOrg({ email: 'owner@elsewhere.test' });
    const theirs = await t.json<AuditPage>('GET', '/api/audit?per_page=500', { cookie: await other.login() });
    expect(theirs.status).toBe(200);
    // Their own sign-in only.
    expect(theirs.body.entries.map((e) => [e.action, e.actor.user_id])).toEqual([['session.signed_in', other.ownerId]]);
    for (const a of ['webhook.added', 'hosted.created', 'export.downloaded', 'kyc_report.generated', 'onsite.started'] as const) {
      expect((await t.json<AuditPage>('GET', `/api/audit?action=${a}`, { cookie: await other.login() })).body.total, a).toBe(0);
    }

    const activity = await t.json<TeamActivity>('GET', '/api/team/activity?per_page=100', { cookie: member });
    const kinds = new Set(activity.body.entries.map((e) => e.kind));
    for (const k of ['webhook_added', 'webhook_secret_rotated', 'webhook_removed', 'age_gate_created', 'age_gate_changed', 'flow_published', 'flow_changed', 'flow_disabled', 'flow_enabled', 'onsite_started', 'onsite_stopped'] as const) {
      expect(kinds.has(k), k).toBe(true);
    }
    // Sign-ins, hosted sessions, KYC reports, downloads and app schemes stay with owners and admins.
    expect(JSON.stringify(activity.body)).not.toMatch(/session|hosted|kyc|download|app_schemes/);
    const gate = activity.body.entries.find((e) => e.kind === 'age_gate_changed')!;
    expect(gate).toMatchObject({ actor: { user_id: t.ownerId }, env: 'live', from: 'on', to: 'off', object_id: expect.stringMatching(/^ag_live/) });
  });

  it('the chain holds over every row written here', async () => {
    const v = await t.json<AuditVerification>('GET', '/api/audit/verify', { cookie: owner });
    expect(v.body).toMatchObject({ ok: true });
    expect((v.body as { rows: number }).rows).toBe(t.s.db.prepare('SELECT COUNT(*) AS n FROM audit_log').pluck().get());
  });
});

describe('migration 20 (a complete audit log)', () => {
  /** The chain as the service wrote it up to version 19 (the columns of version 17): these 31 columns, the last two left out while null. */
  const V17 = [
    'seq', 'at', 'org_id', 'actor_kind', 'actor_id', 'actor_role', 'action', 'env', 'screening_id', 'batch_id', 'row_number',
    'entity_ids', 'record_hashes', 'disposition', 'reason_code', 'has_note', 'clearance_id', 'approver_user_id', 'key_id', 'list_id',
    'setting', 'from_value', 'to_value', 'count_total', 'count_done', 'count_failed', 'risk_score', 'target_user_id', 'client_ref_hmac',
    'invitation_id', 'override_contradiction',
  ];
  function v17Hash(key: Buffer, prev: string, row: Record<string, string | number | null>): string {
    const values = V17.map((k) => row[k] ?? null);
    while (values.length > 29 && values[values.length - 1] === null) values.pop();
    return createHmac('sha256', key).update(prev).update('\n').update(JSON.stringify(values)).digest('hex');
  }

  it('keeps a log written by version 19 verifiable; rows after it chain their object id; the new checks hold', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cc-audit-v17-'));
    const raw = new Database(join(dataDir, DB_FILE));
    const at = MIGRATIONS.findIndex((m) => m.name === 'audit-complete');
    expect(at).toBe(19);
    for (const m of MIGRATIONS.slice(0, at)) m.up(raw);
    raw.pragma(`user_version = ${at}`);
    raw.prepare("INSERT INTO organizations (name, plan, created_at) VALUES ('Old Org', 'pro', '2025-01-01T00:00:00.000Z')").run();
    raw.prepare("INSERT INTO users (org_id, email, name, password_hash, role, created_at, joined_at) VALUES (1, ?, 'O', ?, 'owner', '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z')")
      .run(OWNER.email, await hashPassword(OWNER.password));
    const key = (await loadInstallSecret(sqliteEngine(raw))).derive('audit-chain/v1');
    const base = Object.fromEntries(V17.map((k) => [k, null])) as Record<string, string | number | null>;
    const old = [
      { ...base, action: 'key.created', actor_kind: 'cli', key_id: 'key_1', env: 'live' },
      { ...base, action: 'member.invited', actor_kind: 'user', actor_id: '1', actor_role: 'owner', invitation_id: 7, to_value: 'member' },
      { ...base, action: 'clearance.approved', actor_kind: 'user', actor_id: '1', actor_role: 'owner', batch_id: 'bat_1', row_number: 2, override_contradiction: 'dob_matches_exactly' },
    ];
    let prev = '0'.repeat(64);
    const insert = raw.prepare(`INSERT INTO audit_log (${[...V17, 'prev_hash', 'hash'].join(', ')}) VALUES (${[...V17, 'prev_hash', 'hash'].map((k) => `@${k}`).join(', ')})`);
    old.forEach((r, i) => {
      const row = { ...r, seq: i + 1, at: `2025-01-0${i + 2}T00:00:00.000Z`, org_id: 1 };
      const hash = v17Hash(key, prev, row);
      insert.run({ ...row, prev_hash: prev, hash });
      prev = hash;
    });
    raw.prepare("INSERT INTO meta (key, value) VALUES ('audit_head', ?)").run(`3:${prev}`);
    const before = raw.prepare('SELECT * FROM audit_log ORDER BY seq').all() as Record<string, unknown>[];
    raw.close();

    const u = await testService({ plan: 'pro' }, { dataDir, now: Date.parse('2025-02-01T00:00:00.000Z'), ownerId: 1 });
    expect(u.s.db.prepare('SELECT * FROM audit_log ORDER BY seq').all()).toEqual(before.map((r) => ({ ...r, object_id: null, source_address: null })));
    expect(await u.s.audit.verify()).toEqual({ ok: true, rows: 3, head_seq: 3, head_hash: prev });

    const cookie = await u.login();
    const made = await u.json<CreatedWebhook>('POST', '/api/webhooks', { cookie, body: { url: 'https://hooks.example.test/x', env: 'test', events: ['verification.completed'] } });
    const v = await u.json<AuditVerification>('GET', '/api/audit/verify', { cookie });
    expect(v.body).toMatchObject({ ok: true, rows: 5, head_seq: 5 });
    const rows = (await u.json<AuditPage>('GET', '/api/audit', { cookie })).body.entries;
    expect(rows.map((e) => [e.seq, e.action, e.object_id])).toEqual([
      [5, 'webhook.added', made.body.endpoint.id], [4, 'session.signed_in', null], [3, 'clearance.approved', null], [2, 'member.invited', null], [1, 'key.created', null],
    ]);
    expect(rows[2]!.override_contradiction).toBe('dob_matches_exactly');

    // The table refuses what the log may not hold; the object id is under the chain.
    const ins = (actorKind: string, action: string, objectId: string | null) =>
      () => u.s.db.prepare("INSERT INTO audit_log (seq, at, org_id, actor_kind, action, object_id, prev_hash, hash) VALUES (99, 'x', 1, ?, ?, ?, 'p', 'h')").run(actorKind, action, objectId);
    expect(ins('robot', 'webhook.added', null)).toThrow(/CHECK/);
    expect(ins('system', 'webhook.renamed', null)).toThrow(/does not know/);
    expect(ins('system', 'webhook.added', 'x'.repeat(65))).toThrow(/CHECK/);
    expect(() => u.s.db.prepare('UPDATE audit_log SET object_id = NULL').run()).toThrow(/append-only/);
    const w = await u.restart(async (dir) => {
      const tamper = new Database(join(dir, DB_FILE));
      tamper.exec('DROP TRIGGER audit_log_no_update;');
      tamper.prepare("UPDATE audit_log SET object_id = 'whe_forged' WHERE seq = 5").run();
      tamper.close();
    });
    expect(await w.s.audit.verify()).toEqual({ ok: false, rows: 4, first_bad_seq: 5, reason: 'row 5 was changed after it was written' });
  });
});
