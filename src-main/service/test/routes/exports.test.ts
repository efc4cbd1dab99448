// Report exports (account spec, "Export job"; issue 13), through the HTTP app: every endpoint's
// happy path, its errors with the spec's exact texts, plan, session, role and cross-organisation
// security, pagination, the cancel rules, the 24-hour file expiry on the fake clock, download
// headers and contents, and a restart after a crash that left a job running.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import type { Plan, Role } from '../../../../src-shared/catalog';
import {
  REPORT_TYPES, type CreatedExport, type ExportJob, type ExportList, type ReportBundle, type ReportType,
} from '../../../../src-shared/contracts/reports';
import { AppError } from '../../../../src-shared/errors';
import { compose } from '../../compose';
import { ManualClock } from '../../core/clock';
import type { BundleSource, ReportWho } from '../../core/exports/exports';
import { MAX_ATTEMPTS } from '../../core/exports/exports';
import { createLogger } from '../../log';
import { fixtureBundle } from '../fixtures/report-bundle';
import { fixtureCommand } from '../fixture-bundle';
import { closeAll, ORIGIN, TEST_ENGINE, testService, type TestService } from '../harness';
import { seedHistory } from '../fixtures/ledger-history';

afterAll(closeAll);

const HOUR = 3600_000;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const PASSWORD = 'a member password';
const hasPdftotext = existsSync('/usr/bin/pdftotext');

/** The sections each report type is made of (what the reports service's bundle gives). */
function bundleFor(type: ReportType, who: ReportWho): ReportBundle {
  const all = fixtureBundle({ credits: who.canViewCredits });
  switch (type) {
    case 'overview': return { overview: all.overview };
    case 'volume': return { volume: all.volume };
    case 'usage': return { usage: all.usage };
    case 'risk-summary': return { risk_summary: all.risk_summary };
    case 'widget-performance': return { widget_performance: all.widget_performance };
    case 'full': return { ...all, v21_verification: undefined, v21_full: undefined };
    case 'verification-v21': return { v21_verification: all.v21_verification };
    case 'full-v21': return { v21_verification: all.v21_verification, v21_full: all.v21_full };
  }
}

interface Setup { t: TestService; owner: string; calls: { type: ReportType; who: ReportWho }[] }

/**
 * A service with the real reports service behind its exports (each call recorded), or with
 * `bundle` in its place; renders in this thread (one test renders in the worker).
 */
async function setup(plan: Plan = 'growth', bundle?: BundleSource): Promise<Setup> {
  const calls: Setup['calls'] = [];
  const svc: { t?: TestService } = {};
  const t = await testService({
    plan,
    exports: {
      bundle: bundle ?? ((type, who, params) => {
        calls.push({ type, who });
        return svc.t!.s.reports.bundle(type, who, params);
      }),
      runner: { inProcess: true },
    },
  });
  svc.t = t;
  return { t, owner: await t.login(), calls };
}

async function addMember(t: TestService, email: string, role: Role, billing = false): Promise<string> {
  await t.s.accounts.addUser({ orgId: t.orgId, email, name: email.split('@')[0]!, password: PASSWORD, role, billing });
  return t.login(email, PASSWORD);
}

const BODY = { report_type: 'overview', env: 'live', from: '2026-01-01', to: '2026-01-31' };

async function create(t: TestService, cookie: string, body: Record<string, unknown> = BODY) {
  return t.json<CreatedExport & { error?: string; field?: string }>('POST', '/api/reports/exports', { cookie, body });
}

async function done(t: TestService, cookie: string, body: Record<string, unknown> = BODY): Promise<ExportJob> {
  const { body: c } = await create(t, cookie, body);
  await t.s.exports.drain();
  return (await t.json<ExportJob>('GET', `/api/reports/exports/${c.id}`, { cookie })).body;
}

