// Two organisations in ONE database: every org_id filter is exercised. Org A has keys, a webhook
// endpoint, credits spent, an open batch, audit rows, a pending clearance and four-eyes on; org B
// (its own owner, keys and credits) sees none of it and can act on none of it, and A sees nothing
// of B's. A second data directory would prove nothing: its database simply holds no other org.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerPage } from '../../../src-shared/contracts/accounts';
import type { AuditPage } from '../../../src-shared/contracts/audit';
import type { BatchInfo, OpenBatchList } from '../../../src-shared/contracts/batch';
import type { DispositionResponse, OrgSettings } from '../../../src-shared/contracts/review';
import { closeAll, testService, type OtherOrg, type TestService } from './harness';
import { disposition, PUTIN, runBatch, type BatchRun } from './review-support';

let t: TestService;
let b: OtherOrg;
let ownerA: string;
let analystA: string;
let ownerB: string;
const ANALYST_A = { email: 'analyst@a.test', password: 'analyst a password' };
const A = {
  keyId: '', apiKey: '', liveKey: '', webhookId: '', verificationId: '', openBatchId: '', clearanceId: '',
  batch: undefined as unknown as BatchRun,
};
const B = { keyId: '', webhookId: '', verificationId: '' };

beforeAll(async () => {
  t = await testService({ plan: 'pro' });
  expect(await t.s.screening.ready(60_000)).not.toBeNull();
  b = await t.addOrg({ name: 'Other Org', plan: 'pro' });
  expect(b.orgId).not.toBe(t.orgId);
  await t.s.accounts.addUser({ orgId: t.orgId, email: ANALYST_A.email, name: 'Ana A', password: ANALYST_A.password, role: 'member' });
  ownerA = await t.login();
  analystA = await t.login(ANALYST_A.email, ANALYST_A.password);
  ownerB = await b.login();

  // Org A: a key made in the console, a webhook endpoint, a live key that spends credits.
  const key = await t.json<{ key: { id: string }; api_key: string }>('POST', '/api/keys', { cookie: ownerA, body: { name: 'a', env: 'test', scopes: ['compliance'] } });
  expect(key.status).toBe(201);
  A.keyId = key.body.key.id;
  A.apiKey = key.body.api_key;
  await t.grant(500);
  A.liveKey = (await t.key({ env: 'live' })).api_key;
  const hook = await t.json<{ endpoint: { id: string } }>('POST', '/api/webhooks', {
    cookie: ownerA, body: { url: 'https://a.example/hook', env: 'live', events: ['compliance.screening.completed'] },
  });
  expect(hook.status).toBe(201);
  A.webhookId = hook.body.endpoint.id;
  const screened = await t.json<{ id: string }>('POST', '/api/compliance/v1/screen', { key: A.liveKey, body: { subject: PUTIN } });
  expect(screened.status).toBe(200);
  A.verificationId = screened.body.id;

  // Org A: four-eyes on, a batch whose strong match the analyst clears (pending), then an open batch.
  expect((await t.json('PATCH', '/api/settings', { cookie: ownerA, body: { four_eyes: true } })).status).toBe(200);
  A.batch = await runBatch(t, analystA, [PUTIN, PUTIN], (i) => ({ client_reference_id: `a-ref-${i}` }));
  const cleared = await t.json<DispositionResponse>('POST', '/api/review/dispositions', {
    cookie: analystA, body: disposition(A.batch.id, A.batch.row(2), 'cleared_false_positive', { reason_code: 'different_dob' }),
  });
  expect(cleared.body).toMatchObject({ status: 'pending_approval' });
  A.clearanceId = cleared.body.clearance!.id;
  const open = await t.json<BatchInfo>('POST', '/api/console/batches', { cookie: ownerA, body: { env: 'test', total_rows: 5 } });
  expect(open.status).toBe(201);
  A.openBatchId = open.body.id;

  // Org B: its own key, credits, a live screening it paid for, and a webhook endpoint.
  B.keyId = (await b.key({ env: 'live' })).id;
  await b.grant(130);
  const liveB = await b.key({ env: 'live' });
  const screenedB = await t.json<{ id: string }>('POST', '/api/compliance/v1/screen', { key: liveB.api_key, body: { subject: PUTIN } });
  expect(screenedB.status).toBe(200);
  B.verificationId = screenedB.body.id;
  const hookB = await t.json<{ endpoint: { id: string } }>('POST', '/api/webhooks', {
    cookie: ownerB, body: { url: 'https://b.example/hook', env: 'test', events: ['compliance.screening.completed'] },
  });
  expect(hookB.status).toBe(201);
  B.webhookId = hookB.body.endpoint.id;
}, 120_000);
afterAll(closeAll);

