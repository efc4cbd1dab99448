// Published flows through their HTTP routes (spec, Endpoints rule 9): a stable URL that many people
// can open, each getting a fresh hosted session from the flow's current settings; editing keeps the
// URL; switching off closes it (410) until switched on; other organisations and members are refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  HostedCompleteResponse, HostedPage, HostedSessionList, PublishedFlowList, PublishedFlowStartResponse, PublishedFlowView,
} from '../../../../src-shared/contracts/hosted';
import { closeAll, ORIGIN, testService, type TestService } from '../harness';
import * as fx from '../face-fixtures';

afterAll(closeAll);

let t: TestService;
let cookie: string;
beforeAll(async () => {
  t = await testService({ plan: 'growth' });
  cookie = await t.login();
}, 60_000);

const FLOW = { name: 'Front desk', product: 'human', page_title: 'Welcome to Northwind', redirect_url: 'https://shop.example/done' } as const;
const create = (body: Record<string, unknown>, as = cookie) => t.json<PublishedFlowView & Record<string, unknown>>('POST', '/api/hosted/flows', { cookie: as, body });
const edit = (id: string, body: Record<string, unknown>, as = cookie) => t.json<PublishedFlowView & Record<string, unknown>>('PUT', `/api/hosted/flows/${id}`, { cookie: as, body });
const start = (slug: string) => t.json<PublishedFlowStartResponse & Record<string, unknown>>('POST', `/hosted/flow/${slug}/start`);
const slugOf = (url: string) => /\/hosted\/f\/([A-Za-z0-9_-]+)$/.exec(url)![1]!;
const page = (token: string) => t.json<HostedPage>('GET', `/hosted/session/${token}`);

