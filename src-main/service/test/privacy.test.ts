// Privacy: canary subject data sent through every route (valid and invalid requests, query
// strings, paths, failed logins, billing with idempotency) leaves no trace in the data
// directory. The harness itself is shown to catch a canary wherever it lands.
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closeAll, testService } from './harness';
import { makeCanaries, scanForCanaries } from './privacy';
import { disposition, runBatch } from './review-support';

afterAll(closeAll);

describe('privacy harness', () => {
  it('finds a canary in the database file, its WAL, a log, and an export, in several encodings', async () => {
    const t = await testService();
    const c = makeCanaries();
    t.s.db.prepare("INSERT INTO meta (key, value) VALUES ('leak', ?)").run(c.fullName);
    expect(scanForCanaries(t.dataDir, c).some((h) => /console\.db/.test(h.file))).toBe(true);

    const u = await testService();
    appendFileSync(join(u.dataDir, 'logs', 'service.log'), c.lastName.toLowerCase());
    writeFileSync(join(u.dataDir, 'export.bin'), Buffer.from(c.documentNumber, 'utf16le'));
    writeFileSync(join(u.dataDir, 'img.b64'), c.imageB64);
    writeFileSync(join(u.dataDir, 'img.bin'), c.image);
    const files = scanForCanaries(u.dataDir, c).map((h) => h.file);
    expect(files).toEqual(expect.arrayContaining(['logs/service.log', 'export.bin', 'img.b64', 'img.bin']));
  });
});

describe('no subject data at rest', () => {
  it('after every route has seen canary data, the data directory holds none of it', async () => {
    const t = await testService({ plan: 'pro' });
    const c = makeCanaries();
    const subject = {
      first_name: c.firstName, last_name: c.lastName, date_of_birth: c.dob, document_number: c.documentNumber,
      client_reference_id: c.clientReference, image_selfie_b64: c.imageB64,
    };
    const live = t.key({ env: 'live' });
    const test = t.key({ env: 'test' });
    const cookie = await t.login();
    t.grant(1000);

    for (const r of t.routes) {
      const path = r.path.replace(/:[a-z_]+/g, encodeURIComponent(c.lastName));
      for (const key of [live.api_key, test.api_key, `svk-${c.firstName}`]) {
        await t.call(r.method, `${path}?name=${c.firstName}&dob=${c.dob}`, {
          key, cookie, headers: { 'Idempotency-Key': `idem-${Math.random()}` },
          ...(r.method === 'GET' ? {} : { body: { ...subject, subject } }),
        });
      }
    }
    // Failed logins and setups with canaries in every field.
    await t.call('POST', '/api/auth/login', { body: { email: `${c.firstName}@example.test`, password: c.lastName } });
    await t.call('POST', '/api/setup', { body: { organization: c.fullName, name: c.fullName, email: 'x@example.test', password: c.dob } });
    // A billable run whose request carried the subject: only the keyed fingerprint is kept.
    const key = t.s.keys.lookup(live.api_key);
    if (!key.ok) throw new Error('key');
    const fp = t.s.idempotency.fingerprint('POST', '/api/compliance/v1/screen', JSON.stringify(subject));
    await t.s.billing.run({ key: key.key, operation: 'screen', idPrefix: 'scr', idempotency: { key: 'p-1', fingerprint: fp } }, async () => ({
      status: 'completed', confidence: null, billable: true, httpStatus: 200, result: subject,
    }));

    t.s.db.pragma('wal_checkpoint(PASSIVE)');
    expect(scanForCanaries(t.dataDir, c)).toEqual([]);
  });
});

