import { afterAll, describe, expect, it } from 'vitest';
import { closeAll, testService } from '../harness';

afterAll(closeAll);

describe('POST /api/v1/verify-age/init', () => {
  it('returns the use case default and strict mode for a state with an AV law', async () => {
    const t = await testService();
    const k = await t.key({ scopes: ['age'] });
    const { status, body, res } = await t.json('POST', '/api/v1/verify-age/init', { key: k.api_key, body: { use_case: 'adult', state_code: 'tx' } });
    expect(status).toBe(200);
    expect(body).toEqual({
      success: true, use_case: 'adult', min_age: 18, description: expect.any(String), strict_mode: true, notes: expect.stringContaining('TX'),
    });
    // Verification category, age multiplier 1.5 on Pro: burst 100 / 1.5.
    expect(res.headers.get('x-ratelimit-limit')).toBe('66');
  });

  it('alcohol defaults to 21; a caller may raise but not lower the minimum', async () => {
    const t = await testService();
    const k = await t.key({ scopes: ['age'] });
    const lower = await t.json('POST', '/api/v1/verify-age/init', { key: k.api_key, body: { use_case: 'alcohol', min_age: 18 } });
    expect(lower.body).toMatchObject({ min_age: 21, strict_mode: false });
    const higher = await t.json('POST', '/api/v1/verify-age/init', { key: k.api_key, body: { use_case: 'gambling', min_age: 25 } });
    expect(higher.body).toMatchObject({ min_age: 25 });
  });

  it('custom needs min_age; bad values are named, never echoed', async () => {
    const t = await testService();
    const k = await t.key({ scopes: ['age'] });
    const custom = await t.json<{ fields: { field: string }[] }>('POST', '/api/v1/verify-age/init', { key: k.api_key, body: { use_case: 'custom' } });
    expect(custom.status).toBe(400);
    expect(custom.body.fields).toEqual([{ field: 'min_age', issue: 'invalid' }]);
    const bad = await t.json('POST', '/api/v1/verify-age/init', { key: k.api_key, body: { use_case: 'karaoke', state_code: 'ZZ' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ status: 'ERROR', code: 'INVALID_PARAMETERS' });
    expect(JSON.stringify(bad.body)).not.toContain('karaoke');
  });

  it('is free: no ledger row and no charge', async () => {
    const t = await testService();
    await t.grant(100);
    const k = await t.key({ env: 'live', scopes: ['age'] });
    await t.json('POST', '/api/v1/verify-age/init', { key: k.api_key, body: {} });
    expect((await t.s.credits.balance(t.orgId))).toBe(100);
    expect((await t.sql('SELECT COUNT(*) AS n FROM verifications'))[0]).toEqual({ n: 0 });
  });

  it('the trial ends after 50 age verifications on a plan below Growth; Growth has no trial', async () => {
    const t = await testService({ plan: 'free' });
    const k = await t.key({ scopes: ['age'] });
    const found = await t.s.keys.lookup(k.api_key);
    if (!found.ok) throw new Error('key');
    for (let i = 0; i < 50; i++) {
      await t.s.billing.run({ key: found.key, operation: 'age', idPrefix: 'ver' }, async () => ({
        status: 'success', confidence: 90, billable: true, httpStatus: 200, result: null,
      }));
    }
    t.clock.advance(60_000);
    const expired = await t.json('POST', '/api/v1/verify-age/init', { key: k.api_key, body: {} });
    expect(expired.status).toBe(403);
    expect(expired.body).toMatchObject({ error: 'Trial expired', status: 'ERROR' });
    await t.setPlan('growth');
    expect((await t.json('POST', '/api/v1/verify-age/init', { key: k.api_key, body: {} })).status).toBe(200);
  });
});