describe('publishing a flow and starting sessions from it', () => {
  it('publishes a flow with a stable URL, lists it with its counts, and starts a fresh one-hour session per visit', async () => {
    const made = await create({ ...FLOW, env: 'test' });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({
      name: 'Front desk', product: 'human', environment: 'test', enabled: true, sessions_started: 0, sessions_completed: 0,
      settings: { page_title: 'Welcome to Northwind', redirect_url: 'https://shop.example/done' },
    });
    expect(made.body.id).toMatch(/^pf_/);
    expect(made.body.url).toMatch(new RegExp(`^${ORIGIN}/hosted/f/[A-Za-z0-9_-]{22}$`));
    const slug = slugOf(made.body.url);

    // A GET of the page starts nothing (previewers fetch links): no built page here, and no session.
    await t.call('GET', `/hosted/f/${slug}`);
    expect((await t.sql('SELECT COUNT(*) AS n FROM hosted_sessions WHERE flow_id = ?', made.body.id))[0]).toEqual({ n: 0 });

    const first = await start(slug);
    expect(first.status).toBe(200);
    expect(first.res.headers.get('cache-control')).toBe('no-store');
    expect(Object.keys(first.body).sort()).toEqual(['expires_at', 'hosted_url', 'link_reach', 'token']);
    expect(first.body.hosted_url).toBe(`${ORIGIN}/hosted/v/${first.body.token}`);
    expect(Date.parse(first.body.expires_at) - t.clock.now()).toBe(3_600_000);
    expect((await page(first.body.token)).body).toMatchObject({ product: 'human', page_title: 'Welcome to Northwind', test_mode: true, state: 'opened' });

    // Reusable by many: a second visit is a second session, with its own token.
    const second = await start(slug);
    expect(second.body.token).not.toBe(first.body.token);
    const rows = (await t.sql('SELECT id, api_key_id, org_id, env FROM hosted_sessions WHERE flow_id = ?', made.body.id)) as Record<string, unknown>[];
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.api_key_id === null && r.org_id === t.orgId && r.env === 'test')).toBe(true);

    // The session works like any: completed once, with the flow's redirect.
    const done = await t.json<HostedCompleteResponse>('POST', `/hosted/complete/${first.body.token}`, { body: { selfie_b64: (await fx.headTurnClip()).toString('base64') } });
    expect(done.body).toMatchObject({ status: 'passed', test_mode: true });
    expect(done.body.redirect_url).toMatch(/^https:\/\/shop\.example\/done\?hosted_session=hs_/);

    const list = await t.json<PublishedFlowList>('GET', '/api/hosted/flows?env=test', { cookie });
    expect(list.body.flows.find((f) => f.id === made.body.id)).toMatchObject({ url: made.body.url, sessions_started: 2, sessions_completed: 1 });
    expect((await t.json<PublishedFlowList>('GET', '/api/hosted/flows?env=live', { cookie })).body.flows).toEqual([]);
    // The console's session list says where each session came from.
    const sessions = await t.json<HostedSessionList>('GET', '/api/hosted/sessions?env=test', { cookie });
    expect(sessions.body.sessions.filter((s) => s.flow_id === made.body.id)).toHaveLength(2);
  }, 60_000);

  it('an edit changes what the next visit shows and keeps the URL; a session already started keeps its settings', async () => {
    const made = await create({ ...FLOW, env: 'test' });
    const slug = slugOf(made.body.url);
    const before = await start(slug);
    t.clock.advance(1000);
    const edited = await edit(made.body.id, { name: 'Front desk (new)', product: 'age', min_age: 21, page_title: 'Age check at the door' });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ id: made.body.id, url: made.body.url, name: 'Front desk (new)', product: 'age', settings: { min_age: 21, page_title: 'Age check at the door' } });
    // PUT replaces the settings: the redirect left out is gone.
    expect(edited.body.settings.redirect_url).toBeUndefined();
    expect(edited.body.updated_at > made.body.updated_at).toBe(true);
    expect(edited.body.created_at).toBe(made.body.created_at);

    const after = await start(slug);
    expect((await page(after.body.token)).body).toMatchObject({ product: 'age', page_title: 'Age check at the door', min_age: 21 });
    expect((await page(before.body.token)).body).toMatchObject({ product: 'human', page_title: 'Welcome to Northwind' });
  });

  it('switched off, the URL answers 410 PUBLISHED_FLOW_CLOSED and starts nothing; switched on, it works again at the same URL', async () => {
    const made = await create({ ...FLOW, env: 'test' });
    const slug = slugOf(made.body.url);
    const started = await start(slug);
    const off = await t.json<PublishedFlowView>('POST', `/api/hosted/flows/${made.body.id}/disable`, { cookie });
    expect(off.body).toMatchObject({ enabled: false, url: made.body.url });
    const closed = await start(slug);
    expect(closed.status).toBe(410);
    expect(closed.body).toEqual({ error: 'This verification is not available right now.', status: 'ERROR', code: 'PUBLISHED_FLOW_CLOSED' });
    expect((await t.sql('SELECT COUNT(*) AS n FROM hosted_sessions WHERE flow_id = ?', made.body.id))[0]).toEqual({ n: 1 });
    // A session started before goes on.
    expect((await page(started.body.token)).status).toBe(200);

    const on = await t.json<PublishedFlowView>('POST', `/api/hosted/flows/${made.body.id}/enable`, { cookie });
    expect(on.body).toMatchObject({ enabled: true, url: made.body.url });
    expect((await start(slug)).status).toBe(200);
  });

  it('a live flow\'s sessions are the organisation\'s and paid by it; a plan without the product refuses it and closes its URL', async () => {
    await t.grant(10);
    const live = await create({ ...FLOW, env: 'live' });
    expect(live.body.environment).toBe('live');
    const s = await start(slugOf(live.body.url));
    expect((await page(s.body.token)).body.test_mode).toBe(false);
    const balance = (await t.s.credits.balance(t.orgId));
    // A liveness recording (one that misses the challenge: the session's first, so its charge).
    await t.json('POST', `/hosted/complete/${s.body.token}`, { body: { selfie_b64: (await fx.noFaceClip()).toString('base64') } });
    expect((await t.s.credits.balance(t.orgId))).toBe(balance - 1);

    // KYC plus needs Pro or Enterprise.
    const kyc = await create({ ...FLOW, product: 'compliance', env: 'test' });
    expect(kyc.status).toBe(403);
    await t.setPlan('pro');
    const allowed = await create({ ...FLOW, product: 'compliance', env: 'test' });
    expect(allowed.status).toBe(200);
    await t.setPlan('growth');
    expect((await start(slugOf(allowed.body.url))).body).toMatchObject({ code: 'PUBLISHED_FLOW_CLOSED' });
    expect((await edit(allowed.body.id, { ...FLOW, product: 'compliance' })).status).toBe(403);
  }, 60_000);
});

