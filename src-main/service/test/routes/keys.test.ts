import { afterAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../core/ids';
import { closeAll, testService } from '../harness';

afterAll(closeAll);

describe('POST /api/keys', () => {
  it('creates a key, shows the plaintext once, and stores only hashes', async () => {
    const t = await testService({ plan: 'pro' });
    const cookie = await t.login();
    const { status, body } = await t.json<{ key: { id: string; prefix: string }; api_key: string; secret: string }>('POST', '/api/keys', {
      cookie, body: { name: 'Checkout backend', env: 'live', scopes: ['compliance', 'human', 'human'] },
    });
    expect(status).toBe(201);
    expect(body.api_key).toMatch(/^svk-[A-Za-z0-9]{32}$/);
    expect(body.secret).toMatch(/^svsk-[A-Za-z0-9]{48}$/);
    expect(body.key).toMatchObject({ name: 'Checkout backend', env: 'live', scopes: ['human', 'compliance'], demo: false, revoked_at: null });
    expect(body.api_key.startsWith(body.key.prefix)).toBe(true);

    const [row] = await t.sql('SELECT * FROM api_keys WHERE id = ?', body.key.id);
    expect(row!.key_hash).toBe(sha256Hex(body.api_key));
    const dump = JSON.stringify(await t.sql('SELECT * FROM api_keys'));
    expect(dump).not.toContain(body.api_key);
    expect(dump).not.toContain(body.secret);

    const list = await t.json<{ keys: Record<string, unknown>[] }>('GET', '/api/keys', { cookie });
    expect(JSON.stringify(list.body)).not.toContain(body.api_key);
    expect(list.body.keys[0]).toMatchObject({ id: body.key.id, created_by: 'owner@example.test' });
  });

  it('the new key authenticates at once', async () => {
    const t = await testService();
    const cookie = await t.login();
    const { body } = await t.json<{ api_key: string }>('POST', '/api/keys', { cookie, body: { env: 'test', scopes: ['human'] } });
    expect((await t.json('GET', '/api/status/ver_x', { key: body.api_key })).status).toBe(404);
  });

  it('refuses the compliance scope below Pro', async () => {
    const t = await testService({ plan: 'growth' });
    const cookie = await t.login();
    const { status, body } = await t.json('POST', '/api/keys', { cookie, body: { env: 'test', scopes: ['compliance'] } });
    expect(status).toBe(403);
    expect(body).toEqual({ error: 'The compliance scope requires the Pro or Enterprise plan' });
  });

  it('validates env and scopes, naming fields', async () => {
    const t = await testService();
    const cookie = await t.login();
    const { status, body } = await t.json<{ fields: { field: string }[] }>('POST', '/api/keys', {
      cookie, body: { env: 'staging', scopes: ['telepathy'] },
    });
    expect(status).toBe(400);
    expect(body.fields.map((f) => f.field).sort()).toEqual(['env', 'scopes.0']);
    expect(JSON.stringify(body)).not.toContain('telepathy');
  });
});

describe('GET /api/keys and POST /api/keys/{id}/revoke', () => {
  it('filters by environment and marks age keys on a trial', async () => {
    const t = await testService({ plan: 'starter' });
    const cookie = await t.login();
    await t.key({ env: 'test', scopes: ['age'] });
    await t.key({ env: 'live', scopes: ['human'] });
    const test = await t.json<{ keys: { env: string; trial: unknown }[] }>('GET', '/api/keys?env=test', { cookie });
    expect(test.body.keys).toHaveLength(1);
    expect(test.body.keys[0]!.trial).toMatchObject({ active: true, verifications_used: 0, verifications_limit: 50 });
    expect((await t.json('GET', '/api/keys?env=prod', { cookie })).status).toBe(400);
  });

  it('revokes a key so it stops working; revoking twice keeps the first time', async () => {
    const t = await testService();
    const cookie = await t.login();
    const k = await t.key();
    expect((await t.json('GET', '/api/status/ver_x', { key: k.api_key })).status).toBe(404);
    const r1 = await t.json<{ key: { revoked_at: string } }>('POST', `/api/keys/${k.id}/revoke`, { cookie, body: {} });
    expect(r1.status).toBe(200);
    expect(r1.body.key.revoked_at).toEqual(expect.any(String));
    t.clock.advance(1000);
    const r2 = await t.json<{ key: { revoked_at: string } }>('POST', `/api/keys/${k.id}/revoke`, { cookie, body: {} });
    expect(r2.body.key.revoked_at).toBe(r1.body.key.revoked_at);
    expect((await t.json('GET', '/api/status/ver_x', { key: k.api_key })).status).toBe(401);
  });

  it("404 for an unknown key or another organisation's key", async () => {
    const t = await testService();
    const cookie = await t.login();
    expect((await t.json('POST', '/api/keys/key_nope/revoke', { cookie, body: {} })).status).toBe(404);
    // Another organisation in the same database, so the org check is what refuses.
    const other = await t.addOrg();
    const k = await other.key();
    expect((await t.json('POST', `/api/keys/${k.id}/revoke`, { cookie, body: {} })).status).toBe(404);
    expect((await t.s.keys.lookup(k.api_key)).ok).toBe(true);
  });

  it('a member sees and revokes only their own keys', async () => {
    const t = await testService({ plan: 'growth' });
    await t.s.accounts.addUser({ orgId: t.orgId, email: 'mo@example.test', name: 'Mo Member', password: 'member password 1', role: 'member' });
    const ownerKey = await t.key();
    const member = await t.login('mo@example.test', 'member password 1');
    const created = await t.json<{ key: { id: string } }>('POST', '/api/keys', { cookie: member, body: { env: 'test', scopes: ['human'] } });
    expect(created.status).toBe(201);
    const list = await t.json<{ keys: { id: string }[] }>('GET', '/api/keys', { cookie: member });
    expect(list.body.keys.map((k) => k.id)).toEqual([created.body.key.id]);
    const denied = await t.json('POST', `/api/keys/${ownerKey.id}/revoke`, { cookie: member, body: {} });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ error: 'Permission denied' });
    expect((await t.json('POST', `/api/keys/${created.body.key.id}/revoke`, { cookie: member, body: {} })).status).toBe(200);
  });
});
