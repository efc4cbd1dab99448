// One number for "awaiting approval" (issue 36): the approval queue, Home, the reporting API and
// the PDF and CSV exports count the same clearances as waiting, through the real flows: a
// clearance approved, one sent back to its analyst, one withdrawn by a new decision and one
// overridden with four-eyes off are each counted (or not) the same way everywhere.
import { execFileSync } from 'node:child_process';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Home } from '../../../../src-shared/contracts/home';
import type { ExportJob, Overview } from '../../../../src-shared/contracts/reports';
import type { ApprovalQueue, DispositionResponse, ReasonCode } from '../../../../src-shared/contracts/review';
import { closeAll, testService, type TestService } from '../harness';
import { disposition, PUTIN, runBatch, type BatchRun } from '../review-support';

afterAll(closeAll);

const ADMIN = { email: 'admin@example.test', password: 'admin password 1' };
const ANALYST = { email: 'analyst@example.test', password: 'analyst password' };
const PUTIN_DOB = { ...PUTIN, date_of_birth: '1952-10-07' };

let t: TestService;
let owner: string;
let admin: string;
let analyst: string;
let batch: BatchRun;
let day: string;

beforeAll(async () => {
  t = await testService({ plan: 'enterprise', exports: { runner: { inProcess: true } } });
  expect(await t.s.screening.ready(60_000)).not.toBeNull();
  await t.s.accounts.addUser({ orgId: t.orgId, email: ADMIN.email, name: 'Ad Admin', password: ADMIN.password, role: 'admin' });
  await t.s.accounts.addUser({ orgId: t.orgId, email: ANALYST.email, name: 'An Analyst', password: ANALYST.password, role: 'member' });
  owner = await t.login();
  admin = await t.login(ADMIN.email, ADMIN.password);
  analyst = await t.login(ANALYST.email, ANALYST.password);
  batch = await runBatch(t, analyst, [PUTIN, PUTIN, PUTIN, PUTIN, PUTIN, PUTIN_DOB]);
  day = new Date(t.clock.now()).toISOString().slice(0, 10);
}, 120_000);

async function clear(row: number, reason: ReasonCode = 'different_dob', extra: object = {}): Promise<DispositionResponse> {
  const r = await t.json<DispositionResponse>('POST', '/api/review/dispositions', {
    cookie: analyst, body: disposition(batch.id, batch.row(row), 'cleared_false_positive', { reason_code: reason, ...extra }),
  });
  expect(r.status).toBe(200);
  return r.body;
}

/** Every place that says how many clearances await approval, as a reader of each would see it. */
async function counts(): Promise<Record<'queue' | 'queue_listed' | 'home' | 'reports' | 'csv' | 'pdf', number>> {
  const queue = (await t.json<ApprovalQueue>('GET', '/api/review/approvals', { cookie: admin })).body;
  const home = (await t.json<Home>('GET', `/api/home?since=${encodeURIComponent(`${day}T00:00:00.000Z`)}`, { cookie: admin })).body;
  const range = { env: 'test', from: day, to: day } as const;
  const overview = (await t.json<{ data: Overview }>('GET', `/api/reports/overview?env=test&from=${day}&to=${day}`, { cookie: owner })).body.data;
  const exported = async (format: 'csv' | 'pdf') => {
    const { body } = await t.json<{ id: number }>('POST', '/api/reports/exports', { cookie: owner, body: { report_type: 'overview', format, ...range } });
    await t.s.exports.drain();
    const job = (await t.json<ExportJob>('GET', `/api/reports/exports/${body.id}`, { cookie: owner })).body;
    expect(job.status).toBe('succeeded');
    return new Uint8Array(await (await t.call('GET', job.download_url!, { cookie: owner })).arrayBuffer());
  };
  const csvRows = Papa.parse<string[]>(new TextDecoder().decode(await exported('csv')).replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;
  const csvCell = csvRows.find((r) => r[0] === 'screening' && r[4] === 'awaiting_approval');
  const pdf = execFileSync('/usr/bin/pdftotext', ['-layout', '-', '-'], { input: await exported('pdf') }).toString();
  const pdfLine = pdf.split('\n').map((l) => l.trim().split(/\s{2,}/)).find((cells) => cells[0] === 'Awaiting a second approval');
  return {
    queue: queue.waiting, queue_listed: queue.clearances.length, home: home.clearances_awaiting ?? -1, reports: overview.screening.awaiting_approval,
    csv: Number(csvCell?.[5] ?? -1), pdf: Number(pdfLine?.[1] ?? -1),
  };
}

const all = (n: number) => ({ queue: n, queue_listed: n, home: n, reports: n, csv: n, pdf: n });

describe('awaiting approval: one number everywhere', () => {
  it('none waiting: 0 everywhere', async () => {
    expect(await counts()).toEqual(all(0));
  });

  it('four clearances asked for with four-eyes on: 4 everywhere', async () => {
    expect((await t.json('PATCH', '/api/settings', { cookie: owner, body: { four_eyes: true } })).status).toBe(200);
    for (const row of [2, 3, 4, 5]) expect((await clear(row)).status).toBe('pending_approval');
    expect(await counts()).toEqual(all(4));
  });

  it('one approved, one sent back to its analyst, one withdrawn by a new decision: 1 everywhere', async () => {
    const waiting = (await t.json<ApprovalQueue>('GET', '/api/review/approvals', { cookie: admin })).body.clearances;
    const id = (row: number) => waiting.find((c) => c.row === row)!.id;
    expect((await t.json('POST', `/api/review/approvals/${id(2)}/approve`, { cookie: admin })).status).toBe(200);
    expect((await t.json('POST', `/api/review/approvals/${id(3)}/send-back`, { cookie: admin, body: { note: 'Check the passport again' } })).status).toBe(200);
    const escalated = await t.json('POST', '/api/review/dispositions', { cookie: analyst, body: disposition(batch.id, batch.row(4), 'escalated') });
    expect(escalated.status).toBe(200);
    expect(await counts()).toEqual(all(1));
  });

  it('an override of the evidence waits with four-eyes off too, and is counted the same way', async () => {
    expect((await t.json('PATCH', '/api/settings', { cookie: owner, body: { four_eyes: false } })).status).toBe(200);
    expect((await clear(7, 'name_only_common_name', { has_note: true, override_note: true })).clearance).toMatchObject({ override: 'name_only_dob_agrees' });
    expect(await counts()).toEqual(all(2));
  });
});
