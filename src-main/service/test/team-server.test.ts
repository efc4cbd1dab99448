// The team server (issue 39) over real HTTPS on 127.0.0.1: started and stopped by the owner only,
// its certificate's fingerprint the one it serves, the whole console and API there with Secure
// cookies, HSTS and the CSRF rule held to its own origin, the links the service hands out built on
// it while it runs, back after a restart, and the organisation's own certificate checked before use.
// (On a non-loopback address, from another network namespace: team-server-netns.test.ts.)
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { connect } from 'node:tls';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostedGenerateResponse } from '../../../src-shared/contracts/hosted';
import type { TeamServerStatus } from '../../../src-shared/contracts/team-server';
import type { AuditPage } from '../../../src-shared/contracts/audit';
import { ownCertificate } from '../core/onsite/certificate';
import { closeAll, OWNER, testService, type TestService } from './harness';
import { selfSignedCertificate } from './test-certificates';


let t: TestService;
let owner: string;
afterAll(async () => {
  await t.s.teamServer.stop();
  closeAll();
});
beforeAll(async () => {
  t = await testService({ plan: 'pro' });
  owner = await t.login();
}, 60_000);

interface Answer { status: number; text: string; headers: Record<string, string | string[] | undefined> }

/** One HTTPS call that trusts exactly `ca` (the team server's certificate by default). */
function call(url: string, o: { method?: string; body?: unknown; headers?: Record<string, string>; ca?: string | Buffer } = {}): Promise<Answer> {
  const ca = o.ca ?? readFileSync(join(t.dataDir, 'team', 'team-cert.pem'));
  return new Promise((resolve, reject) => {
    const payload = o.body === undefined ? undefined : JSON.stringify(o.body);
    const headers = { ...o.headers, ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(payload)) } : {}) };
    // A Host header naming another server (DNS rebinding) is checked by the service, not here: the CA still pins the certificate.
    const identity = o.headers?.Host ? { checkServerIdentity: () => undefined } : {};
    const req = request(url, { method: o.method ?? 'GET', ca, headers, ...identity }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => (text += d)).on('end', () => resolve({ status: res.statusCode!, text, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

function servedFingerprint(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => {
      resolve(s.getPeerCertificate().fingerprint256);
      s.end();
    });
    s.on('error', reject);
  });
}

async function start(cookie = owner): Promise<TeamServerStatus> {
  const r = await t.json<TeamServerStatus>('POST', '/api/team-server/start', { cookie, body: { host: '127.0.0.1', port: 0 } });
  expect(r.status).toBe(200);
  return r.body;
}

/** Signs in over the team server; the session cookie as a Cookie header, and the Set-Cookie lines. */
async function signIn(url: string, email = OWNER.email, password = OWNER.password): Promise<{ cookie: string; setCookie: string[] }> {
  const r = await call(`${url}/api/auth/login`, { method: 'POST', body: { email, password }, headers: { Origin: url } });
  expect(r.status, r.text).toBe(200);
  const setCookie = (r.headers['set-cookie'] ?? []) as string[];
  const session = setCookie.find((c) => c.startsWith('cc_session='))!;
  return { cookie: session.split(';')[0]!, setCookie };
}