describe('API keys', () => {
  it("each organisation lists only its own keys", async () => {
    const listB = await t.json<{ keys: { id: string }[] }>('GET', '/api/keys', { cookie: ownerB });
    expect(listB.body.keys.map((k) => k.id)).toHaveLength(2);
    expect(listB.body.keys.map((k) => k.id)).toContain(B.keyId);
    expect(listB.body.keys.map((k) => k.id)).not.toContain(A.keyId);
    const listA = await t.json<{ keys: { id: string }[] }>('GET', '/api/keys', { cookie: ownerA });
    expect(listA.body.keys.map((k) => k.id)).toContain(A.keyId);
    expect(listA.body.keys.map((k) => k.id)).not.toContain(B.keyId);
  });

  it("B cannot revoke A's key: 404, and the key still works", async () => {
    const r = await t.json('POST', `/api/keys/${A.keyId}/revoke`, { cookie: ownerB, body: {} });
    expect(r.status).toBe(404);
    expect((await t.s.keys.lookup(A.apiKey)).ok).toBe(true);
  });

  it("B's key cannot read the status of A's verification", async () => {
    const kB = await b.key({ env: 'live' });
    expect((await t.json('GET', `/api/status/${A.verificationId}`, { key: kB.api_key })).status).toBe(404);
    expect((await t.json('GET', `/api/status/${A.verificationId}`, { key: A.liveKey })).status).toBe(200);
  });
});

describe('webhooks', () => {
  it('each organisation lists only its own endpoints', async () => {
    const listB = await t.json<{ endpoints: { id: string }[] }>('GET', '/api/webhooks', { cookie: ownerB });
    expect(listB.body.endpoints.map((e) => e.id)).toEqual([B.webhookId]);
    const listA = await t.json<{ endpoints: { id: string }[] }>('GET', '/api/webhooks', { cookie: ownerA });
    expect(listA.body.endpoints.map((e) => e.id)).toEqual([A.webhookId]);
  });

  it("B can neither read the deliveries of, test, nor remove A's endpoint", async () => {
    expect((await t.json('GET', `/api/webhooks/${A.webhookId}/deliveries`, { cookie: ownerB })).status).toBe(404);
    expect((await t.json('POST', `/api/webhooks/${A.webhookId}/test`, { cookie: ownerB, body: {} })).status).toBe(404);
    expect((await t.json('DELETE', `/api/webhooks/${A.webhookId}`, { cookie: ownerB })).status).toBe(404);
    const listA = await t.json<{ endpoints: { id: string }[] }>('GET', '/api/webhooks', { cookie: ownerA });
    expect(listA.body.endpoints.map((e) => e.id)).toEqual([A.webhookId]);
  });

  it("only A's own screening reached A's endpoint: not B's live screening, not B's test attempt", async () => {
    const deliveries = await t.json<{ deliveries: unknown[] }>('GET', `/api/webhooks/${A.webhookId}/deliveries`, { cookie: ownerA });
    expect(deliveries.body.deliveries).toHaveLength(1);
    const events = t.s.db.prepare('SELECT e.org_id FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id WHERE d.endpoint_id = ?').all(A.webhookId);
    expect(events).toEqual([{ org_id: t.orgId }]);
  });
});

