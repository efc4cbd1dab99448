// Login throttling (issue 9): a flood of wrong passwords gets 429 with Retry-After after a few
// tries, a throttled attempt never tells whether its password was right, nothing locks, and a
// browser that signed in before keeps getting in while someone else floods the account.
import { afterAll, describe, expect, it } from 'vitest';
import { LOGIN_LIMITS, MAX_BUCKETS } from '../core/accounts/login-throttle';
import { closeAll, OWNER, testService, type TestService } from './harness';

afterAll(closeAll);

const ORIGIN = 'http://127.0.0.1:4310';

/** A login from a given client address (the socket's, as the node server would give it). */
async function login(t: TestService, email: string, password: string, o: { address?: string; cookie?: string } = {}) {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Origin: ORIGIN };
  if (o.cookie) headers.Cookie = o.cookie;
  const env = { incoming: { socket: { remoteAddress: o.address ?? '127.0.0.1' } } };
  const res = await t.app.request(`${ORIGIN}/api/auth/login`, { method: 'POST', headers, body: JSON.stringify({ email, password }) }, env);
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, res };
}

const deviceCookie = (res: Response) => res.headers.getSetCookie().find((c) => c.startsWith('cc_device='))!.split(';')[0]!;

describe('login throttling', () => {
  it('answers a flood of wrong passwords with 429 and Retry-After after five tries', async () => {
    const t = await testService();
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof login>> | undefined;
    for (let i = 0; i < 200; i++) {
      last = await login(t, OWNER.email, `wrong password ${i}`);
      statuses.push(last.status);
    }
    expect(statuses.slice(0, LOGIN_LIMITS.accountAddress.burst)).toEqual(Array(LOGIN_LIMITS.accountAddress.burst).fill(401));
    expect(statuses.slice(LOGIN_LIMITS.accountAddress.burst).every((s) => s === 429)).toBe(true);
    expect(last!.body).toEqual({ error: 'Too many failed attempts. Try again later.' });
    expect(Number(last!.res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(last!.res.headers.get('retry-after'))).toBeLessThanOrEqual(30);
  });

  it('refuses a throttled attempt with the right password too, the same way', async () => {
    const t = await testService();
    for (let i = 0; i < 5; i++) await login(t, OWNER.email, 'wrong password!');
    const right = await login(t, OWNER.email, OWNER.password);
    const wrong = await login(t, OWNER.email, 'wrong password!');
    expect(right.status).toBe(429);
    expect(right.body).toEqual(wrong.body);
    expect(right.res.headers.get('set-cookie')).toBeNull();
  });

  it('never locks: after the wait the right password gets in', async () => {
    const t = await testService();
    for (let i = 0; i < 10; i++) await login(t, OWNER.email, 'wrong password!');
    const refused = await login(t, OWNER.email, OWNER.password);
    expect(refused.status).toBe(429);
    t.clock.advance(Number(refused.res.headers.get('retry-after')) * 1000);
    expect((await login(t, OWNER.email, OWNER.password)).status).toBe(200);
  });

  it('a browser that signed in before still gets in at once while an attacker on the same address floods the account', async () => {
    const t = await testService();
    const first = await login(t, OWNER.email, OWNER.password);
    expect(first.status).toBe(200);
    const device = deviceCookie(first.res);
    for (let i = 0; i < 100; i++) await login(t, OWNER.email, 'attacker guess');
    expect((await login(t, OWNER.email, OWNER.password)).status).toBe(429); // a browser without the cookie waits
    expect((await login(t, OWNER.email, OWNER.password, { cookie: device })).status).toBe(200);
    // The cookie is the account's own: it does not open another account's throttle.
    const other = await t.addOrg();
    for (let i = 0; i < 10; i++) await login(t, other.email, 'attacker guess');
    expect((await login(t, other.email, other.password, { cookie: device })).status).toBe(429);
    // A forged cookie counts for nothing.
    expect((await login(t, OWNER.email, OWNER.password, { cookie: 'cc_device=forged' })).status).toBe(429);
  });

  it('throttles one address across accounts, and leaves other addresses alone', async () => {
    const t = await testService();
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await login(t, `person${i}@example.test`, 'guess', { address: '10.0.0.66' })).status);
    expect(statuses.slice(0, LOGIN_LIMITS.address.burst).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(LOGIN_LIMITS.address.burst).every((s) => s === 429)).toBe(true);
    expect((await login(t, OWNER.email, OWNER.password, { address: '10.0.0.7' })).status).toBe(200);
  });

  it('throttles one account guessed from many addresses', async () => {
    const t = await testService();
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await login(t, OWNER.email, 'guess', { address: `10.1.0.${i}` })).status);
    expect(statuses.slice(0, LOGIN_LIMITS.account.burst).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(LOGIN_LIMITS.account.burst).every((s) => s === 429)).toBe(true);
  });

  it('keeps working while 30,000 distinct e-mails are tried (its memory is bounded)', async () => {
    const t = await testService();
    for (let i = 0; i < 30_000; i++) await t.s.loginThrottle.failed(`cycle${i}@example.test`, `10.2.${i >> 8}.${i & 255}`, undefined);
    expect(t.s.loginThrottle.tracked()).toBe(MAX_BUCKETS);
    expect((await login(t, OWNER.email, OWNER.password)).status).toBe(200);
  });
});