describe('the team server', () => {
  it('starts for the owner on a local address with a certificate whose fingerprint is the one it serves; admins and members read it only', async () => {
    const before = await t.json<TeamServerStatus>('GET', '/api/team-server', { cookie: owner });
    expect(before.body).toMatchObject({ running: false, url: null, certificate: null });

    await t.s.accounts.addUser({ orgId: t.orgId, email: 'admin-team@example.test', name: 'Ada', password: 'admin password 1', role: 'admin' });
    await t.s.accounts.addUser({ orgId: t.orgId, email: 'member-team@example.test', name: 'Mem', password: 'member password 1', role: 'member' });
    for (const who of ['admin-team@example.test', 'member-team@example.test']) {
      const cookie = await t.login(who, who.startsWith('admin') ? 'admin password 1' : 'member password 1');
      expect((await t.json('POST', '/api/team-server/start', { cookie, body: { host: '127.0.0.1', port: 0 } })).status, who).toBe(403);
      expect((await t.json('GET', '/api/team-server', { cookie })).status, who).toBe(200);
    }
    expect((await t.json('GET', '/api/team-server')).status).toBe(401);
    const far = await t.json('POST', '/api/team-server/start', { cookie: owner, body: { host: '8.8.8.8' } });
    expect(far.status).toBe(400);
    expect(far.body).toMatchObject({ fields: [{ field: 'host', issue: 'not_local' }] });

    const on = await start();
    expect(on).toMatchObject({ running: true, url: `https://127.0.0.1:${on.port}`, certificate: 'generated' });
    expect(await servedFingerprint(on.port!)).toBe(on.fingerprint);
    const audit = t.s.db.prepare("SELECT action, to_value FROM audit_log WHERE action LIKE 'team_server.%' ORDER BY seq DESC LIMIT 1").get();
    expect(audit).toEqual({ action: 'team_server.started', to_value: `127.0.0.1:${on.port}` });
  }, 60_000);

  it('serves the console and the API with Secure cookies and HSTS; the loopback listener keeps plain ones', async () => {
    const on = await start();
    const health = await call(`${on.url!}/api/health`);
    expect(health.status).toBe(200);
    expect(health.headers['strict-transport-security']).toBe('max-age=31536000');

    const { cookie, setCookie } = await signIn(on.url!);
    for (const c of setCookie) expect(c, c).toMatch(/; Secure/);
    expect(setCookie.find((c) => c.startsWith('cc_session='))).toMatch(/HttpOnly/);
    const account = await call(`${on.url!}/api/account`, { headers: { Cookie: cookie } });
    expect(account.status).toBe(200);
    expect(account.headers['cache-control']).toBe('no-store');

    // The loopback listener (in process here) is HTTP: no Secure cookie, no HSTS.
    const local = await t.call('POST', '/api/auth/login', { body: { email: OWNER.email, password: OWNER.password } });
    expect(local.status).toBe(200);
    expect(local.headers.get('set-cookie')).not.toMatch(/Secure/);
    expect(local.headers.get('strict-transport-security')).toBeNull();
  }, 60_000);

  it('takes cookie writes only from its own https origin: another scheme, another name (DNS rebinding) or a loopback origin is refused', async () => {
    const on = await start();
    const { cookie } = await signIn(on.url!);
    const write = (headers: Record<string, string>) =>
      call(`${on.url!}/api/settings/liveness`, { method: 'PUT', body: { require_liveness_clip: false }, headers: { Cookie: cookie, ...headers } });
    expect((await write({ Origin: on.url! })).status).toBe(200);
    const refused: Record<string, string>[] = [
      { Origin: `http://127.0.0.1:${on.port}` },
      { Origin: 'https://evil.example' },
      { Origin: 'http://127.0.0.1:4310' },
      { Host: `rebound.example:${on.port}`, Origin: `https://rebound.example:${on.port}` },
      { 'Sec-Fetch-Site': 'cross-site' },
    ];
    for (const h of refused) {
      const r = await write(h);
      expect(r.status, JSON.stringify(h)).toBe(403);
      expect(JSON.parse(r.text)).toEqual({ error: 'Cross-origin request refused' });
    }
    // The first run and the desktop shell's sign-in are this computer's only, whatever the origin.
    for (const [method, path, body] of [['POST', '/api/setup', { organization: 'X', name: 'X', email: 'x@example.test', password: 'long enough password' }], ['POST', '/api/auth/token', { token: 'x'.repeat(32) }], ['GET', '/api/auth/desktop/members', undefined], ['POST', '/api/auth/desktop/login', { user_id: 1, password: 'x' }]] as const) {
      const r = await call(`${on.url!}${path}`, { method, body, headers: { Origin: on.url! } });
      expect(r.status, path).toBe(403);
      expect(JSON.parse(r.text), path).toEqual({ error: 'Only on the computer that runs the service' });
    }
    // Sign-in itself follows the same rule.
    const login = await call(`${on.url!}/api/auth/login`, { method: 'POST', body: { email: OWNER.email, password: OWNER.password }, headers: { Origin: `http://127.0.0.1:${on.port}` } });
    expect(login.status).toBe(403);
  }, 60_000);

  it('while it runs, invitations, hosted sessions and their QR codes use its address; stopped, the loopback listener\'s again', async () => {
    const on = await start();
    const invite = await t.json<{ accept_url: string }>('POST', '/api/team/invite', { cookie: owner, body: { email: 'desk2@example.test', role: 'member' } });
    expect(invite.status).toBe(201);
    expect(invite.body.accept_url.startsWith(`${on.url!}/`)).toBe(true);
    const made = await t.json<HostedGenerateResponse>('POST', '/api/hosted/sessions', { cookie: owner, body: { product: 'age', env: 'test' } });
    expect(made.body.hosted_url).toBe(`${on.url!}/hosted/v/${made.body.token}`);
    // (On 127.0.0.1 it reaches this computer only; on a network address, the team's network: team-server-netns.test.ts.)
    expect(made.body).toMatchObject({ link_reach: 'this_computer' });
    // The page answers there.
    expect((await call(`${on.url!}/hosted/session/${made.body.token}`)).status).toBe(200);

    const stopped = await t.json<TeamServerStatus>('POST', '/api/team-server/stop', { cookie: owner });
    expect(stopped.body).toMatchObject({ running: false, url: null });
    await expect(call(`${on.url!}/api/health`)).rejects.toThrow();
    const after = await t.json<HostedGenerateResponse>('POST', '/api/hosted/sessions', { cookie: owner, body: { product: 'age', env: 'test' } });
    expect(after.body.hosted_url.startsWith('http://127.0.0.1:4310/')).toBe(true);
    expect(t.s.db.prepare("SELECT action FROM audit_log WHERE action LIKE 'team_server.%' ORDER BY seq DESC LIMIT 1").get()).toEqual({ action: 'team_server.stopped' });
  }, 60_000);

  it('comes back after a restart when left running, with the same address and certificate (the service started it, says the audit log)', async () => {
    const first = await testService({ plan: 'pro' });
    const cookie = await first.login();
    const on = (await first.json<TeamServerStatus>('POST', '/api/team-server/start', { cookie, body: { host: '127.0.0.1', port: 0 } })).body;
    const second = await first.restart();
    try {
      const back = await second.json<TeamServerStatus>('GET', '/api/team-server', { cookie });
      expect(back.body).toMatchObject({ running: true, url: on.url, fingerprint: on.fingerprint });
      const row = second.s.db.prepare("SELECT actor_kind, action FROM audit_log WHERE action = 'team_server.started' ORDER BY seq DESC LIMIT 1").get();
      expect(row).toEqual({ actor_kind: 'system', action: 'team_server.started' });
      const ca = readFileSync(join(second.dataDir, 'team', 'team-cert.pem'));
      expect((await call(`${on.url!}/api/health`, { ca })).status).toBe(200);
    } finally {
      await second.s.teamServer.close();
      second.close();
    }
  }, 60_000);
});

