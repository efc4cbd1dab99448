// Redirects and origins (issue 25) through the HTTP app. Every redirect field (hosted sessions by
// key and in the console, published flows, the age gate's underage redirect) takes https, http to
// this computer and the organisation's registered app schemes only: OS protocol handlers and
// other schemes are refused naming the field. The app schemes setting (owners and admins, the
// forbidden schemes refused). Links handed out are on the service's configured origin whatever
// Host the request names.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgeGateStore } from '../../../../src-shared/contracts/age-gate';
import type { HostedCompleteResponse, HostedGenerateResponse, PublishedFlowStartResponse, PublishedFlowView } from '../../../../src-shared/contracts/hosted';
import type { AppSchemesSettings } from '../../../../src-shared/contracts/organization';
import { closeAll, ORIGIN, testService, type TestService } from '../harness';
import { compose } from '../../compose';

afterAll(closeAll);

let t: TestService;
let owner: string;
let key: string;
const PASSWORD = 'a member password';
const as = async (role: 'admin' | 'member') => {
  const email = `${role}@example.test`;
  if (!await t.s.accounts.userByEmail(email)) await t.s.accounts.addUser({ orgId: t.orgId, email, name: role, password: PASSWORD, role });
  return t.login(email, PASSWORD);
};
beforeAll(async () => {
  t = await testService({ plan: 'pro' });
  owner = await t.login();
  key = (await t.key({ scopes: ['human', 'age', 'identity'] })).api_key;
}, 60_000);

const setSchemes = (app_schemes: unknown, cookie = owner) => t.json<AppSchemesSettings & Record<string, unknown>>('PUT', '/api/settings/app-schemes', { cookie, body: { app_schemes } });

/** Each route that takes a redirect, by field: the answer to one value in that field. */
type Target = { name: string; field: string; send: (value: string) => Promise<{ status: number; body: Record<string, unknown> }> };
const TARGETS: Target[] = [];
for (const field of ['redirect_url', 'failure_redirect_url']) {
  TARGETS.push(
    { name: 'POST /hosted/generate', field, send: (v) => t.json('POST', '/hosted/generate', { headers: { Authorization: `Bearer ${key}` }, body: { product: 'human', [field]: v } }) },
    { name: 'POST /api/hosted/sessions', field, send: (v) => t.json('POST', '/api/hosted/sessions', { cookie: owner, body: { product: 'human', env: 'test', [field]: v } }) },
    { name: 'POST /api/hosted/flows', field, send: (v) => t.json('POST', '/api/hosted/flows', { cookie: owner, body: { name: 'Desk', product: 'human', env: 'test', [field]: v } }) },
  );
}
TARGETS.push({
  name: 'PUT /api/age-gate', field: 'underage_redirect_url',
  send: (v) => t.json('PUT', '/api/age-gate', { cookie: owner, body: { env: 'test', settings: { underage_redirect_url: v } } }),
});

// Operating-system protocol handlers and other schemes that must never be a redirect (the attack run's list and more).
const DANGEROUS = [
  'ms-msdt:/id%20PCWDiagnostic%20/skip%20force', 'ms-officecmd:%7B%7D', 'ms-settings:privacy', 'search-ms:query=invoice&crumb=location:%5C%5Cevil.example%5Cshare',
  'smb://evil.example/share/run.exe', 'intent://scan/#Intent;scheme=zxing;package=com.evil;end', 'view-source:https://shop.example/',
  'javascript:alert(document.cookie)', 'data:text/html;base64,PHNjcmlwdD4=', 'file:///etc/passwd', 'vbscript:msgbox(1)', 'blob:https://shop.example/0b6d',
  'about:blank', 'shell:startup', 'ftp://evil.example/x', 'chrome://settings', 'mailto:someone@example.com', 'jar:file:///x.jar!/y', 'ws://127.0.0.1/',
];

