// List freshness (issue 23) through the HTTP app: each list's published_at and stale in
// GET /api/screening/lists and in every screening answer's list_versions (API, console, batch),
// judged by the caller's organisation's windows at answer time; the windows setting (read by
// everyone, changed by owners and admins, audited, bounded). The test clock starts 2026-01-15.
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../../../src-shared/catalog';
import type { AuditPage } from '../../../../src-shared/contracts/audit';
import type { BatchInfo } from '../../../../src-shared/contracts/batch';
import type { ListsStatus } from '../../../../src-shared/contracts/lists';
import type { ListFreshnessSettings } from '../../../../src-shared/contracts/organization';
import type { ScreeningResponse } from '../../../../src-shared/contracts/screening';
import { closeAll, testService, type TestService } from '../harness';

let t: TestService;
let owner: string;
const PASSWORD = 'a member password';
const as = async (role: Role) => {
  if (role === 'owner') return owner;
  const email = `${role}@example.test`;
  if (!await t.s.accounts.userByEmail(email)) await t.s.accounts.addUser({ orgId: t.orgId, email, name: role, password: PASSWORD, role });
  return t.login(email, PASSWORD);
};
const DAY = 86_400_000;
const CLEAR = { type: 'individual', first_name: 'Ingeborg', last_name: 'Abrahamsen', date_of_birth: '1972-11-21' };
const setWindows = async (body: Partial<ListFreshnessSettings>) => {
  const r = await t.json<ListFreshnessSettings>('PATCH', '/api/settings/list-freshness', { cookie: owner, body });
  expect(r.status).toBe(200);
  return r.body;
};
const lists = async (cookie = owner) => (await t.json<ListsStatus>('GET', '/api/screening/lists', { cookie })).body;

beforeAll(async () => {
  t = await testService({ plan: 'pro' });
  expect(await t.s.screening.ready(60_000)).not.toBeNull();
  owner = await t.login();
}, 90_000);
afterAll(closeAll);

describe('GET /api/screening/lists: published_at, age and stale per list', () => {
  it('defaults 14/180 days: the shipped OFAC SDN (retrieved 2024-05-03, no date in the file) is stale in 2026', async () => {
    await setWindows({ sanctions_stale_days: 14, pep_stale_days: 180 });
    const body = await lists();
    expect(body.stale_windows).toEqual({ sanctions_stale_days: 14, pep_stale_days: 180 });
    const sdn = body.lists.find((l) => l.source === 'us_ofac_sdn')!;
    expect(sdn).toMatchObject({ list_date: null, retrieval_date: '2024-05-03', published_at: '2024-05-03', stale: true });
    const now = new Date(t.clock.now()).toISOString().slice(0, 10);
    expect(sdn.age_days).toBe(Math.round((Date.parse(now) - Date.parse('2024-05-03')) / DAY));
    // Every list: published_at is its list_date, else its retrieval date.
    for (const l of body.lists) expect(l.published_at, l.source).toBe(l.list_date ?? l.retrieval_date);
  });

  it('the window decides: stale exactly when the age exceeds it, and "now" moves with the service clock', async () => {
    const sdn = (await lists()).lists.find((l) => l.source === 'us_ofac_sdn')!;
    const age = sdn.age_days!;
    await setWindows({ sanctions_stale_days: age });
    expect((await lists()).lists.find((l) => l.source === 'us_ofac_sdn')!.stale).toBe(false);
    // Screening answers too (on the same loaded index, screened the day before and the day after).
    const k = await t.key();
    const answered = async () => (await t.json<ScreeningResponse>('POST', '/api/compliance/v1/screen', { key: k.api_key, body: { subject: CLEAR } }))
      .body.screening.list_versions.find((x) => x.source === 'us_ofac_sdn')!.stale;
    expect(await answered()).toBe(false);
    // A day later (sessions idle out meanwhile: sign in again).
    t.clock.advance(DAY);
    owner = await t.login();
    const later = (await lists()).lists.find((l) => l.source === 'us_ofac_sdn')!;
    expect(later).toMatchObject({ age_days: age + 1, stale: true });
    expect(await answered()).toBe(true);
    t.clock.advance(-DAY);
    owner = await t.login();
    await setWindows({ sanctions_stale_days: 14 });
  });

  it('PEP and RCA lists use pep_stale_days, the other kinds sanctions_stale_days', async () => {
    await setWindows({ sanctions_stale_days: 3650, pep_stale_days: 1 });
    const body = await lists();
    for (const l of body.lists) {
      if (l.published_at === null) continue;
      const window = l.kind === 'pep' || l.kind === 'rca' ? 1 : 3650;
      expect(l.stale, l.source).toBe(l.age_days! > window);
      expect(l.stale_after_days, l.source).toBe(window);
    }
    await setWindows({ sanctions_stale_days: 14, pep_stale_days: 180 });
  });
});

