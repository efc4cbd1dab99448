// Links that reach (issue 26): the installation's public URL saved in Settings (one rule with
// `--public-url`, which wins), every link the service hands out built on it and saying how far it
// reaches (`link_reach`), and the console's own links on its configured origin, never the Host.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgeGateStore } from '../../../../src-shared/contracts/age-gate';
import type { HostedGenerateResponse, PublishedFlowStartResponse, PublishedFlowView } from '../../../../src-shared/contracts/hosted';
import type { PublicUrlSettings } from '../../../../src-shared/contracts/links';
import type { CreatedInvitation } from '../../../../src-shared/contracts/team';
import { createPublicOrigin } from '../../core/public-origin';
import { closeAll, ORIGIN, testService, type TestService } from '../harness';

afterAll(closeAll);

let t: TestService;
let owner: string;
let member: string;
let key: string;
beforeAll(async () => {
  t = await testService({ plan: 'enterprise' });
  owner = await t.login();
  await t.s.accounts.addUser({ orgId: t.orgId, email: 'member-links@example.test', name: 'Mem', password: 'member password 1', role: 'member' });
  member = await t.login('member-links@example.test', 'member password 1');
  key = (await t.key({ scopes: ['human', 'age'] })).api_key;
});

const setUrl = (public_url: unknown, cookie = owner) => t.json<PublicUrlSettings & Record<string, unknown>>('PUT', '/api/settings/public-url', { cookie, body: { public_url } });
const getUrl = (cookie = owner, tt = t) => tt.json<PublicUrlSettings>('GET', '/api/settings/public-url', { cookie });
const session = (tt = t, k = key) => tt.json<HostedGenerateResponse>('POST', '/hosted/generate', { headers: { Authorization: `Bearer ${k}` }, body: { product: 'human' } });