describe('POST /api/reports/exports', () => {
  it('201 with id, report_type, format (pdf by default), status queued, params and created_at', async () => {
    const { t, owner } = await setup();
    const { status, body } = await create(t, owner);
    expect(status).toBe(201);
    expect(body).toEqual({
      id: expect.any(Number), report_type: 'overview', format: 'pdf', status: 'queued',
      params: { env: 'live', from: '2026-01-01', to: '2026-01-31' }, created_at: expect.stringMatching(ISO),
    });
    expect(Number.isInteger(body.id)).toBe(true);
    expect((await create(t, owner, { ...BODY, format: 'csv' })).body.format).toBe('csv');
  });

  it('takes every one of the eight report types', async () => {
    const { t, owner } = await setup('enterprise');
    for (const report_type of REPORT_TYPES) expect((await create(t, owner, { ...BODY, report_type })).status).toBe(201);
  });

  it('400 for a bad or missing report_type, naming the eight types, with field report_type', async () => {
    const { t, owner } = await setup();
    for (const report_type of ['regulatory-coverage', 'OVERVIEW', undefined]) {
      const { status, body } = await create(t, owner, { ...BODY, report_type });
      expect(status).toBe(400);
      expect(body).toEqual({
        error: 'Invalid report_type. Must be one of: overview, volume, usage, risk-summary, widget-performance, full, verification-v21, full-v21',
        field: 'report_type',
      });
    }
    expect(new AppError('invalid_report_type').message).toBe(`Invalid report_type. Must be one of: ${REPORT_TYPES.join(', ')}`);
  });

  it('400 Invalid format for anything but pdf or csv', async () => {
    const { t, owner } = await setup();
    for (const format of ['xlsx', 'PDF', '']) {
      const { status, body } = await create(t, owner, { ...BODY, format });
      expect(status).toBe(400);
      expect(body).toEqual({ error: 'Invalid format', field: 'format' });
    }
  });

  it('400 with the reporting texts for env, from and the plan\'s date range', async () => {
    const { t, owner } = await setup('growth');
    expect((await create(t, owner, { ...BODY, env: 'prod' })).body.error).toBe("'env' must be 'test' or 'live'");
    expect((await create(t, owner, { ...BODY, from: undefined })).body.error).toBe("'from' date is required");
    const wide = await create(t, owner, { ...BODY, from: '2026-01-01', to: '2026-04-01' });
    expect(wide.status).toBe(400);
    expect(wide.body).toEqual({ error: 'Date range exceeds plan limit of 90 days', field: 'date_range' });
    expect((await create(t, owner, { ...BODY, from: '2026-01-01', to: '2026-03-31' })).status).toBe(201);
  });

  it('403 on Free and Starter: exports need Growth or higher', async () => {
    for (const plan of ['free', 'starter'] as const) {
      const { t, owner } = await setup(plan);
      const { status, body } = await create(t, owner);
      expect(status).toBe(403);
      expect(body).toEqual({ error: 'Export functionality requires Growth plan or higher' });
    }
  });

  it('needs a session, and a same-origin write', async () => {
    const { t, owner } = await setup();
    expect((await t.json('POST', '/api/reports/exports', { body: BODY })).body).toEqual({ error: 'Authentication required' });
    const k = await t.key();
    expect((await t.json('POST', '/api/reports/exports', { key: k.api_key, body: BODY })).status).toBe(401);
    const cross = await t.json('POST', '/api/reports/exports', { cookie: owner, body: BODY, headers: { Origin: 'https://evil.example' } });
    expect(cross.status).toBe(403);
  });

  it('every role may export; the credits section follows the maker\'s role at creation', async () => {
    const { t, owner, calls } = await setup('pro');
    const member = await addMember(t, 'mia@example.test', 'member');
    const biller = await addMember(t, 'bill@example.test', 'member', true);
    const admin = await addMember(t, 'ada@example.test', 'admin');
    for (const cookie of [owner, member, biller, admin]) expect((await create(t, cookie, { ...BODY, report_type: 'full-v21' })).status).toBe(201);
    await t.s.exports.drain();
    expect(calls.map((c) => c.who.canViewCredits)).toEqual([true, false, true, true]);
    expect(calls.every((c) => c.who.orgId === t.orgId && c.who.plan === 'pro')).toBe(true);
  });

  it('429 once ten exports of the organisation are unfinished', async () => {
    const { t, owner } = await setup();
    for (let i = 0; i < 10; i++) expect((await create(t, owner)).status).toBe(201);
    const { status, body } = await create(t, owner);
    expect(status).toBe(429);
    expect(body.error).toBe('Too many exports in progress. Wait for one to finish.');
    await t.s.exports.drain();
    expect((await create(t, owner)).status).toBe(201);
  });
});

