// The approval queue (issue 26): owners and admins list the organisation's clearances waiting for
// a second person and approve them, or send them back with a note, in their own session; the
// analyst's console reads what became of its clearances. Never one's own clearance; another
// organisation's answers as unknown; members are refused; the send-back note lives in service
// memory only (never in the database, the audit log or the logs).
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditPage } from '../../../../src-shared/contracts/audit';
import type {
  ApprovalQueue, ApproveResponse, ClearanceOutcomes, DispositionResponse, SendBackResponse,
} from '../../../../src-shared/contracts/review';
import { STRONG_SANCTIONS_SCORE } from '../../../../src-shared/contracts/review';
import { closeAll, testService, type OtherOrg, type TestService } from '../harness';
import { filesUnder } from '../privacy';
import { disposition, PUTIN, runBatch, type BatchRun } from '../review-support';

afterAll(closeAll);

const ADMIN = { email: 'admin@example.test', password: 'admin password 1' };
const ANALYST = { email: 'analyst@example.test', password: 'analyst password' };

let t: TestService;
let owner: string;
let admin: string;
let analyst: string;
let batch: BatchRun;
let other: OtherOrg;
let otherOwner: string;

type Err = { error?: string; field?: string };

beforeAll(async () => {
  t = await testService({ plan: 'pro' });
  expect(await t.s.screening.ready(60_000)).not.toBeNull();
  await t.s.accounts.addUser({ orgId: t.orgId, email: ADMIN.email, name: 'Ad Admin', password: ADMIN.password, role: 'admin' });
  await t.s.accounts.addUser({ orgId: t.orgId, email: ANALYST.email, name: 'An Analyst', password: ANALYST.password, role: 'member' });
  owner = await t.login();
  admin = await t.login(ADMIN.email, ADMIN.password);
  analyst = await t.login(ANALYST.email, ANALYST.password);
  expect((await t.json('PATCH', '/api/settings', { cookie: owner, body: { four_eyes: true } })).status).toBe(200);
  batch = await runBatch(t, analyst, [PUTIN, PUTIN, PUTIN, PUTIN, PUTIN, PUTIN, PUTIN, PUTIN], (i) => ({ client_reference_id: `cust-${i}` }));
  other = await t.addOrg({ name: 'Other Org', plan: 'pro' });
  otherOwner = await other.login();
}, 120_000);

/** The analyst (or `cookie`) clears row `row` of `b` as a false positive: with four-eyes on it waits. */
async function clear(row: number, cookie = analyst, b = batch): Promise<string> {
  const r = await t.json<DispositionResponse>('POST', '/api/review/dispositions', {
    cookie, body: disposition(b.id, b.row(row), 'cleared_false_positive', { reason_code: 'different_dob', has_note: true }),
  });
  expect(r.status).toBe(200);
  expect(r.body.status).toBe('pending_approval');
  return r.body.clearance!.id;
}

const queue = (cookie: string) => t.json<ApprovalQueue & Err>('GET', '/api/review/approvals', { cookie });
const approve = (id: string, cookie: string) => t.json<ApproveResponse & Err>('POST', `/api/review/approvals/${id}/approve`, { cookie });
const sendBack = (id: string, cookie: string, note: unknown) =>
  t.json<SendBackResponse & Err>('POST', `/api/review/approvals/${id}/send-back`, { cookie, body: { note } });
const outcomes = (cookie: string, b = batch.id) => t.json<ClearanceOutcomes & Err>('GET', `/api/review/clearances?batch_id=${b}`, { cookie });
const auditRows = async (action: string) => (await t.json<AuditPage>('GET', `/api/audit?action=${action}`, { cookie: owner })).body.entries;

