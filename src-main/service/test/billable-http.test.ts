// The billing plumbing over HTTP, through a probe route built exactly like a product route (a
// use case billing through core/app/call.ts, called with the request's call):
// Idempotency-Key replays, 402 bodies with upgrade_url, test keys never 402, and concurrent
// HTTP requests never overspend.
import { afterAll, describe, expect, it } from 'vitest';
import type { Router } from '../http/router';
import { bill } from '../core/app/call';
import { callOf, reply } from '../http/call';
import { parseJsonText } from '../http/validate';
import { z } from 'zod';
import { closeAll, testService } from './harness';

afterAll(closeAll);

const Probe = z.object({ value: z.string() });
const ProbeAnswer = z.object({
  verification_id: z.string(), created: z.number(), credits_consumed: z.number(), credits_remaining: z.number().nullable(),
  result: z.object({ length: z.number() }),
});

function probeRoute(r: Router): void {
  r.route({
    method: 'POST', path: '/api/probe/identity', auth: { kind: 'key', scope: 'identity', category: 'verification' },
    summary: 'Billing probe', request: { body: Probe }, responses: { 200: ProbeAnswer },
    handler: async (c, input) => {
      const text = await input.text();
      const body = parseJsonText(text, Probe);
      const billed = await bill(r.services, callOf(c), { operation: 'identity', idPrefix: 'ver', bodyText: text }, async () => {
        await new Promise((res) => setTimeout(res, 3));
        return { status: 'PASS', confidence: 90, billable: true, httpStatus: 200, result: { length: body.value.length } };
      });
      return reply(c, {
        body: {
          verification_id: billed.verificationId, created: billed.createdAt, credits_consumed: billed.charged,
          credits_remaining: billed.creditsRemaining, result: billed.outcome.result,
        },
        replayed: billed.replayed,
      });
    },
  });
}

async function service(plan: 'pro' | 'enterprise' = 'enterprise') {
  return testService({ plan, extraRoutes: [probeRoute] });
}

describe('billable routes over HTTP', () => {
  it('charges a live key and reports the balance', async () => {
    const t = await service();
    await t.grant(100);
    const k = await t.key({ env: 'live' });
    const { status, body } = await t.json('POST', '/api/probe/identity', { key: k.api_key, body: { value: 'abc' } });
    expect(status).toBe(200);
    expect(body).toMatchObject({ credits_consumed: 30, credits_remaining: 70, result: { length: 3 } });
  });

  it('a retried Idempotency-Key returns the first response without charging again', async () => {
    const t = await service();
    await t.grant(100);
    const k = await t.key({ env: 'live' });
    const send = (value: string) =>
      t.json<Record<string, unknown>>('POST', '/api/probe/identity', { key: k.api_key, body: { value }, headers: { 'Idempotency-Key': 'order-42' } });
    const first = await send('abc');
    t.clock.advance(5000);
    const again = await send('abc');
    expect(again.status).toBe(200);
    expect(again.body.verification_id).toBe(first.body.verification_id);
    expect(again.body.created).toBe(first.body.created);
    expect(again.res.headers.get('idempotent-replayed')).toBe('true');
    expect((await t.s.credits.balance(t.orgId))).toBe(70);
    const conflict = await send('different');
    expect(conflict.status).toBe(400);
    expect(conflict.body).toMatchObject({ status: 'ERROR', code: 'IDEMPOTENCY_KEY_REUSED' });
    expect((await t.s.credits.balance(t.orgId))).toBe(70);
  });

  it('an Idempotency-Key belongs to its API key: another key, or another organisation, sending it is a new request, answered and charged as its own', async () => {
    const t = await service();
    await t.grant(100);
    const first = await t.key({ env: 'live' });
    const second = await t.key({ env: 'live' });
    const other = await t.addOrg({ plan: 'enterprise' });
    await other.grant(100);
    const theirs = await other.key({ env: 'live' });
    const send = (apiKey: string) =>
      t.json<Record<string, unknown>>('POST', '/api/probe/identity', { key: apiKey, body: { value: 'abc' }, headers: { 'Idempotency-Key': 'order-42' } });
    const a = await send(first.api_key);
    const b = await send(second.api_key);
    const c = await send(theirs.api_key);
    for (const r of [a, b, c]) expect(r.status).toBe(200);
    expect(b.res.headers.get('idempotent-replayed')).not.toBe('true');
    expect(c.res.headers.get('idempotent-replayed')).not.toBe('true');
    expect(new Set([a.body.verification_id, b.body.verification_id, c.body.verification_id]).size).toBe(3);
    expect((await t.s.credits.balance(t.orgId))).toBe(40);
    expect((await t.s.credits.balance(other.orgId))).toBe(70);
    // The other organisation cannot read this one's attempt through the key either; its own key can.
    expect((await t.json('GET', `/api/status/${String(a.body.verification_id)}`, { key: first.api_key })).status).toBe(200);
    expect((await t.json('GET', `/api/status/${String(a.body.verification_id)}`, { key: theirs.api_key })).status).toBe(404);
  });

  it('402 bodies: exhausted at 0 with upgrade_url, insufficient when short', async () => {
    const t = await service();
    const k = await t.key({ env: 'live' });
    const empty = await t.json('POST', '/api/probe/identity', { key: k.api_key, body: { value: 'a' } });
    expect(empty.status).toBe(402);
    expect(empty.body).toEqual({
      success: false, error: 'Credits exhausted', error_code: 'CREDITS_EXHAUSTED', message: expect.any(String),
      upgrade_url: 'http://127.0.0.1:4310/#/plan',
    });
    await t.grant(10);
    const short = await t.json('POST', '/api/probe/identity', { key: k.api_key, body: { value: 'a' } });
    expect(short.status).toBe(402);
    expect(short.body).toEqual({
      error: 'Insufficient credits', status: 'ERROR', message: expect.any(String), credits_remaining: 10, credits_required: 30,
    });
  });

  it('a test key with no credits is never refused and never charged', async () => {
    const t = await service();
    const k = await t.key({ env: 'test' });
    const { status, body } = await t.json('POST', '/api/probe/identity', { key: k.api_key, body: { value: 'a' } });
    expect(status).toBe(200);
    expect(body).toMatchObject({ credits_consumed: 0, credits_remaining: null });
  });

  it('validation failures are not billed', async () => {
    const t = await service();
    await t.grant(100);
    const k = await t.key({ env: 'live' });
    const { status } = await t.json('POST', '/api/probe/identity', { key: k.api_key, body: { nope: 1 } });
    expect(status).toBe(400);
    expect((await t.s.credits.balance(t.orgId))).toBe(100);
  });

  it('40 concurrent HTTP requests never overspend', async () => {
    const t = await service();
    await t.grant(300);
    const k = await t.key({ env: 'live' });
    const results = await Promise.all(
      Array.from({ length: 40 }, () => t.call('POST', '/api/probe/identity', { key: k.api_key, body: { value: 'x' } })),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 402)).toHaveLength(30);
    expect((await t.s.credits.balance(t.orgId))).toBe(0);
  });
});