describe('GET /api/reports/exports', () => {
  it('pages newest first: 20 by default, per_page up to 100, total and pages', async () => {
    const { t, owner } = await setup();
    const ids: number[] = [];
    for (let i = 0; i < 25; i++) {
      ids.push((await create(t, owner)).body.id);
      if (i % 9 === 8) await t.s.exports.drain();
    }
    const first = await t.json<ExportList>('GET', '/api/reports/exports', { cookie: owner });
    expect(first.status).toBe(200);
    expect(first.body.total).toBe(25);
    expect(first.body.page).toBe(1);
    expect(first.body.pages).toBe(2);
    expect(first.body.exports.map((e) => e.id)).toEqual(ids.slice().reverse().slice(0, 20));
    expect(first.body.exports[0]).toEqual({
      id: ids[24], report_type: 'overview', format: 'pdf', status: 'queued', file_size_bytes: null, created_at: expect.stringMatching(ISO), completed_at: null,
      error_code: null,
    });
    const second = await t.json<ExportList>('GET', '/api/reports/exports?page=2', { cookie: owner });
    expect(second.body.exports.map((e) => e.id)).toEqual(ids.slice(0, 5).reverse());
    const done = second.body.exports[0]!;
    expect(done.status).toBe('succeeded');
    expect(done.file_size_bytes).toBeGreaterThan(1000);
    expect(done.completed_at).toMatch(ISO);
    expect((await t.json<ExportList>('GET', '/api/reports/exports?per_page=100', { cookie: owner })).body).toMatchObject({ pages: 1, page: 1 });
    expect((await t.json<ExportList>('GET', '/api/reports/exports?per_page=7&page=4', { cookie: owner })).body.exports).toHaveLength(4);
    expect((await t.json<ExportList>('GET', '/api/reports/exports?page=9', { cookie: owner })).body.exports).toEqual([]);
    expect((await t.json('GET', '/api/reports/exports?per_page=101', { cookie: owner })).status).toBe(400);
    expect((await t.json('GET', '/api/reports/exports?page=0', { cookie: owner })).status).toBe(400);
  });

  it('the team shares the list; another organisation sees none of it; Starter gets 403', async () => {
    const { t, owner } = await setup();
    await create(t, owner);
    const member = await addMember(t, 'mia@example.test', 'member');
    expect((await t.json<ExportList>('GET', '/api/reports/exports', { cookie: member })).body.total).toBe(1);
    const other = await t.addOrg({ plan: 'pro' });
    const theirs = await other.login();
    expect((await t.json<ExportList>('GET', '/api/reports/exports', { cookie: theirs })).body).toEqual({ exports: [], total: 0, page: 1, pages: 0 });
    await t.setPlan('starter');
    expect((await t.json('GET', '/api/reports/exports', { cookie: owner })).body).toEqual({ error: 'Export functionality requires Growth plan or higher' });
    expect((await t.json('GET', '/api/reports/exports')).status).toBe(401);
  });
});

