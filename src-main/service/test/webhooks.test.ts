// Webhooks end to end against a real local receiver: signed deliveries, the delivery log,
// retries with backoff, environment routing, the outbox written with its result, and
// durability across a restart.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compose } from '../compose';
import { ManualClock } from '../core/clock';
import { MAX_ATTEMPTS } from '../core/webhooks/webhooks';
import { sign, verify } from '../core/webhooks/signing';
import { closeAll, testService, type TestService } from './harness';

interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

let server: Server;
let base = '';
const received: Received[] = [];
let plan: number[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.statusCode = plan.shift() ?? 200;
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  closeAll();
  await new Promise((r) => server.close(r));
});

/** The local receiver is on this computer: the owner allows it as an on-premises receiver first (destination.ts). */
async function allowLocalReceiver(t: TestService, cookie: string): Promise<void> {
  expect((await t.json('PUT', '/api/webhooks/private-hosts', { cookie, body: { hosts: ['127.0.0.1'] } })).status).toBe(200);
}

async function withEndpoint(t: TestService, env: 'test' | 'live', events: string[], path = '/hook') {
  const cookie = await t.login();
  await allowLocalReceiver(t, cookie);
  const res = await t.json<{ endpoint: { id: string }; secret: string }>('POST', '/api/webhooks', {
    cookie, body: { url: `${base}${path}`, env, events },
  });
  expect(res.status).toBe(201);
  return { cookie, id: res.body.endpoint.id, secret: res.body.secret };
}

describe('webhook endpoints API', () => {
  it('creates (secret once), lists without the secret, and removes', async () => {
    const t = await testService();
    const { cookie, id, secret } = await withEndpoint(t, 'test', ['compliance.screening.completed']);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9]{40}$/);
    const list = await t.json<{ endpoints: { id: string }[] }>('GET', '/api/webhooks', { cookie });
    expect(list.body.endpoints.map((e) => e.id)).toEqual([id]);
    expect(JSON.stringify(list.body)).not.toContain(secret);
    expect((await t.json('DELETE', `/api/webhooks/${id}`, { cookie })).status).toBe(200);
    expect((await t.json<{ endpoints: unknown[] }>('GET', '/api/webhooks', { cookie })).body.endpoints).toEqual([]);
    expect((await t.json('DELETE', `/api/webhooks/${id}`, { cookie })).status).toBe(404);
  });

  it('refuses plain http to other hosts, unknown events, and members', async () => {
    const t = await testService({ plan: 'growth' });
    const cookie = await t.login();
    const bad = await t.json<{ fields: { field: string }[] }>('POST', '/api/webhooks', {
      cookie, body: { url: 'http://receiver.example/hook', env: 'live', events: ['nope'] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.fields.map((f) => f.field).sort()).toEqual(['events.0', 'url']);
    await t.s.accounts.addUser({ orgId: t.orgId, email: 'm@example.test', name: 'M', password: 'member password', role: 'member' });
    const member = await t.login('m@example.test', 'member password');
    const denied = await t.json('POST', '/api/webhooks', { cookie: member, body: { url: 'https://r.example/h', env: 'test', events: ['verification.completed'] } });
    expect(denied.status).toBe(403);
    expect((await t.json('GET', '/api/webhooks', { cookie: member })).status).toBe(200);
  });
});

