// Risk review over HTTP: dispositions are recorded as audit rows against a batch row's review
// token; clearing a strong sanctions match needs a reason and, with four-eyes on, an owner or
// admin other than the analyst, who approves with their own credentials (failures limited).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditPage } from '../../../src-shared/contracts/audit';
import type { ApproveResponse, DispositionResponse, OrgSettings } from '../../../src-shared/contracts/review';
import { closeAll, testService, type TestService } from './harness';
import { disposition, NOBODY, PUTIN, runBatch, type BatchRun } from './review-support';

let t: TestService;
let owner: string;
let analyst: string;
let batch: BatchRun;
const ADMIN = { email: 'admin@example.test', password: 'admin password 1' };
const ANALYST = { email: 'analyst@example.test', password: 'analyst password' };

beforeAll(async () => {
  t = await testService({ plan: 'pro' });
  expect(await t.s.screening.ready(60_000)).not.toBeNull();
  await t.s.accounts.addUser({ orgId: t.orgId, email: ADMIN.email, name: 'Ad Admin', password: ADMIN.password, role: 'admin' });
  await t.s.accounts.addUser({ orgId: t.orgId, email: ANALYST.email, name: 'An Analyst', password: ANALYST.password, role: 'member' });
  owner = await t.login();
  analyst = await t.login(ANALYST.email, ANALYST.password);
  batch = await runBatch(t, analyst, [PUTIN, NOBODY, PUTIN, PUTIN, PUTIN, PUTIN, PUTIN]);
}, 120_000);
afterAll(closeAll);

async function setFourEyes(on: boolean) {
  const r = await t.json<OrgSettings>('PATCH', '/api/settings', { cookie: owner, body: { four_eyes: on } });
  expect(r.status).toBe(200);
}

async function auditRows(action: string) {
  return (await t.json<AuditPage>('GET', `/api/audit?action=${action}`, { cookie: owner })).body.entries;
}

const decide = (cookie: string, body: object) => t.json<DispositionResponse & { error?: string; field?: string }>('POST', '/api/review/dispositions', { cookie, body });
const approve = (id: string, who: { email: string; password: string }, cookie = analyst) =>
  t.json<ApproveResponse & { error?: string; field?: string }>('POST', `/api/review/clearances/${id}/approve`, { cookie, body: who });

