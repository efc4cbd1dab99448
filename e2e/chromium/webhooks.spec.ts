// Webhooks against the real service and a real receiver: a tiny HTTP server in the test that
// records what it is sent. Delivery is the service's own dispatcher (every second).
// CONSOLE_SCREENSHOTS=/some/dir also saves screenshots of the screen (console-webhooks*.png).
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { addMember, DEFAULT_ORG, initOrg, signIn } from '../support/accounts';
import { expect, test } from '../support/service';
import { AuditPage } from '../pages/audit-page';
import { WebhooksPage } from '../pages/webhooks-page';
import { addWebhook, createKey } from '../support/seed';

interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

interface Receiver {
  /** `http://127.0.0.1:PORT/hook` */
  url: string;
  requests: Received[];
  close: () => Promise<void>;
}

/** Records every request and answers `status`. */
async function startReceiver(status = 200): Promise<Receiver> {
  const requests: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(status, { 'Content-Type': 'text/plain' }).end(status === 200 ? 'ok' : 'nope');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const shotsDir = process.env.CONSOLE_SCREENSHOTS;
async function shot(page: Page, name: string): Promise<void> {
  if (shotsDir) await page.screenshot({ path: join(shotsDir, `console-${name}.png`) });
}

const hmac = (secret: string, body: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

test('webhooks: add an endpoint, see the secret once, send a signed test event, watch it arrive, remove it; the audit log names each step', async ({ page, service }) => {
  const receiver = await startReceiver();
  try {
    await initOrg(service);
    const shell = await signIn(page);
    const hooks = new WebhooksPage(page);
    await hooks.goto();
    await expect(hooks.empty).toBeVisible();

    // A URL the service refuses (plain http to another machine) is a field error, and the
    // service itself refuses it with the same rule.
    await hooks.fillAdd({ url: 'http://example.com/hook', events: ['verification.completed', 'compliance.hit_detected'], description: 'Case system' });
    await expect(hooks.addDialog.getByTestId('webhook-env-test')).toBeChecked();
    await shot(page, 'webhooks-add');
    await hooks.submitAdd();
    await expect(hooks.addDialog.getByTestId('webhook-url-input-error')).toContainText('https://');
    await expect(hooks.addDialog.getByTestId('webhook-url-input')).toHaveAttribute('aria-invalid', 'true');
    await expect(hooks.addDialog).toBeVisible();
    const refused = await page.request.post('/api/webhooks', {
      data: { url: 'http://example.com/hook', env: 'test', events: ['verification.completed'] },
    });
    expect(refused.status()).toBe(400);
    expect((await refused.json()).field).toBe('url');

    // The receiver runs on this computer: refused until the owner names its host (issue 39), and
    // the field says where.
    await hooks.addDialog.getByTestId('webhook-url-input').fill(receiver.url);
    await hooks.submitAdd();
    await expect(hooks.addDialog.getByTestId('webhook-url-input-error')).toContainText('Webhook receivers on your network');
    const allowed = await page.request.put('/api/webhooks/private-hosts', { data: { hosts: ['127.0.0.1'] } });
    expect(allowed.status()).toBe(200);

    // Now it is taken; the events and description chosen stay.
    await hooks.submitAdd();
    const secret = await hooks.revealedSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9]{40}$/);
    await expect(hooks.secretDialog).toContainText('You will not see it again');
    await shot(page, 'webhooks-secret');
    await hooks.closeRevealed();

    // Shown once: neither the page nor storage keeps it.
    expect(await page.content()).not.toContain(secret);
    const storage = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
    expect(storage).not.toContain(secret);

    const row = hooks.row(receiver.url);
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId('webhook-description')).toHaveText('Case system');
    await expect(row.getByTestId('webhook-events')).toContainText('verification.completed');
    await expect(row.getByTestId('webhook-events')).toContainText('compliance.hit_detected');
    await expect(row.getByTestId('webhook-secret-prefix')).toHaveText(`${secret.slice(0, 10)}…`);

    // A test event is queued, delivered by the service, and the open log shows it succeed
    // without a click (the panel polls).
    await hooks.sendTest(receiver.url);
    await expect(hooks.deliveries).toBeVisible();
    await expect(hooks.deliveryState(0)).toHaveAttribute('data-state', 'succeeded', { timeout: 15_000 });
    const delivered = hooks.deliveryRows.first();
    await expect(delivered.getByTestId('delivery-attempts')).toHaveText('1');
    await expect(delivered.getByTestId('delivery-http')).toHaveText('HTTP 200');
    await expect(delivered).toContainText('Test event');
    await hooks.deliveries.getByTestId('deliveries-refresh').click();
    await expect(hooks.deliveryRows).toHaveCount(1);
    await shot(page, 'webhooks');

    // What the receiver got: one POST, signed over the raw body with the secret shown once.
    await expect.poll(() => receiver.requests.length).toBe(1);
    const [req] = receiver.requests;
    if (!req) throw new Error('no request received');
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/hook');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['x-service-signature']).toBe(hmac(secret, req.body));
    const body = JSON.parse(req.body) as { event: string; timestamp: string; environment: string };
    expect(body.event).toBe('webhook.test');
    expect(body.environment).toBe('test');
    expect(req.headers['x-service-timestamp']).toBe(String(Math.floor(Date.parse(body.timestamp) / 1000)));
    expect(Math.abs(Date.now() / 1000 - Number(req.headers['x-service-timestamp']))).toBeLessThan(300);
    await expect(delivered.getByTestId('delivery-id')).toHaveText(String(req.headers['x-service-delivery']));

    // Rotate the secret: the new one is shown once; for 24 hours the old one still signs
    // X-Service-Signature and the new one X-Service-Signature-Next.
    await hooks.row(receiver.url).getByTestId('rotate-webhook').click();
    await expect(hooks.secretDialog).toContainText('New signing secret');
    await expect(hooks.secretDialog.getByTestId('rotation-overlap')).toContainText('X-Service-Signature-Next');
    const next = await hooks.revealedSecret();
    expect(next).toMatch(/^whsec_[A-Za-z0-9]{40}$/);
    expect(next).not.toBe(secret);
    await shot(page, 'webhooks-rotated');
    await hooks.closeRevealed();
    await expect(hooks.row(receiver.url).getByTestId('rotate-webhook')).toBeDisabled();
    await hooks.sendTest(receiver.url);
    await expect.poll(() => receiver.requests.length, { timeout: 15_000 }).toBe(2);
    const rotated = receiver.requests[1]!;
    expect(rotated.headers['x-service-signature']).toBe(hmac(secret, rotated.body));
    expect(rotated.headers['x-service-signature-next']).toBe(hmac(next, rotated.body));

    // Remove, with a confirm that names the URL; the endpoint and its log go away.
    await hooks.row(receiver.url).getByTestId('remove-webhook').click();
    await expect(hooks.removeDialog).toContainText(receiver.url);
    await shot(page, 'webhooks-remove');
    await page.keyboard.press('Escape');
    await expect(hooks.removeDialog).toBeHidden();
    await expect(hooks.row(receiver.url)).toHaveCount(1);
    await hooks.remove(receiver.url);
    await expect(hooks.notice).toContainText(`Removed ${receiver.url}`);
    await expect(hooks.rows).toHaveCount(0);
    await expect(hooks.empty).toBeVisible();
    await expect(hooks.deliveries).toBeHidden();
    const list = await page.request.get('/api/webhooks');
    expect((await list.json()).endpoints).toEqual([]);

    // The audit log has the three acts in words, by endpoint id: the URL is the customer's and is not in it.
    await shell.open('audit');
    const audit = new AuditPage(page);
    await audit.actionFilter.selectOption({ label: 'Webhook added' });
    await expect(audit.total).toHaveAttribute('data-total', '1');
    const added = audit.row('webhook.added');
    await expect(added.getByTestId('audit-action')).toHaveText('Webhook added');
    await expect(added.getByTestId('audit-actor')).toHaveText(DEFAULT_ORG.email);
    await expect(added.getByTestId('audit-detail')).toHaveText(/^endpoint whe_\w+ \(Test\)$/);
    await audit.actionFilter.selectOption('');
    await expect(audit.row('webhook.secret_rotated').getByTestId('audit-action')).toHaveText('Webhook secret rotated');
    await expect(audit.row('webhook.removed').getByTestId('audit-action')).toHaveText('Webhook removed');
    await expect(audit.chain).toHaveAttribute('data-ok', 'true');
    await expect(audit.table).not.toContainText(receiver.url);
    await shot(page, 'audit-webhooks');
  } finally {
    await receiver.close();
  }
});

