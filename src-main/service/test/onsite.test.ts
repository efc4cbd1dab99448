// The on-site server over real HTTPS on 127.0.0.1: started and stopped from the console, its
// certificate kept and its fingerprint the one served, the hosted page's calls answered, and
// every other registered route (API-key, session and console) a 404 there, route by route.
import { readFileSync, statSync } from 'node:fs';
import { request } from 'node:https';
import { connect } from 'node:tls';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostedCompleteResponse, HostedGenerateResponse, PublishedFlowStartResponse, PublishedFlowView } from '../../../src-shared/contracts/hosted';
import type { OnsiteStatus } from '../../../src-shared/contracts/onsite';
import { onsiteAllows } from '../http/onsite';
import { closeAll, testService, type TestService } from './harness';
import * as fx from './face-fixtures';

let t: TestService;
let cookie: string;
afterAll(async () => {
  await t.s.onsite.stop();
  closeAll();
});
beforeAll(async () => {
  t = await testService({ plan: 'pro' });
  cookie = await t.login();
}, 60_000);

/** One HTTPS call that trusts exactly the on-site certificate. */
function call(url: string, method = 'GET', body?: unknown): Promise<{ status: number; text: string; headers: Record<string, string | string[] | undefined> }> {
  const ca = readFileSync(join(t.dataDir, 'onsite', 'onsite-cert.pem'));
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(url, { method, ca, headers: payload ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) } : {} }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => (text += d)).on('end', () => resolve({ status: res.statusCode!, text, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

describe('the on-site server', () => {
  it('starts on a local address with a kept certificate whose fingerprint is the one it serves; stops again', async () => {
    const before = await t.json<OnsiteStatus>('GET', '/api/onsite', { cookie });
    expect(before.body).toMatchObject({ running: false, url: null });
    expect(before.body.interfaces.some((i) => i.address === '127.0.0.1' && i.internal)).toBe(true);

    const started = await t.json<OnsiteStatus>('POST', '/api/onsite/start', { cookie, body: { host: '127.0.0.1', port: 0 } });
    expect(started.status).toBe(200);
    expect(started.body.url).toBe(`https://127.0.0.1:${started.body.port}`);
    expect(started.body.fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    const served = await new Promise<string>((resolve, reject) => {
      const s = connect({ host: '127.0.0.1', port: started.body.port!, rejectUnauthorized: false }, () => {
        resolve(s.getPeerCertificate().fingerprint256);
        s.end();
      });
      s.on('error', reject);
    });
    expect(served).toBe(started.body.fingerprint);
    for (const f of ['onsite-cert.pem', 'onsite-key.pem']) expect(statSync(join(t.dataDir, 'onsite', f)).mode & 0o777).toBe(0o600);

    // Restarted: the same certificate.
    const again = await t.json<OnsiteStatus>('POST', '/api/onsite/start', { cookie, body: { host: '127.0.0.1', port: 0 } });
    expect(again.body.fingerprint).toBe(started.body.fingerprint);
    const stopped = await t.json<OnsiteStatus>('POST', '/api/onsite/stop', { cookie });
    expect(stopped.body.running).toBe(false);
    await expect(call(`${again.body.url!}/hosted/session/${'x'.repeat(43)}`)).rejects.toThrow();
  }, 60_000);

  it('refuses an address that is not this computer\'s, and members', async () => {
    const far = await t.json('POST', '/api/onsite/start', { cookie, body: { host: '8.8.8.8' } });
    expect(far.status).toBe(400);
    expect(far.body).toMatchObject({ fields: [{ field: 'host', issue: 'not_local' }] });
    await t.s.accounts.addUser({ orgId: t.orgId, email: 'member-onsite@example.test', name: 'Mem', password: 'member password 1', role: 'member' });
    const member = await t.login('member-onsite@example.test', 'member password 1');
    expect((await t.json('POST', '/api/onsite/start', { cookie: member, body: { host: '127.0.0.1', port: 0 } })).status).toBe(403);
    expect((await t.json('GET', '/api/onsite', { cookie: member })).status).toBe(200);
  });

  it('serves a console-made session\'s calls over HTTPS at the URL its QR code carries, and 404 for every other route', async () => {
    const on = await t.json<OnsiteStatus>('POST', '/api/onsite/start', { cookie, body: { host: '127.0.0.1', port: 0 } });
    // An age check, its selfie the head-turn clip every hosted product takes (issue 37).
    const made = await t.json<HostedGenerateResponse>('POST', '/api/hosted/sessions', { cookie, body: { product: 'age', env: 'test' } });
    expect(made.body.hosted_url).toBe(`${on.body.url!}/hosted/v/${made.body.token}`);

    const page = await call(`${on.body.url!}/hosted/session/${made.body.token}`);
    expect(page.status).toBe(200);
    expect(JSON.parse(page.text)).toMatchObject({ product: 'age', test_mode: true });
    const done = await call(`${on.body.url!}/hosted/complete/${made.body.token}`, 'POST', { date_of_birth: '1990-01-01', selfie_b64: (await fx.headTurnClip('a')).toString('base64') });
    expect(done.status).toBe(200);
    expect((JSON.parse(done.text) as HostedCompleteResponse).status).toBe('passed');
    expect(done.headers['cache-control']).toBe('no-store');

    // Route by route from the registry: only the hosted page's calls pass.
    const token = 'z'.repeat(43);
    let checked = 0;
    for (const r of t.routes) {
      const path = r.path.replace(/:token/g, token).replace(/:slug/g, 'z'.repeat(22)).replace(/:[a-z_]+/g, 'x');
      if (onsiteAllows(r.method, path)) continue;
      const res = await call(`${on.body.url!}${path}`, r.method, r.method === 'GET' ? undefined : {});
      expect(res.status, `${r.method} ${r.path}`).toBe(404);
      checked++;
    }
    expect(checked).toBeGreaterThan(60);
    for (const p of ['/', '/index.html', '/api/health', '/hosted/v/short', '/hosted/assets/../../console.db', '/hosted/generate']) {
      expect((await call(`${on.body.url!}${p}`)).status, p).toBe(404);
    }
    // Only the two public routes of published flows pass; the console's flow routes are 404 there.
    expect(t.routes.filter((r) => r.path.includes('flow') && onsiteAllows(r.method, r.path.replace(':slug', 'z'.repeat(22)))).map((r) => `${r.method} ${r.path}`))
      .toEqual(['POST /hosted/flow/:slug/start']);
    await t.s.onsite.stop();
  }, 120_000);

  it('serves a published flow at its stable on-site URL: the page\'s start call makes a session whose calls answer there too; the console\'s flow routes do not', async () => {
    const on = await t.json<OnsiteStatus>('POST', '/api/onsite/start', { cookie, body: { host: '127.0.0.1', port: 0 } });
    const flow = await t.json<PublishedFlowView>('POST', '/api/hosted/flows', { cookie, body: { name: 'Lobby', product: 'human', env: 'test', page_title: 'Lobby check' } });
    expect(flow.body.url).toMatch(new RegExp(`^${on.body.url!}/hosted/f/[A-Za-z0-9_-]{22}$`));
    const slug = flow.body.url.split('/').pop()!;
    // The page reaches the app (no page is built in tests: the app says so, not the listener's JSON 404).
    expect((await call(flow.body.url)).text).toContain('Hosted page not built');
    const started = await call(`${on.body.url!}/hosted/flow/${slug}/start`, 'POST');
    expect(started.status).toBe(200);
    const s = JSON.parse(started.text) as PublishedFlowStartResponse;
    expect(s.hosted_url).toBe(`${on.body.url!}/hosted/v/${s.token}`);
    const page = await call(`${on.body.url!}/hosted/session/${s.token}`);
    expect(JSON.parse(page.text)).toMatchObject({ page_title: 'Lobby check', test_mode: true });

    for (const [method, path] of [
      ['GET', '/api/hosted/flows?env=test'], ['POST', '/api/hosted/flows'], ['PUT', `/api/hosted/flows/${flow.body.id}`],
      ['POST', `/api/hosted/flows/${flow.body.id}/disable`], ['POST', `/api/hosted/flows/${flow.body.id}/enable`], ['GET', `/hosted/flow/${slug}/start`],
      ['POST', `/hosted/f/${slug}`], ['POST', '/hosted/flow/short/start'],
    ] as const) {
      expect((await call(`${on.body.url!}${path}`, method, method === 'GET' ? undefined : {})).status, `${method} ${path}`).toBe(404);
    }
    // Switched off in the console: the on-site URL answers the closed page's 410.
    await t.json('POST', `/api/hosted/flows/${flow.body.id}/disable`, { cookie });
    const closed = await call(`${on.body.url!}/hosted/flow/${slug}/start`, 'POST');
    expect(closed.status).toBe(410);
    expect(JSON.parse(closed.text)).toMatchObject({ code: 'PUBLISHED_FLOW_CLOSED' });
    await t.s.onsite.stop();
  }, 60_000);

  it('comes back after a restart when it was left running, at the same address, port and certificate; stopped from the console, it stays stopped', async () => {
    const first = await testService({ plan: 'pro' });
    const owner = await first.login();
    const on = await first.json<OnsiteStatus>('POST', '/api/onsite/start', { cookie: owner, body: { host: '127.0.0.1', port: 0 } });
    expect(on.body.running).toBe(true);
    // The service stops (stopping it is not switching the server off) and starts again on the same data directory.
    const second = await first.restart();
    const back = await second.json<OnsiteStatus>('GET', '/api/onsite', { cookie: owner });
    expect(back.body).toMatchObject({ running: true, url: on.body.url, port: on.body.port, fingerprint: on.body.fingerprint });
    // It serves: a console session made now carries its address, and its page answers there.
    const made = await second.json<HostedGenerateResponse>('POST', '/api/hosted/sessions', { cookie: owner, body: { product: 'age', env: 'test' } });
    expect(made.body.hosted_url).toBe(`${on.body.url!}/hosted/v/${made.body.token}`);
    const ca = readFileSync(join(second.dataDir, 'onsite', 'onsite-cert.pem'));
    const page = await new Promise<number>((resolve, reject) => {
      request(`${on.body.url!}/hosted/session/${made.body.token}`, { ca }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      }).on('error', reject).end();
    });
    expect(page).toBe(200);

    expect((await second.json<OnsiteStatus>('POST', '/api/onsite/stop', { cookie: owner })).body.running).toBe(false);
    const third = await second.restart();
    expect((await third.json<OnsiteStatus>('GET', '/api/onsite', { cookie: owner })).body).toMatchObject({ running: false, url: null });
    third.close();
  }, 60_000);

  it('a start whose kept address is no longer on this computer logs it and goes on, the server stopped', async () => {
    const first = await testService({ plan: 'pro' });
    const owner = await first.login();
    await first.json('POST', '/api/onsite/start', { cookie: owner, body: { host: '127.0.0.1', port: 0 } });
    // The computer moved to another network: the address it was left on (RFC 5737) is gone.
    first.s.db.prepare("UPDATE onsite_setting SET host = '192.0.2.77'").run();
    const second = await first.restart();
    expect((await second.json('GET', '/api/health')).status).toBe(200);
    expect((await second.json<OnsiteStatus>('GET', '/api/onsite', { cookie: owner })).body).toMatchObject({ running: false, url: null });
    await second.s.logger.flush();
    const log = readFileSync(join(second.dataDir, 'logs', 'service.log'), 'utf8');
    expect(log).toMatch(/"msg":"onsite_resume_failed".*"host":"192\.0\.2\.77".*"reason":"not_local"/);
    second.close();
  }, 60_000);
});