describe('credits and the ledger', () => {
  it("B's balance and ledger hold only B's grants; A's only A's grant and charge", async () => {
    // B: 130 granted, one live screening (60) charged. A: 500 granted, one live screening charged.
    const ledgerB = await t.json<LedgerPage>('GET', '/api/credits/ledger', { cookie: ownerB });
    expect(ledgerB.status).toBe(200);
    expect(ledgerB.body.entries.map((e) => [e.kind, e.amount, e.verification_id])).toEqual([
      ['charge', -60, B.verificationId],
      ['grant', 130, null],
    ]);
    expect(ledgerB.body).toMatchObject({ balance: 70, total: 2 });
    expect((await t.json<{ credits: { balance: number } }>('GET', '/api/account', { cookie: ownerB })).body.credits.balance).toBe(70);

    const ledgerA = await t.json<LedgerPage>('GET', '/api/credits/ledger', { cookie: ownerA });
    expect(ledgerA.body.entries.map((e) => [e.kind, e.amount, e.verification_id])).toEqual([
      ['charge', -60, A.verificationId],
      ['grant', 500, null],
    ]);
    expect(ledgerA.body).toMatchObject({ balance: 440, total: 2 });
    expect((await t.json<{ credits: { balance: number } }>('GET', '/api/account', { cookie: ownerA })).body.credits.balance).toBe(440);
  });

  it('a fresh organisation in the same database starts at zero', async () => {
    const c = await t.addOrg({ name: 'Third Org', email: 'owner@third.test' });
    const cookie = await c.login();
    const ledger = await t.json<LedgerPage>('GET', '/api/credits/ledger', { cookie });
    expect(ledger.body).toMatchObject({ entries: [], balance: 0, total: 0 });
    expect((await t.json<{ credits: { balance: number } }>('GET', '/api/account', { cookie })).body.credits.balance).toBe(0);
  });
});

describe('batches', () => {
  it("B cannot read, feed, cancel or finish A's open batch, and may open its own", async () => {
    const id = A.openBatchId;
    expect((await t.json('GET', `/api/console/batches/${id}`, { cookie: ownerB })).status).toBe(404);
    const rows = await t.call('POST', `/api/console/batches/${id}/rows`, {
      cookie: ownerB, rawBody: JSON.stringify({ row: 1, subject: PUTIN }), headers: { 'Content-Type': 'application/x-ndjson' },
    });
    expect(rows.status).toBe(404);
    expect((await t.json('POST', `/api/console/batches/${id}/cancel`, { cookie: ownerB, body: {} })).status).toBe(404);
    expect((await t.json('POST', `/api/console/batches/${id}/finish`, { cookie: ownerB, body: {} })).status).toBe(404);
    // B's owner lists only B's open batches and cannot end A's.
    expect((await t.json<OpenBatchList>('GET', '/api/console/batches', { cookie: ownerB })).body.batches).toEqual([]);
    expect((await t.json('POST', `/api/console/batches/${id}/end`, { cookie: ownerB, body: {} })).status).toBe(404);
    expect((await t.json<BatchInfo>('GET', `/api/console/batches/${id}`, { cookie: ownerA })).body).toMatchObject({ id, state: 'open', processed: 0 });

    // A's open batches never count against B's limit.
    const own = await t.json<BatchInfo>('POST', '/api/console/batches', { cookie: ownerB, body: { env: 'test', total_rows: 1 } });
    expect(own.status).toBe(201);
    expect((await t.json('GET', `/api/console/batches/${own.body.id}`, { cookie: ownerA })).status).toBe(404);
    expect((await t.json('POST', `/api/console/batches/${own.body.id}/finish`, { cookie: ownerB, body: {} })).status).toBe(200);
  });
});