describe('GET /api/reports/exports/{id}', () => {
  it('shows the job with params; download_url and expires_at (24 h after the file) once it succeeded', async () => {
    const { t, owner } = await setup();
    const { body: c } = await create(t, owner);
    const queued = (await t.json<ExportJob>('GET', `/api/reports/exports/${c.id}`, { cookie: owner })).body;
    expect(queued).toEqual({
      id: c.id, report_type: 'overview', format: 'pdf', status: 'queued', file_size_bytes: null, created_at: c.created_at, completed_at: null,
      params: { env: 'live', from: '2026-01-01', to: '2026-01-31' }, download_url: null, expires_at: null, error_code: null,
    });
    await t.s.exports.drain();
    const job = (await t.json<ExportJob>('GET', `/api/reports/exports/${c.id}`, { cookie: owner })).body;
    expect(job.status).toBe('succeeded');
    expect(job.download_url).toBe(`/api/reports/exports/${c.id}/download`);
    expect(Date.parse(job.expires_at!) - Date.parse(job.completed_at!)).toBe(24 * HOUR);
  });

  it('404 Export job not found for another organisation\'s id, an unknown id or a non-integer', async () => {
    const { t, owner } = await setup();
    const { body: c } = await create(t, owner);
    const other = await t.addOrg({ plan: 'enterprise' });
    const theirs = await other.login();
    for (const [cookie, path] of [[theirs, `${c.id}`], [owner, '999999'], [owner, 'abc'], [owner, '1.5']] as const) {
      const r = await t.json('GET', `/api/reports/exports/${path}`, { cookie });
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ error: 'Export job not found' });
    }
  });

  it('a failed export says why, in a code: report_unavailable when the report cannot be made, render_failed otherwise', async () => {
    let n = 0;
    const { t, owner } = await setup('growth', () => {
      n++;
      if (n === 1) throw new AppError('permission_denied');
      throw new Error('boom');
    });
    const a = await done(t, owner);
    expect(a).toMatchObject({ status: 'failed', error_code: 'report_unavailable', download_url: null, file_size_bytes: null });
    expect(a.completed_at).toMatch(ISO);
    expect((await done(t, owner)).error_code).toBe('render_failed');
  });
});