describe('screening leaves no subject data at rest', () => {
  it('screen and rescreen of canary subjects (live, with webhooks and idempotency) leave only ledger rows', async () => {
    const t = await testService({ plan: 'pro' });
    expect(await t.s.screening.ready(60_000)).not.toBeNull();
    const c = makeCanaries();
    const cookie = await t.login();
    await t.json('POST', '/api/webhooks', {
      cookie, body: { url: 'https://receiver.example/h', env: 'live', events: ['compliance.screening.completed', 'compliance.rescreen.completed', 'compliance.rescreen.risk_changed'] },
    });
    t.grant(1000);
    const k = t.key({ env: 'live' });
    const subject = { type: 'individual', first_name: c.firstName, last_name: c.lastName, date_of_birth: c.dob, country: 'GB' };
    // A canary subject that matches a listed person too, so matched list records are in play.
    const listed = { type: 'individual', first_name: 'Vladimir', last_name: 'Putin' };
    for (const [i, s] of [subject, listed].entries()) {
      const r = await t.json<{ id: string }>('POST', '/api/compliance/v1/screen', {
        key: k.api_key, headers: { 'Idempotency-Key': `${c.clientReference}-${i}` },
        body: { client_reference_id: c.clientReference, subject: s, metadata: { ref: c.documentNumber, note: c.fullName } },
      });
      expect(r.status).toBe(200);
      await t.json('POST', '/api/compliance/v1/rescreen', {
        key: k.api_key,
        body: { subject: s, previous_screening_id: r.body.id, previous_result_summary: { risk_score: 0, risk_level: 'low', flags: [] } },
      });
    }
    expect(t.s.db.prepare("SELECT COUNT(*) AS n FROM verifications WHERE product IN ('screen','rescreen')").get()).toEqual({ n: 4 });
    t.s.db.pragma('wal_checkpoint(PASSIVE)');
    expect(scanForCanaries(t.dataDir, c)).toEqual([]);
  }, 90_000);
});

describe('the review and the audit trail leave no subject data at rest', () => {
  it('screening, a batch, dispositions with notes, four-eyes approval and audit searches with canaries leave only ids and HMACs', async () => {
    const t = await testService({ plan: 'pro' });
    expect(await t.s.screening.ready(60_000)).not.toBeNull();
    const c = makeCanaries();
    await t.s.accounts.addUser({ orgId: t.orgId, email: 'admin@example.test', name: 'Ad', password: 'admin password', role: 'admin' });
    const cookie = await t.login();
    await t.json('PATCH', '/api/settings', { cookie, body: { four_eyes: true } });

    // The console's own screening, with a canary subject and client reference.
    const screened = await t.json('POST', '/api/console/screen?env=test', {
      cookie, body: { client_reference_id: c.clientReference, subject: { type: 'individual', first_name: c.firstName, last_name: c.lastName, date_of_birth: c.dob } },
    });
    expect(screened.status).toBe(200);

    // A batch whose rows carry canary references and a canary subject, and a listed person whose
    // strong match is cleared.
    const listed = { type: 'individual', first_name: 'Vladimir', last_name: 'Putin' };
    const canary = { type: 'individual', first_name: c.firstName, last_name: c.lastName, date_of_birth: c.dob };
    const b = await runBatch(t, cookie, [listed, canary], (i) => ({ client_reference_id: `${c.clientReference}-${i}` }));
    expect(b.row(2).matches[0]).toMatchObject({ list: 'sanctions', strength: 'strong' });
    // A note's text has no field in the contract; one sent anyway is dropped, never stored.
    const note = { note: `${c.fullName} born ${c.dob}, passport ${c.documentNumber}`, customer: c.clientReference, name: c.fullName };
    const escalated = await t.json('POST', '/api/review/dispositions', { cookie, body: { ...disposition(b.id, b.row(3), 'escalated'), ...note } });
    expect(escalated.status).toBe(200);
    const cleared = await t.json<{ clearance: { id: string } }>('POST', '/api/review/dispositions', {
      cookie, body: { ...disposition(b.id, b.row(2), 'cleared_false_positive', { reason_code: 'other', has_note: true }), ...note },
    });
    expect(cleared.status).toBe(200);
    const id = cleared.body.clearance.id;
    await t.json('POST', `/api/review/clearances/${id}/approve`, { cookie, body: { email: `${c.firstName}@example.test`, password: c.lastName } });
    expect((await t.json('POST', `/api/review/clearances/${id}/approve`, { cookie, body: { email: 'admin@example.test', password: 'admin password' } })).status).toBe(200);

    // Searching the log by a canary reference goes through its HMAC.
    const search = await t.json<{ total: number }>('GET', `/api/audit?client_reference=${encodeURIComponent(c.clientReference)}`, { cookie });
    expect(search.body.total).toBe(1);
    await t.json('GET', `/api/audit?client_reference=${encodeURIComponent(c.fullName)}&actor=${c.firstName}`, { cookie });
    await t.json('PATCH', '/api/account/plan', { cookie, body: { plan: 'enterprise', name: c.fullName } });

    expect(t.s.db.prepare('SELECT COUNT(*) AS n FROM audit_log').get()).toEqual({ n: 8 });
    expect(t.s.audit.verify()).toMatchObject({ ok: true });
    t.s.db.pragma('wal_checkpoint(PASSIVE)');
    expect(scanForCanaries(t.dataDir, c)).toEqual([]);
  }, 90_000);
});