describe('clientKey form field (the /api/verify way of sending a key)', () => {
  function formRoute(r: Router): void {
    r.route({
      method: 'POST', path: '/api/probe/form', auth: { kind: 'key', scope: 'human', category: 'verification', via: 'header-or-form' },
      summary: 'Form probe', request: { body: { contentType: 'multipart/form-data', description: 'file and clientKey' } },
      responses: { 200: z.object({ key_id: z.string(), file_bytes: z.number() }) },
      handler: async (c, input) => {
        const file = (await input.form()).get('file');
        return c.json({ key_id: c.get('key').id, file_bytes: file instanceof File ? file.size : 0 });
      },
    });
  }

  it('accepts the key in the multipart field clientKey, or in X-API-Key, and still refuses a wrong one', async () => {
    const t = await testService({ plan: 'pro', extraRoutes: [formRoute] });
    const k = await t.key({ scopes: ['human'] });
    const form = (key?: string) => {
      const f = new FormData();
      if (key) f.set('clientKey', key);
      f.set('file', new File([new Uint8Array(1234)], 'selfie.jpg', { type: 'image/jpeg' }));
      return f;
    };
    const viaForm = await t.app.request('http://127.0.0.1:4310/api/probe/form', { method: 'POST', body: form(k.api_key) });
    expect(viaForm.status).toBe(200);
    expect(await viaForm.json()).toEqual({ key_id: k.id, file_bytes: 1234 });
    const viaHeader = await t.app.request('http://127.0.0.1:4310/api/probe/form', { method: 'POST', body: form(), headers: { 'X-API-Key': k.api_key } });
    expect(viaHeader.status).toBe(200);
    expect((await t.app.request('http://127.0.0.1:4310/api/probe/form', { method: 'POST', body: form() })).status).toBe(401);
    expect((await t.app.request('http://127.0.0.1:4310/api/probe/form', { method: 'POST', body: form('svk-' + 'x'.repeat(32)) })).status).toBe(401);
    const other = await t.key({ scopes: ['age'] });
    expect((await t.app.request('http://127.0.0.1:4310/api/probe/form', { method: 'POST', body: form(other.api_key) })).status).toBe(401);
  });
});

describe('checkpointed balance over HTTP', () => {
  it('after grants and 60 concurrent charged requests, the balance the API reports is SUM(amount)', async () => {
    const t = await service();
    await t.grant(1000);
    const k = await t.key({ env: 'live' });
    const cookie = await t.login();
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => t.json('POST', '/api/probe/identity', { key: k.api_key, body: { value: `v${i}` } })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(33);
    await t.grant(15);
    const sum = (t.s.db.prepare('SELECT SUM(amount) AS s FROM credit_entries WHERE org_id = ?').get(t.orgId) as { s: number }).s;
    expect(sum).toBe(1000 - 33 * 30 + 15);
    expect((await t.json<{ credits: { balance: number } }>('GET', '/api/account', { cookie })).body.credits.balance).toBe(sum);
    expect((await t.json<{ balance: number }>('GET', '/api/credits/ledger', { cookie })).body.balance).toBe(sum);
    expect(t.s.db.prepare('SELECT balance FROM credit_balances WHERE org_id = ?').get(t.orgId)).toEqual({ balance: sum });
  });
});