describe('GET /api/reports/exports/{id}/download', () => {
  it('the PDF carries the organisation\'s name and logo as set in Settings (the same branding as the hosted pages)', async () => {
    const { t, owner } = await setup();
    expect((await t.json('PATCH', '/api/settings/organization', { cookie: owner, body: { name: 'Branded Payments GmbH' } })).status).toBe(200);
    const logo = await sharp({ create: { width: 64, height: 32, channels: 3, background: { r: 20, g: 60, b: 140 } } }).png().toBuffer();
    const up = await t.app.request(`${ORIGIN}/api/settings/logo`, {
      method: 'PUT', headers: { Cookie: owner, 'Content-Type': 'image/png' }, body: logo as Uint8Array<ArrayBuffer>,
    });
    expect(up.status).toBe(200);
    const job = await done(t, owner);
    const bytes = new Uint8Array(await (await t.call('GET', job.download_url!, { cookie: owner })).arrayBuffer());
    // The logo is embedded as an image XObject; without a logo there is none.
    expect(Buffer.from(bytes).toString('latin1')).toMatch(/\/Subtype\s*\/Image/);
    if (hasPdftotext) expect(execFileSync('/usr/bin/pdftotext', ['-layout', '-', '-'], { input: bytes }).toString()).toContain('Branded Payments GmbH');
    expect((await t.json('DELETE', '/api/settings/logo', { cookie: owner })).status).toBe(200);
    const plain = await done(t, owner);
    const noLogo = new Uint8Array(await (await t.call('GET', plain.download_url!, { cookie: owner })).arrayBuffer());
    expect(Buffer.from(noLogo).toString('latin1')).not.toMatch(/\/Subtype\s*\/Image/);
  });

  it('the PDF: application/pdf, attachment report_<id>.pdf, a report with the organisation, period and figures', async () => {
    const { t, owner } = await setup();
    const key = (await t.s.keys.create({ orgId: t.orgId, plan: 'growth', name: '=Checkout widget', env: 'live', scopes: ['human'], demo: false, createdBy: null })).key.id;
    const seeded = await seedHistory(t, { from: '2026-01-01', to: '2026-01-31', perDay: 40, keyIds: [key, null] });
    await seedHistory(t, { from: '2026-01-01', to: '2026-01-31', perDay: 3, env: 'test' });
    const job = await done(t, owner, { ...BODY, report_type: 'full-v21' });
    const res = await t.call('GET', job.download_url!, { cookie: owner });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename=report_${job.id}.pdf`);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(bytes.byteLength).toBe(job.file_size_bytes);
    expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe('%PDF-');
    if (hasPdftotext) {
      const text = execFileSync('/usr/bin/pdftotext', ['-layout', '-', '-'], { input: bytes }).toString();
      const pages = text.split('\f').filter((p) => p.trim());
      expect(text).toContain('Enterprise analytics report (V2.1)');
      expect(text).toContain('Test Org');
      expect(text).toContain('2026-01-01 \u2013 2026-01-31 (31 days)');
      expect(text).toContain('Live');
      expect(text).toContain(seeded.toLocaleString('en-US'));
      expect(text).toContain('=Checkout widget');
      expect(text).toContain('COMPLIANCE SCORE');
      expect(text).toContain('Health checks');
      expect(text).toContain('Risk severity');
      expect(pages[0]).toContain(`Page 1 of ${pages.length}`);
      expect(pages.at(-1)).toContain(`Page ${pages.length} of ${pages.length}`);
    }
  });

  it('the CSV: text/csv, attachment report_<id>.csv, the documented columns, a hostile key name escaped', async () => {
    const { t, owner } = await setup();
    const key = (await t.s.keys.create({ orgId: t.orgId, plan: 'growth', name: '=HYPERLINK("https://evil.example")', env: 'live', scopes: ['human'], demo: false, createdBy: null })).key.id;
    const seeded = await seedHistory(t, { from: '2026-01-01', to: '2026-01-31', perDay: 10, keyIds: [key] });
    const job = await done(t, owner, { ...BODY, report_type: 'usage', format: 'csv' });
    const res = await t.call('GET', `/api/reports/exports/${job.id}/download`, { cookie: owner });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename=report_${job.id}.csv`);
    const rows = Papa.parse<string[]>((await res.text()).replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;
    expect(rows[0]).toEqual(['section', 'item', 'item_id', 'date', 'metric', 'value']);
    expect(rows).toContainEqual(['usage_by_api_key', `'=HYPERLINK("https://evil.example")`, key, '', 'count', String(seeded)]);
  });

  it('404 Export file not found or expired before success and 24 hours after the file was made; the row stays', async () => {
    const s = await setup();
    const { t } = s;
    let { owner } = s;
    const { body: c } = await create(t, owner);
    const early = await t.json('GET', `/api/reports/exports/${c.id}/download`, { cookie: owner });
    expect(early.status).toBe(404);
    expect(early.body).toEqual({ error: 'Export file not found or expired' });
    await t.s.exports.drain();
    expect((await t.call('GET', `/api/reports/exports/${c.id}/download`, { cookie: owner })).status).toBe(200);
    t.clock.advance(24 * HOUR - 1000);
    // (Sessions end after 12 idle hours: sign in again.)
    const again = await t.login();
    expect((await t.call('GET', `/api/reports/exports/${c.id}/download`, { cookie: again })).status).toBe(200);
    t.clock.advance(1000);
    owner = again;
    const late = await t.json('GET', `/api/reports/exports/${c.id}/download`, { cookie: owner });
    expect(late.status).toBe(404);
    expect(late.body).toEqual({ error: 'Export file not found or expired' });
    const job = (await t.json<ExportJob>('GET', `/api/reports/exports/${c.id}`, { cookie: owner })).body;
    expect(job).toMatchObject({ status: 'succeeded', download_url: null });
    // The sweeper removes the file; the row stays.
    const files = async () => (await t.sql<{ n: number }>('SELECT COUNT(*) AS n FROM report_export_files'))[0]!.n;
    expect(await files()).toBe(1);
    expect(await t.s.exports.sweep()).toBe(1);
    expect(await files()).toBe(0);
    expect((await t.json<ExportList>('GET', '/api/reports/exports', { cookie: owner })).body.exports[0]).toMatchObject({ id: c.id, status: 'succeeded' });
    expect(await t.s.exports.sweep()).toBe(0);
  });

  it('members download the team\'s files; other organisations get 404 Export job not found', async () => {
    const { t, owner } = await setup();
    const job = await done(t, owner);
    const member = await addMember(t, 'mia@example.test', 'member');
    expect((await t.call('GET', job.download_url!, { cookie: member })).status).toBe(200);
    const other = await t.addOrg({ plan: 'pro' });
    const r = await t.json('GET', job.download_url!, { cookie: await other.login() });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: 'Export job not found' });
    expect((await t.call('GET', job.download_url!)).status).toBe(401);
  });
});

