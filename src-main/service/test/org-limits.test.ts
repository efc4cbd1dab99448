// Limits where a loop would otherwise fill the disk (issue 9): webhook endpoints per organisation
// (each event is a delivery row per endpoint) and own lists kept. Each answers 409 with the limit;
// replacing or removing is always possible, and another organisation is unaffected.
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_USER_LISTS } from '../core/screening/lists/manage';
import { storeUserList } from '../core/screening/lists/store';
import { MAX_ENDPOINTS } from '../core/webhooks/webhooks';
import { closeAll, testService } from './harness';

afterAll(closeAll);

const hook = (i: number) => ({ url: `https://hooks.example.test/hook/${i}`, env: 'test', events: ['compliance.screening.completed'] });

describe('webhook endpoints per organisation', () => {
  it(`takes ${MAX_ENDPOINTS}, refuses the next with 409, and takes one again after a removal`, async () => {
    const t = await testService();
    const cookie = await t.login();
    const ids: string[] = [];
    for (let i = 0; i < MAX_ENDPOINTS; i++) {
      const r = await t.json<{ endpoint: { id: string } }>('POST', '/api/webhooks', { cookie, body: hook(i) });
      expect(r.status).toBe(201);
      ids.push(r.body.endpoint.id);
    }
    const over = await t.json('POST', '/api/webhooks', { cookie, body: hook(99) });
    expect(over.status).toBe(409);
    expect(over.body).toEqual({ error: `At most ${MAX_ENDPOINTS} webhook endpoints per organization. Remove one first.`, limit: MAX_ENDPOINTS });

    // Another organisation has its own allowance.
    const other = await t.addOrg();
    expect((await t.json('POST', '/api/webhooks', { cookie: await other.login(), body: hook(0) })).status).toBe(201);

    expect((await t.json('DELETE', `/api/webhooks/${ids[0]}`, { cookie })).status).toBe(200);
    expect((await t.json('POST', '/api/webhooks', { cookie, body: hook(100) })).status).toBe(201);
  });

  it('a create-and-remove loop leaves no rows behind, deliveries included', async () => {
    const t = await testService();
    const cookie = await t.login();
    for (let i = 0; i < 30; i++) {
      const r = await t.json<{ endpoint: { id: string } }>('POST', '/api/webhooks', { cookie, body: hook(i) });
      await t.s.webhooks.emit(t.orgId, 'test', { type: 'compliance.screening.completed', fields: { screening: { id: `scr_${i}` } } });
      expect((await t.json('DELETE', `/api/webhooks/${r.body.endpoint.id}`, { cookie })).status).toBe(200);
    }
    const count = (sql: string) => (t.s.db.prepare(sql).get() as { n: number }).n;
    expect(count('SELECT COUNT(*) AS n FROM webhook_endpoints')).toBe(0);
    expect(count('SELECT COUNT(*) AS n FROM webhook_deliveries')).toBe(0);
  });
});

describe('own lists kept', () => {
  it(`takes ${MAX_USER_LISTS}, refuses another with 409, and still replaces one at the limit`, async () => {
    const t = await testService();
    const cookie = await t.login();
    for (let i = 1; i < MAX_USER_LISTS; i++) {
      expect(storeUserList(t.dataDir, `List ${i}`, new TextEncoder().encode(`kind,name\npep,Person Number${i}\n`), new Date()).ok).toBe(true);
    }
    const csv = (name: string) => ({ cookie, rawBody: `kind,name\npep,${name}\n`, headers: { 'Content-Type': 'text/csv' } });
    expect((await t.call('POST', '/api/screening/lists/user?name=Last%20one', csv('Quentin Lastone'))).status).toBe(201);
    const over = await t.json('POST', '/api/screening/lists/user?name=One%20more', csv('Quentin Onemore'));
    expect(over.status).toBe(409);
    expect(over.body).toEqual({
      error: `At most ${MAX_USER_LISTS} own lists can be kept. Remove one, or replace a list by importing it under the same name.`, limit: MAX_USER_LISTS,
    });
    expect((await t.call('POST', '/api/screening/lists/user?name=List%203', csv('Quentin Replaced'))).status).toBe(201);
    expect((await t.json('DELETE', '/api/screening/lists/user/list-3', { cookie })).status).toBe(200);
    expect((await t.call('POST', '/api/screening/lists/user?name=One%20more', csv('Quentin Onemore'))).status).toBe(201);
  }, 120_000);
});
