// Hosted sessions end to end with their webhook (issue 12): an age session made with a test API key is
// completed in the page with the recorded head turn (a phone whose fake camera shows test face e
// turning its head: every hosted selfie is the head turn, issue 37), the page lands on the redirect with routing
// signals only, and `verification.completed` arrives at a local receiver signed with the
// endpoint's secret; then the same over the on-site HTTPS listener on 127.0.0.1, opened in a
// separate browser context that accepted its self-signed certificate (a phone that compared the
// fingerprint), where the console's routes answer 404.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { Page } from '@playwright/test';
import type { HostedCompleteResponse, HostedGenerateResponse, HostedSessionList } from '../../src-shared/contracts/hosted';
import type { OnsiteStatus } from '../../src-shared/contracts/onsite';
import { DEFAULT_ORG, initOrg, signIn } from '../support/accounts';
import type { TestOrg } from '../support/accounts';
import { expect, test, type Service } from '../support/service';
import { headTurnBrowser, recordHeadTurn } from '../support/head-turn-camera';
import { httpsGet } from '../support/https';
import { createKey } from '../support/seed';

// This spec verifies people: the face and document models load as the app starts them.
test.use({ models: 'eager' });

const PHONE = { width: 390, height: 844 };

interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

interface Receiver {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  requests: Received[];
  close: () => Promise<void>;
}

/** Records every request; answers a POST with `ok` (the webhook) and a GET with a small page (the redirect's landing). */
async function startReceiver(): Promise<Receiver> {
  const requests: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (req.method === 'POST') res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
      else res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Shop</title><h1>Back at the shop</h1>');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

const hmac = (secret: string, body: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

interface CompletedEvent {
  event: string;
  verification_id: string;
  status: string;
  product: string;
  environment: string;
  timestamp: string;
}

/** Waits for the webhook POST to `path` carrying `verification.completed`, and checks its signature and timestamp. */
async function expectSignedCompletion(receiver: Receiver, path: string, secret: string): Promise<CompletedEvent> {
  const isCompletion = (r: Received) => {
    if (r.method !== 'POST' || r.path !== path) return false;
    try {
      return (JSON.parse(r.body) as { event?: string }).event === 'verification.completed';
    } catch {
      return false;
    }
  };
  await expect
    .poll(() => receiver.requests.filter(isCompletion).length, { message: 'verification.completed at the receiver', timeout: 20_000 })
    .toBe(1);
  const req = receiver.requests.find(isCompletion)!;
  expect(req.headers['content-type']).toBe('application/json');
  expect(req.headers['x-service-signature'], 'HMAC-SHA256 of the raw body with the endpoint secret').toBe(hmac(secret, req.body));
  const ts = Number(req.headers['x-service-timestamp']);
  expect(Number.isInteger(ts)).toBe(true);
  expect(Math.abs(Date.now() / 1000 - ts)).toBeLessThanOrEqual(300);
  const body = JSON.parse(req.body) as CompletedEvent;
  expect(ts).toBe(Math.floor(Date.parse(body.timestamp) / 1000));
  return body;
}

async function testKey(service: Service, org: TestOrg): Promise<string> {
  return (await createKey(service, org, { env: 'test', scopes: ['human', 'age', 'identity'], name: 'Hosted webhook e2e' })).api_key;
}

/** A test webhook endpoint for verification.completed, added by the signed-in owner; its secret. */
async function addEndpoint(page: Page, url: string): Promise<string> {
  // The receiver runs on this computer: the owner names its host first (issue 39).
  const allowed = await page.request.put('/api/webhooks/private-hosts', { data: { hosts: [new URL(url).hostname] } });
  expect(allowed.status(), await allowed.text()).toBe(200);
  const res = await page.request.post('/api/webhooks', { data: { url, env: 'test', events: ['verification.completed'] } });
  expect(res.status(), await res.text()).toBe(201);
  const { secret } = (await res.json()) as { secret: string };
  expect(secret).toMatch(/^whsec_/);
  return secret;
}

/** An age check: gives an adult's date of birth, records the head turn, submits, and returns the page's completion answer. */
async function completeWithSelfie(page: Page): Promise<HostedCompleteResponse> {
  await expect(page.getByRole('heading', { name: 'Your date of birth' })).toBeFocused();
  await page.getByLabel('Date of birth').fill('1990-04-12');
  await page.getByTestId('continue').click();
  await recordHeadTurn(page);
  const answer = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname.startsWith('/hosted/complete/'), { timeout: 90_000 });
  await page.getByTestId('continue').click();
  const res = await answer;
  expect(res.status()).toBe(200);
  return (await res.json()) as HostedCompleteResponse;
}

/** The certificate a TLS server presents: its SHA-256 fingerprint and PEM. */
function peerCertificate(url: string): Promise<{ fingerprint256: string; pem: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({ host: hostname, port: Number(port), rejectUnauthorized: false }, () => {
      const cert = socket.getPeerCertificate();
      socket.end();
      const b64 = cert.raw.toString('base64').replace(/(.{64})/g, '$1\n');
      resolve({ fingerprint256: cert.fingerprint256, pem: `-----BEGIN CERTIFICATE-----\n${b64}\n-----END CERTIFICATE-----\n` });
    });
    socket.on('error', reject);
  });
}


