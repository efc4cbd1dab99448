// What the approver sees (issue 36): a clearing that waits for a second person carries what the
// analyst saw (the customer from their batch row, the listed people, their note); the approval
// queue shows it from service memory while the analyst's batch is open, and says it is no longer
// held once that batch has ended (another batch, sign-out, 12 hours). Only the organisation's
// owners and admins read it; it is held only for a clearing that waits, let go once decided, and
// never reaches the database, the audit log, the logs or any file.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalQueue, DispositionRequest, DispositionResponse, SeenByAnalyst } from '../../../../src-shared/contracts/review';
import type { BatchRowResult } from '../../../../src-shared/contracts/batch';
import { closeAll, testService, type OtherOrg, type TestService } from '../harness';
import { filesUnder, makeCanaries, scanForCanaries } from '../privacy';
import { disposition, PUTIN, runBatch, type BatchRun } from '../review-support';

afterAll(closeAll);

const ADMIN = { email: 'admin@example.test', password: 'admin password 1' };
const ANALYST = { email: 'analyst@example.test', password: 'analyst password' };
const PUTIN_FULL = { ...PUTIN, date_of_birth: '1952-10-07', country: 'RU' };
const HOUR = 3_600_000;
const c = makeCanaries();

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
  batch = await runBatch(t, analyst, Array<object>(8).fill(PUTIN_FULL), (i) => ({ client_reference_id: `${c.clientReference}-${i + 2}` }));
  other = await t.addOrg({ name: 'Other Org', plan: 'pro' });
  otherOwner = await other.login();
}, 120_000);

/** What the analyst's console sends of a row: the canary customer as the row had it, the listed people as its result showed them. */
function seenOf(r: BatchRowResult, note: string | null): SeenByAnalyst {
  return {
    customer: { name: c.fullName, date_of_birth: c.dob, country: 'RU', client_reference_id: r.client_reference_id },
    listed: r.matches.filter((m) => !m.cleared).map((m) => ({
      entity_id: m.entity_id, name: m.name, source: m.source, programs: m.programs.slice(0, 20), dates_of_birth: m.dates_of_birth.slice(0, 10),
      countries: m.countries.slice(0, 20), listed_on: m.listed_on,
    })),
    note,
  };
}

const noteFor = (row: number) => `Analyst note on row ${row}: ${c.fullName} holds passport ${c.documentNumber}`;

async function clear(row: number, extra: Partial<DispositionRequest> = {}, cookie = analyst, b = batch) {
  return t.json<DispositionResponse & Err>('POST', '/api/review/dispositions', {
    cookie, body: disposition(b.id, b.row(row), 'cleared_false_positive', { reason_code: 'other', has_note: true, seen: seenOf(b.row(row), noteFor(row)), ...extra }),
  });
}

const queue = (cookie: string) => t.json<ApprovalQueue & Err>('GET', '/api/review/approvals', { cookie });
const itemOf = async (id: string, cookie = admin) => (await queue(cookie)).body.clearances.find((x) => x.id === id);

