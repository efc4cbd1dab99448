// Clearing reasons checked against the match evidence (issue 23): the evidence flags are signed
// into the review token; a reason the evidence contradicts is refused unless the analyst wrote an
// override note, and an override always waits for a second person (owner or admin), whatever the
// four-eyes setting; the audit log records the contradiction, who asked and who approved.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditPage } from '../../../src-shared/contracts/audit';
import { evidenceOf, type ApproveResponse, type DispositionResponse, type OrgSettings, type ReasonCode } from '../../../src-shared/contracts/review';
import { closeAll, testService, type TestService } from './harness';
import { disposition, PUTIN, runBatch, type BatchRun } from './review-support';

let t: TestService;
let owner: string;
let analyst: string;
let batch: BatchRun;
const ADMIN = { email: 'admin@example.test', password: 'admin password 1' };
const ANALYST = { email: 'analyst@example.test', password: 'analyst password' };
const MEMBER = { email: 'member@example.test', password: 'member password 1' };
/** The listed date of birth and country: every identifier agrees. */
const PUTIN_FULL = { ...PUTIN, date_of_birth: '1952-10-07', country: 'RU' };
/** The name with one corroborating identifier: the listed date of birth, its year only, or the listed country. */
const PUTIN_DOB = { ...PUTIN, date_of_birth: '1952-10-07' };
const PUTIN_YEAR = { ...PUTIN, date_of_birth: '1952-03-15' };
const PUTIN_COUNTRY = { ...PUTIN, country: 'RU' };

beforeAll(async () => {
  t = await testService({ plan: 'pro' });
  expect(await t.s.screening.ready(60_000)).not.toBeNull();
  await t.s.accounts.addUser({ orgId: t.orgId, email: ADMIN.email, name: 'Ad Admin', password: ADMIN.password, role: 'admin' });
  await t.s.accounts.addUser({ orgId: t.orgId, email: ANALYST.email, name: 'An Analyst', password: ANALYST.password, role: 'member' });
  await t.s.accounts.addUser({ orgId: t.orgId, email: MEMBER.email, name: 'Me Member', password: MEMBER.password, role: 'member' });
  owner = await t.login();
  analyst = await t.login(ANALYST.email, ANALYST.password);
  // Rows 2-8: every identifier agrees; row 9: the name only (no date of birth, no country); rows
  // 10-15: the name and one identifier (the date of birth, its year, the country; twice each).
  batch = await runBatch(t, analyst, [
    PUTIN_FULL, PUTIN_FULL, PUTIN_FULL, PUTIN_FULL, PUTIN_FULL, PUTIN_FULL, PUTIN_FULL, PUTIN,
    PUTIN_DOB, PUTIN_YEAR, PUTIN_COUNTRY, PUTIN_DOB, PUTIN_COUNTRY, PUTIN_YEAR,
  ]);
  const off = await t.json<OrgSettings>('PATCH', '/api/settings', { cookie: owner, body: { four_eyes: false } });
  expect(off.status).toBe(200);
}, 120_000);
afterAll(closeAll);

const auditRows = async (action: string) => (await t.json<AuditPage>('GET', `/api/audit?action=${action}`, { cookie: owner })).body.entries;
const decide = (cookie: string, body: object) => t.json<DispositionResponse & { error?: string; field?: string }>('POST', '/api/review/dispositions', { cookie, body });
const approve = (id: string, who: { email: string; password: string }, cookie = analyst) =>
  t.json<ApproveResponse & { error?: string; field?: string }>('POST', `/api/review/clearances/${id}/approve`, { cookie, body: who });
const clear = (row: number, reason: ReasonCode, extra: object = {}) =>
  disposition(batch.id, batch.row(row), 'cleared_false_positive', { reason_code: reason, ...extra });

/** Each rule with a row whose evidence contradicts it (refused) and another (overridden). */
const RULES = [
  { reason: 'different_dob', contradiction: 'dob_matches_exactly', words: 'date of birth matches exactly', refused: 2, overridden: 3 },
  { reason: 'different_nationality', contradiction: 'country_matches', words: 'country is listed', refused: 2, overridden: 4 },
  { reason: 'different_person_other_identifiers', contradiction: 'exact_name_and_dob', words: 'full name is exact', refused: 2, overridden: 5 },
  { reason: 'name_only_common_name', contradiction: 'name_only_dob_agrees', words: 'date of birth agrees', refused: 10, overridden: 13 },
  { reason: 'name_only_common_name', contradiction: 'name_only_dob_agrees', words: 'date of birth agrees', refused: 11, overridden: 15 },
  { reason: 'name_only_common_name', contradiction: 'name_only_country_matches', words: 'country is listed', refused: 12, overridden: 14 },
] as const;