describe('redirect fields take https, http to this computer and registered app schemes only', () => {
  it('refuses each dangerous scheme on each redirect field, naming the field, without echoing the URL', async () => {
    // Even registered by hand in the database (past the setting's own check), a forbidden scheme stays refused.
    await t.sql("INSERT INTO organization_app_schemes (org_id, scheme) VALUES (?, 'ms-msdt'), (?, 'search-ms')", t.orgId, t.orgId);
    for (const target of TARGETS) {
      for (const url of DANGEROUS) {
        const r = await target.send(url);
        expect(r.status, `${target.name} ${target.field} ${url}`).toBe(400);
        expect(r.body.fields, `${target.name} ${target.field} ${url}`).toEqual([{ field: target.field, issue: 'refused_scheme' }]);
        expect(JSON.stringify(r.body)).not.toContain(url.slice(0, 14));
      }
    }
    await t.sql('DELETE FROM organization_app_schemes WHERE org_id = ?', t.orgId);
  });

  it('passes https and http to loopback; refuses http elsewhere; an app scheme only once registered', async () => {
    const ok = ['https://shop.example/done?x=1', 'http://127.0.0.1:8080/cb', 'http://127.9.8.7/cb', 'http://localhost:3000/cb', 'http://[::1]:3000/cb'];
    const plainHttp = ['http://shop.example/done', 'http://10.0.0.1/cb', 'http://127.0.0.1.evil.example/cb', 'http://[::ffff:127.0.0.1]/cb', 'http://0.0.0.0/cb'];
    for (const target of TARGETS) {
      for (const url of ok) expect((await target.send(url)).status, `${target.name} ${target.field} ${url}`).toBe(200);
      for (const url of plainHttp) {
        const r = await target.send(url);
        expect(r.status, `${target.name} ${target.field} ${url}`).toBe(400);
        expect(r.body.fields).toEqual([{ field: target.field, issue: 'http_not_allowed' }]);
      }
      const unregistered = await target.send('myapp://verify/done');
      expect(unregistered.status, `${target.name} ${target.field}`).toBe(400);
      expect(unregistered.body.fields).toEqual([{ field: target.field, issue: 'scheme_not_registered' }]);
    }

    expect((await setSchemes(['myapp', 'com.example.app'])).body).toEqual({ app_schemes: ['com.example.app', 'myapp'] });
    for (const target of TARGETS) {
      for (const url of ['myapp://verify/done', 'com.example.app:/callback']) expect((await target.send(url)).status, `${target.name} ${target.field} ${url}`).toBe(200);
      const other = await target.send('otherapp://verify/done');
      expect(other.status).toBe(400);
      expect(other.body.fields).toEqual([{ field: target.field, issue: 'scheme_not_registered' }]);
    }
    await setSchemes([]);
  });

  it('each route answers in the shape of its other validation errors: the API and the age gate the general one, the console\'s session routes the account one', async () => {
    const shapes = new Map<string, Record<string, unknown>>();
    for (const target of TARGETS.filter((x) => x.field !== 'failure_redirect_url')) shapes.set(target.name, (await target.send('ms-msdt:x')).body);
    expect(shapes.get('POST /hosted/generate')).toMatchObject({ status: 'ERROR', code: 'INVALID_PARAMETERS' });
    expect(shapes.get('PUT /api/age-gate')).toMatchObject({ status: 'ERROR', code: 'INVALID_PARAMETERS' });
    for (const name of ['POST /api/hosted/sessions', 'POST /api/hosted/flows']) {
      expect(shapes.get(name), name).toMatchObject({ field: 'redirect_url' });
      expect(shapes.get(name), name).not.toHaveProperty('code');
    }
  });

  it('a redirect whose app scheme was removed since, or saved before these rules, is not followed: the page shows the result', async () => {
    await setSchemes(['myapp']);
    const made = await t.json<HostedGenerateResponse>('POST', '/hosted/generate', {
      headers: { Authorization: `Bearer ${key}` }, body: { product: 'age', redirect_url: 'https://shop.example/ok', failure_redirect_url: 'myapp://verify/failed' },
    });
    expect(made.status).toBe(200);
    await setSchemes([]);
    // An underage date of birth is a denial that looks at no picture.
    const denied = await t.json<HostedCompleteResponse>('POST', `/hosted/complete/${made.body.token}`, { body: { date_of_birth: '2015-01-01', selfie_b64: 'AAAA' } });
    expect(denied.body).toMatchObject({ status: 'failed', redirect_url: null });

    const old = await t.json<HostedGenerateResponse>('POST', '/hosted/generate', { headers: { Authorization: `Bearer ${key}` }, body: { product: 'age' } });
    await t.sql("UPDATE hosted_sessions SET failure_redirect_url = 'ms-msdt:/id%20PCWDiagnostic' WHERE id = ?", old.body.session_id);
    const oldDenied = await t.json<HostedCompleteResponse>('POST', `/hosted/complete/${old.body.token}`, { body: { date_of_birth: '2015-01-01', selfie_b64: 'AAAA' } });
    expect(oldDenied.body).toMatchObject({ status: 'failed', redirect_url: null });
  });
});