describe('GET /api/review/approvals', () => {
  it('lists a waiting clearance with ids, codes, scores and evidence flags, and nothing about the subject', async () => {
    const id = await clear(2);
    const r = await queue(admin);
    expect(r.status).toBe(200);
    expect(r.res.headers.get('cache-control')).toBe('no-store');
    const item = r.body.clearances.find((c) => c.id === id);
    expect(item).toEqual({
      id, batch_id: batch.id, row: 2, screening_id: batch.row(2).id,
      requested_by: { user_id: expect.any(Number), email: ANALYST.email, name: 'An Analyst' }, requested_at: expect.any(String),
      reason_code: 'different_dob', override: null, has_note: true, yours: false, seen: null,
      matches: batch.row(2).matches.filter((m) => !m.cleared).map((m) => ({ entity_id: m.entity_id, list: m.list, score: m.score, evidence: expect.any(Object) })),
    });
    expect(item!.matches.some((m) => m.list === 'sanctions' && m.score! >= STRONG_SANCTIONS_SCORE)).toBe(true);
    // The subject, the listed record and the client reference stay in the analyst's console.
    const text = JSON.stringify(r.body);
    for (const word of ['Vladimir', 'Putin', 'cust-0']) expect(text).not.toContain(word);
    for (const m of batch.row(2).matches) expect(text).not.toContain(m.name);
  });

  it('refuses a member (403) and the signed out (401)', async () => {
    expect(await queue(analyst)).toMatchObject({ status: 403, body: { error: 'Permission denied' } });
    expect((await t.json('GET', '/api/review/approvals')).status).toBe(401);
  });

  it('lists only the organisation\'s own clearances', async () => {
    const id = await clear(3);
    const r = await queue(otherOwner);
    expect(r.status).toBe(200);
    expect(r.body.clearances.map((c) => c.id)).not.toContain(id);
    expect((await queue(owner)).body.clearances.map((c) => c.id)).toContain(id);
  });
});

describe('POST /api/review/approvals/:id/approve', () => {
  it('an admin approves in their own session: audited as theirs, gone from the queue, and the analyst sees it approved', async () => {
    const id = await clear(4);
    const r = await approve(id, admin);
    expect(r.status).toBe(200);
    expect(r.body.clearance).toMatchObject({ id, state: 'approved', requested_by: ANALYST.email, approved_by: ADMIN.email, approved_at: expect.any(String) });
    const row = (await auditRows('clearance.approved')).find((e) => e.clearance_id === id);
    expect(row).toMatchObject({
      actor: { email: ADMIN.email, role: 'admin' }, approver: { email: ADMIN.email }, batch_id: batch.id, row_number: 4,
      disposition: 'cleared_false_positive', reason_code: 'different_dob', has_note: true,
    });
    expect((await queue(admin)).body.clearances.map((c) => c.id)).not.toContain(id);
    const seen = (await outcomes(analyst)).body.clearances.find((c) => c.id === id);
    expect(seen).toMatchObject({ state: 'approved', approved_by: ADMIN.email, note: null });
    // Once decided it cannot be decided again.
    expect(await approve(id, owner)).toMatchObject({ status: 409, body: { error: 'This clearance is already approved' } });
    expect((await sendBack(id, owner, 'too late')).status).toBe(409);
  });

  it('never one\'s own clearance: the owner who cleared it is refused, marked as theirs in the queue; an admin approves it', async () => {
    const id = await clear(5, owner);
    expect((await queue(owner)).body.clearances.find((c) => c.id === id)).toMatchObject({ yours: true });
    expect((await queue(admin)).body.clearances.find((c) => c.id === id)).toMatchObject({ yours: false });
    const own = await approve(id, owner);
    expect(own.status).toBe(403);
    expect(own.body.error).toContain('cannot approve it');
    expect((await sendBack(id, owner, 'my own')).status).toBe(403);
    expect((await approve(id, admin)).status).toBe(200);
  });

  it('refuses a member (403), another organisation (404 as unknown), an unknown id (404) and the signed out (401)', async () => {
    const id = await clear(6);
    expect(await approve(id, analyst)).toMatchObject({ status: 403, body: { error: 'Permission denied' } });
    expect(await approve(id, otherOwner)).toMatchObject({ status: 404, body: { error: 'Clearance not found' } });
    expect((await approve('clr_doesnotexist0000', admin)).status).toBe(404);
    expect((await t.json('POST', `/api/review/approvals/${id}/approve`)).status).toBe(401);
    // Still waiting, for the organisation's own approvers.
    expect((await queue(admin)).body.clearances.map((c) => c.id)).toContain(id);
  });
});

