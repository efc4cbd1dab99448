// One table — the app's own route registry — drives the shared security cases for every route:
// missing, malformed, unknown and revoked keys, wrong scope, expired trial, environment
// isolation, and for session routes missing/forged/expired sessions, cross-origin writes, roles.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorResponse } from '../../../../src-shared/errors';
import type { RouteInfo } from '../../http/types';
import { closeAll, testService, type TestService } from '../harness';
import { reportSchemaVersion } from '../../http/routes/reports';
import { rolesFor } from '../../../../src-shared/policy';

let t: TestService;
beforeAll(async () => {
  t = await testService({ plan: 'pro' });
});
afterAll(closeAll);

function concrete(path: string): string {
  return path.replace(/:[a-z_]+/g, 'ver_doesnotexist000000000000');
}

const MINIMAL_BODY: Record<string, unknown> = {
  '/api/v1/verify-age/init': { use_case: 'adult' },
};

async function routeTable(): Promise<RouteInfo[]> {
  const probe = await testService();
  return probe.routes;
}
const table = await routeTable();

describe('route table', () => {
  it('covers every registered API route with an auth spec', () => {
    expect(table.length).toBeGreaterThanOrEqual(12);
    for (const r of table) expect(['public', 'key', 'secret', 'session']).toContain(r.auth.kind);
  });
});

describe.each(table.filter((r) => r.auth.kind === 'key').map((r) => [`${r.method} ${r.path}`, r] as const))(
  'API key security: %s',
  (_name, r) => {
    const auth = r.auth as Extract<RouteInfo['auth'], { kind: 'key' }>;
    const path = concrete(r.path);
    const body = MINIMAL_BODY[r.path];
    // Keys go where the route takes them: X-API-Key, or a Bearer token (hosted sessions).
    const carry = (key: string) => (auth.via === 'bearer' ? { headers: { Authorization: `Bearer ${key}` } } : { key });
    const send = (key?: string) => t.json<Record<string, unknown>>(r.method, path, { ...(key ? carry(key) : {}), ...(body ? { body } : {}) });

    it('refuses a request without a key: 401 with hint', async () => {
      const { status, body: b } = await send();
      expect(status).toBe(401);
      expect(b).toEqual({ error: 'API key required', status: 'ERROR', hint: expect.any(String) });
    });

    it('refuses a malformed key', async () => {
      const { status, body: b } = await send('svk-short');
      expect(status).toBe(401);
      expect(b.error).toBe('Invalid API key');
      expect(b.hint).toEqual(expect.any(String));
    });

    it('refuses a well-formed unknown key', async () => {
      const { status } = await send('svk-' + 'A'.repeat(32));
      expect(status).toBe(401);
    });

    it('refuses a revoked key', async () => {
      const k = await t.key();
      await t.s.keys.revoke(k.id);
      const { status, body: b } = await send(k.api_key);
      expect(status).toBe(401);
      expect(b.error).toBe('API key revoked');
    });

    it('refuses the secret in place of the key', async () => {
      const k = await t.key();
      const { status } = await send(k.secret);
      expect(status).toBe(401);
    });

    if (auth.scope) {
      it(`refuses a key without the '${auth.scope}' scope`, async () => {
        const other = (['human', 'age', 'identity', 'compliance'] as const).filter((p) => p !== auth.scope);
        const k = await t.key({ scopes: [...other] });
        const { status, body: b } = await send(k.api_key);
        expect(status).toBe(401);
        expect(b).toEqual({ error: 'API key does not have the required scope', status: 'ERROR', hint: expect.stringContaining(auth.scope!) });
      });
    }

    if ((auth.product ?? auth.scope) === 'age') {
      it('refuses an age key whose trial has expired (30 days) on a plan below Growth', async () => {
        const u = await testService({ plan: 'starter' });
        const k = await u.key({ scopes: ['age'] });
        u.clock.advance(31 * 24 * 3600_000);
        const { status, body: b } = await u.json<Record<string, unknown>>(r.method, path, { key: k.api_key, ...(body ? { body } : {}) });
        expect(status).toBe(403);
        expect(b).toEqual({ error: 'Trial expired', status: 'ERROR', message: expect.any(String), upgrade_url: expect.stringContaining('/#/plan') });
      });
    }

    if (r.path.includes(':verification_id')) {
      it('never shows a live verification to a test key (environment isolation)', async () => {
        const live = await t.key({ env: 'live' });
        await t.grant(100);
        const liveKey = await t.s.keys.lookup(live.api_key);
        if (!liveKey.ok) throw new Error('key');
        const billed = await t.s.billing.run({ key: liveKey.key, operation: 'human', idPrefix: 'ver' }, async () => ({
          status: 'PASS', confidence: 97.5, billable: true, httpStatus: 200, result: null,
        }));
        const own = await t.json(r.method, r.path.replace(':verification_id', billed.verificationId), { key: live.api_key });
        expect(own.status).toBe(200);
        const test = await t.key({ env: 'test' });
        const other = await t.json(r.method, r.path.replace(':verification_id', billed.verificationId), { key: test.api_key });
        expect(other.status).toBe(404);
      });
    }
  },
);