test.use({ viewport: PHONE });

test('hosted session with a test key: completed with a selfie, lands on the redirect, and verification.completed arrives signed', async ({ page: console, service }) => {
  test.setTimeout(180_000);
  const receiver = await startReceiver();
  // The person's phone, apart from the analyst's signed-in console.
  const camera = await headTurnBrowser('e');
  try {
    const page = await camera.newPage({ viewport: PHONE });
    const org = await initOrg(service, { ...DEFAULT_ORG, plan: 'pro' });
    await signIn(console);
    const secret = await addEndpoint(console, `${receiver.origin}/hook`);
    const key = await testKey(service, org);

    const gen = await fetch(`${service.url}/hosted/generate`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ product: 'age', redirect_url: `${receiver.origin}/done?order=7` }),
    });
    expect(gen.status, await gen.clone().text()).toBe(200);
    const session = (await gen.json()) as HostedGenerateResponse;
    expect(session.hosted_url).toBe(`${service.url}/hosted/v/${session.token}`);

    await page.goto(session.hosted_url);
    await expect(page.getByTestId('test-banner')).toContainText('Test mode');
    const completed = await completeWithSelfie(page);
    expect(completed).toMatchObject({ status: 'passed', product: 'age', environment: 'test', test_mode: true });
    expect(completed.verification_id).toBeTruthy();
    const verificationId = completed.verification_id!;
    await expect(page.getByTestId('result')).toHaveAttribute('data-status', 'passed');

    // The redirect: routing signals only (which session, how it ended), never the token or the verification.
    await page.waitForURL((u) => u.href.startsWith(`${receiver.origin}/done`), { timeout: 10_000 });
    await expect(page.getByRole('heading', { name: 'Back at the shop' })).toBeVisible();
    const landed = new URL(page.url());
    expect(landed.searchParams.get('order')).toBe('7');
    expect(landed.searchParams.get('hosted_session')).toBe(session.session_id);
    expect(landed.searchParams.get('status')).toBe('passed');
    expect([...landed.searchParams.keys()].sort()).toEqual(['hosted_session', 'order', 'status']);
    expect(landed.href).not.toContain(session.token);
    expect(landed.href).not.toContain(verificationId);
    expect(landed.searchParams.has('verification_id')).toBe(false);
    expect(landed.searchParams.has('token')).toBe(false);

    // The authoritative result: the webhook, signed with the endpoint's secret, within the replay window.
    const event = await expectSignedCompletion(receiver, '/hook', secret);
    expect(event).toMatchObject({ event: 'verification.completed', verification_id: verificationId, status: 'PASS', product: 'age', environment: 'test' });
    expect(receiver.requests.filter((r) => r.method === 'POST')).toHaveLength(1);

    // The console's list agrees: completed, passed, the same verification.
    const list = (await (await console.request.get('/api/hosted/sessions?env=test')).json()) as HostedSessionList;
    expect(list.sessions.find((s) => s.session_id === session.session_id)).toMatchObject({ state: 'completed', outcome: 'passed', verification_id: verificationId });
  } finally {
    await camera.close();
    await receiver.close();
  }
});