describe('POST /api/review/approvals/:id/send-back', () => {
  it('sends a clearance back with a note: the analyst reads the note, the audit log only that it was sent back', async () => {
    const id = await clear(7);
    const note = 'The listed date of birth matches exactly: check the passport again.';
    const r = await sendBack(id, admin, note);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      note_kept: true,
      clearance: expect.objectContaining({ id, state: 'sent_back', sent_back_by: ADMIN.email, sent_back_at: expect.any(String), approved_by: null }),
    });
    expect((await queue(admin)).body.clearances.map((c) => c.id)).not.toContain(id);
    const seen = await outcomes(analyst);
    expect(seen.res.headers.get('cache-control')).toBe('no-store');
    expect(seen.body.clearances.find((c) => c.id === id)).toMatchObject({ state: 'sent_back', sent_back_by: ADMIN.email, note });
    // Another analyst (here the admin) reads no one else's clearances.
    expect((await outcomes(admin)).body.clearances).toEqual([]);
    const row = (await auditRows('clearance.sent_back')).find((e) => e.clearance_id === id);
    expect(row).toMatchObject({ actor: { email: ADMIN.email, role: 'admin' }, target: { email: ANALYST.email }, batch_id: batch.id, row_number: 7, reason_code: 'different_dob' });
    expect(JSON.stringify(row)).not.toContain('passport');
    expect(await t.s.audit.verify()).toMatchObject({ ok: true });
    // The row is the analyst's to decide again: a new clearance waits.
    const again = await clear(7);
    expect(again).not.toBe(id);
    expect((await queue(admin)).body.clearances.map((c) => c.id)).toContain(again);
  });

  it('needs a note (400 naming the field) and refuses a member, another organisation and the signed out', async () => {
    const id = await clear(8);
    for (const note of ['', '   ', 'x'.repeat(2001), undefined]) {
      expect(await sendBack(id, admin, note)).toMatchObject({ status: 400, body: { field: 'note' } });
    }
    expect(await sendBack(id, analyst, 'no')).toMatchObject({ status: 403, body: { error: 'Permission denied' } });
    expect(await sendBack(id, otherOwner, 'no')).toMatchObject({ status: 404, body: { error: 'Clearance not found' } });
    expect((await t.json('POST', `/api/review/approvals/${id}/send-back`, { body: { note: 'no' } })).status).toBe(401);
    expect((await queue(admin)).body.clearances.map((c) => c.id)).toContain(id);
  });

  it('keeps the note out of the database, the audit log and the logs', async () => {
    const id = (await queue(admin)).body.clearances.find((c) => c.row === 8)!.id;
    const canary = `Zyqnote${randomBytes(6).toString('hex')}`;
    expect((await sendBack(id, admin, `${canary} born 1952-10-07`)).status).toBe(200);
    expect((await outcomes(analyst)).body.clearances.find((c) => c.id === id)!.note).toContain(canary);
    // Every row of every table, and every file under the data directory (database, WAL, logs).
    for (const [name, rows] of Object.entries(await t.tables())) expect(JSON.stringify(rows), name).not.toContain(canary);
    if (t.s.embedded) t.s.db.pragma('wal_checkpoint(PASSIVE)');
    await t.s.logger.flush();
    const files = filesUnder(t.dataDir);
    // (On PostgreSQL the database's files are the cluster's: privacy.test.ts scans them.)
    if (t.s.embedded) expect(files.some((f) => f.endsWith('.db') || f.endsWith('.sqlite'))).toBe(true);
    for (const f of files) expect(readFileSync(f).includes(Buffer.from(canary)), f).toBe(false);
  });
});

describe('GET /api/review/clearances', () => {
  it('the analyst\'s own clearances of one batch: waiting, approved, sent back', async () => {
    const r = await outcomes(analyst);
    expect(r.status).toBe(200);
    const states = new Set(r.body.clearances.map((c) => c.state));
    expect([...states].sort()).toEqual(['approved', 'pending', 'sent_back']);
    expect(r.body.clearances.every((c) => c.batch_id === batch.id && c.requested_by === ANALYST.email)).toBe(true);
  });

  it('400 without a batch id, 401 signed out, nothing for another organisation', async () => {
    expect(await t.json<Err>('GET', '/api/review/clearances', { cookie: analyst })).toMatchObject({ status: 400, body: { field: 'batch_id' } });
    expect((await t.json('GET', `/api/review/clearances?batch_id=${batch.id}`)).status).toBe(401);
    expect((await outcomes(otherOwner)).body).toEqual({ clearances: [] });
  });

  it('a note is let go when the analyst opens another batch; one sent back after that is not kept', async () => {
    const id = await clear(2, analyst);
    expect((await sendBack(id, admin, 'look again')).body.note_kept).toBe(true);
    const waiting = await clear(3, analyst);
    await runBatch(t, analyst, [PUTIN]);
    expect((await outcomes(analyst)).body.clearances.find((c) => c.id === id)).toMatchObject({ state: 'sent_back', note: null });
    const late = await sendBack(waiting, admin, 'look again, later');
    expect(late.body).toMatchObject({ note_kept: false, clearance: { state: 'sent_back' } });
    expect((await outcomes(analyst)).body.clearances.find((c) => c.id === waiting)).toMatchObject({ state: 'sent_back', note: null });
  });
});