describe('PUT /api/settings/app-schemes', () => {
  it('owners and admins set the list (sorted, each once); everyone reads it; members 403; signed out 401', async () => {
    expect((await setSchemes(['myapp'])).status).toBe(200);
    const admin = await as('admin');
    expect((await setSchemes(['com.example.app', 'myapp2'], admin)).body).toEqual({ app_schemes: ['com.example.app', 'myapp2'] });
    const member = await as('member');
    const refused = await setSchemes(['evilapp'], member);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: 'Permission denied' });
    expect((await t.json('GET', '/api/settings/app-schemes', { cookie: member })).body).toEqual({ app_schemes: ['com.example.app', 'myapp2'] });
    expect((await t.json('GET', '/api/settings/app-schemes')).status).toBe(401);
    expect((await t.json('PUT', '/api/settings/app-schemes', { body: { app_schemes: ['x1'] } })).status).toBe(401);
    // Another organisation's schemes are its own: its redirects cannot use ours.
    const other = await t.addOrg();
    const theirs = await other.login();
    expect((await t.json('GET', '/api/settings/app-schemes', { cookie: theirs })).body).toEqual({ app_schemes: [] });
    const theirSession = await t.json('POST', '/api/hosted/sessions', { cookie: theirs, body: { product: 'human', env: 'test', redirect_url: 'myapp2://x' } });
    expect(theirSession.body).toMatchObject({ fields: [{ field: 'redirect_url', issue: 'scheme_not_registered' }] });
    await setSchemes([]);
  });

  it('refuses forbidden schemes (OS handlers, script and web schemes), bad syntax, upper case, duplicates and too many, naming the item', async () => {
    const forbidden = ['javascript', 'data', 'file', 'vbscript', 'blob', 'about', 'ms-msdt', 'ms-officecmd', 'ms-anything-new', 'search-ms', 'smb', 'intent',
      'view-source', 'chrome', 'ftp', 'ws', 'wss', 'http', 'https', 'mailto', 'shell', 'itms-services'];
    for (const scheme of forbidden) {
      const r = await setSchemes(['myapp', scheme]);
      expect(r.status, scheme).toBe(400);
      expect(r.body, scheme).toMatchObject({ field: 'app_schemes.1', fields: [{ field: 'app_schemes.1', issue: 'forbidden_scheme' }] });
    }
    for (const [schemes, issue] of [
      [['MyApp'], 'invalid format'], [['my_app'], 'invalid format'], [['1app'], 'invalid format'], [['myapp:'], 'invalid format'], [['my app'], 'invalid format'],
      [['a'], 'too short'], [['a'.repeat(65)], 'too long'],
    ] as const) {
      const r = await setSchemes(schemes);
      expect(r.status, schemes[0]).toBe(400);
      expect(r.body.fields, schemes[0]).toEqual([{ field: 'app_schemes.0', issue }]);
    }
    expect((await setSchemes(['myapp', 'myapp'])).body).toMatchObject({ fields: [{ field: 'app_schemes', issue: 'duplicate' }] });
    expect((await setSchemes(Array.from({ length: 11 }, (_, i) => `app${i}`))).body).toMatchObject({ fields: [{ field: 'app_schemes', issue: 'too many items' }] });
    expect((await t.json('GET', '/api/settings/app-schemes', { cookie: owner })).body).toEqual({ app_schemes: [] });
  });
});