test('hosted session over the on-site HTTPS listener: a phone that trusts its certificate completes it; the console is 404 there', async ({ page, service }) => {
  test.setTimeout(180_000);
  const receiver = await startReceiver();
  let onsiteUrl: string | null = null;
  try {
    await initOrg(service, { ...DEFAULT_ORG, plan: 'pro' });
    await signIn(page);
    const secret = await addEndpoint(page, `${receiver.origin}/hook`);

    const started = await page.request.post('/api/onsite/start', { data: { host: '127.0.0.1', port: 0 } });
    expect(started.status(), await started.text()).toBe(200);
    const onsite = (await started.json()) as OnsiteStatus;
    expect(onsite).toMatchObject({ running: true, host: '127.0.0.1' });
    onsiteUrl = onsite.url!;
    expect(onsiteUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(onsite.port).toBeGreaterThan(0);
    expect(onsite.fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);

    // The certificate served is the one whose fingerprint the console shows.
    const served = await peerCertificate(onsiteUrl);
    expect(served.fingerprint256).toBe(onsite.fingerprint);

    const made = await page.request.post('/api/hosted/sessions', { data: { product: 'age', env: 'test', page_title: 'Front desk check' } });
    expect(made.status(), await made.text()).toBe(200);
    const session = (await made.json()) as HostedGenerateResponse;
    expect(session.hosted_url).toBe(`${onsiteUrl}/hosted/v/${session.token}`);

    // The phone: its own browser (a camera showing a head turn), with the self-signed certificate accepted.
    const camera = await headTurnBrowser('e');
    const phone = await camera.newContext({ ignoreHTTPSErrors: true, viewport: PHONE });
    try {
      const phonePage = await phone.newPage();
      const problems: string[] = [];
      phonePage.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
      phonePage.on('console', (m) => {
        if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text())) problems.push(`csp: ${m.text()}`);
      });
      const response = await phonePage.goto(session.hosted_url);
      expect(response?.status()).toBe(200);
      expect(response?.headers()['cache-control']).toBe('no-store');
      expect(await phonePage.evaluate(() => window.isSecureContext)).toBe(true);
      await expect(phonePage.getByTestId('page-title')).toHaveText('Front desk check');
      await expect(phonePage.getByTestId('test-banner')).toContainText('Test mode');

      const completed = await completeWithSelfie(phonePage);
      expect(completed).toMatchObject({ status: 'passed', product: 'age', environment: 'test', redirect_url: null });
      await expect(phonePage.getByTestId('result')).toHaveAttribute('data-status', 'passed');
      await expect(phonePage.getByTestId('result-message')).toHaveText('Verification complete. You can close this page.');
      // No redirect: it stays on its result page, on the on-site address.
      await phonePage.waitForTimeout(2_000);
      expect(phonePage.url()).toBe(session.hosted_url);
      expect(problems).toEqual([]);

      // The webhook tells the backend, signed, as for a key's session.
      const event = await expectSignedCompletion(receiver, '/hook', secret);
      expect(event).toMatchObject({ event: 'verification.completed', verification_id: completed.verification_id, status: 'PASS', product: 'age', environment: 'test' });

      // The link is single use over the on-site address too.
      await phonePage.goto(session.hosted_url);
      await expect(phonePage.getByTestId('closed')).toBeVisible();
    } finally {
      await phone.close();
      await camera.close();
    }

    // The same listener, trusting exactly the certificate it served: the console and the API are not there.
    expect((await httpsGet(`${onsiteUrl}/api/health`, served.pem)).status).toBe(404);
    expect((await httpsGet(`${onsiteUrl}/`, served.pem)).status).toBe(404);
    expect((await httpsGet(`${onsiteUrl}/api/hosted/sessions?env=test`, served.pem)).status).toBe(404);
    expect((await httpsGet(`${onsiteUrl}/hosted/session/${session.token}`, served.pem)).status).toBe(200);

    const stopped = await page.request.post('/api/onsite/stop');
    expect(stopped.status()).toBe(200);
    expect(((await stopped.json()) as OnsiteStatus).running).toBe(false);
    await expect(httpsGet(`${onsiteUrl}/hosted/session/${session.token}`, served.pem)).rejects.toThrow();
    onsiteUrl = null;
  } finally {
    if (onsiteUrl) await page.request.post('/api/onsite/stop').catch(() => undefined);
    await receiver.close();
  }
});
