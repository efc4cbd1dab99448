// The on-site server from the console's Hosted sessions screen: start it on loopback with any free
// port, see its https address and certificate fingerprint, make a session whose link carries that
// address, open the page's call over HTTPS trusting exactly the certificate the service made (and
// find the console's routes absent there), see it read-only as a member, stop it. A port already
// taken is an error by the port field. CONSOLE_SCREENSHOTS=/some/dir saves screenshots
// (console-onsite*.png).
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { addMember, DEFAULT_ORG, initOrg, signIn } from '../support/accounts';
import { expect, test } from '../support/service';
import { HostedPage } from '../pages/hosted-page';
import { OnsitePanel } from '../pages/onsite-panel';
import { httpsGet } from '../support/https';

// No one is verified here (sessions are made and opened, never completed): the models stay unloaded
// unless a request needs them (`models: 'lazy'`, the fixture's default).

const shotsDir = process.env.CONSOLE_SCREENSHOTS;
async function shot(page: Page, name: string): Promise<void> {
  if (shotsDir) await page.screenshot({ path: join(shotsDir, `console-${name}.png`), fullPage: true });
}


test('on-site server: start it from the panel, a session link carries its https address and opens over it, members look, stop it', async ({ page, service }) => {
  const org = await initOrg(service, { ...DEFAULT_ORG, plan: 'pro' });
  const member = await addMember(service, org, { email: 'mo.member@northwind.test', password: 'member password 1' });
  const shell = await signIn(page, org);
  const hosted = new HostedPage(page);
  await hosted.goto();
  const onsite = new OnsitePanel(page);

  // Off: what it is, the addresses (network ones first, loopback for this computer only), 8443.
  await expect(page.getByRole('heading', { name: 'On-site server' })).toBeVisible();
  await onsite.expectRunning(false);
  await expect(onsite.state).toHaveText('Off');
  await expect(onsite.panel).toContainText('phones and tablets on this network');
  await expect(onsite.panel).toContainText('only the verification page is reachable');
  await expect(onsite.port).toHaveValue('8443');
  const options = await onsite.host.locator('option').allTextContents();
  const loopback = options.findIndex((o) => o.startsWith('127.0.0.1'));
  expect(loopback).toBeGreaterThanOrEqual(0);
  expect(options[loopback]).toBe('127.0.0.1 (this computer only)');
  const firstInternal = options.findIndex((o) => o.includes('this computer only'));
  expect(options.slice(firstInternal).every((o) => o.includes('this computer only'))).toBe(true);
  await shot(page, 'onsite-off');

  // A port already in use: the service's reason by the port field.
  const blocker: Server = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  const taken = (blocker.address() as { port: number }).port;
  try {
    await onsite.start('127.0.0.1', taken);
    await expect(onsite.panel.getByTestId('onsite-port-error')).toContainText(`Port ${taken} is in use`);
    await expect(onsite.port).toHaveAttribute('aria-invalid', 'true');
    await expect(onsite.port).toBeFocused();
    await onsite.expectRunning(false);
    await shot(page, 'onsite-port-taken');
  } finally {
    await new Promise<void>((resolve) => blocker.close(() => resolve()));
  }

  // Start on loopback with any free port.
  await onsite.start('127.0.0.1', 0);
  await onsite.expectRunning(true);
  await expect(onsite.state).toHaveText('Running');
  const url = await onsite.url.inputValue();
  expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  expect(url).not.toBe('https://127.0.0.1:0');
  await expect(onsite.notice).toContainText('Started');
  await expect(onsite.panel).toContainText('New sessions use this address');
  await expect(onsite.stopButton).toBeFocused();
  // The fingerprint is the one of the certificate the service keeps in its data directory.
  const certPem = readFileSync(join(service.dataDir, 'onsite', 'onsite-cert.pem'), 'utf8');
  const fingerprint = (await onsite.fingerprint.textContent()) ?? '';
  expect(fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
  expect(fingerprint).toBe(new X509Certificate(certPem).fingerprint256);
  await expect(onsite.expires).toHaveAttribute('datetime', new Date(new X509Certificate(certPem).validTo).toISOString());
  await expect(onsite.panel.getByTestId('onsite-trust')).toContainText('compare its SHA-256 fingerprint');
  const status = await (await page.request.get('/api/onsite')).json();
  expect(status).toMatchObject({ running: true, url, host: '127.0.0.1', fingerprint });
  await shot(page, 'onsite-running');

  // A session made now carries the on-site address.
  await hosted.fill({ product: 'human', title: 'Front desk check' });
  await hosted.submit();
  const created = await hosted.created();
  expect(created.url.startsWith(`${url}/hosted/v/`)).toBe(true);
  const token = new URL(created.url).pathname.split('/').pop() ?? '';
  await shot(page, 'onsite-session');
  await hosted.closeCreated();

  // Over HTTPS, trusting exactly that certificate: the page's call answers, the console's do not.
  const opened = await httpsGet(`${url}/hosted/session/${token}`, certPem);
  expect(opened.status).toBe(200);
  expect(JSON.parse(opened.body)).toMatchObject({ product: 'human', page_title: 'Front desk check' });
  expect((await httpsGet(`${url}/api/health`, certPem)).status).toBe(404);
  expect((await httpsGet(`${url}/api/onsite`, certPem)).status).toBe(404);

  // Members see it running, without Stop; the service refuses them too.
  await shell.logout();
  await signIn(page, member);
  await hosted.goto();
  await onsite.expectRunning(true);
  await expect(onsite.url).toHaveValue(url);
  await expect(onsite.fingerprint).toHaveText(fingerprint);
  await expect(onsite.stopButton).toHaveCount(0);
  await expect(onsite.readOnly).toBeVisible();
  expect((await page.request.post('/api/onsite/stop')).status()).toBe(403);
  await shot(page, 'onsite-member');
  await shell.logout();

  // Stop it: off again, the form back with focus on Start, and the address no longer answers.
  await signIn(page, org);
  await hosted.goto();
  await onsite.expectRunning(true);
  await onsite.stopButton.click();
  await onsite.expectRunning(false);
  await expect(onsite.state).toHaveText('Off');
  await expect(onsite.notice).toContainText('New sessions use this computer’s own address');
  await expect(onsite.url).toHaveCount(0);
  await expect(onsite.startButton).toBeFocused();
  await expect(httpsGet(`${url}/hosted/session/${token}`, certPem)).rejects.toThrow();
  expect((await (await page.request.get('/api/onsite')).json()).running).toBe(false);
  await shot(page, 'onsite-stopped');
});