describe('destinations (issue 39): loopback, link-local, private and own addresses refused unless the owner names the host', () => {
  it('refuses such a URL when it is added, says how to allow it, and takes it once the owner named the host; only the owner names hosts', async () => {
    const t = await testService({ plan: 'growth' });
    const cookie = await t.login();
    for (const url of [`${base}/hook`, 'http://localhost:8080/h', 'https://169.254.169.254/latest/meta-data/', 'https://10.0.0.7:22/', 'https://[::ffff:127.0.0.1]/h', 'http://2130706433/h']) {
      const r = await t.json<{ fields: { field: string; issue: string }[]; message?: string }>('POST', '/api/webhooks', { cookie, body: { url, env: 'test', events: ['verification.completed'] } });
      expect(r.status, url).toBe(400);
      expect(r.body.fields, url).toEqual([{ field: 'url', issue: 'private_destination' }]);
    }
    expect((await t.s.webhooks.list(t.orgId))).toEqual([]);
    expect((await t.json('POST', '/api/webhooks', { cookie, body: { url: 'https://hooks.example.test/h', env: 'test', events: ['verification.completed'] } })).status).toBe(201);

    await t.s.accounts.addUser({ orgId: t.orgId, email: 'adm-hosts@example.test', name: 'A', password: 'admin password 1', role: 'admin' });
    const admin = await t.login('adm-hosts@example.test', 'admin password 1');
    expect((await t.json('PUT', '/api/webhooks/private-hosts', { cookie: admin, body: { hosts: ['127.0.0.1'] } })).status).toBe(403);
    expect((await t.json('GET', '/api/webhooks/private-hosts', { cookie: admin })).body).toEqual({ hosts: [] });
    expect((await t.json('PUT', '/api/webhooks/private-hosts', { cookie, body: { hosts: ['http://127.0.0.1/'] } })).status).toBe(400);
    const saved = await t.json('PUT', '/api/webhooks/private-hosts', { cookie, body: { hosts: ['127.0.0.1', 'Receiver.Corp.Lan'] } });
    expect(saved.body).toEqual({ hosts: ['127.0.0.1', 'receiver.corp.lan'] });
    expect((await t.json('POST', '/api/webhooks', { cookie: admin, body: { url: `${base}/hook`, env: 'test', events: ['verification.completed'] } })).status).toBe(201);
    // Only the named host: another loopback address stays refused.
    expect((await t.json('POST', '/api/webhooks', { cookie, body: { url: 'http://127.0.0.2:9/h', env: 'test', events: ['verification.completed'] } })).status).toBe(400);
    const audit = t.s.db.prepare("SELECT setting, from_value, to_value FROM audit_log WHERE setting = 'webhook_private_hosts'").all();
    expect(audit).toEqual([{ setting: 'webhook_private_hosts', from_value: '0', to_value: '2' }]);
  });

  it('checks again at delivery: an allowance taken back stops deliveries to that host before any connection', async () => {
    const t = await testService();
    const { cookie, id } = await withEndpoint(t, 'test', ['verification.completed'], '/taken-back');
    expect((await t.json('PUT', '/api/webhooks/private-hosts', { cookie, body: { hosts: [] } })).status).toBe(200);
    const before = received.length;
    await t.json('POST', `/api/webhooks/${id}/test`, { cookie, body: {} });
    await t.s.webhooks.dispatchDue();
    expect(received.length).toBe(before);
    const [d] = (await t.s.webhooks.deliveries(t.orgId, id));
    expect(d).toMatchObject({ state: 'pending', attempts: 1, last_status: null, last_error: 'destination refused: the URL names a loopback address (this computer)' });
  });
});