describe.each(table.filter((r) => r.auth.kind === 'session').map((r) => [`${r.method} ${r.path}`, r] as const))(
  'session security: %s',
  (_name, r) => {
    const path = concrete(r.path);
    const body = r.method === 'GET' ? undefined : {};

    it('refuses a request without a session: 401', async () => {
      const { status, body: b } = await t.json<Record<string, unknown>>(r.method, path, body ? { body } : {});
      expect(status).toBe(401);
      // Reporting errors carry their schema_version (account spec, Errors).
      const sv = reportSchemaVersion(path);
      expect(b).toEqual({ error: 'Authentication required', ...(sv ? { schema_version: sv } : {}) });
    });

    it('refuses a forged session cookie', async () => {
      const { status } = await t.json(r.method, path, { cookie: 'cc_session=forged-token-value', ...(body ? { body } : {}) });
      expect(status).toBe(401);
    });

    it('refuses an expired session (idle 12 hours)', async () => {
      const u = await testService();
      const cookie = await u.login();
      u.clock.advance(12 * 3600_000 + 1000);
      const { status } = await u.json(r.method, path, { cookie, ...(body ? { body } : {}) });
      expect(status).toBe(401);
    });

    it('refuses an API key in place of a session', async () => {
      const k = await t.key();
      const { status } = await t.json(r.method, path, { key: k.api_key, ...(body ? { body } : {}) });
      expect(status).toBe(401);
    });

    const { act, denied } = r.auth as Extract<RouteInfo['auth'], { kind: 'session' }>;
    const roles = act ? rolesFor(act) : undefined;
    // The spec's text for the route's refusal (e.g. `Only owners can change member roles`), else `Permission denied`.
    const refusal = errorResponse(denied ?? 'permission_denied').body;
    if (roles && !roles.includes('member')) {
      it(`refuses a member (needs ${roles.join(' or ')})`, async () => {
        const u = await testService();
        await u.s.accounts.addUser({ orgId: u.orgId, email: 'member@example.test', name: 'Member', password: 'member password', role: 'member' });
        const cookie = await u.login('member@example.test', 'member password');
        const { status, body: b } = await u.json(r.method, path, { cookie, ...(body ? { body } : {}) });
        expect(status).toBe(403);
        expect(b).toEqual(refusal);
      });
    }

    if (roles && !roles.includes('admin')) {
      it(`refuses an admin (needs ${roles.join(' or ')})`, async () => {
        const u = await testService();
        await u.s.accounts.addUser({ orgId: u.orgId, email: 'admin@example.test', name: 'Admin', password: 'admin password', role: 'admin' });
        const cookie = await u.login('admin@example.test', 'admin password');
        const { status, body: b } = await u.json(r.method, path, { cookie, ...(body ? { body } : {}) });
        expect(status).toBe(403);
        expect(b).toEqual(refusal);
      });
    }

    if (r.method !== 'GET') {
      it('refuses a cross-origin write even with a valid session', async () => {
        const cookie = await t.login();
        const { status, body: b } = await t.json<Record<string, unknown>>(r.method, path, {
          cookie, body: {}, headers: { Origin: 'https://evil.example' },
        });
        expect(status).toBe(403);
        expect(b.error).toBe('Cross-origin request refused');
      });
    }
  },
);
