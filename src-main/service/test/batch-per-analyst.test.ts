// Batches per analyst (issue 26): each analyst has their own open batch and nobody else's blocks
// it; another's batch answers as an unknown one; owners and admins list every open batch of the
// organisation and end any (audited: who ended whose), and the analyst is told so; an abandoned
// batch expires after its idle window without anyone calling, audited by the system, its index
// released; organisations never see each other's batches; no subject data in any audit row.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditCsv, type AuditEntry, type AuditPage, type AuditVerification } from '../../../src-shared/contracts/audit';
import { BATCH_LIMITS, type BatchChunkEnd, type BatchInfo, type OpenBatchList } from '../../../src-shared/contracts/batch';
import type { Role } from '../../../src-shared/catalog';
import { BATCH_IDLE_MS } from '../core/screening/batch';
import { closeAll, testService, type TestService } from './harness';
import { makeCanaries, scanForCanaries, type Canaries } from './privacy';

// The first service of a file parses the shipped lists (later ones reuse them): done once, here.
beforeAll(async () => {
  expect(await (await testService({ plan: 'pro' })).s.screening.ready(60_000)).not.toBeNull();
}, 90_000);
afterAll(closeAll);

const PASSWORD = 'an analyst password';

/** A world: the owner, an admin and two members of one organisation, each signed in. */
async function world() {
  const t = await testService({ plan: 'pro' });
  expect(await t.s.screening.ready(60_000)).not.toBeNull();
  const person = async (role: Role, email: string, name: string) => {
    const u = await t.s.accounts.addUser({ orgId: t.orgId, email, name, password: PASSWORD, role });
    return { id: u.id, email, name, cookie: await t.login(email, PASSWORD) };
  };
  return {
    t,
    owner: { id: t.ownerId, email: 'owner@example.test', cookie: await t.login() },
    admin: await person('admin', 'ada.admin@example.test', 'Ada Admin'),
    mo: await person('member', 'mo.member@example.test', 'Mo Member'),
    mia: await person('member', 'mia.member@example.test', 'Mia Member'),
  };
}

function rows(n: number, start = 1, subject = (i: number) => ({ type: 'individual', first_name: `Given${i}`, last_name: 'Nobodyfound' })): string {
  return Array.from({ length: n }, (_, k) => JSON.stringify({ row: start + k, subject: subject(start + k) })).join('\n');
}

const canaryRows = (c: Canaries, n: number) => rows(n, 1, () => ({ type: 'individual', first_name: c.firstName, last_name: c.lastName, date_of_birth: c.dob }));

async function open(t: TestService, cookie: string, total = 10) {
  return t.json<BatchInfo>('POST', '/api/console/batches', { cookie, body: { env: 'test', total_rows: total } });
}

async function send(t: TestService, cookie: string, id: string, body: string) {
  const res = await t.call('POST', `/api/console/batches/${id}/rows`, { cookie, rawBody: body, headers: { 'Content-Type': 'application/x-ndjson' } });
  const text = await res.text();
  if (res.status !== 200) return { status: res.status, error: (JSON.parse(text) as { error: string }).error, lines: [], end: null };
  const lines = text.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  return { status: res.status, error: null, lines, end: lines.at(-1) as BatchChunkEnd };
}

const auditOf = async (t: TestService, cookie: string, query = '') =>
  (await t.json<AuditPage>('GET', `/api/audit${query}`, { cookie })).body.entries;

