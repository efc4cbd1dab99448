import { afterAll, describe, expect, it } from 'vitest';
import { closeAll, testService } from '../harness';

afterAll(closeAll);

describe('GET /api/account', () => {
  it('shows plan, limits and balance', async () => {
    const t = await testService({ plan: 'growth' });
    await t.grant(250);
    const cookie = await t.login();
    const { status, body } = await t.json('GET', '/api/account', { cookie });
    expect(status).toBe(200);
    expect(body).toEqual({
      organization: { id: t.orgId, name: 'Test Org', plan: 'growth' },
      plan: {
        id: 'growth', label: 'Growth', compliance: false, team_size: 10,
        verification_rps: 5, verification_burst: 50, read_rps: 50, read_burst: 100,
      },
      credits: { balance: 250 },
    });
  });

  it('reflects a plan change made by the CLI at once', async () => {
    const t = await testService({ plan: 'free' });
    const cookie = await t.login();
    await t.setPlan('enterprise');
    const { body } = await t.json<{ plan: { id: string } }>('GET', '/api/account', { cookie });
    expect(body.plan.id).toBe('enterprise');
  });
});

describe('GET /api/credits/ledger', () => {
  it('pages entries newest first with the balance', async () => {
    const t = await testService();
    for (let i = 1; i <= 25; i++) await t.grant(i);
    const cookie = await t.login();
    const p1 = await t.json<{ entries: { amount: number; kind: string }[]; total: number; pages: number; balance: number }>(
      'GET', '/api/credits/ledger?per_page=10', { cookie },
    );
    expect(p1.status).toBe(200);
    expect(p1.body).toMatchObject({ total: 25, pages: 3, page: 1, balance: 325 });
    expect(p1.body.entries.map((e) => e.amount).slice(0, 3)).toEqual([25, 24, 23]);
    const p3 = await t.json<{ entries: unknown[] }>('GET', '/api/credits/ledger?per_page=10&page=3', { cookie });
    expect(p3.body.entries).toHaveLength(5);
  });

  it('400 for per_page over 100', async () => {
    const t = await testService();
    const cookie = await t.login();
    const { status, body } = await t.json('GET', '/api/credits/ledger?per_page=500', { cookie });
    expect(status).toBe(400);
    expect(body).toMatchObject({ field: 'per_page' });
  });
});

describe('the plan the organisation bought', () => {
  const SETUP = { organization: 'Acme', name: 'Ada', email: 'ada@example.test', password: 'a long enough password' };
  const CLEAR = { type: 'individual', first_name: 'Maren', last_name: 'Quellfeather' };

  it('first run records the chosen plan; without one the organisation starts on Free', async () => {
    const t = await testService({ setup: false });
    const res = await t.json('POST', '/api/setup', { body: { ...SETUP, plan: 'pro' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ organization: { plan: 'pro' } });
    const u = await testService({ setup: false });
    expect((await u.json('POST', '/api/setup', { body: SETUP })).body).toMatchObject({ organization: { plan: 'free' } });
  });

  it('first run refuses an unknown plan, naming the field', async () => {
    const t = await testService({ setup: false });
    const { status, body } = await t.json('POST', '/api/setup', { body: { ...SETUP, plan: 'platinum' } });
    expect(status).toBe(400);
    expect(body).toMatchObject({ field: 'plan' });
    expect((await t.json('GET', '/api/setup')).body).toMatchObject({ needs_setup: true });
  });

  it('PATCH /api/account/plan: the owner moves Free to Pro and screening works at once', async () => {
    const t = await testService({ plan: 'free' });
    const cookie = await t.login();
    const before = await t.json('POST', '/api/console/screen?env=test', { cookie, body: { subject: CLEAR } });
    expect(before.status).toBe(403);
    const { status, body } = await t.json('PATCH', '/api/account/plan', { cookie, body: { plan: 'pro' } });
    expect(status).toBe(200);
    expect(body).toMatchObject({ organization: { plan: 'pro' }, plan: { id: 'pro', compliance: true, team_size: 25 } });
    expect((await t.json('GET', '/api/auth/me', { cookie })).body).toMatchObject({ organization: { plan: 'pro' } });
    await t.s.screening.ready(60_000);
    const after = await t.json('POST', '/api/console/screen?env=test', { cookie, body: { subject: CLEAR } });
    expect(after.status).toBe(200);
  }, 90_000);

  it('downgrading below Pro keeps compliance keys but answers their calls 403, like a CLI change', async () => {
    const t = await testService({ plan: 'pro' });
    const key = await t.key();
    const cookie = await t.login();
    expect((await t.json('PATCH', '/api/account/plan', { cookie, body: { plan: 'growth' } })).status).toBe(200);
    const r = await t.json('POST', '/api/compliance/v1/screen', { key: key.api_key, body: { subject: CLEAR } });
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ status: 'ERROR', upgrade_url: expect.stringContaining('#/plan') });
    expect((await t.json('POST', '/api/console/screen?env=test', { cookie, body: { subject: CLEAR } })).status).toBe(403);
    const keys = await t.json<{ keys: { id: string; revoked_at: string | null }[] }>('GET', '/api/keys', { cookie });
    expect(keys.body.keys.find((k) => k.id === key.id)?.revoked_at).toBeNull();
  });

  it('refuses a plan smaller than the team, saying how many it allows', async () => {
    const t = await testService({ plan: 'pro' });
    for (const n of [1, 2, 3]) {
      await t.s.accounts.addUser({ orgId: t.orgId, email: `m${n}@example.test`, name: `M${n}`, password: 'member password', role: 'member' });
    }
    const cookie = await t.login();
    const { status, body } = await t.json('PATCH', '/api/account/plan', { cookie, body: { plan: 'starter' } });
    expect(status).toBe(409);
    expect(body).toEqual({ error: expect.stringContaining('allows 3 people; your team has 4'), field: 'plan', current: 4, limit: 3 });
    expect((await t.json('GET', '/api/account', { cookie })).body).toMatchObject({ plan: { id: 'pro' } });
    expect((await t.json('PATCH', '/api/account/plan', { cookie, body: { plan: 'growth' } })).status).toBe(200);
  });

  it('only the owner changes the plan: an admin gets 403', async () => {
    const t = await testService({ plan: 'pro' });
    await t.s.accounts.addUser({ orgId: t.orgId, email: 'admin@example.test', name: 'Ad', password: 'admin password', role: 'admin' });
    const cookie = await t.login('admin@example.test', 'admin password');
    const { status, body } = await t.json('PATCH', '/api/account/plan', { cookie, body: { plan: 'free' } });
    expect(status).toBe(403);
    expect(body).toEqual({ error: 'Permission denied' });
    expect((await t.s.accounts.organization())?.plan).toBe('pro');
  });

  it('400 for an unknown plan', async () => {
    const t = await testService();
    const cookie = await t.login();
    const { status, body } = await t.json('PATCH', '/api/account/plan', { cookie, body: { plan: 'platinum' } });
    expect(status).toBe(400);
    expect(body).toMatchObject({ field: 'plan' });
  });
});