describe('links are built on the service\'s configured origin, never the request\'s Host', () => {
  /** A request whose URL and Host header both name another server, as a client on the wire can. */
  const spoofed = async <T>(method: string, path: string, init: { cookie?: string; key?: string; body?: unknown } = {}) => {
    const headers: Record<string, string> = { Host: 'evil.example', 'Content-Type': 'application/json' };
    if (init.cookie) headers.Cookie = init.cookie;
    if (init.key) headers.Authorization = `Bearer ${init.key}`;
    const res = await t.app.request(`http://evil.example${path}`, { method, headers, ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}) });
    return { status: res.status, body: (await res.json()) as T };
  };

  it('hosted_url (its QR code), published flows\' URLs, a flow start\'s hosted_url and the age gate\'s script tag', async () => {
    const byKey = await spoofed<HostedGenerateResponse>('POST', '/hosted/generate', { key, body: { product: 'human' } });
    expect(byKey.status).toBe(200);
    expect(byKey.body.hosted_url).toBe(`${ORIGIN}/hosted/v/${byKey.body.token}`);
    // The console's session: what its QR code carries. Cookie writes are refused for a Host that is not
    // a loopback name (DNS rebinding), but a client may still name another loopback address and port.
    const headers = { Host: 'localhost:9999', Origin: 'http://localhost:9999', Cookie: owner, 'Content-Type': 'application/json' };
    const inConsole = await t.app.request('http://localhost:9999/api/hosted/sessions', { method: 'POST', headers, body: JSON.stringify({ product: 'human', env: 'test' }) });
    const made = (await inConsole.json()) as HostedGenerateResponse;
    expect(inConsole.status).toBe(200);
    expect(made.hosted_url).toBe(`${ORIGIN}/hosted/v/${made.token}`);

    const published = await t.app.request('http://localhost:9999/api/hosted/flows', { method: 'POST', headers, body: JSON.stringify({ name: 'Lobby', product: 'human', env: 'test' }) });
    const flow = (await published.json()) as PublishedFlowView;
    expect(flow.url).toMatch(new RegExp(`^${ORIGIN}/hosted/f/[A-Za-z0-9_-]{22}$`));
    const listed = await spoofed<{ flows: PublishedFlowView[] }>('GET', '/api/hosted/flows?env=test', { cookie: owner });
    expect(listed.body.flows.every((f) => f.url.startsWith(`${ORIGIN}/hosted/f/`))).toBe(true);
    const started = await spoofed<PublishedFlowStartResponse>('POST', `/hosted/flow/${flow.url.split('/').pop()!}/start`);
    expect(started.body.hosted_url).toBe(`${ORIGIN}/hosted/v/${started.body.token}`);

    const gate = await t.app.request('http://localhost:9999/api/age-gate', { method: 'PUT', headers, body: JSON.stringify({ env: 'test', settings: { enabled: true } }) });
    const store = (await gate.json()) as AgeGateStore;
    expect(store.embed).toBe(`<script src="${ORIGIN}/widget/age-gate.js" data-store="${store.store_id}" async></script>`);
    expect((await spoofed<AgeGateStore>('GET', '/api/age-gate?env=test', { cookie: owner })).body.embed).toContain(`src="${ORIGIN}/widget/age-gate.js"`);
  });

  it('a public URL given at start (--public-url) is used instead of the loopback address; the on-site server\'s while it runs, for hosted pages', async () => {
    const pub = await testService({ plan: 'pro', publicUrl: 'https://verify.example.com/' });
    const k = (await pub.key({ scopes: ['human'] })).api_key;
    const made = await pub.json<HostedGenerateResponse>('POST', '/hosted/generate', { headers: { Authorization: `Bearer ${k}`, Host: 'evil.example' }, body: { product: 'human' } });
    expect(made.body.hosted_url).toBe(`https://verify.example.com/hosted/v/${made.body.token}`);
    const cookie = await pub.login();
    const store = await pub.json<AgeGateStore>('PUT', '/api/age-gate', { cookie, body: { env: 'test', settings: { enabled: true } } });
    expect(store.body.embed).toContain('src="https://verify.example.com/widget/age-gate.js"');
    const on = await pub.json<{ url: string }>('POST', '/api/onsite/start', { cookie, body: { host: '127.0.0.1', port: 0 } });
    try {
      const onsite = await pub.json<HostedGenerateResponse>('POST', '/hosted/generate', { headers: { Authorization: `Bearer ${k}` }, body: { product: 'human' } });
      expect(onsite.body.hosted_url).toBe(`${on.body.url}/hosted/v/${onsite.body.token}`);
      // The widget's script is not served on site: its tag stays on the public URL.
      expect((await pub.json<AgeGateStore>('GET', '/api/age-gate?env=test', { cookie })).body.embed).toContain('src="https://verify.example.com/widget/age-gate.js"');
    } finally {
      await pub.s.onsite.stop();
    }
    // Refused before anything is opened: an origin only, http(s).
    for (const bad of ['ftp://verify.example.com', 'https://verify.example.com/path', 'https://u:p@verify.example.com', 'https://verify.example.com/?q=1', 'verify.example.com']) {
      await expect(compose({ dataDir: '/nonexistent/never-opened', publicUrl: bad }), bad).rejects.toThrow(/--public-url/);
    }
  });
});
