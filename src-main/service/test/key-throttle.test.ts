// Wrong API keys throttled per client address (issue 39, item 4): 1,200 invalid keys in a row from
// one address were never throttled. Now the address's allowance runs out after twenty and every
// wrong key from there is 429 with Retry-After; time refills it; a network block is held as one;
// a valid key never spends the allowance and still works from a throttled address (its neighbours
// behind the same NAT are not locked out).
import { afterAll, describe, expect, it } from 'vitest';
import { addressBlock, KEY_FAILURE_LIMITS } from '../core/rate-limit/key-throttle';
import { closeAll, testService } from './harness';

afterAll(closeAll);

const SUBJECT = { subject: { type: 'individual', first_name: 'Ingeborg', last_name: 'Abrahamsen', date_of_birth: '1972-11-21' } };

describe('wrong API keys from one address', () => {
  it('1,200 in a row: the first twenty 401, then 429 with Retry-After; the right key still works there; time refills it', async () => {
    const t = await testService({ plan: 'pro' });
    const good = await t.key({ env: 'test' });
    await t.grant(100);
    const screen = (key: string, address: string) => t.json('POST', '/api/compliance/v1/screen', { key, body: SUBJECT, address });
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof screen>> | undefined;
    for (let i = 0; i < 1200; i++) {
      last = await screen(`sk_test_${'x'.repeat(20)}${i}`, '203.0.113.7');
      statuses.push(last.status);
    }
    expect(statuses.slice(0, KEY_FAILURE_LIMITS.address.burst)).toEqual(Array(KEY_FAILURE_LIMITS.address.burst).fill(401));
    expect(statuses.slice(KEY_FAILURE_LIMITS.address.burst).every((s) => s === 429)).toBe(true);
    expect(last!.body).toMatchObject({ success: false, error_code: 'RATE_LIMITED' });
    const wait = Number(last!.res.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(6);
    // The right key from the throttled address works: a neighbour behind the same address is not locked out.
    expect((await screen(good.api_key, '203.0.113.7')).status).toBe(200);
    // Another network's wrong key: its own allowance.
    expect((await screen(`sk_test_${'z'.repeat(24)}`, '198.51.100.20')).status).toBe(401);
    // Time refills the allowance: one wrong key every six seconds.
    t.clock.advance(6_000);
    expect((await screen(`sk_test_${'z'.repeat(24)}`, '203.0.113.7')).status).toBe(401);
    expect((await screen(`sk_test_${'z'.repeat(24)}`, '203.0.113.7')).status).toBe(429);
  }, 60_000);

  it('holds an address block (IPv4 /24, IPv6 /64) as one: many addresses of one network share its allowance', async () => {
    const t = await testService({ plan: 'pro' });
    const good = await t.key({ env: 'test' });
    await t.grant(10);
    let refused = 0;
    for (let i = 0; i < 150; i++) {
      const r = await t.json('GET', '/api/status/ver_nothing_here', { key: `sk_test_${'y'.repeat(20)}${i}`, address: `203.0.113.${i % 250}` });
      if (r.status === 429) refused++;
    }
    expect(refused).toBe(150 - KEY_FAILURE_LIMITS.block.burst);
    // A fresh address of that network is held by the block; one of the next network is not.
    expect((await t.json('GET', '/api/status/ver_nothing_here', { key: 'sk_test_nope_nope_nope_nope', address: '203.0.113.251' })).status).toBe(429);
    expect((await t.json('GET', '/api/status/ver_nothing_here', { key: 'sk_test_nope_nope_nope_nope', address: '203.0.114.1' })).status).toBe(401);
    expect((await t.json('POST', '/api/compliance/v1/screen', { key: good.api_key, body: SUBJECT, address: '203.0.113.251' })).status).toBe(200);
    expect(addressBlock('2001:db8:1:2:3::9')).toBe('2001:db8:1:2::/64');
    expect(addressBlock('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressBlock('::ffff:192.0.2.33')).toBe('192.0.2.0/24');
  }, 60_000);

  it('a valid key never spends the allowance', async () => {
    const t = await testService({ plan: 'pro' });
    const good = await t.key({ env: 'test' });
    await t.grant(200);
    for (let i = 0; i < 60; i++) expect((await t.json('GET', '/api/status/ver_nothing_here', { key: good.api_key, address: '192.0.2.50' })).status).toBeLessThan(429);
    expect((await t.json('GET', '/api/status/ver_nothing_here', { key: 'sk_test_nope_nope_nope_nope', address: '192.0.2.50' })).status).toBe(401);
  }, 60_000);
});