describe('each act names the desk it came from', () => {
  it('a person\'s audit rows carry the address they acted from (hashed in the chain); the CLI\'s and the service\'s none', async () => {
    const s = await testService({ plan: 'pro' });
    try {
      const cookie = (await s.call('POST', '/api/auth/login', { body: { email: OWNER.email, password: OWNER.password }, address: '10.20.0.7' })).headers.get('set-cookie')!.split(';')[0]!;
      expect((await s.json('PUT', '/api/settings/liveness', { cookie, body: { require_liveness_clip: true }, address: '10.20.0.8' })).status).toBe(200);
      const page = await s.json<AuditPage>('GET', '/api/audit?per_page=10', { cookie, address: '10.20.0.9' });
      const byAction = Object.fromEntries(page.body.entries.map((e) => [e.action, e.source_address]));
      expect(byAction).toMatchObject({ 'session.signed_in': '10.20.0.7', 'settings.changed': '10.20.0.8' });
      // Without a socket (in process, as the CLI would be) no address is made up.
      await s.login();
      const rows = s.s.db.prepare("SELECT source_address FROM audit_log WHERE action = 'session.signed_in' ORDER BY seq").all();
      expect(rows).toEqual([{ source_address: '10.20.0.7' }, { source_address: null }]);
      // The address is part of what the chain covers: changing it breaks the chain there.
      expect((await s.json<{ ok: boolean }>('GET', '/api/audit/verify', { cookie })).body.ok).toBe(true);
      s.s.db.exec('DROP TRIGGER audit_log_no_update');
      s.s.db.prepare("UPDATE audit_log SET source_address = '10.20.0.66' WHERE source_address = '10.20.0.7'").run();
      expect((await s.json<{ ok: boolean; reason?: string }>('GET', '/api/audit/verify', { cookie })).body).toMatchObject({ ok: false, reason: expect.stringMatching(/changed after it was written/) });
    } finally {
      s.close();
    }
  }, 60_000);
});