describe('delivery', () => {
  it('a test event arrives signed over the raw body with a timestamp inside the signed body', async () => {
    const t = await testService();
    const { cookie, id, secret } = await withEndpoint(t, 'test', ['verification.completed'], '/signed');
    const other = await withEndpoint(t, 'test', ['verification.completed'], '/other');
    const queued = await t.json<{ event_id: string }>('POST', `/api/webhooks/${id}/test`, { cookie, body: {} });
    expect(queued.status).toBe(202);
    expect(await t.s.webhooks.dispatchDue()).toBe(1);
    const got = received.filter((r) => r.headers['x-service-delivery'] && r.body.includes(queued.body.event_id));
    expect(got).toHaveLength(1);
    const r = got[0]!;
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers['x-service-signature']).toBe(sign(secret, r.body));
    const payload = JSON.parse(r.body) as Record<string, unknown>;
    expect(payload).toMatchObject({ event: 'webhook.test', environment: 'test', livemode: false });
    const ts = Number(r.headers['x-service-timestamp']);
    expect(ts).toBe(Math.floor(Date.parse(String(payload.timestamp)) / 1000));
    expect(verify(secret, r.body, String(r.headers['x-service-signature']), ts + 10, ts)).toBe(true);
    expect(verify(secret, r.body, String(r.headers['x-service-signature']), ts + 301, ts)).toBe(false);
    expect(verify('whsec_wrong', r.body, String(r.headers['x-service-signature']), ts, ts)).toBe(false);

    const log = await t.json<{ deliveries: Record<string, unknown>[] }>('GET', `/api/webhooks/${id}/deliveries`, { cookie });
    expect(log.body.deliveries[0]).toMatchObject({ event: 'webhook.test', state: 'succeeded', attempts: 1, last_status: 200 });
    expect(log.body.deliveries[0]!.last_latency_ms).toEqual(expect.any(Number));
    expect((await t.s.webhooks.deliveries(t.orgId, other.id))).toEqual([]);
    expect(JSON.stringify(log.body)).not.toContain('Test event from');
  });

  it('retries failures with growing delays, then succeeds; gives up after the last attempt', async () => {
    const t = await testService();
    const { id } = await withEndpoint(t, 'test', ['compliance.screening.completed'], '/flaky');
    plan = [500, 503];
    await t.s.webhooks.emit(t.orgId, 'test', { type: 'compliance.screening.completed', fields: { id: 'scr_1' } });
    await t.s.webhooks.dispatchDue();
    let [d] = (await t.s.webhooks.deliveries(t.orgId, id));
    expect(d).toMatchObject({ state: 'pending', attempts: 1, last_status: 500, last_error: 'http 500' });
    const first = Date.parse(d!.next_attempt_at!) - t.clock.now();
    expect(first).toBeGreaterThanOrEqual(9_000);
    expect(await t.s.webhooks.dispatchDue()).toBe(0); // not due yet
    t.clock.advance(first);
    await t.s.webhooks.dispatchDue();
    [d] = (await t.s.webhooks.deliveries(t.orgId, id));
    const second = Date.parse(d!.next_attempt_at!) - t.clock.now();
    expect(second).toBeGreaterThan(first * 1.5);
    t.clock.advance(second);
    await t.s.webhooks.dispatchDue();
    [d] = (await t.s.webhooks.deliveries(t.orgId, id));
    expect(d).toMatchObject({ state: 'succeeded', attempts: 3, last_status: 200 });

    plan = Array(MAX_ATTEMPTS).fill(500);
    await t.s.webhooks.emit(t.orgId, 'test', { type: 'compliance.screening.completed', fields: { id: 'scr_2' } });
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      await t.s.webhooks.dispatchDue();
      t.clock.advance(5 * 3600_000);
    }
    [d] = (await t.s.webhooks.deliveries(t.orgId, id));
    expect(d).toMatchObject({ state: 'failed', attempts: MAX_ATTEMPTS });
    plan = [];
  });

  it('a failed delivery is tried again now on request, once, signed afresh; pending, succeeded, other endpoints\' and other organisations\' deliveries are refused', async () => {
    const t = await testService();
    const { id, secret } = await withEndpoint(t, 'test', ['compliance.screening.completed']);
    plan = Array(MAX_ATTEMPTS).fill(500);
    await t.s.webhooks.emit(t.orgId, 'test', { type: 'compliance.screening.completed', fields: { id: 'scr_retry' } });
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      await t.s.webhooks.dispatchDue();
      t.clock.advance(5 * 3600_000);
    }
    let [d] = (await t.s.webhooks.deliveries(t.orgId, id));
    expect(d).toMatchObject({ state: 'failed', attempts: MAX_ATTEMPTS });
    const path = `/api/webhooks/${id}/deliveries/${d!.id}/retry`;
    // Signed in after the two days of retries.
    const cookie = await t.login();

    const other = await t.addOrg({ email: 'owner@other-retry.test' });
    expect((await t.json('POST', path, { cookie: await other.login() })).status).toBe(404);
    expect((await t.json('POST', `/api/webhooks/${id}/deliveries/whd_nope/retry`, { cookie })).status).toBe(404);

    plan = [200];
    received.length = 0;
    const retried = await t.json<{ state: string; attempts: number }>('POST', path, { cookie });
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ state: 'pending', attempts: MAX_ATTEMPTS });
    expect((await t.json('POST', path, { cookie })).status).toBe(409);
    await t.s.webhooks.dispatchDue();
    [d] = (await t.s.webhooks.deliveries(t.orgId, id));
    expect(d).toMatchObject({ state: 'succeeded', attempts: MAX_ATTEMPTS + 1, last_status: 200 });
    expect(received).toHaveLength(1);
    const h = received[0]!.headers;
    expect(verify(secret, received[0]!.body, h['x-service-signature'] as string, Number(h['x-service-timestamp']), Number(h['x-service-timestamp']))).toBe(true);
    expect((await t.json('POST', path, { cookie })).status).toBe(409);
    plan = [];
  });

  it('rotating the secret: the old one signs X-Service-Signature for 24 hours with the new one in X-Service-Signature-Next, then the new one alone', async () => {
    const t = await testService();
    const { cookie, id, secret: old } = await withEndpoint(t, 'test', ['compliance.screening.completed']);
    const other = await t.addOrg({ email: 'owner@other-rotate.test' });
    expect((await t.json('POST', `/api/webhooks/${id}/rotate-secret`, { cookie: await other.login() })).status).toBe(404);

    const rotated = await t.json<{ endpoint: { previous_secret_until: string | null; secret_prefix: string }; secret: string }>('POST', `/api/webhooks/${id}/rotate-secret`, { cookie });
    expect(rotated.status).toBe(200);
    const fresh = rotated.body.secret;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(old);
    expect(Date.parse(rotated.body.endpoint.previous_secret_until!) - t.clock.now()).toBe(24 * 3600_000);
    expect((await t.json('POST', `/api/webhooks/${id}/rotate-secret`, { cookie })).status).toBe(409);
    const listed = await t.json<{ endpoints: { id: string; previous_secret_until: string | null }[] }>('GET', '/api/webhooks', { cookie });
    expect(JSON.stringify(listed.body)).not.toContain(fresh);

    const deliver = async () => {
      received.length = 0;
      await t.s.webhooks.emit(t.orgId, 'test', { type: 'compliance.screening.completed', fields: { id: 'scr_rot' } });
      await t.s.webhooks.dispatchDue();
      expect(received).toHaveLength(1);
      return received[0]!;
    };
    const check = (key: string, r: Received, header: string) => {
      const at = Number(r.headers['x-service-timestamp']);
      return verify(key, r.body, r.headers[header] as string, at, at);
    };
    const during = await deliver();
    expect(check(old, during, 'x-service-signature')).toBe(true);
    expect(check(fresh, during, 'x-service-signature-next')).toBe(true);

    t.clock.advance(24 * 3600_000 + 1);
    const after = await deliver();
    expect(check(fresh, after, 'x-service-signature')).toBe(true);
    expect(check(old, after, 'x-service-signature')).toBe(false);
    expect(after.headers['x-service-signature-next']).toBeUndefined();
    const relogged = await t.login();
    const listedAfter = await t.json<{ endpoints: { previous_secret_until: string | null }[] }>('GET', '/api/webhooks', { cookie: relogged });
    expect(listedAfter.body.endpoints[0]!.previous_secret_until).toBeNull();
  });

  it('test events go only to test endpoints, live events only to live ones, by subscription', async () => {
    const t = await testService();
    const test = await withEndpoint(t, 'test', ['compliance.rescreen.completed']);
    const live = await withEndpoint(t, 'live', ['compliance.rescreen.completed', 'compliance.rescreen.risk_changed']);
    await t.s.webhooks.emit(t.orgId, 'test', { type: 'compliance.rescreen.completed', fields: {} });
    await t.s.webhooks.emit(t.orgId, 'test', { type: 'compliance.rescreen.risk_changed', fields: {} });
    await t.s.webhooks.emit(t.orgId, 'live', { type: 'compliance.rescreen.risk_changed', fields: {} });
    expect((await t.s.webhooks.deliveries(t.orgId, test.id)).map((d) => d.event)).toEqual(['compliance.rescreen.completed']);
    expect((await t.s.webhooks.deliveries(t.orgId, live.id)).map((d) => d.event)).toEqual(['compliance.rescreen.risk_changed']);
  });

  it('billing writes the event with its result, and nothing when the work fails', async () => {
    const t = await testService();
    const ep = await withEndpoint(t, 'test', ['compliance.screening.completed']);
    const k = await t.s.keys.lookup((await t.key()).api_key);
    if (!k.ok) throw new Error('key');
    const events = ({ verificationId }: { verificationId: string }) => [{ type: 'compliance.screening.completed' as const, fields: { id: verificationId } }];
    const b = await t.s.billing.run({ key: k.key, operation: 'screen', idPrefix: 'scr', events }, async () => ({
      status: 'completed', confidence: null, billable: true, httpStatus: 200, result: null,
    }));
    await expect(t.s.billing.run({ key: k.key, operation: 'screen', idPrefix: 'scr', events }, async () => { throw new Error('x'); })).rejects.toThrow();
    const rows = t.s.db.prepare('SELECT payload FROM webhook_events').all() as { payload: string }[];
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0]!.payload)).toMatchObject({ event: 'compliance.screening.completed', id: b.verificationId });
    expect((await t.s.webhooks.deliveries(t.orgId, ep.id))).toHaveLength(1);
  });

  it('survives a restart: an undelivered event (and an expired lease) is delivered by the next process', async () => {
    const t = await testService();
    const { id } = await withEndpoint(t, 'test', ['verification.completed'], '/durable');
    const before = received.length;
    await t.s.webhooks.emit(t.orgId, 'test', { type: 'verification.completed', fields: { verification_id: 'ver_1', status: 'PASS', product: 'human' } });
    // A process leases the delivery and dies before sending it.
    t.s.db.prepare("UPDATE webhook_deliveries SET lease_until = ?").run(new Date(t.clock.now() + 60_000).toISOString());
    t.s.close();
    const clock = new ManualClock(t.clock.now() + 61_000);
    const next = await compose({ dataDir: t.dataDir, clock });
    expect(await next.webhooks.dispatchDue()).toBe(1);
    expect(received.length).toBe(before + 1);
    expect(JSON.parse(received.at(-1)!.body)).toMatchObject({ event: 'verification.completed', verification_id: 'ver_1', status: 'PASS' });
    expect((await next.webhooks.deliveries(t.orgId, id))[0]).toMatchObject({ state: 'succeeded' });
    next.close();
  });
});