describe('the evidence of a match', () => {
  it('is read from the explanation: the date of birth, the country and the exact name', () => {
    const full = batch.row(2).matches.find((m) => m.source === 'us_ofac_sdn' && m.strength === 'strong')!;
    expect(evidenceOf(full)).toEqual({ dob: 'exact', country: 'match', exact_name: true });
    const nameOnly = batch.row(9).matches.find((m) => m.list === 'sanctions')!;
    expect(evidenceOf(nameOnly)).toEqual({ dob: 'none', country: 'none', exact_name: true });
    const sdn = (row: number) => evidenceOf(batch.row(row).matches.find((m) => m.source === 'us_ofac_sdn')!);
    expect(sdn(10)).toEqual({ dob: 'exact', country: 'none', exact_name: true });
    expect(sdn(11)).toMatchObject({ dob: 'year', country: 'none' });
    expect(sdn(12)).toEqual({ dob: 'none', country: 'match', exact_name: true });
  });

  it('is signed: evidence changed to fit the reason fails the token check', async () => {
    const real = clear(2, 'different_dob');
    const tampered = { ...real, matches: real.matches.map((m) => ({ ...m, evidence: { ...m.evidence, dob: 'differs', country: 'differs' } })) };
    const r = await decide(analyst, tampered);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ field: 'review_token' });
    const missing = { ...real, matches: real.matches.map(({ evidence: _e, ...m }) => m) };
    expect((await decide(analyst, missing)).status).toBe(400);
  });
});

describe('a clearing reason the evidence contradicts', () => {
  for (const rule of RULES) {
    it(`${rule.reason} is refused with 422 naming the contradiction (${rule.contradiction}, row ${rule.refused}), without an override note`, async () => {
      const r = await decide(analyst, clear(rule.refused, rule.reason, { has_note: true }));
      expect(r.status).toBe(422);
      expect(r.body).toMatchObject({ field: 'reason_code', error: expect.stringContaining(rule.words) });
    });
  }

  it('the same reasons are accepted when the evidence does not contradict them (name only): recorded at once with four-eyes off', async () => {
    for (const rule of RULES) {
      const r = await decide(analyst, disposition(batch.id, batch.row(9), 'cleared_false_positive', { reason_code: rule.reason }));
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ status: 'recorded', clearance: null });
    }
  });

  it('a reason that does not contradict is recorded at once (four-eyes off)', async () => {
    const r = await decide(analyst, clear(8, 'list_record_outdated'));
    expect(r.body).toMatchObject({ status: 'recorded', clearance: null });
  });

  for (const rule of RULES) {
    it(`${rule.reason} with an override note (${rule.contradiction}, row ${rule.overridden}) waits for a second person even with four-eyes off, and is audited`, async () => {
      const row = rule.overridden;
      const r = await decide(analyst, clear(row, rule.reason, { override_note: true }));
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({
        status: 'pending_approval', reason_code: rule.reason,
        clearance: { state: 'pending', row, requested_by: ANALYST.email, approved_by: null, override: rule.contradiction },
      });
      const id = r.body.clearance!.id;
      expect((await auditRows('clearance.requested')).find((e) => e.clearance_id === id)).toMatchObject({
        actor: { email: ANALYST.email }, row_number: row, reason_code: rule.reason, override_contradiction: rule.contradiction,
      });
      expect(await auditRows('disposition.set')).not.toContainEqual(expect.objectContaining({ row_number: row }));
    });
  }

  it('an override is approved only by an owner or admin other than the analyst; the approval is audited with the contradiction', async () => {
    const pending = (await auditRows('clearance.requested')).find((e) => e.row_number === 3)!;
    const id = pending.clearance_id!;
    const self = await approve(id, ANALYST);
    expect(self.status).toBe(403);
    expect(self.body).toMatchObject({ field: 'email' });
    const member = await approve(id, MEMBER);
    expect(member.status).toBe(403);
    expect(member.body).toMatchObject({ error: 'Only an owner or admin can approve an overridden clearing reason' });
    const ok = await approve(id, ADMIN);
    expect(ok.status).toBe(200);
    expect(ok.body.clearance).toMatchObject({ id, state: 'approved', requested_by: ANALYST.email, approved_by: ADMIN.email, override: 'dob_matches_exactly' });
    expect((await auditRows('clearance.approved')).find((e) => e.clearance_id === id)).toMatchObject({
      actor: { email: ADMIN.email, role: 'admin' }, approver: { email: ADMIN.email }, row_number: 3,
      reason_code: 'different_dob', override_contradiction: 'dob_matches_exactly',
    });
  });

  it('an owner who overrides cannot approve their own override; an admin can', async () => {
    const r = await decide(owner, clear(6, 'different_dob', { override_note: true }));
    expect(r.body).toMatchObject({ status: 'pending_approval', clearance: { override: 'dob_matches_exactly' } });
    const own = await approve(r.body.clearance!.id, { email: 'owner@example.test', password: 'correct horse battery' }, owner);
    expect(own.status).toBe(403);
    expect(own.body).toMatchObject({ error: expect.stringContaining('cannot approve it') });
    expect((await approve(r.body.clearance!.id, ADMIN, owner)).status).toBe(200);
  });

  it('needs a session: 401 without one', async () => {
    const r = await t.json('POST', '/api/review/dispositions', { body: clear(7, 'different_dob', { override_note: true }) });
    expect(r.status).toBe(401);
  });
});
