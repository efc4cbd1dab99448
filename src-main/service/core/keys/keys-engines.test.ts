// API keys on both engines: made, found by key and by secret, listed with their maker's e-mail,
// counted against the age trial, and revoked once whichever instance is asked (three instances
// revoking one key at once: one revocation, as the audit log records one).
import { describe, expect, it } from 'vitest';
import type { Engine } from '../../db/engine';
import { ENGINES, testEngines } from '../../test/engines';
import { ManualClock } from '../clock';
import { createKeys } from './keys';

const AT = '2026-12-04T09:00:00.000Z';
const clock = new ManualClock(Date.parse(AT));
const engines = testEngines();

async function orgWithOwner(engine: Engine): Promise<{ orgId: number; userId: number }> {
  const org = await engine.q.insertInto('organizations').values({ name: 'Acme', plan: 'starter', created_at: AT }).returning('id').executeTakeFirstOrThrow();
  const user = await engine.q.insertInto('users').values({
    org_id: org.id, email: 'owner@acme.test', name: 'Owner', password_hash: 'x', role: 'owner', billing: 1, created_at: AT, joined_at: AT,
  }).returning('id').executeTakeFirstOrThrow();
  return { orgId: org.id, userId: user.id };
}

describe.each(ENGINES)('API keys on $dialect', ({ dialect, skip }) => {
  const why = skip ? ` (skipped: ${skip})` : '';

  it.skipIf(skip)(`made, found, listed with their maker, counted for the trial, revoked${why}`, async () => {
    const t = await engines.open(dialect);
    const { orgId, userId } = await orgWithOwner(t.engine);
    const keys = createKeys(t.engine, clock);
    const made = await keys.create({ orgId, plan: 'starter', name: 'Shop', env: 'live', scopes: ['age', 'human'], demo: false, createdBy: userId });
    expect(made.key).toMatchObject({ name: 'Shop', env: 'live', scopes: ['human', 'age'], created_by: null, trial: { active: true, verifications_used: 0 } });
    const found = await keys.lookup(made.api_key);
    expect(found).toMatchObject({ ok: true, key: { id: made.key.id, orgId, scopes: ['human', 'age'] } });
    expect(await keys.lookupSecret(made.secret)).toMatchObject({ ok: true, key: { id: made.key.id } });
    expect(await keys.lookup(`svk-${'A'.repeat(32)}`)).toEqual({ ok: false, reason: 'unknown' });
    expect(await keys.lookup('nope')).toEqual({ ok: false, reason: 'malformed' });

    await t.engine.q.insertInto('verifications').values({ id: 'age_1', org_id: orgId, api_key_id: made.key.id, product: 'age', env: 'live', status: 'PASS', created_at: AT }).execute();
    expect((await keys.trial(found.ok ? found.key : (null as never))).used).toBe(1);
    const [listed] = await keys.list(orgId, 'starter');
    expect(listed).toMatchObject({ id: made.key.id, created_by: 'owner@acme.test', trial: { verifications_used: 1 } });
    expect(await keys.list(orgId, 'starter', { env: 'test' })).toEqual([]);

    await keys.touch(made.key.id);
    expect((await keys.get(made.key.id))?.last_used_at).toBe(AT);
    expect(await keys.revoke(made.key.id)).toBe(true);
    expect(await keys.revoke(made.key.id)).toBe(false);
    expect(await keys.lookup(made.api_key)).toEqual({ ok: false, reason: 'revoked' });
  });

  it.skipIf(skip)(`one key revoked at once through ${dialect === 'postgres' ? 'three instances' : 'one instance'}: one revocation${why}`, async () => {
    const t = await engines.open(dialect);
    const { orgId } = await orgWithOwner(t.engine);
    const made = await createKeys(t.engine, clock).create({ orgId, plan: 'starter', name: 'Shop', env: 'test', scopes: ['human'], demo: false, createdBy: null });
    const instances = engines.instances(t, 3, 3).map((e) => createKeys(e, clock));
    const done = await Promise.all(Array.from({ length: 12 }, (_, i) => instances[i % instances.length]!.revoke(made.key.id)));
    expect(done.filter(Boolean)).toHaveLength(1);
  });
});