describe('batch result rows carry a review token', () => {
  it('over the batch, the row, the screening and its open matches', () => {
    // A strong sanctions match by its score (a clearing needs a reason), reported on the name alone.
    const sanctions = batch.row(2).matches.find((m) => m.list === 'sanctions');
    expect(sanctions).toMatchObject({ strength: 'possible' });
    expect(sanctions!.score).toBeGreaterThanOrEqual(85);
    expect(batch.row(2).review_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(batch.row(3).matches).toEqual([]);
    expect(batch.row(2).review_token).not.toBe(batch.row(4).review_token);
  });
});

describe('POST /api/review/dispositions', () => {
  it('records escalation of a row as an audit row with ids only', async () => {
    const r = await decide(analyst, disposition(batch.id, batch.row(3), 'escalated'));
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      status: 'recorded', disposition: 'escalated', reason_code: null, decided_by: ANALYST.email, decided_at: expect.any(String), clearance: null,
    });
    const [row] = await auditRows('disposition.set');
    expect(row).toMatchObject({
      actor: { kind: 'user', email: ANALYST.email, role: 'member' }, batch_id: batch.id, row_number: 3,
      screening_id: batch.row(3).id, disposition: 'escalated', entity_ids: [], reason_code: null,
    });
  });

  it('refuses to clear a strong sanctions match without a reason code, and "other" without a note', async () => {
    const none = await decide(analyst, disposition(batch.id, batch.row(2), 'cleared_false_positive'));
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ field: 'reason_code' });
    const other = await decide(analyst, disposition(batch.id, batch.row(2), 'cleared_false_positive', { reason_code: 'other' }));
    expect(other.status).toBe(400);
    expect(other.body).toMatchObject({ field: 'has_note' });
    const onEscalation = await decide(analyst, disposition(batch.id, batch.row(2), 'escalated', { reason_code: 'different_dob' }));
    expect(onEscalation.status).toBe(400);
    expect(onEscalation.body).toMatchObject({ field: 'reason_code' });
  });

  it('clears a strong sanctions match with a reason when four-eyes is off: it counts at once', async () => {
    await setFourEyes(false);
    const r = await decide(analyst, disposition(batch.id, batch.row(2), 'cleared_false_positive', { reason_code: 'different_dob', has_note: true }));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'recorded', disposition: 'cleared_false_positive', reason_code: 'different_dob', clearance: null });
    const [row] = await auditRows('disposition.set');
    expect(row).toMatchObject({ row_number: 2, reason_code: 'different_dob', has_note: true });
    expect(row!.entity_ids).toContain(batch.row(2).matches[0]!.entity_id);
    expect(row!.record_hashes).toContain(batch.row(2).matches[0]!.record_hash);
  });

  it('refuses matches or a token that are not what the service found for the row', async () => {
    const real = disposition(batch.id, batch.row(4), 'cleared_false_positive', { reason_code: 'different_dob' });
    const weaker = { ...real, matches: real.matches.map((m) => ({ ...m, score: 50 })) };
    const fewer = { ...real, matches: real.matches.filter((m) => m.list !== 'sanctions') };
    const otherRow = { ...real, row: 5 };
    const forged = { ...real, review_token: 'A'.repeat(43) };
    const otherCustomer = { ...real, client_reference_id: 'cust-someone-else' };
    for (const body of [weaker, fewer, otherRow, forged, otherCustomer]) {
      const r = await decide(analyst, body);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ field: 'review_token' });
    }
  });

  it('null takes a disposition away, recorded as disposition.removed', async () => {
    const r = await decide(analyst, disposition(batch.id, batch.row(3), null));
    expect(r.body).toMatchObject({ status: 'removed', disposition: null });
    expect((await auditRows('disposition.removed'))[0]).toMatchObject({ row_number: 3, batch_id: batch.id });
  });

  it('400 naming the field for a malformed request', async () => {
    const r = await decide(analyst, { ...disposition(batch.id, batch.row(3), 'escalated'), batch_id: 'nope' });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ field: 'batch_id' });
  });
});