describe('one open batch per analyst', () => {
  it('two analysts run batches at the same time; a second batch of one analyst is refused with a message that says what to do', async () => {
    const { t, mo, mia } = await world();
    const a = await open(t, mo.cookie, 300);
    const b = await open(t, mia.cookie, 300);
    expect([a.status, b.status]).toEqual([201, 201]);
    // Both chunks at once: each streams all of its own rows.
    const [ra, rb] = await Promise.all([send(t, mo.cookie, a.body.id, rows(300)), send(t, mia.cookie, b.body.id, rows(300))]);
    expect(ra.end).toMatchObject({ done: true, processed: 300, errors: 0, state: 'open' });
    expect(rb.end).toMatchObject({ done: true, processed: 300, errors: 0, state: 'open' });
    expect(ra.lines).toHaveLength(301);
    expect(rb.lines).toHaveLength(301);

    const again = await open(t, mo.cookie);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: expect.stringContaining('You already have a batch running. Cancel or finish it first') });
    // Finishing frees the analyst's own slot; the other analyst's batch is untouched.
    expect((await t.json<BatchInfo>('POST', `/api/console/batches/${a.body.id}/finish`, { cookie: mo.cookie })).body.state).toBe('finished');
    expect((await open(t, mo.cookie)).status).toBe(201);
    expect((await t.json<BatchInfo>('GET', `/api/console/batches/${b.body.id}`, { cookie: mia.cookie })).body).toMatchObject({ state: 'open', processed: 300 });
  });

  it('a member cannot read, feed, cancel, finish, list or end another analyst\'s batch: it answers as an unknown batch', async () => {
    const { t, mo, mia, owner } = await world();
    const a = await open(t, mo.cookie);
    const id = a.body.id;
    for (const cookie of [mia.cookie, owner.cookie]) {
      // The owner too: the analyst's routes reach one's own batch only (owners and admins end others' with /end).
      expect(await t.json('GET', `/api/console/batches/${id}`, { cookie })).toMatchObject({ status: 404, body: { error: 'Batch not found' } });
      expect(await send(t, cookie, id, rows(2))).toMatchObject({ status: 404, error: 'Batch not found' });
      expect(await t.json('POST', `/api/console/batches/${id}/cancel`, { cookie })).toMatchObject({ status: 404, body: { error: 'Batch not found' } });
      expect(await t.json('POST', `/api/console/batches/${id}/finish`, { cookie })).toMatchObject({ status: 404, body: { error: 'Batch not found' } });
    }
    // The same answer as for an id that never existed: nothing tells them apart.
    expect(await t.json('GET', '/api/console/batches/bat_0000000000000000', { cookie: mia.cookie })).toMatchObject({ status: 404, body: { error: 'Batch not found' } });
    expect(await t.json('GET', '/api/console/batches', { cookie: mia.cookie })).toMatchObject({ status: 403, body: { error: 'Permission denied' } });
    expect(await t.json('POST', `/api/console/batches/${id}/end`, { cookie: mia.cookie })).toMatchObject({ status: 403, body: { error: 'Permission denied' } });
    expect((await t.json<BatchInfo>('GET', `/api/console/batches/${id}`, { cookie: mo.cookie })).body).toMatchObject({ state: 'open', processed: 0, ended_by: null });
  });

  it(`at most ${BATCH_LIMITS.openPerOrganization} open batches in one organisation; the next analyst is told the limit`, async () => {
    const t = await testService({ plan: 'pro' });
    expect(await t.s.screening.ready(60_000)).not.toBeNull();
    const cookies: string[] = [];
    for (let i = 0; i <= BATCH_LIMITS.openPerOrganization; i++) {
      const email = `analyst${i}@example.test`;
      await t.s.accounts.addUser({ orgId: t.orgId, email, name: `Analyst ${i}`, password: PASSWORD, role: 'member' });
      cookies.push(await t.login(email, PASSWORD));
    }
    for (const cookie of cookies.slice(0, -1)) expect((await open(t, cookie)).status).toBe(201);
    const over = await open(t, cookies.at(-1)!);
    expect(over).toMatchObject({ status: 409, body: { error: expect.stringContaining('batches are running in this organization'), limit: BATCH_LIMITS.openPerOrganization } });
  });
});