describe('list_versions of every screening answer carry published_at and stale', () => {
  it('API screen and rescreen, console screen, batch: stale by the payer organisation\'s windows', async () => {
    const k = await t.key();
    const api = async () => (await t.json<ScreeningResponse>('POST', '/api/compliance/v1/screen', { key: k.api_key, body: { subject: CLEAR } })).body;
    let r = await api();
    const v = r.screening.list_versions.find((x) => x.source === 'us_ofac_sdn')!;
    expect(v).toMatchObject({ published_at: '2024-05-03', stale: true });
    await setWindows({ sanctions_stale_days: 3650 });
    r = await api();
    expect(r.screening.list_versions.find((x) => x.source === 'us_ofac_sdn')).toMatchObject({ published_at: '2024-05-03', stale: false });

    const re = await t.json<ScreeningResponse>('POST', '/api/compliance/v1/rescreen', {
      key: k.api_key, body: { subject: CLEAR, previous_screening_id: r.id },
    });
    expect(re.status).toBe(200);
    expect(re.body.screening.list_versions.every((x) => typeof x.stale === 'boolean' && 'published_at' in x)).toBe(true);
    expect(re.body.screening.list_versions.find((x) => x.source === 'us_ofac_sdn')!.stale).toBe(false);

    await setWindows({ sanctions_stale_days: 14 });
    const console = await t.json<ScreeningResponse>('POST', '/api/console/screen?env=test', { cookie: owner, body: { subject: CLEAR } });
    expect(console.body.screening.list_versions.find((x) => x.source === 'us_ofac_sdn')!.stale).toBe(true);

    const batch = await t.json<BatchInfo>('POST', '/api/console/batches', { cookie: owner, body: { env: 'test', total_rows: 1 } });
    expect(batch.status).toBe(201);
    expect(batch.body.list_versions.find((x) => x.source === 'us_ofac_sdn')).toMatchObject({ published_at: '2024-05-03', stale: true });
    await t.json('POST', `/api/console/batches/${batch.body.id}/cancel`, { cookie: owner });
  });

  it('another organisation\'s windows do not change this one\'s answers', async () => {
    const other = await t.addOrg({ name: 'Other Org' });
    const theirs = await other.login();
    expect((await t.json('PATCH', '/api/settings/list-freshness', { cookie: theirs, body: { sanctions_stale_days: 3650 } })).status).toBe(200);
    expect((await lists(theirs)).lists.find((l) => l.source === 'us_ofac_sdn')!.stale).toBe(false);
    expect((await lists()).lists.find((l) => l.source === 'us_ofac_sdn')!.stale).toBe(true);
    const k = await t.key();
    const r = await t.json<ScreeningResponse>('POST', '/api/compliance/v1/screen', { key: k.api_key, body: { subject: CLEAR } });
    expect(r.body.screening.list_versions.find((x) => x.source === 'us_ofac_sdn')!.stale).toBe(true);
  });
});