describe('DELETE /api/reports/exports/{id}', () => {
  it('cancels a queued export: 200 {message, id}; it is gone afterwards and never runs', async () => {
    const { t, owner, calls } = await setup();
    const { body: c } = await create(t, owner);
    const r = await t.json('DELETE', `/api/reports/exports/${c.id}`, { cookie: owner });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ message: 'Export job cancelled', id: c.id });
    await t.s.exports.drain();
    expect(calls).toEqual([]);
    expect((await t.json('GET', `/api/reports/exports/${c.id}`, { cookie: owner })).body).toEqual({ error: 'Export job not found' });
    expect((await t.json('DELETE', `/api/reports/exports/${c.id}`, { cookie: owner })).status).toBe(404);
  });

  it('400 Cannot cancel export with status: running / succeeded / failed, and nothing changes', async () => {
    const { t, owner } = await setup();
    const { body: running } = await create(t, owner);
    await t.s.exports.repo.claim(t.s.engine.q, new Date(t.clock.now()).toISOString(), new Date(t.clock.now() + 60_000).toISOString());
    const r = await t.json('DELETE', `/api/reports/exports/${running.id}`, { cookie: owner });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'Cannot cancel export with status: running' });
    await t.s.exports.recover();
    const ok = await done(t, owner);
    expect((await t.json('DELETE', `/api/reports/exports/${ok.id}`, { cookie: owner })).body).toEqual({ error: 'Cannot cancel export with status: succeeded' });
    expect((await t.json<ExportJob>('GET', `/api/reports/exports/${ok.id}`, { cookie: owner })).body.status).toBe('succeeded');
  });

  it('its maker, the owner or an admin cancels; another member gets 403; other organisations 404', async () => {
    const { t, owner } = await setup();
    const mia = await addMember(t, 'mia@example.test', 'member');
    const max = await addMember(t, 'max@example.test', 'member');
    const admin = await addMember(t, 'ada@example.test', 'admin');
    const ofOwner = (await create(t, owner)).body.id;
    const ofMia = (await create(t, mia)).body.id;
    const ofMax = (await create(t, max)).body.id;
    const denied = await t.json('DELETE', `/api/reports/exports/${ofOwner}`, { cookie: mia });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ error: 'Permission denied' });
    expect((await t.json('DELETE', `/api/reports/exports/${ofMia}`, { cookie: mia })).status).toBe(200);
    expect((await t.json('DELETE', `/api/reports/exports/${ofMax}`, { cookie: admin })).status).toBe(200);
    const other = await t.addOrg({ plan: 'pro' });
    const r = await t.json('DELETE', `/api/reports/exports/${ofOwner}`, { cookie: await other.login() });
    expect(r).toMatchObject({ status: 404, body: { error: 'Export job not found' } });
    expect((await t.json('DELETE', `/api/reports/exports/${ofOwner}`, { cookie: owner })).status).toBe(200);
  });
});

describe('feature flag REPORT_EXPORTS_ENABLED', () => {
  it('off (or reporting off): every export route answers 404 and nothing is queued', async () => {
    const { t, owner } = await setup('pro');
    const id = (await create(t, owner)).body.id;
    t.s.reports.flags.set({ exports: false });
    const gone = { error: 'Report exports are not enabled on this installation' };
    expect(await t.json('POST', '/api/reports/exports', { cookie: owner, body: BODY })).toMatchObject({ status: 404, body: gone });
    for (const [method, path] of [['GET', ''], ['GET', `/${id}`], ['GET', `/${id}/download`], ['DELETE', `/${id}`]] as const) {
      expect(await t.json(method, `/api/reports/exports${path}`, { cookie: owner }), `${method} ${path}`).toMatchObject({ status: 404, body: gone });
    }
    t.s.reports.flags.set({ exports: true, reporting: false });
    expect((await create(t, owner)).status).toBe(404);
    t.s.reports.flags.set({ reporting: true });
    expect((await t.json<ExportList>('GET', '/api/reports/exports', { cookie: owner })).body.total).toBe(1);
  });
});