describe('the approval queue shows what the analyst saw while their batch is open', () => {
  it('the customer, each listed person and the analyst\'s note, from memory, sent no-store', async () => {
    const sent = seenOf(batch.row(2), noteFor(2));
    // A listed person the review token does not cover is not shown.
    const extra = { ...sent.listed[0]!, entity_id: 'made-up:1', name: 'Someone Else Entirely' };
    const r = await clear(2, { seen: { ...sent, listed: [...sent.listed, extra] } });
    expect(r.body.status).toBe('pending_approval');
    const q = await queue(admin);
    expect(q.status).toBe(200);
    expect(q.res.headers.get('cache-control')).toBe('no-store');
    const item = q.body.clearances.find((x) => x.id === r.body.clearance!.id)!;
    expect(item.seen).toEqual(sent);
    expect(item.seen!.listed.map((l) => l.entity_id)).toEqual(item.matches.map((m) => m.entity_id));
    expect(item.seen!.listed.some((l) => /putin/i.test(l.name))).toBe(true);
    expect(item.seen!.customer).toEqual({ name: c.fullName, date_of_birth: c.dob, country: 'RU', client_reference_id: `${c.clientReference}-2` });
    expect(item.seen!.note).toBe(noteFor(2));
    expect(JSON.stringify(q.body)).not.toContain('Someone Else Entirely');
    // Every owner and admin of the organisation sees the same.
    expect((await itemOf(item.id, owner))!.seen).toEqual(sent);
  });

  it('is the organisation\'s owners\' and admins\' only: a member is refused, another organisation sees nothing of it and its id is unknown there', async () => {
    const id = (await clear(3)).body.clearance!.id;
    const member = await queue(analyst);
    expect(member).toMatchObject({ status: 403, body: { error: 'Permission denied' } });
    expect(JSON.stringify(member.body)).not.toContain(c.firstName);
    const elsewhere = await queue(otherOwner);
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.body.clearances.map((x) => x.id)).not.toContain(id);
    expect(JSON.stringify(elsewhere.body)).not.toContain(c.firstName);
    expect(await t.json<Err>('POST', `/api/review/approvals/${id}/approve`, { cookie: otherOwner })).toMatchObject({ status: 404, body: { error: 'Clearance not found' } });
    expect(await t.json<Err>('POST', `/api/review/approvals/${id}/send-back`, { cookie: otherOwner, body: { note: 'no' } }))
      .toMatchObject({ status: 404, body: { error: 'Clearance not found' } });
    expect((await t.json('GET', '/api/review/approvals')).status).toBe(401);
  });

  it('is held only for a clearing that waits, and let go once the clearance is approved, sent back or replaced', async () => {
    const before = t.s.review.seenHeld();
    // Four-eyes off and a reason the evidence does not contradict: recorded at once, nothing held.
    expect((await t.json('PATCH', '/api/settings', { cookie: owner, body: { four_eyes: false } })).status).toBe(200);
    expect((await clear(4, { reason_code: 'list_record_outdated' })).body).toMatchObject({ status: 'recorded', clearance: null });
    expect(t.s.review.seenHeld()).toBe(before);
    // An override waits even with four-eyes off: held.
    const overridden = await clear(4, { reason_code: 'different_dob', override_note: true });
    expect(overridden.body.clearance).toMatchObject({ override: 'dob_matches_exactly' });
    expect((await itemOf(overridden.body.clearance!.id))!.seen).not.toBeNull();
    expect((await t.json('PATCH', '/api/settings', { cookie: owner, body: { four_eyes: true } })).status).toBe(200);
    expect(t.s.review.seenHeld()).toBe(before + 1);
    expect((await t.json('POST', `/api/review/approvals/${overridden.body.clearance!.id}/approve`, { cookie: admin })).status).toBe(200);
    expect(t.s.review.seenHeld()).toBe(before);
    const sentBack = (await clear(5)).body.clearance!.id;
    expect((await t.json('POST', `/api/review/approvals/${sentBack}/send-back`, { cookie: admin, body: { note: 'look again' } })).status).toBe(200);
    expect(t.s.review.seenHeld()).toBe(before);
    await clear(5);
    expect(t.s.review.seenHeld()).toBe(before + 1);
    // A new decision on the row withdraws the clearance: what was held about it goes.
    expect((await t.json('POST', '/api/review/dispositions', { cookie: analyst, body: disposition(batch.id, batch.row(5), 'escalated') })).status).toBe(200);
    expect(t.s.review.seenHeld()).toBe(before);
  });

  it('is refused with anything but a clearing, and a note must agree with has_note (400 naming the field)', async () => {
    const escalated = await t.json<Err>('POST', '/api/review/dispositions', {
      cookie: analyst, body: disposition(batch.id, batch.row(6), 'escalated', { seen: seenOf(batch.row(6), null) }),
    });
    expect(escalated).toMatchObject({ status: 400, body: { field: 'seen' } });
    const silent = await clear(6, { reason_code: 'different_person_other_identifiers', has_note: false });
    expect(silent).toMatchObject({ status: 400, body: { field: 'seen.note' } });
    expect(JSON.stringify(silent.body)).not.toContain(c.firstName);
  });
});

describe('once the analyst\'s batch has ended the approver is told it is no longer held', () => {
  it('the analyst opens another batch: every clearance of the last one shows seen null, and still waits', async () => {
    const id = (await clear(7)).body.clearance!.id;
    expect((await itemOf(id))!.seen).not.toBeNull();
    const next = await runBatch(t, analyst, [PUTIN_FULL, PUTIN_FULL], () => ({ client_reference_id: `${c.clientReference}-next` }));
    const item = await itemOf(id);
    expect(item).toMatchObject({ id, seen: null, has_note: true, reason_code: 'other' });
    expect(item!.matches.length).toBeGreaterThan(0);
    batch = next;
  });

  it('the analyst signs out: seen null', async () => {
    const id = (await clear(2)).body.clearance!.id;
    expect((await itemOf(id))!.seen).not.toBeNull();
    expect((await t.json('POST', '/api/auth/logout', { cookie: analyst })).status).toBe(200);
    expect((await itemOf(id))!.seen).toBeNull();
    analyst = await t.login(ANALYST.email, ANALYST.password);
  });

  it('12 hours after the clearing (a session\'s idle limit): seen null', async () => {
    const id = (await clear(3)).body.clearance!.id;
    t.clock.advance(12 * HOUR - 1000);
    admin = await t.login(ADMIN.email, ADMIN.password);
    expect((await itemOf(id))!.seen).not.toBeNull();
    t.clock.advance(2000);
    expect((await itemOf(id))!.seen).toBeNull();
    analyst = await t.login(ANALYST.email, ANALYST.password);
  });
});

describe('privacy', () => {
  it('nothing the analyst saw reaches the database, the audit log, the logs or any file in the data directory', async () => {
    // One clearance still held at the time of the scan.
    const live = await runBatch(t, analyst, [PUTIN_FULL], () => ({ client_reference_id: `${c.clientReference}-last` }));
    const id = (await clear(2, {}, analyst, live)).body.clearance!.id;
    const shown = JSON.stringify((await itemOf(id))!.seen);
    for (const v of [c.firstName, c.lastName, c.documentNumber, c.dob]) expect(shown).toContain(v);
    for (const [name, all] of Object.entries(await t.tables())) {
      const rows = JSON.stringify(all);
      for (const v of [c.firstName, c.lastName, c.documentNumber, c.dob]) expect(rows, `${name} holds ${v}`).not.toContain(v);
    }
    if (t.s.embedded) t.s.db.pragma('wal_checkpoint(PASSIVE)');
    await t.s.logger.flush();
    const files = filesUnder(t.dataDir);
    expect(files.some((f) => f.endsWith('.log'))).toBe(true);
    expect(files.every((f) => !readFileSync(f).includes(Buffer.from(c.lastName))), 'a file holds the canary').toBe(true);
    // Client references are canaries too; the audit log keeps only their HMAC.
    expect(scanForCanaries(t.dataDir, c)).toEqual([]);
  });
});