describe('GET/PUT /api/settings/public-url', () => {
  it('with no public URL every link is on the loopback address and says it reaches this computer only', async () => {
    expect((await getUrl()).body).toEqual({
      public_url: null, start_url: null, overridden: false,
      hosted: { origin: ORIGIN, link_reach: 'this_computer' }, widget: { origin: ORIGIN, link_reach: 'this_computer' },
    });
    const made = await session();
    expect(made.body).toMatchObject({ hosted_url: `${ORIGIN}/hosted/v/${made.body.token}`, link_reach: 'this_computer' });
    const store = await t.json<AgeGateStore>('PUT', '/api/age-gate', { cookie: owner, body: { env: 'test', settings: { enabled: true } } });
    expect(store.body).toMatchObject({ embed: expect.stringContaining(`src="${ORIGIN}/widget/age-gate.js"`), link_reach: 'this_computer' });
  });

  it('an owner sets it (kept in its canonical form): sessions, flows, a flow start and the script tag use it and reach publicly; cleared, they are back on loopback', async () => {
    const set = await setUrl('  https://Verify.Example.com:443/ ');
    expect(set.status).toBe(200);
    expect(set.body).toEqual({
      public_url: 'https://verify.example.com', start_url: null, overridden: false,
      hosted: { origin: 'https://verify.example.com', link_reach: 'public' }, widget: { origin: 'https://verify.example.com', link_reach: 'public' },
    });
    expect((await getUrl(member)).body.public_url).toBe('https://verify.example.com');
    // A client naming another Host still gets the configured origin.
    const made = await t.json<HostedGenerateResponse>('POST', '/hosted/generate', { headers: { Authorization: `Bearer ${key}`, Host: 'evil.example' }, body: { product: 'human' } });
    expect(made.body).toMatchObject({ hosted_url: `https://verify.example.com/hosted/v/${made.body.token}`, link_reach: 'public' });
    const inConsole = await t.json<HostedGenerateResponse>('POST', '/api/hosted/sessions', { cookie: owner, body: { product: 'human', env: 'test' } });
    expect(inConsole.body).toMatchObject({ hosted_url: `https://verify.example.com/hosted/v/${inConsole.body.token}`, link_reach: 'public' });
    const flow = await t.json<PublishedFlowView>('POST', '/api/hosted/flows', { cookie: owner, body: { name: 'Desk', product: 'human', env: 'test' } });
    expect(flow.body).toMatchObject({ url: expect.stringMatching(/^https:\/\/verify\.example\.com\/hosted\/f\/[A-Za-z0-9_-]{22}$/), link_reach: 'public' });
    const started = await t.json<PublishedFlowStartResponse>('POST', `/hosted/flow/${flow.body.url.split('/').pop()!}/start`);
    expect(started.body).toMatchObject({ hosted_url: `https://verify.example.com/hosted/v/${started.body.token}`, link_reach: 'public' });
    expect((await t.json<AgeGateStore>('GET', '/api/age-gate?env=test', { cookie: owner })).body)
      .toMatchObject({ embed: expect.stringContaining('src="https://verify.example.com/widget/age-gate.js"'), link_reach: 'public' });

    // The URL is configuration: in the database, one row; not in the log.
    expect(await t.sql('SELECT url FROM public_url_setting')).toEqual([{ url: 'https://verify.example.com' }]);

    const cleared = await setUrl(null);
    expect(cleared.body).toMatchObject({ public_url: null, hosted: { origin: ORIGIN, link_reach: 'this_computer' } });
    expect((await session()).body.link_reach).toBe('this_computer');
    expect((await t.json<{ flows: PublishedFlowView[] }>('GET', '/api/hosted/flows?env=test', { cookie: owner })).body.flows[0])
      .toMatchObject({ url: expect.stringContaining(`${ORIGIN}/hosted/f/`), link_reach: 'this_computer' });
    expect(await t.sql('SELECT COUNT(*) AS n FROM public_url_setting')).toEqual([{ n: 0 }]);
  });

  it('a public URL on a loopback name still reaches this computer only', async () => {
    expect((await setUrl('http://localhost:8080')).body.hosted).toEqual({ origin: 'http://localhost:8080', link_reach: 'this_computer' });
    expect((await session()).body).toMatchObject({ hosted_url: expect.stringMatching(/^http:\/\/localhost:8080\/hosted\/v\//), link_reach: 'this_computer' });
    await setUrl(null);
  });

  it('refuses what --public-url refuses, by field and issue, never echoing it; nothing is saved', async () => {
    const refused: [unknown, string][] = [
      ['ftp://verify.example.com', 'scheme'], ['javascript:alert(1)', 'scheme'], ['https://verify.example.com/path', 'not_an_origin'],
      ['https://u:p@verify.example.com', 'not_an_origin'], ['https://verify.example.com/?q=1', 'not_an_origin'], ['https://verify.example.com/#x', 'not_an_origin'],
      ['verify.example.com', 'not_a_url'], ['', 'too short'], [`https://${'a'.repeat(2050)}.example`, 'too long'],
    ];
    for (const [url, issue] of refused) {
      const r = await setUrl(url);
      expect(r.status, String(url)).toBe(400);
      expect(r.body, String(url)).toMatchObject({ field: 'public_url', fields: [{ field: 'public_url', issue }] });
      if (typeof url === 'string' && url.length > 4) expect(JSON.stringify(r.body)).not.toContain(url.slice(0, 20));
    }
    const extra = await t.json('PUT', '/api/settings/public-url', { cookie: owner, body: { public_url: null, origin: 'https://x.example' } });
    expect(extra.status).toBe(400);
    expect((await getUrl()).body.public_url).toBeNull();
  });

  it('a change is audited as set, changed or cleared, never with the URL', async () => {
    const rows = async () => (await t.json<{ entries: { setting: string | null; from_value: string | null; to_value: string | null }[] }>('GET', '/api/audit?action=settings.changed', { cookie: owner })).body.entries
      .filter((e) => e.setting === 'public_url').map((e) => [e.from_value, e.to_value]);
    const already = (await rows()).length;
    expect((await setUrl('https://audit-one.example')).status).toBe(200);
    expect((await setUrl('https://audit-one.example')).status).toBe(200);
    expect((await setUrl('https://audit-two.example')).status).toBe(200);
    expect((await setUrl(null)).status).toBe(200);
    const mine = (await rows()).slice(0, (await rows()).length - already);
    expect(mine).toEqual([['set', 'none'], ['set', 'changed'], ['none', 'set']]);
    const all = JSON.stringify((await t.json('GET', '/api/audit', { cookie: owner })).body);
    expect(all).not.toContain('audit-one.example');
    expect(all).not.toContain('audit-two.example');
  });

  it('only owners and admins set it; everyone signed in reads it; nobody without a session; no cross-site write', async () => {
    expect((await setUrl('https://member.example', member)).status).toBe(403);
    expect((await getUrl(member)).status).toBe(200);
    expect((await t.json('GET', '/api/settings/public-url')).status).toBe(401);
    expect((await t.json('PUT', '/api/settings/public-url', { body: { public_url: 'https://anon.example' } })).status).toBe(401);
    const crossSite = await t.json('PUT', '/api/settings/public-url', { cookie: owner, headers: { Origin: 'https://evil.example' }, body: { public_url: 'https://evil.example' } });
    expect(crossSite.status).toBe(403);
    await t.s.accounts.addUser({ orgId: t.orgId, email: 'admin-links@example.test', name: 'Adm', password: 'admin password 1', role: 'admin' });
    const admin = await t.login('admin-links@example.test', 'admin password 1');
    expect((await setUrl('https://admin.example', admin)).body.public_url).toBe('https://admin.example');
    expect((await getUrl()).body.public_url).toBe('https://admin.example');
    await setUrl(null);
  });
});

describe('--public-url given at start wins over the saved setting', () => {
  it('the saved one shows as overridden and links use the flag\'s; clearing the flag (a restart without it) brings the saved one back', async () => {
    const started = await testService({ plan: 'pro', publicUrl: 'https://flag.example.com' });
    const cookie = await started.login();
    const k = (await started.key({ scopes: ['human'] })).api_key;
    const saved = await started.json<PublicUrlSettings>('PUT', '/api/settings/public-url', { cookie, body: { public_url: 'https://saved.example.com' } });
    expect(saved.body).toEqual({
      public_url: 'https://saved.example.com', start_url: 'https://flag.example.com', overridden: true,
      hosted: { origin: 'https://flag.example.com', link_reach: 'public' }, widget: { origin: 'https://flag.example.com', link_reach: 'public' },
    });
    expect((await session(started, k)).body.hosted_url).toMatch(/^https:\/\/flag\.example\.com\/hosted\/v\//);

    // The same data directory started without the flag: the saved URL is kept and used.
    const plain = await testService({ plan: 'pro' }, { dataDir: started.dataDir, now: started.clock.now(), ownerId: started.ownerId });
    started.close();
    const again = await getUrl(await plain.login(), plain);
    expect(again.body).toMatchObject({ public_url: 'https://saved.example.com', start_url: null, overridden: false, hosted: { origin: 'https://saved.example.com', link_reach: 'public' } });
  });

  it('the on-site server\'s address wins for hosted links while it runs (onsite on a network address, this computer on loopback); never for the script tag', () => {
    let onsite: string | null = 'https://192.168.1.20:8443';
    const origin = createPublicOrigin({ onsite: () => onsite, setting: () => 'https://saved.example.com' });
    origin.listening(ORIGIN);
    expect(origin.hosted()).toEqual({ origin: 'https://192.168.1.20:8443', link_reach: 'onsite' });
    expect(origin.service()).toEqual({ origin: 'https://saved.example.com', link_reach: 'public' });
    onsite = 'https://127.0.0.1:8443';
    expect(origin.hosted()).toEqual({ origin: 'https://127.0.0.1:8443', link_reach: 'this_computer' });
    onsite = null;
    expect(origin.hosted()).toEqual({ origin: 'https://saved.example.com', link_reach: 'public' });
    expect(origin.console()).toEqual({ origin: ORIGIN, link_reach: 'this_computer' });
  });

  it('the team server\'s address is the service\'s own while it runs (the team\'s network): the console\'s links, and every link when no public URL is set', () => {
    let team: string | null = 'https://10.20.0.2:8443';
    let saved: string | null = null;
    let onsite: string | null = null;
    const origin = createPublicOrigin({ onsite: () => onsite, team: () => team, setting: () => saved });
    origin.listening(ORIGIN);
    const onTeam = { origin: 'https://10.20.0.2:8443', link_reach: 'team' };
    expect(origin.console()).toEqual(onTeam);
    expect(origin.service()).toEqual(onTeam);
    expect(origin.hosted()).toEqual(onTeam);
    // A public URL still wins for what it serves (hosted pages, the script tag), never for the console's links.
    saved = 'https://verify.example.com';
    expect(origin.service()).toEqual({ origin: 'https://verify.example.com', link_reach: 'public' });
    expect(origin.console()).toEqual(onTeam);
    // The on-site server still wins for hosted pages while it runs.
    onsite = 'https://192.168.1.20:8443';
    expect(origin.hosted()).toEqual({ origin: 'https://192.168.1.20:8443', link_reach: 'onsite' });
    team = null;
    saved = null;
    expect(origin.console()).toEqual({ origin: ORIGIN, link_reach: 'this_computer' });
    expect(origin.service()).toEqual({ origin: ORIGIN, link_reach: 'this_computer' });
  });
});

describe('the console\'s own links: an invitation\'s accept_url and upgrade_url', () => {
  it('are on the console\'s loopback origin whatever Host the request named, and whatever public URL is set', async () => {
    await setUrl('https://verify.example.com');
    try {
      // A request made to another loopback name and port (the URL is what the links were built from before).
      const elsewhere = async <T>(path: string, cookie: string, body: unknown) => {
        const headers = { Host: 'localhost:9999', Origin: 'http://localhost:9999', Cookie: cookie, 'Content-Type': 'application/json' };
        const res = await t.app.request(`http://localhost:9999${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
        return { status: res.status, body: (await res.json()) as T };
      };
      const invite = await elsewhere<CreatedInvitation>('/api/team/invite', owner, { email: 'new-links@example.test', role: 'member' });
      expect(invite.status).toBe(201);
      expect(invite.body.accept_url).toMatch(new RegExp(`^${ORIGIN}/#/accept-invite\\?token=`));
      expect(invite.body.link_reach).toBe('this_computer');

      const starter = await t.addOrg({ plan: 'starter', email: 'owner@starter-links.test' });
      const denied = await elsewhere<{ upgrade_url: string }>('/api/hosted/sessions', await starter.login(), { product: 'compliance', env: 'test' });
      expect(denied.status).toBe(403);
      expect(denied.body.upgrade_url).toBe(`${ORIGIN}/#/plan`);
    } finally {
      await setUrl(null);
    }
  });
});