describe('owners and admins: every open batch, and End', () => {
  it('an admin lists who runs what with its progress and last activity, ends a member\'s batch, and the member is told', async () => {
    const { t, admin, mo, mia, owner } = await world();
    const started = t.clock.now();
    const a = await open(t, mo.cookie, 40);
    t.clock.advance(60_000);
    const b = await open(t, mia.cookie, 5);
    t.clock.advance(30_000);
    await send(t, mo.cookie, a.body.id, rows(20) + '\n{broken');

    for (const cookie of [admin.cookie, owner.cookie]) {
      const list = await t.json<OpenBatchList>('GET', '/api/console/batches', { cookie });
      expect(list.status).toBe(200);
      expect(list.body.limit).toBe(BATCH_LIMITS.openPerOrganization);
      expect(list.body.batches).toEqual([
        {
          id: a.body.id, env: 'test', user: { user_id: mo.id, email: mo.email, name: 'Mo Member' }, total_rows: 40, processed: 21, errors: 1, credits_charged: 0,
          created_at: new Date(started).toISOString(), last_activity_at: new Date(started + 90_000).toISOString(),
          expires_at: new Date(started + 90_000 + BATCH_IDLE_MS).toISOString(), screening: false,
        },
        expect.objectContaining({ id: b.body.id, user: { user_id: mia.id, email: mia.email, name: 'Mia Member' }, processed: 0, total_rows: 5 }),
      ]);
    }

    const ended = await t.json<BatchInfo>('POST', `/api/console/batches/${a.body.id}/end`, { cookie: admin.cookie });
    expect(ended.status).toBe(200);
    expect(ended.body).toMatchObject({ id: a.body.id, state: 'cancelled', ended_by: 'administrator', processed: 21 });
    // Ended once: a second End is a conflict, not a second audit row.
    expect(await t.json('POST', `/api/console/batches/${a.body.id}/end`, { cookie: owner.cookie })).toMatchObject({ status: 409, body: { error: 'This batch has already ended.' } });
    expect((await t.json<OpenBatchList>('GET', '/api/console/batches', { cookie: admin.cookie })).body.batches.map((x) => x.id)).toEqual([b.body.id]);

    // The member's next chunk says who ended it; reading and finishing still work.
    const next = await send(t, mo.cookie, a.body.id, rows(5, 22));
    expect(next.status).toBe(409);
    expect(next.error).toMatch(/^Ended by an administrator/);
    expect((await t.json<BatchInfo>('GET', `/api/console/batches/${a.body.id}`, { cookie: mo.cookie })).body).toMatchObject({ state: 'cancelled', ended_by: 'administrator' });
    expect((await t.json<BatchInfo>('POST', `/api/console/batches/${a.body.id}/finish`, { cookie: mo.cookie })).body).toMatchObject({ state: 'cancelled', ended_by: 'administrator' });
    expect((await open(t, mo.cookie)).status).toBe(201);

    // Audited: who ended whose batch, with its counts.
    const rowsOf = (await auditOf(t, owner.cookie)).filter((e) => e.batch_id === a.body.id);
    expect(rowsOf.map((e) => e.action)).toEqual(['batch.finished', 'batch.cancelled', 'batch.created']);
    expect(rowsOf[1]).toMatchObject({
      actor: { kind: 'user', user_id: admin.id, email: admin.email, role: 'admin' }, target: { user_id: mo.id, email: mo.email },
      env: 'test', count_total: 40, count_done: 21, count_failed: 1,
    });
    expect(rowsOf[0]).toMatchObject({ actor: { kind: 'user', user_id: mo.id }, to_value: 'cancelled' });
  });

  it('an End during a chunk stops it at its next slice; the chunk\'s last line says an administrator ended it', async () => {
    const { t, owner, mo } = await world();
    const a = await open(t, mo.cookie, 5000);
    const res = await t.call('POST', `/api/console/batches/${a.body.id}/rows`, { cookie: mo.cookie, rawBody: rows(5000), headers: { 'Content-Type': 'application/x-ndjson' } });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = decoder.decode((await reader.read()).value);
    expect((await t.json<BatchInfo>('POST', `/api/console/batches/${a.body.id}/end`, { cookie: owner.cookie })).status).toBe(200);
    for (let r = await reader.read(); !r.done; r = await reader.read()) text += decoder.decode(r.value);
    const lines = text.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const end = lines.at(-1) as BatchChunkEnd;
    expect(end).toMatchObject({ done: true, state: 'cancelled', ended_by: 'administrator' });
    expect(end.processed).toBeLessThan(5000);
    expect(lines).toHaveLength(end.processed + 1);
  });

  it('organisations never see or end each other\'s batches', async () => {
    const { t, owner, mo } = await world();
    const other = await t.addOrg();
    const otherOwner = await other.login();
    const a = await open(t, mo.cookie);
    const b = await open(t, otherOwner);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect((await t.json<OpenBatchList>('GET', '/api/console/batches', { cookie: otherOwner })).body.batches.map((x) => x.id)).toEqual([b.body.id]);
    expect((await t.json<OpenBatchList>('GET', '/api/console/batches', { cookie: owner.cookie })).body.batches.map((x) => x.id)).toEqual([a.body.id]);
    expect(await t.json('POST', `/api/console/batches/${a.body.id}/end`, { cookie: otherOwner })).toMatchObject({ status: 404, body: { error: 'Batch not found' } });
    expect(await t.json('POST', `/api/console/batches/${b.body.id}/end`, { cookie: owner.cookie })).toMatchObject({ status: 404, body: { error: 'Batch not found' } });
    expect((await t.json<BatchInfo>('GET', `/api/console/batches/${a.body.id}`, { cookie: mo.cookie })).body.state).toBe('open');
    expect((await t.json<BatchInfo>('GET', `/api/console/batches/${b.body.id}`, { cookie: otherOwner })).body.state).toBe('open');
  });
});