describe('four-eyes', () => {
  it('a cleared strong match waits for approval; only an owner or admin other than the analyst approves it', async () => {
    await setFourEyes(true);
    const r = await decide(analyst, disposition(batch.id, batch.row(5), 'cleared_false_positive', { reason_code: 'name_only_common_name' }));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      status: 'pending_approval', disposition: 'cleared_false_positive', reason_code: 'name_only_common_name',
      clearance: { state: 'pending', batch_id: batch.id, row: 5, requested_by: ANALYST.email, approved_by: null },
    });
    const id = r.body.clearance!.id;
    expect((await auditRows('clearance.requested'))[0]).toMatchObject({ clearance_id: id, row_number: 5, reason_code: 'name_only_common_name' });
    expect(await auditRows('disposition.set')).not.toContainEqual(expect.objectContaining({ row_number: 5 }));

    // The analyst cannot approve their own clearance, nor can a member or a wrong password.
    expect((await approve(id, ANALYST)).body).toMatchObject({ error: 'Only an owner or admin can approve clearing a strong sanctions match' });
    const wrong = await approve(id, { email: ADMIN.email, password: 'not the password' });
    expect(wrong.status).toBe(403);
    expect(wrong.body).toEqual({ error: 'Invalid approver e-mail or password', field: 'password' });

    const ok = await approve(id, ADMIN);
    expect(ok.status).toBe(200);
    expect(ok.body.clearance).toMatchObject({ id, state: 'approved', requested_by: ANALYST.email, approved_by: ADMIN.email, approved_at: expect.any(String) });
    const [row] = await auditRows('clearance.approved');
    expect(row).toMatchObject({
      actor: { email: ADMIN.email, role: 'admin' }, approver: { email: ADMIN.email }, clearance_id: id, row_number: 5,
      disposition: 'cleared_false_positive', reason_code: 'name_only_common_name',
    });
    expect((await approve(id, ADMIN)).status).toBe(409);
  });

  it('the owner cannot approve a clearance they asked for', async () => {
    const r = await decide(owner, disposition(batch.id, batch.row(6), 'cleared_false_positive', { reason_code: 'different_nationality' }));
    const res = await approve(r.body.clearance!.id, { email: 'owner@example.test', password: 'correct horse battery' }, owner);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: expect.stringContaining('cannot approve it'), field: 'email' });
    expect((await approve(r.body.clearance!.id, ADMIN, owner)).status).toBe(200);
  });

  it('a new decision on the row withdraws the waiting clearance, which can then not be approved', async () => {
    const first = await decide(analyst, disposition(batch.id, batch.row(7), 'cleared_false_positive', { reason_code: 'list_record_outdated' }));
    const id = first.body.clearance!.id;
    const second = await decide(analyst, disposition(batch.id, batch.row(7), 'escalated'));
    expect(second.body).toMatchObject({ status: 'recorded', disposition: 'escalated' });
    expect((await auditRows('clearance.withdrawn'))[0]).toMatchObject({ clearance_id: id, row_number: 7 });
    const late = await approve(id, ADMIN);
    expect(late.status).toBe(409);
    expect(late.body).toEqual({ error: 'This clearance is withdrawn' });
  });

  it('clearing a row without a strong sanctions match needs no reason and no approval', async () => {
    const r = await decide(analyst, disposition(batch.id, batch.row(3), 'cleared_false_positive'));
    expect(r.body).toMatchObject({ status: 'recorded', clearance: null });
  });

  it('limits failed approvals per analyst: after 5, 429 with Retry-After, even for the right password', async () => {
    const u = await testService({ plan: 'pro' });
    await u.s.screening.ready(60_000);
    await u.s.accounts.addUser({ orgId: u.orgId, email: ADMIN.email, name: 'Ad', password: ADMIN.password, role: 'admin' });
    const cookie = await u.login();
    await u.json('PATCH', '/api/settings', { cookie, body: { four_eyes: true } });
    const b = await runBatch(u, cookie, [PUTIN]);
    const r = await u.json<DispositionResponse>('POST', '/api/review/dispositions', { cookie, body: disposition(b.id, b.row(2), 'cleared_false_positive', { reason_code: 'different_dob' }) });
    const id = r.body.clearance!.id;
    for (let i = 0; i < 5; i++) {
      expect((await u.json('POST', `/api/review/clearances/${id}/approve`, { cookie, body: { email: ADMIN.email, password: `wrong ${i} password` } })).status).toBe(403);
    }
    const blocked = await u.json('POST', `/api/review/clearances/${id}/approve`, { cookie, body: ADMIN });
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual({ error: 'Too many failed attempts. Try again later.' });
    expect(Number(blocked.res.headers.get('retry-after'))).toBeGreaterThan(0);
    u.clock.advance(181_000);
    expect((await u.json('POST', `/api/review/clearances/${id}/approve`, { cookie, body: ADMIN })).status).toBe(200);
  }, 90_000);

  it('404 for an unknown clearance', async () => {
    expect((await approve('clr_doesnotexist0000', ADMIN)).status).toBe(404);
  });
});

describe('GET/PATCH /api/settings', () => {
  it('everyone reads four-eyes; owners and admins change it, audited once per change', async () => {
    const u = await testService({ plan: 'pro' });
    await u.s.accounts.addUser({ orgId: u.orgId, email: ADMIN.email, name: 'Ad', password: ADMIN.password, role: 'admin' });
    const admin = await u.login(ADMIN.email, ADMIN.password);
    expect((await u.json('GET', '/api/settings', { cookie: admin })).body).toEqual({ four_eyes: false });
    expect((await u.json('PATCH', '/api/settings', { cookie: admin, body: { four_eyes: true } })).body).toEqual({ four_eyes: true });
    await u.json('PATCH', '/api/settings', { cookie: admin, body: { four_eyes: true } });
    expect((await u.json('GET', '/api/settings', { cookie: admin })).body).toEqual({ four_eyes: true });
    const rows = (await u.json<AuditPage>('GET', '/api/audit?action=settings.changed', { cookie: admin })).body.entries;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ setting: 'four_eyes', from_value: 'off', to_value: 'on', actor: { email: ADMIN.email } });
    const bad = await u.json('PATCH', '/api/settings', { cookie: admin, body: { four_eyes: 'yes' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ field: 'four_eyes' });
  });
});