describe('the audit log', () => {
  it("B's log holds none of A's rows, and A's none of B's", async () => {
    const logB = await t.json<AuditPage>('GET', '/api/audit?per_page=500', { cookie: ownerB });
    expect(logB.status).toBe(200);
    const aBatch = A.batch.id;
    expect(logB.body.entries.filter((e) => e.batch_id === aBatch || e.key_id === A.keyId)).toEqual([]);
    expect(logB.body.entries.map((e) => e.action)).not.toContain('clearance.requested');
    expect(logB.body.entries.map((e) => e.action)).not.toContain('key.created');
    // A's client reference, searched from B, finds nothing; from A it finds A's row.
    expect((await t.json<AuditPage>('GET', '/api/audit?client_reference=a-ref-0', { cookie: ownerB })).body.total).toBe(0);
    expect((await t.json<AuditPage>('GET', '/api/audit?client_reference=a-ref-0', { cookie: ownerA })).body.total).toBe(1);

    const logA = await t.json<AuditPage>('GET', '/api/audit?per_page=500', { cookie: ownerA });
    const actions = logA.body.entries.map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['key.created', 'settings.changed', 'batch.created', 'clearance.requested']));
    expect(logA.body.entries.filter((e) => e.actor.kind === 'user' && e.actor.email === b.email)).toEqual([]);
  });
});

describe('review decisions', () => {
  it("B's owner cannot approve A's clearance, neither from B's session nor at A's desk", async () => {
    const fromB = await t.json('POST', `/api/review/clearances/${A.clearanceId}/approve`, { cookie: ownerB, body: { email: b.email, password: b.password } });
    expect(fromB.status).toBe(404);
    const atA = await t.json<{ error: string }>('POST', `/api/review/clearances/${A.clearanceId}/approve`, {
      cookie: analystA, body: { email: b.email, password: b.password },
    });
    expect(atA.status).toBe(403);
    expect(atA.body).toMatchObject({ error: 'Invalid approver e-mail or password' });
  });

  it("a decision B records on the same batch row does not withdraw A's waiting clearance", async () => {
    // Even holding A's row and token, B's decision is B's: A's pending clearance stays pending.
    const r = await t.json<DispositionResponse>('POST', '/api/review/dispositions', {
      cookie: ownerB, body: disposition(A.batch.id, A.batch.row(2), 'escalated'),
    });
    expect(r.status).toBe(200);
    const withdrawnInA = await t.json<AuditPage>('GET', '/api/audit?action=clearance.withdrawn', { cookie: ownerA });
    expect(withdrawnInA.body.total).toBe(0);
    const setInA = await t.json<AuditPage>('GET', '/api/audit?action=disposition.set', { cookie: ownerA });
    expect(setInA.body.total).toBe(0);
    // Still pending: an admin of A can approve it.
    await t.s.accounts.addUser({ orgId: t.orgId, email: 'admin@a.test', name: 'Ad A', password: 'admin a password', role: 'admin' });
    const ok = await t.json<{ clearance: { state: string } }>('POST', `/api/review/clearances/${A.clearanceId}/approve`, {
      cookie: analystA, body: { email: 'admin@a.test', password: 'admin a password' },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.clearance.state).toBe('approved');
  });
});

describe('settings and plan', () => {
  it("each organisation has its own four-eyes setting and plan", async () => {
    expect((await t.json<OrgSettings>('GET', '/api/settings', { cookie: ownerA })).body).toEqual({ four_eyes: true });
    expect((await t.json<OrgSettings>('GET', '/api/settings', { cookie: ownerB })).body).toEqual({ four_eyes: false });
    expect((await t.json('PATCH', '/api/settings', { cookie: ownerB, body: { four_eyes: true } })).status).toBe(200);
    expect((await t.json('PATCH', '/api/settings', { cookie: ownerB, body: { four_eyes: false } })).status).toBe(200);
    expect((await t.json<OrgSettings>('GET', '/api/settings', { cookie: ownerA })).body).toEqual({ four_eyes: true });

    expect((await t.json('PATCH', '/api/account/plan', { cookie: ownerB, body: { plan: 'enterprise' } })).status).toBe(200);
    expect((await t.json<{ organization: { plan: string; id: number } }>('GET', '/api/account', { cookie: ownerA })).body.organization).toMatchObject({ id: t.orgId, plan: 'pro' });
    expect((await t.json<{ organization: { plan: string; id: number } }>('GET', '/api/account', { cookie: ownerB })).body.organization).toMatchObject({ id: b.orgId, plan: 'enterprise' });
  });
});