describe('abandoned batches expire', () => {
  it(`after ${BATCH_IDLE_MS / 60_000} minutes without a chunk, by the service's own timer: audited by the system, its index released, the analyst told`, async () => {
    const { t, owner, mo, mia } = await world();
    const c = makeCanaries();
    const release = vi.spyOn(t.s.pool, 'release');
    const a = await open(t, mo.cookie, 30);
    const busy = await open(t, mia.cookie, 30);
    expect((await send(t, mo.cookie, a.body.id, canaryRows(c, 20))).end).toMatchObject({ processed: 20 });
    const stamp = t.s.screening.current()!.stamp;

    // One millisecond short of the window: nothing ends.
    t.clock.advance(BATCH_IDLE_MS - 1);
    expect(await t.s.batches.sweep()).toBe(0);
    // Mia's chunk keeps her batch alive; Mo's has been idle for the whole window.
    expect((await send(t, mia.cookie, busy.body.id, rows(3))).status).toBe(200);
    t.clock.advance(1);
    expect(release).not.toHaveBeenCalled();

    // Nobody calls: the service's timer (started as main.ts starts it) ends the batch.
    t.s.batches.start(5);
    await vi.waitFor(() => expect(release).toHaveBeenCalledWith(stamp), { timeout: 5000, interval: 5 });
    t.s.batches.stop();
    expect(release).toHaveBeenCalledTimes(1);

    const expired = (await auditOf(t, owner.cookie, '?action=batch.expired'));
    expect(expired).toHaveLength(1);
    expect(expired[0]).toMatchObject({
      action: 'batch.expired', actor: { kind: 'system', user_id: null, email: null, role: null }, batch_id: a.body.id, env: 'test',
      target: { user_id: mo.id, email: mo.email }, count_total: 30, count_done: 20, count_failed: 0,
    });
    expect((await auditOf(t, owner.cookie, '?actor=system')).map((e) => e.seq)).toEqual([expired[0]!.seq]);
    expect((await t.json<AuditVerification>('GET', '/api/audit/verify', { cookie: owner.cookie })).body).toMatchObject({ ok: true });
    // The CSV names the actor `system`.
    const csv = auditCsv(expired as AuditEntry[]).split('\r\n')[1]!;
    expect(csv.split(',').slice(2, 6)).toEqual(['system', '', '', 'batch.expired']);

    // Mo is told at his next chunk; his batch reads as expired; Mia's batch is still open.
    const next = await send(t, mo.cookie, a.body.id, rows(1, 21));
    expect(next).toMatchObject({ status: 409, error: `Ended after ${BATCH_LIMITS.idleMinutes} minutes without activity. This batch takes no more rows.` });
    expect((await t.json<BatchInfo>('GET', `/api/console/batches/${a.body.id}`, { cookie: mo.cookie })).body).toMatchObject({ state: 'cancelled', ended_by: 'expiry' });
    expect((await t.json<OpenBatchList>('GET', '/api/console/batches', { cookie: owner.cookie })).body.batches.map((x) => x.id)).toEqual([busy.body.id]);
    // He starts again without finishing the expired one.
    expect((await open(t, mo.cookie)).status).toBe(201);

    // Nothing about the subjects in the audit log, nor anywhere in the data directory.
    const all = JSON.stringify(t.s.db.prepare('SELECT * FROM audit_log').all());
    for (const needle of [c.firstName, c.lastName, c.dob, 'Given', 'Nobodyfound']) expect(all).not.toContain(needle);
    t.s.db.pragma('wal_checkpoint(PASSIVE)');
    expect(scanForCanaries(t.dataDir, c)).toEqual([]);
  });

  it('an idle batch also ends at the next call that looks at batches, audited once', async () => {
    const { t, owner, mo } = await world();
    const a = await open(t, mo.cookie);
    t.clock.advance(BATCH_IDLE_MS);
    expect((await t.json<BatchInfo>('GET', `/api/console/batches/${a.body.id}`, { cookie: mo.cookie })).body).toMatchObject({ state: 'cancelled', ended_by: 'expiry' });
    expect(await t.s.batches.sweep()).toBe(0);
    expect((await auditOf(t, owner.cookie, '?action=batch.expired')).map((e) => e.batch_id)).toEqual([a.body.id]);
  });

  it('a batch whose expiry cannot be audited stays open until it can be (no batch ends unaudited)', async () => {
    const { t, owner, mo } = await world();
    const a = await open(t, mo.cookie);
    t.clock.advance(BATCH_IDLE_MS);
    const record = vi.spyOn(t.s.audit, 'record').mockImplementationOnce(() => {
      throw new Error('disk full');
    });
    expect(await t.s.batches.sweep()).toBe(0);
    expect(record).toHaveBeenCalledTimes(1);
    record.mockRestore();
    expect((await t.json<OpenBatchList>('GET', '/api/console/batches', { cookie: owner.cookie })).body.batches.map((x) => x.id)).toEqual([]);
    expect((await auditOf(t, owner.cookie, '?action=batch.expired')).map((e) => e.batch_id)).toEqual([a.body.id]);
  });
});