/** A receiver that holds each POST's answer until `release()`: the delivery stays on its way meanwhile. */
async function startHoldingReceiver(): Promise<Receiver & { release: () => void }> {
  const requests: Received[] = [];
  const held: (() => void)[] = [];
  let released = false;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const answer = () => res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
      if (released) answer();
      else held.push(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    release: () => {
      released = true;
      for (const answer of held.splice(0)) answer();
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

test('webhooks: a real event shows Queued, then Delivered without a reload, even when the log answers slowly (issue 26)', async ({ page, service }) => {
  const receiver = await startHoldingReceiver();
  try {
    // Screening by API key needs the Pro plan.
    const org = await initOrg(service, { ...DEFAULT_ORG, plan: 'pro' });
    const key = await createKey(service, org, { name: 'Backend', env: 'test', scopes: ['compliance'] });
    await addWebhook(service, org, { url: receiver.url, env: 'test', events: ['compliance.screening.completed'] });
    await signIn(page);
    const hooks = new WebhooksPage(page);
    await hooks.goto();
    let navigations = 0;
    page.on('framenavigated', (f) => {
      if (f === page.mainFrame()) navigations++;
    });
    // The delivery log answers in 2.5 s, as a busy service does: longer than the 2 s between reads.
    // (The panel used to start each read on a timer, aborting the one still on its way: no answer
    // ever landed.)
    let reads = 0;
    await page.route('**/api/webhooks/*/deliveries', async (route) => {
      reads++;
      await new Promise((r) => setTimeout(r, 2500));
      await route.continue().catch(() => undefined);
    });

    // A screening made with the API key: its event goes to the receiver, which holds the answer.
    await expect.poll(async () => (await page.request.post('/api/compliance/v1/screen', {
      headers: { 'X-API-Key': key.api_key },
      data: { subject: { type: 'individual', first_name: 'Jane', last_name: 'Example' } },
    })).status(), { timeout: 20_000 }).toBe(200);
    await expect.poll(() => receiver.requests.length, { timeout: 15_000 }).toBe(1);
    expect(receiver.requests[0]!.headers['x-service-event']).toBe('compliance.screening.completed');

    await hooks.openDeliveries(receiver.url);
    await expect(hooks.deliveryState(0)).toHaveText('Queued', { timeout: 10_000 });
    await expect(hooks.deliveries.getByTestId('deliveries-updated')).toContainText('while a delivery is on its way');
    await shot(page, 'webhooks-queued');

    receiver.release();
    await expect(hooks.deliveryState(0)).toHaveText('Delivered', { timeout: 15_000 });
    await expect(hooks.deliveryState(0)).toHaveAttribute('data-state', 'succeeded');
    await expect(hooks.deliveryRows.first().getByTestId('delivery-http')).toHaveText('HTTP 200');
    await expect(hooks.deliveries.getByTestId('deliveries-updated')).not.toContainText('refreshes');
    await shot(page, 'webhooks-delivered');
    expect(navigations).toBe(0);

    // Nothing on its way: the panel stops reading.
    const settled = reads;
    await page.waitForTimeout(5000);
    expect(reads).toBe(settled);
  } finally {
    receiver.release();
    await receiver.close();
  }
});

test('webhooks: a receiver that fails shows a retry with the HTTP status and the next attempt', async ({ page, service }) => {
  const receiver = await startReceiver(500);
  try {
    const org = await initOrg(service);
    await addWebhook(service, org, { url: receiver.url, env: 'test', events: ['verification.completed'] });
    await signIn(page);
    const hooks = new WebhooksPage(page);
    await hooks.goto();
    await hooks.openDeliveries(receiver.url);
    await expect(hooks.deliveries.getByTestId('deliveries-table-empty')).toBeVisible();

    await hooks.deliveries.getByTestId('deliveries-test').click();
    await expect(hooks.notice).toContainText('Test event queued');
    const row = hooks.deliveryRows.first();
    await expect(row.getByTestId('delivery-http')).toHaveText('HTTP 500', { timeout: 15_000 });
    await expect(hooks.deliveryState(0)).toHaveAttribute('data-state', 'pending');
    await expect(hooks.deliveryState(0)).toHaveText('Retrying');
    await expect(row.getByTestId('delivery-attempts')).toHaveText('1');
    await expect(row.getByTestId('delivery-next')).toContainText(/in \d+ s/);
    expect(receiver.requests.length).toBeGreaterThanOrEqual(1);
    await shot(page, 'webhooks-retrying');

    // Esc closes the log and gives focus back to the row's Deliveries button.
    await hooks.deliveries.getByTestId('deliveries-refresh').focus();
    await page.keyboard.press('Escape');
    await expect(hooks.deliveries).toBeHidden();
    await expect(hooks.row(receiver.url).getByTestId('webhook-deliveries')).toBeFocused();
  } finally {
    await receiver.close();
  }
});

test('webhooks: the list follows the environment; members see it without add, test or remove', async ({ page, service }) => {
  // Free allows one person: the team needs room for a member.
  const org = await initOrg(service, { ...DEFAULT_ORG, plan: 'starter' });
  await addWebhook(service, org, { url: 'https://hooks.example.test/test', env: 'test', events: ['verification.completed'] });
  await addWebhook(service, org, { url: 'https://hooks.example.test/live', env: 'live', events: ['compliance.screening.completed', 'compliance.hit_detected'] });
  // A real member, signed in with their own credentials.
  const member = await addMember(service, org, { email: 'mo.member@northwind.test', password: 'member password 1' });
  const shell = await signIn(page, member);
  const me = await page.request.get('/api/auth/me');
  expect(((await me.json()) as { user: { role: string; email: string } }).user).toMatchObject({ role: 'member', email: member.email });
  // The service itself refuses the member's changes.
  expect((await page.request.post('/api/webhooks', { data: { url: 'https://hooks.example.test/x', env: 'test', events: ['verification.completed'] } })).status()).toBe(403);
  const hooks = new WebhooksPage(page);
  await hooks.goto();

  await expect(page.getByTestId('webhooks-read-only')).toBeVisible();
  await expect(hooks.addButton).toHaveCount(0);
  await expect(hooks.rows).toHaveCount(1);
  await expect(hooks.row('https://hooks.example.test/test')).toHaveCount(1);
  await expect(hooks.table.getByTestId('test-webhook')).toHaveCount(0);
  await expect(hooks.table.getByTestId('remove-webhook')).toHaveCount(0);

  // Members may read the delivery log, but not send from it.
  await hooks.openDeliveries('https://hooks.example.test/test');
  await expect(hooks.deliveries.getByTestId('deliveries-test')).toHaveCount(0);
  await expect(hooks.deliveries.getByTestId('deliveries-table-empty')).toBeVisible();
  await shot(page, 'webhooks-member');

  await shell.switchEnv('live');
  await expect(hooks.deliveries).toBeHidden();
  await expect(hooks.rows).toHaveCount(1);
  await expect(hooks.row('https://hooks.example.test/live')).toHaveCount(1);
  await expect(hooks.row('https://hooks.example.test/live').getByTestId('webhook-events')).toContainText('compliance.hit_detected');
  await expect(page.getByRole('heading', { name: 'Live endpoints' })).toBeVisible();
});