// SQLite's recovery at a start (the process that held a job is gone); on PostgreSQL leases do it,
// with another instance killed mid-render (postgres.test.ts).
describe.skipIf(TEST_ENGINE === 'postgres')('a durable queue', () => {
  it('a service process killed (SIGKILL) while rendering leaves the job running; the next start queues it again and it succeeds', async () => {
    const { t, owner } = await setup();
    const id = (await create(t, owner)).body.id;
    const fixture = fixtureCommand('export-crash-worker.ts');
    const child = spawn(process.execPath, [...fixture, t.dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => { if (d.toString().includes('running')) resolve(); });
      child.on('exit', (code) => reject(new Error(`the child ended early (${code})`)));
    });
    const died = new Promise((r) => child.on('exit', r));
    child.kill('SIGKILL');
    await died;
    const org = (await t.s.accounts.organization())!;
    expect(await t.s.exports.get(org, id)).toMatchObject({ status: 'running' });
    // The next start: recovery puts it back in the queue, and it runs to the end.
    expect(await t.s.exports.recover()).toEqual({ requeued: 1, failed: 0 });
    await t.s.exports.drain();
    expect(await t.s.exports.get(org, id)).toMatchObject({ status: 'succeeded' });
    expect((await t.s.exports.repo.byId(t.s.engine.q, org.id, id))!.attempts).toBe(2);
    expect((await t.call('GET', `/api/reports/exports/${id}/download`, { cookie: owner })).status).toBe(200);
  }, 60_000);

  it('after a crash, a job left running is queued again and finishes; after its last try it fails as interrupted', async () => {
    const { t, owner } = await setup();
    const a = (await create(t, owner)).body.id;
    const b = (await create(t, owner)).body.id;
    // The process dies under both jobs: they stay "running" in the database.
    const now = new Date(t.clock.now()).toISOString();
    const lease = new Date(t.clock.now() + 60_000).toISOString();
    await t.s.exports.repo.claim(t.s.engine.q, now, lease);
    await t.s.exports.repo.claim(t.s.engine.q, now, lease);
    t.s.db.prepare('UPDATE report_exports SET attempts = ? WHERE id = ?').run(MAX_ATTEMPTS, b);
    t.s.db.close();

    // A new process on the same data directory.
    const s2 = await compose({
      dataDir: t.dataDir, clock: new ManualClock(t.clock.now()), logger: createLogger({ dataDir: t.dataDir }),
      exports: { bundle: (type, who) => bundleFor(type, who), runner: { inProcess: true } },
    });
    try {
      // Their leases have not run out: on SQLite a start takes every running job as a dead process's.
      expect(await s2.exports.recover()).toEqual({ requeued: 1, failed: 1 });
      expect(await s2.exports.repo.orphans(s2.engine.q, null)).toEqual([]);
      await s2.exports.drain();
      const org = (await s2.accounts.organization())!;
      expect(await s2.exports.get(org, a)).toMatchObject({ status: 'succeeded' });
      expect((await s2.exports.repo.byId(s2.engine.q, org.id, a))!.attempts).toBe(2);
      expect(await s2.exports.get(org, b)).toMatchObject({ status: 'failed', error_code: 'interrupted' });
    } finally {
      s2.close();
    }
  });

  it('renders in a worker thread, off the HTTP loop', async () => {
    const t = await testService({ plan: 'growth' });
    const owner = await t.login();
    await seedHistory(t, { from: '2026-01-01', to: '2026-01-31', perDay: 20 });
    const job = await done(t, owner, { ...BODY, report_type: 'full-v21' });
    expect(job.status).toBe('succeeded');
    expect(t.s.exports.renderedIn()).toBe('worker');
    const res = await t.call('GET', job.download_url!, { cookie: owner });
    expect(Buffer.from(new Uint8Array(await res.arrayBuffer()).subarray(0, 5)).toString()).toBe('%PDF-');
  }, 60_000);
});