describe('GET/PATCH /api/settings/list-freshness', () => {
  it('members read it; owners and admins change either window; each change is audited with old and new days', async () => {
    const member = await as('member');
    expect((await t.json('GET', '/api/settings/list-freshness', { cookie: member })).body).toEqual({ sanctions_stale_days: 14, pep_stale_days: 180 });
    const admin = await as('admin');
    const r = await t.json('PATCH', '/api/settings/list-freshness', { cookie: admin, body: { pep_stale_days: 90 } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ sanctions_stale_days: 14, pep_stale_days: 90 });
    // Unchanged values record nothing.
    await t.json('PATCH', '/api/settings/list-freshness', { cookie: owner, body: { sanctions_stale_days: 14, pep_stale_days: 90 } });
    const log = await t.json<AuditPage>('GET', '/api/audit?action=settings.changed', { cookie: owner });
    const mine = log.body.entries.filter((e) => e.setting === 'pep_stale_days' && e.actor.role === 'admin');
    expect(mine.map((e) => [e.from_value, e.to_value])).toEqual([['180', '90']]);
    await setWindows({ pep_stale_days: 180 });
  });

  it('400 for out-of-range, non-integer, unknown or empty bodies; 1 and 3650 are taken', async () => {
    for (const body of [{ sanctions_stale_days: 0 }, { pep_stale_days: 3651 }, { sanctions_stale_days: 1.5 }, { pep_stale_days: '30' }, {}, { stale_days: 5 }]) {
      const r = await t.json('PATCH', '/api/settings/list-freshness', { cookie: owner, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
    }
    expect((await setWindows({ sanctions_stale_days: 1, pep_stale_days: 3650 }))).toEqual({ sanctions_stale_days: 1, pep_stale_days: 3650 });
    await setWindows({ sanctions_stale_days: 14, pep_stale_days: 180 });
  });

  it('members get 403 and change nothing; signed out 401', async () => {
    const r = await t.json('PATCH', '/api/settings/list-freshness', { cookie: await as('member'), body: { sanctions_stale_days: 3650 } });
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ error: 'Permission denied' });
    expect((await t.json('GET', '/api/settings/list-freshness', { cookie: owner })).body).toMatchObject({ sanctions_stale_days: 14 });
    expect((await t.json('GET', '/api/settings/list-freshness')).status).toBe(401);
    expect((await t.json('PATCH', '/api/settings/list-freshness', { body: { sanctions_stale_days: 3 } })).status).toBe(401);
  });
});

describe('report exports state the lists loaded at export time', () => {
  it('PDF and CSV name each list with its published date, checksum prefix and stale flag for the organisation', async () => {
    const e = await testService({ plan: 'growth', exports: { runner: { inProcess: true } } });
    expect(await e.s.screening.ready(60_000)).not.toBeNull();
    const cookie = await e.login();
    const sdn = e.s.screening.current()!.versions.find((v) => v.source === 'us_ofac_sdn')!;
    const exportOf = async (format: 'pdf' | 'csv') => {
      const c = await e.json<{ id: number }>('POST', '/api/reports/exports', { cookie, body: { report_type: 'overview', format, env: 'live', from: '2026-01-01', to: '2026-01-14' } });
      expect(c.status).toBe(201);
      await e.s.exports.drain();
      const res = await e.call('GET', `/api/reports/exports/${c.body.id}/download`, { cookie });
      expect(res.status).toBe(200);
      return new Uint8Array(await res.arrayBuffer());
    };
    const csvRows = (bytes: Uint8Array) => Papa.parse<string[]>(new TextDecoder().decode(bytes).replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;

    let rows = csvRows(await exportOf('csv'));
    const loaded = e.s.screening.current()!.versions;
    expect(rows.filter((r) => r[0] === 'lists_loaded').map((r) => r[1]).sort()).toEqual(loaded.map((v) => v.source).sort());
    expect(rows).toContainEqual(['lists_loaded', 'us_ofac_sdn', sdn.sha256.slice(0, 12), '2024-05-03', 'stale', '1']);
    // The organisation's window, at export time.
    await e.json('PATCH', '/api/settings/list-freshness', { cookie, body: { sanctions_stale_days: 3650 } });
    rows = csvRows(await exportOf('csv'));
    expect(rows).toContainEqual(['lists_loaded', 'us_ofac_sdn', sdn.sha256.slice(0, 12), '2024-05-03', 'stale', '0']);

    await e.json('PATCH', '/api/settings/list-freshness', { cookie, body: { sanctions_stale_days: 14 } });
    const pdf = await exportOf('pdf');
    expect(Buffer.from(pdf.subarray(0, 5)).toString()).toBe('%PDF-');
    // FRESHNESS_PDF_OUT=file.pdf keeps the PDF to look at (pdftoppm -r 60 -png).
    if (process.env.FRESHNESS_PDF_OUT) writeFileSync(process.env.FRESHNESS_PDF_OUT, pdf);
    if (existsSync('/usr/bin/pdftotext')) {
      const text = execFileSync('/usr/bin/pdftotext', ['-layout', '-', '-'], { input: pdf }).toString();
      expect(text).toContain('Lists loaded at export time');
      expect(text).toMatch(new RegExp(`us_ofac_sdn\\s+Sanctions\\s+2024-05-03\\s+${sdn.sha256.slice(0, 12)}\\s+Stale`));
    }
  }, 120_000);
});
