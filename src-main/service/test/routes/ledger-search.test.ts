// GET /api/verifications?search=: the ledger searched by verification id (whole or its start) or
// by client reference (exact, through the HMAC the ledger keeps instead of the reference) (issue 26).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VerificationPage } from '../../../../src-shared/contracts/verifications';
import { closeAll, testService, type TestService } from '../harness';

afterAll(closeAll);

let t: TestService;
let cookie: string;
const REFERENCE = 'CUST-2026-000417';
const SUBJECT = { type: 'individual', first_name: 'Jane', last_name: 'Example' };
const ids: Record<'withRef' | 'otherRef' | 'noRef', string> = { withRef: '', otherRef: '', noRef: '' };

beforeAll(async () => {
  t = await testService({ plan: 'pro' });
  expect(await t.s.screening.ready(60_000)).not.toBeNull();
  cookie = await t.login();
  const k = await t.key({ scopes: ['compliance'] });
  const screen = async (body: Record<string, unknown>) => {
    t.clock.advance(1000);
    const r = await t.json<{ id: string }>('POST', '/api/compliance/v1/screen', { key: k.api_key, body: { subject: SUBJECT, ...body } });
    expect(r.status).toBe(200);
    return r.body.id;
  };
  ids.withRef = await screen({ client_reference_id: REFERENCE });
  ids.otherRef = await screen({ client_reference_id: `${REFERENCE}-2` });
  ids.noRef = await screen({});
}, 120_000);

const search = (q: string, who = cookie, env = 'test') =>
  t.json<VerificationPage>('GET', `/api/verifications?env=${env}&search=${encodeURIComponent(q)}`, { cookie: who });
const found = (p: VerificationPage) => p.entries.map((e) => e.verification_id);

describe('GET /api/verifications?search=', () => {
  it('finds a verification by its whole id, and by the first characters of it', async () => {
    const whole = await search(ids.noRef);
    expect(whole.status).toBe(200);
    expect(found(whole.body)).toEqual([ids.noRef]);
    expect(whole.body.total).toBe(1);

    const prefix = await search(ids.withRef.slice(0, 12));
    expect(found(prefix.body)).toContain(ids.withRef);
    expect(prefix.body.entries.every((e) => e.verification_id.startsWith(ids.withRef.slice(0, 12)))).toBe(true);
    // Spaces around a pasted id are let go.
    expect(found((await search(`  ${ids.otherRef} `)).body)).toEqual([ids.otherRef]);
  });

  it('finds the screening sent with a client reference, exactly, through its HMAC; the reference itself is stored nowhere', async () => {
    const r = await search(REFERENCE);
    expect(r.status).toBe(200);
    expect(found(r.body)).toEqual([ids.withRef]);
    // Exact only: neither the start of a reference nor another case finds it.
    expect((await search(REFERENCE.slice(0, 8))).body.total).toBe(0);
    expect((await search(REFERENCE.toLowerCase())).body.total).toBe(0);
    expect(found((await search(`${REFERENCE}-2`)).body)).toEqual([ids.otherRef]);

    const row = (await t.sql('SELECT * FROM verifications WHERE id = ?', ids.withRef))[0] as Record<string, unknown>;
    expect(row.client_ref_hmac).toBe(t.s.audit.clientRefHmac(REFERENCE));
    expect(JSON.stringify((await t.sql('SELECT * FROM verifications')))).not.toContain(REFERENCE);
    expect(((await t.sql('SELECT client_ref_hmac FROM verifications WHERE id = ?', ids.noRef))[0] as { client_ref_hmac: string | null }).client_ref_hmac).toBeNull();
  });

  it('answers an empty page when nothing matches; % and _ are taken as themselves', async () => {
    for (const q of ['scr_doesnotexist', 'nobody-ref', '%', '_', 'scr\\']) {
      const r = await search(q);
      expect(r.status, q).toBe(200);
      expect(r.body, q).toMatchObject({ total: 0, entries: [], page: 1, pages: 1 });
    }
    // The search combines with the other filters.
    expect((await t.json<VerificationPage>('GET', `/api/verifications?env=test&product=human&search=${ids.noRef}`, { cookie })).body.total).toBe(0);
    expect((await search(ids.noRef, cookie, 'live')).body.total).toBe(0);
  });

  it('refuses a malformed search: empty, over 200 characters, control characters', async () => {
    for (const q of ['', '   ', 'x'.repeat(201), 'scr_\u0000', 'a\nb']) {
      const r = await t.json<{ error: string }>('GET', `/api/verifications?env=test&search=${encodeURIComponent(q)}`, { cookie });
      expect(r.status, JSON.stringify(q)).toBe(400);
    }
    expect((await search('x'.repeat(200))).status).toBe(200);
  });

  it('never finds another organisation\'s verifications, by id, prefix or reference', async () => {
    const other = await t.addOrg({ email: 'other-search@example.test' });
    const theirCookie = await other.login();
    for (const q of [ids.withRef, ids.withRef.slice(0, 12), REFERENCE, 'scr_']) {
      const r = await search(q, theirCookie);
      expect(r.status, q).toBe(200);
      expect(r.body.total, q).toBe(0);
    }
    expect((await search(ids.withRef, '')).status).toBe(401);
  });
});
