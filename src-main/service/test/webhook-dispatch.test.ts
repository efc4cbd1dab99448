// Webhook deliveries flow independently (issue 9, found by `npm run soak`): a receiver that
// never answers holds only its own slots, while every other endpoint's events keep arriving.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELIVERY_SLOTS } from '../core/webhooks/webhooks';
import { closeAll, testService } from './harness';

let server: Server;
let base = '';
let healthy = 0;
let silentArrived = 0;
let slowArrived = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    if (req.url === '/slow') {
      // Answers after 150 ms: a delivery holds its slot that long.
      req.on('end', () => setTimeout(() => {
        slowArrived++;
        res.end('ok');
      }, 150));
      return;
    }
    if (req.url === '/silent') {
      silentArrived++;
      return; // never answers (until the service's delivery timeout)
    }
    req.on('end', () => {
      healthy++;
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  closeAll();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('webhook dispatch', () => {
  it('a silent receiver holds its own slots only: the healthy endpoint gets all its events at once', async () => {
    const t = await testService();
    const cookie = await t.login();
    // The receivers are on this computer: allowed by the owner as on-premises ones (destination.ts).
    expect((await t.json('PUT', '/api/webhooks/private-hosts', { cookie, body: { hosts: ['127.0.0.1'] } })).status).toBe(200);
    for (const path of ['/silent', '/healthy']) {
      const r = await t.json('POST', '/api/webhooks', { cookie, body: { url: `${base}${path}`, env: 'test', events: ['compliance.screening.completed'] } });
      expect(r.status).toBe(201);
    }
    // 30 events, each delivered to both endpoints.
    for (let i = 0; i < 30; i++) await t.s.webhooks.emit(t.orgId, 'test', { type: 'compliance.screening.completed', fields: { screening: { id: `scr_${i}` } } });

    // Poll ticks, as the service's poller does, without waiting for deliveries to end.
    const until = Date.now() + 5000;
    while (healthy < 30 && Date.now() < until) {
      void Promise.all(await t.s.webhooks.pump());
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(healthy).toBe(30);
    // The silent endpoint was tried, but never with more than its own slots.
    expect(silentArrived).toBe(DELIVERY_SLOTS.perEndpoint);
  }, 20_000);

  it('while the service keeps sending, an emitted event goes out at once and a freed slot is filled at once, not at the next poll', async () => {
    const t = await testService();
    const cookie = await t.login();
    expect((await t.json('PUT', '/api/webhooks/private-hosts', { cookie, body: { hosts: ['127.0.0.1'] } })).status).toBe(200);
    expect((await t.json('POST', '/api/webhooks', { cookie, body: { url: `${base}/slow`, env: 'test', events: ['compliance.screening.completed'] } })).status).toBe(201);
    // A poll far beyond the test: every delivery it sees was started by an emit or by a freed slot.
    const sending = t.s.webhooks.startSending({ pollMs: 3_600_000, onError: (e) => { throw e; } });
    try {
      // Four times the endpoint's slots, each delivery 150 ms: on the poll alone, none would be sent.
      const n = 4 * DELIVERY_SLOTS.perEndpoint;
      for (let i = 0; i < n; i++) await t.s.webhooks.emit(t.orgId, 'test', { type: 'compliance.screening.completed', fields: { screening: { id: `scr_${i}` } } });
      const until = Date.now() + 15_000;
      while (slowArrived < n && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      expect(slowArrived).toBe(n);
    } finally {
      await sending.stop();
    }
  }, 20_000);
});