describe('what is refused', () => {
  it('bad redirects by field, without echoing them; bad names and settings; an unknown slug 404', async () => {
    const bad = await create({ ...FLOW, env: 'test', failure_redirect_url: 'javascript:alert(document.cookie)' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ fields: [{ field: 'failure_redirect_url', issue: 'refused_scheme' }] });
    expect(JSON.stringify(bad.body)).not.toContain('javascript');
    const made = await create({ ...FLOW, env: 'test' });
    expect((await edit(made.body.id, { ...FLOW, redirect_url: 'http://shop.example/' })).body).toMatchObject({ fields: [{ field: 'redirect_url', issue: 'http_not_allowed' }] });
    for (const body of [{ ...FLOW, name: '  ' }, { ...FLOW, product: 'bogus' }, { ...FLOW, min_age: 5 }, { name: 'x' }]) {
      expect((await create({ ...body, env: 'test' })).status, JSON.stringify(body)).toBe(400);
    }
    expect((await create({ ...FLOW, env: 'staging' })).status).toBe(400);
    // Unchanged by the refused edit.
    expect((await t.json<PublishedFlowList>('GET', '/api/hosted/flows?env=test', { cookie })).body.flows.find((f) => f.id === made.body.id)?.settings.redirect_url)
      .toBe('https://shop.example/done');

    const unknown = await start('A'.repeat(22));
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'PUBLISHED_FLOW_NOT_FOUND' });
    expect((await start('short')).status).toBe(404);
    expect((await edit('pf_nope', FLOW)).status).toBe(404);
  });

  it('another organisation\'s flow is 404 to every console route; members look but do not change; no session, no access', async () => {
    const made = await create({ ...FLOW, env: 'test' });
    const other = await t.addOrg({ email: 'owner@other-flows.test' });
    const theirs = await other.login();
    expect((await edit(made.body.id, FLOW, theirs)).status).toBe(404);
    for (const action of ['enable', 'disable']) expect((await t.json('POST', `/api/hosted/flows/${made.body.id}/${action}`, { cookie: theirs })).status).toBe(404);
    expect((await t.json<PublishedFlowList>('GET', '/api/hosted/flows?env=test', { cookie: theirs })).body.flows).toEqual([]);

    await t.s.accounts.addUser({ orgId: t.orgId, email: 'member-flows@example.test', name: 'Mem', password: 'member password 1', role: 'member' });
    const member = await t.login('member-flows@example.test', 'member password 1');
    expect((await t.json<PublishedFlowList>('GET', '/api/hosted/flows?env=test', { cookie: member })).body.flows.some((f) => f.id === made.body.id)).toBe(true);
    expect((await create({ ...FLOW, env: 'test' }, member)).status).toBe(403);
    expect((await edit(made.body.id, FLOW, member)).status).toBe(403);
    expect((await t.json('POST', `/api/hosted/flows/${made.body.id}/disable`, { cookie: member })).status).toBe(403);
    await t.s.accounts.addUser({ orgId: t.orgId, email: 'admin-flows@example.test', name: 'Ad', password: 'admin password 1', role: 'admin' });
    const admin = await t.login('admin-flows@example.test', 'admin password 1');
    expect((await t.json('POST', `/api/hosted/flows/${made.body.id}/disable`, { cookie: admin })).status).toBe(200);

    expect((await t.json('GET', '/api/hosted/flows?env=test')).status).toBe(401);
    expect((await t.json('POST', '/api/hosted/flows', { body: { ...FLOW, env: 'test' } })).status).toBe(401);
  });

  it('a burst of starts on one flow is limited (429 with Retry-After); other flows are not affected', async () => {
    const busy = slugOf((await create({ ...FLOW, env: 'test' })).body.url);
    const calm = slugOf((await create({ ...FLOW, env: 'test' })).body.url);
    const answers: number[] = [];
    for (let i = 0; i < 51; i++) answers.push((await start(busy)).status);
    expect(answers.slice(0, 50).every((s) => s === 200)).toBe(true);
    const limited = await start(busy);
    expect(limited.status).toBe(429);
    expect(limited.res.headers.get('retry-after')).toBeTruthy();
    expect((await start(calm)).status).toBe(200);
    t.clock.advance(1000);
    expect((await start(busy)).status).toBe(200);
  });
});

describe('no subject data', () => {
  it('flows hold settings only: the table has no column for a person, and answers carry no token of a started session', async () => {
    const cols = await t.columns('published_flows');
    expect(cols.sort()).toEqual([
      'created_at', 'enabled', 'env', 'failure_message', 'failure_redirect_url', 'id', 'min_age', 'name', 'org_id', 'page_title', 'product',
      'redirect_url', 'slug', 'success_message', 'updated_at',
    ]);
    const made = await create({ ...FLOW, env: 'test' });
    const s = await start(slugOf(made.body.url));
    const list = await t.json('GET', '/api/hosted/flows?env=test', { cookie });
    expect(JSON.stringify(list.body)).not.toContain(s.body.token);
    expect(JSON.stringify((await t.sql('SELECT * FROM hosted_sessions')))).not.toContain(s.body.token);
  });
});
