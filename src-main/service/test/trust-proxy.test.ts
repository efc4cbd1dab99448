// A reverse proxy in front of the service (issue 39, item 4: `--trust-proxy`, off by default).
// Without the flag X-Forwarded-* are anyone's headers and are ignored; with it, a request the
// named proxy passed on is its client's (the last address the proxy added), is never this
// computer's, gets Secure cookies and HSTS when the proxy took it over HTTPS, and writes cookies
// only from the public URL's own origin.
import { afterAll, describe, expect, it } from 'vitest';
import { KEY_FAILURE_LIMITS } from '../core/rate-limit/key-throttle';
import { parseTrustProxy } from '../http/proxy';
import { closeAll, OWNER, testService, type TestService } from './harness';

afterAll(closeAll);

const PROXY = '10.0.0.5';
const PUBLIC = 'https://console.example.test';
const SUBJECT = { subject: { type: 'individual', first_name: 'Ingeborg', last_name: 'Abrahamsen' } };

/** Spends an address's wrong-key allowance through `via`, then answers the next wrong key from `next`. */
async function wrongKeys(t: TestService, via: string, forwardedFor: string, next: { address: string; forwardedFor?: string }): Promise<number> {
  const wrong = (i: number, address: string, xff?: string) =>
    t.call('POST', '/api/compliance/v1/screen', { key: `sk_test_${'x'.repeat(20)}${i}`, body: SUBJECT, address, headers: xff ? { 'X-Forwarded-For': xff } : {} });
  for (let i = 0; i < KEY_FAILURE_LIMITS.address.burst; i++) expect((await wrong(i, via, forwardedFor)).status).toBe(401);
  return (await wrong(999, next.address, next.forwardedFor)).status;
}

describe('--trust-proxy', () => {
  it('off (the default): X-Forwarded-For is ignored, every request is the socket\'s', async () => {
    const t = await testService({ plan: 'pro' });
    expect(await wrongKeys(t, PROXY, '203.0.113.1', { address: PROXY, forwardedFor: '198.51.100.1' })).toBe(429);
    // Nor is a forwarded request kept from this computer's routes: it is not forwarded.
    const r = await t.call('POST', '/api/auth/token', { body: { token: 'x'.repeat(32) }, address: '127.0.0.1', headers: { 'X-Forwarded-For': '203.0.113.1' } });
    expect(r.status).not.toBe(403);
  });

  it('on: the client is the last address the proxy added; what the client wrote before it, and any other sender\'s header, are not read', async () => {
    const t = await testService({ plan: 'pro', trustProxy: [PROXY], publicUrl: PUBLIC });
    // The same forged first hop, two clients: each its own allowance.
    expect(await wrongKeys(t, PROXY, '6.6.6.6, 203.0.113.1', { address: PROXY, forwardedFor: '6.6.6.6, 198.51.100.1' })).toBe(401);
    expect(await wrongKeys(t, PROXY, '6.6.6.6, 192.0.2.1', { address: PROXY, forwardedFor: '192.0.2.1' })).toBe(429);
    // A sender that is not the proxy: its header is its own words, the socket's address counts.
    expect(await wrongKeys(t, '198.51.100.77', '203.0.113.50', { address: '198.51.100.77', forwardedFor: '203.0.113.51' })).toBe(429);
  });

  it('a proxied request is never this computer\'s: first run and the desktop sign-in are refused', async () => {
    const t = await testService({ plan: 'pro', trustProxy: ['loopback'].flatMap(parseTrustProxy), publicUrl: PUBLIC });
    for (const [method, path, body] of [['POST', '/api/auth/token', { token: 'x'.repeat(32) }], ['GET', '/api/auth/desktop/members', undefined]] as const) {
      const r = await t.call(method, path, {
        body, address: '127.0.0.1', headers: { 'X-Forwarded-For': '203.0.113.9', 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'console.example.test', Origin: PUBLIC },
      });
      expect(r.status, path).toBe(403);
      expect(await r.json(), path).toEqual({ error: 'Only on the computer that runs the service' });
    }
    // This computer's own request past the proxy (no X-Forwarded-For) is this computer's.
    const own = await t.call('GET', '/api/auth/desktop/members', { address: '127.0.0.1' });
    expect(own.status).not.toBe(403);
  });

  it('over HTTPS at the proxy: Secure cookies and HSTS; cookie writes only from the public URL\'s https origin', async () => {
    const t = await testService({ plan: 'pro', trustProxy: [PROXY], publicUrl: PUBLIC });
    const via = (headers: Record<string, string>) => ({ 'X-Forwarded-For': '203.0.113.9', 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'console.example.test', Origin: PUBLIC, ...headers });
    const login = await t.call('POST', '/api/auth/login', { body: { email: OWNER.email, password: OWNER.password }, address: PROXY, headers: via({}) });
    expect(login.status).toBe(200);
    expect(login.headers.get('set-cookie')).toMatch(/; Secure/);
    expect(login.headers.get('strict-transport-security')).toBe('max-age=31536000');
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const write = (headers: Record<string, string>) => t.call('PUT', '/api/settings/liveness', { cookie, body: { require_liveness_clip: false }, address: PROXY, headers: via(headers) });
    expect((await write({})).status).toBe(200);
    const refused: Record<string, string>[] = [
      { Origin: 'http://console.example.test' },
      { 'X-Forwarded-Host': 'rebound.example', Origin: 'https://rebound.example' },
      { Origin: 'http://127.0.0.1:4310' },
      { 'Sec-Fetch-Site': 'cross-site' },
    ];
    for (const h of refused) {
      const r = await write(h);
      expect(r.status, JSON.stringify(h)).toBe(403);
      expect(await r.json()).toEqual({ error: 'Cross-origin request refused' });
    }
    // Over plain HTTP at the proxy the origin is not the public URL's.
    const plain = await t.call('POST', '/api/auth/login', {
      body: { email: OWNER.email, password: OWNER.password }, address: PROXY, headers: via({ 'X-Forwarded-Proto': 'http', Origin: 'http://console.example.test' }),
    });
    expect(plain.status).toBe(403);
  });

  it('a proxy that serves plain HTTP (an http public URL) gets no Secure cookie, which would not come back, and no HSTS', async () => {
    const t = await testService({ plan: 'pro', trustProxy: [PROXY], publicUrl: 'http://console.example.test' });
    const login = await t.call('POST', '/api/auth/login', {
      body: { email: OWNER.email, password: OWNER.password }, address: PROXY,
      headers: { 'X-Forwarded-For': '203.0.113.9', 'X-Forwarded-Proto': 'http', Host: 'console.example.test', Origin: 'http://console.example.test' },
    });
    expect(login.status).toBe(200);
    expect(login.headers.get('set-cookie')).not.toMatch(/Secure/);
    expect(login.headers.get('strict-transport-security')).toBeNull();
  });

  it('takes IP addresses or "loopback", and says what else it wants', () => {
    expect(parseTrustProxy('10.0.0.5, ::ffff:10.0.0.6,fd00::1')).toEqual(['10.0.0.5', '10.0.0.6', 'fd00::1']);
    expect(parseTrustProxy('loopback')).toEqual(['127.0.0.1', '::1']);
    expect(() => parseTrustProxy('proxy.example')).toThrow(/IP addresses/);
    expect(() => parseTrustProxy(' , ')).toThrow(/needs the proxy/);
  });
});
