// Two admins changing the same setting (issue 39, item 6): a setting's read answers an ETag; a
// write that sends the ETag its sender saw (If-Match, as the console does) is refused with 412
// when someone changed the setting in between, and the other person's change stands. Writes
// without If-Match (API clients, scripts) are taken as before.
import { afterAll, describe, expect, it } from 'vitest';
import { closeAll, testService } from './harness';

afterAll(closeAll);

const PASSWORD = 'a long enough password';
const CHANGED = { error: 'Someone else changed this setting after you opened it, and their change was kept. Look at it as it is now and make your change again if you still want it.' };

describe('setting versions', () => {
  it('the second of two admins who opened the same setting is told it changed; the first one\'s change stands', async () => {
    const t = await testService({ plan: 'pro' });
    await t.s.accounts.addUser({ orgId: t.orgId, email: 'ann@example.test', name: 'Ann', password: PASSWORD, role: 'admin' });
    const owner = await t.login();
    const ann = await t.login('ann@example.test', PASSWORD);
    const read = async (cookie: string) => {
      const r = await t.call('GET', '/api/settings/liveness', { cookie });
      expect(r.status).toBe(200);
      return { etag: r.headers.get('etag')!, body: (await r.json()) as { require_liveness_clip: boolean } };
    };
    const write = (cookie: string, value: boolean, ifMatch?: string) =>
      t.call('PUT', '/api/settings/liveness', { cookie, body: { require_liveness_clip: value }, headers: ifMatch ? { 'If-Match': ifMatch } : {} });

    const seenByOwner = await read(owner);
    const seenByAnn = await read(ann);
    expect(seenByOwner.etag).toMatch(/^W\/"[0-9a-f]{16}"$/);
    expect(seenByAnn.etag).toBe(seenByOwner.etag);

    const first = await write(ann, !seenByAnn.body.require_liveness_clip, seenByAnn.etag);
    expect(first.status).toBe(200);
    const after = first.headers.get('etag');
    expect(after).not.toBe(seenByAnn.etag);

    const second = await write(owner, seenByOwner.body.require_liveness_clip, seenByOwner.etag);
    expect(second.status).toBe(412);
    expect(await second.json()).toEqual(CHANGED);
    const now = await read(owner);
    expect(now.body.require_liveness_clip).toBe(!seenByOwner.body.require_liveness_clip);
    expect(now.etag).toBe(after);

    // Read again, the owner's change goes through; so does one that names no version.
    expect((await write(owner, seenByOwner.body.require_liveness_clip, now.etag)).status).toBe(200);
    expect((await write(owner, !seenByOwner.body.require_liveness_clip)).status).toBe(200);
    expect((await write(owner, seenByOwner.body.require_liveness_clip, '*')).status).toBe(200);
  });

  it('holds for every setting read and written on one path (four-eyes, the owner\'s private webhook hosts)', async () => {
    const t = await testService({ plan: 'pro' });
    const owner = await t.login();
    for (const [method, path, body] of [
      ['PATCH', '/api/settings', { four_eyes: true }],
      ['PUT', '/api/webhooks/private-hosts', { hosts: ['receiver.internal'] }],
    ] as const) {
      const seen = (await t.call('GET', path, { cookie: owner })).headers.get('etag')!;
      expect(seen, path).toMatch(/^W\//);
      const first = await t.call(method, path, { cookie: owner, body, headers: { 'If-Match': seen } });
      expect(first.status, path).toBe(200);
      const stale = await t.call(method, path, { cookie: owner, body, headers: { 'If-Match': seen } });
      expect(stale.status, path).toBe(412);
      expect((await t.call(method, path, { cookie: owner, body, headers: { 'If-Match': first.headers.get('etag')! } })).status, path).toBe(200);
    }
  });

  it('a read that takes a query (the age gate\'s store per environment) is not one setting: no version to hold a write to', async () => {
    const t = await testService({ plan: 'pro' });
    const owner = await t.login();
    const store = await t.call('GET', '/api/age-gate?env=live', { cookie: owner });
    expect(store.status).toBe(200);
    expect(store.headers.get('etag')).toBeNull();
  });

  it('someone who may not change a setting is refused as before, whatever version they name', async () => {
    const t = await testService({ plan: 'pro' });
    await t.s.accounts.addUser({ orgId: t.orgId, email: 'mo@example.test', name: 'Mo', password: PASSWORD, role: 'member' });
    const mo = await t.login('mo@example.test', PASSWORD);
    const r = await t.call('PUT', '/api/settings/liveness', { cookie: mo, body: { require_liveness_clip: true }, headers: { 'If-Match': 'W/"0000000000000000"' } });
    expect(r.status).toBe(403);
    expect(r.headers.get('etag')).toBeNull();
  });
});
