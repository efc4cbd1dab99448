// Rate limits through HTTP: a burst admits exactly the bucket, headers are right, and
// Retry-After is honest (waiting that long is enough, waiting less is not).
import { afterAll, describe, expect, it } from 'vitest';
import { PLAN_INFO, verificationLimit, type Plan } from '../../../src-shared/catalog';
import { closeAll, testService } from './harness';

afterAll(closeAll);

describe.each(['free', 'starter', 'growth', 'pro', 'enterprise'] as Plan[])('read category on %s', (plan) => {
  it('admits exactly the burst, then 429 with the spec body', async () => {
    const t = await testService({ plan });
    const k = await t.key();
    const burst = PLAN_INFO[plan].read.burst;
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < burst + 3; i++) {
      last = await t.call('GET', '/api/status/ver_x', { key: k.api_key });
      statuses.push(last.status);
      if (i === 0) {
        expect(last.headers.get('x-ratelimit-limit')).toBe(String(burst));
        expect(last.headers.get('x-ratelimit-remaining')).toBe(String(burst - 1));
      }
    }
    expect(statuses.filter((s) => s === 404)).toHaveLength(burst);
    expect(statuses.slice(burst)).toEqual([429, 429, 429]);
    const body = await last!.json();
    const retry = Number(last!.headers.get('retry-after'));
    expect(body).toEqual({
      success: false, error: 'Rate limit exceeded', error_code: 'RATE_LIMITED', message: expect.any(String),
      details: { limit: burst, remaining: 0, retry_after: retry },
    });
    expect(last!.headers.get('x-ratelimit-remaining')).toBe('0');
    // The clock has not moved: the bucket is empty and full again after burst / rps seconds.
    const { rps } = PLAN_INFO[plan].read;
    expect(Number(last!.headers.get('x-ratelimit-reset'))).toBe(Math.ceil((t.clock.now() + (burst / rps) * 1000) / 1000));
    expect(retry).toBe(Math.ceil(1 / rps));
  });
});

describe('verification category', () => {
  it('applies the product multiplier (age 1.5 on Free: burst 5 -> 3)', async () => {
    const t = await testService({ plan: 'free' });
    const k = await t.key({ scopes: ['age'] });
    const lim = verificationLimit('free', 'age');
    expect(lim.burst).toBe(3);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await t.call('POST', '/api/v1/verify-age/init', { key: k.api_key, body: {} })).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
  });

  it('Retry-After is honest: waiting less is refused, waiting that long is admitted', async () => {
    const t = await testService({ plan: 'free' });
    const k = await t.key({ scopes: ['age'] });
    let res: Response | undefined;
    for (let i = 0; i < 4; i++) res = await t.call('POST', '/api/v1/verify-age/init', { key: k.api_key, body: {} });
    expect(res!.status).toBe(429);
    const retry = Number(res!.headers.get('retry-after'));
    // Age on Free refills at 1/1.5 tokens per second: one token takes 1.5 s, rounded up to 2.
    expect(retry).toBe(2);
    // The clock only moves when told: one second short of Retry-After is still refused, and
    // exactly Retry-After after the refusal is admitted (refusals spend nothing).
    t.clock.advance((retry - 1) * 1000);
    expect((await t.call('POST', '/api/v1/verify-age/init', { key: k.api_key, body: {} })).status).toBe(429);
    t.clock.advance(1000);
    expect((await t.call('POST', '/api/v1/verify-age/init', { key: k.api_key, body: {} })).status).toBe(200);
  });

  it('buckets are per key: another key of the same organisation is unaffected', async () => {
    const t = await testService({ plan: 'free' });
    const a = await t.key({ scopes: ['age'] });
    const b = await t.key({ scopes: ['age'] });
    for (let i = 0; i < 4; i++) await t.call('POST', '/api/v1/verify-age/init', { key: a.api_key, body: {} });
    expect((await t.call('POST', '/api/v1/verify-age/init', { key: b.api_key, body: {} })).status).toBe(200);
  });

  it('categories are separate: exhausting verification leaves reads alone', async () => {
    const t = await testService({ plan: 'free' });
    const k = await t.key({ scopes: ['age'] });
    for (let i = 0; i < 4; i++) await t.call('POST', '/api/v1/verify-age/init', { key: k.api_key, body: {} });
    expect((await t.call('GET', '/api/status/ver_x', { key: k.api_key })).status).toBe(404);
  });
});