describe('the organisation\'s own certificate', () => {
  /** A certificate for team.example.lan and 127.0.0.1, valid between the two dates. */
  const makeCert = (from: Date, to: Date) => selfSignedCertificate(['team.example.lan', '127.0.0.1'], from, to);
  const now = Date.now();

  it('is served as given, and its DNS name is one of the team server\'s own names', async () => {
    const pair = makeCert(new Date(now - 86_400_000), new Date(now + 90 * 86_400_000));
    const own = ownCertificate(pair.cert, pair.key);
    const s = await testService({ plan: 'pro', team: { host: '127.0.0.1', port: 0, own } });
    try {
      const cookie = await s.login();
      const st = (await s.json<TeamServerStatus>('GET', '/api/team-server', { cookie })).body;
      expect(st).toMatchObject({ running: true, certificate: 'own' });
      expect(st.fingerprint).toBe(new X509Certificate(pair.cert).fingerprint256);
      expect(await servedFingerprint(st.port!)).toBe(st.fingerprint);
      // Reached by the certificate's name (the organisation's DNS entry for it), a write from that origin is its own.
      const byName = `https://team.example.lan:${st.port}`;
      const login = await call(`${st.url!}/api/auth/login`, { method: 'POST', ca: pair.cert, body: { email: OWNER.email, password: OWNER.password }, headers: { Host: `team.example.lan:${st.port}`, Origin: byName } });
      expect(login.status, login.text).toBe(200);
    } finally {
      await s.s.teamServer.close();
      s.close();
    }
  }, 60_000);

  it('is refused, saying why, when expired, not yet valid, or not the key\'s', () => {
    const expired = makeCert(new Date(now - 90 * 86_400_000), new Date(now - 86_400_000));
    expect(() => ownCertificate(expired.cert, expired.key)).toThrow(/the certificate expired on \d{4}-\d\d-\d\d/);
    const early = makeCert(new Date(now + 86_400_000), new Date(now + 90 * 86_400_000));
    expect(() => ownCertificate(early.cert, early.key)).toThrow(/not valid before/);
    const a = makeCert(new Date(now - 86_400_000), new Date(now + 86_400_000));
    const b = makeCert(new Date(now - 86_400_000), new Date(now + 86_400_000));
    expect(() => ownCertificate(a.cert, b.key)).toThrow('the key is not the certificate\'s key');
    expect(() => ownCertificate('not a certificate', a.key)).toThrow(/not a PEM certificate/);
    expect(() => ownCertificate(a.cert, 'not a key')).toThrow(/not a PEM private key/);
  }, 30_000);
});

describe('each person at their own desk', () => {
  it('the owner ends another person\'s sessions: their next request asks them to sign in, the act is audited; nobody ends their own this way', async () => {
    const s = await testService({ plan: 'pro' });
    try {
      const owner = await s.login();
      const analyst = await s.s.accounts.addUser({ orgId: s.orgId, email: 'desk3@example.test', name: 'Desk Three', password: 'analyst password 1', role: 'member' });
      const first = await s.login('desk3@example.test', 'analyst password 1');
      const second = await s.login('desk3@example.test', 'analyst password 1');
      expect((await s.json('GET', '/api/auth/me', { cookie: first })).status).toBe(200);
      const ended = await s.json('POST', `/api/team/members/${analyst.id}/end-sessions`, { cookie: owner });
      expect(ended).toMatchObject({ status: 200, body: { message: '2 sessions ended', sessions_ended: 2 } });
      for (const c of [first, second]) expect((await s.json('GET', '/api/auth/me', { cookie: c })).status).toBe(401);
      expect(s.s.db.prepare("SELECT target_user_id, to_value FROM audit_log WHERE action = 'session.revoked'").get()).toEqual({ target_user_id: analyst.id, to_value: '2' });
      // They sign in again as before.
      expect((await s.json('GET', '/api/auth/me', { cookie: await s.login('desk3@example.test', 'analyst password 1') })).status).toBe(200);
      expect((await s.json('POST', `/api/team/members/${s.ownerId}/end-sessions`, { cookie: owner })).body).toEqual({ error: 'To end your own session, sign out' });
      expect((await s.json('POST', '/api/team/members/999999/end-sessions', { cookie: owner })).status).toBe(404);
      // A member removed while signed in is refused at their next request.
      const removedCookie = await s.login('desk3@example.test', 'analyst password 1');
      expect((await s.json('DELETE', `/api/team/members/${analyst.id}`, { cookie: owner })).status).toBe(200);
      expect((await s.json('GET', '/api/auth/me', { cookie: removedCookie })).status).toBe(401);
    } finally {
      s.close();
    }
  }, 60_000);
});
