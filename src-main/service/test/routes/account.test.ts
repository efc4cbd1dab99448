import { afterAll, describe, expect, it } from 'vitest';
import { closeAll, testService } from '../harness';

afterAll(closeAll);

describe('GET /api/account', () => {
  it('shows plan, limits and balance', async () => {
    const t = await testService({ plan: 'growth' });
    t.grant(250);
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
    t.setPlan('enterprise');
    const { body } = await t.json<{ plan: { id: string } }>('GET', '/api/account', { cookie });
    expect(body.plan.id).toBe('enterprise');
  });
});

describe('GET /api/credits/ledger', () => {
  it('pages entries newest first with the balance', async () => {
    const t = await testService();
    for (let i = 1; i <= 25; i++) t.grant(i);
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
