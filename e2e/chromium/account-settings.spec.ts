// Settings (issue 13) in the real console: the owner renames the organisation and uploads a logo
// (preview shown, the top bar follows), the hosted page then shows both from its own origin, the
// preferences change how dates look and survive a reload, the data directory shows its size;
// a member sees the organisation read-only and no data directory.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import type { HostedGenerateResponse } from '../../src-shared/contracts/hosted';
import { addMember, DEFAULT_ORG, initOrg, signIn } from '../support/accounts';
import { expect, ROOT, test } from '../support/service';
import { SettingsPage } from '../pages/settings-page';
import { createKey } from '../support/seed';

const SHOTS = join(ROOT, 'test-results', 'account-settings');

async function logoPng(): Promise<Buffer> {
  const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="240" height="80"><rect width="240" height="80" rx="12" fill="#1f6f5c"/><text x="120" y="52" font-size="36" text-anchor="middle" fill="#fff" font-family="sans-serif">ACME</text></svg>');
  return sharp(svg).png().toBuffer();
}

test('the owner names the organisation and sets its logo; the hosted page shows them; preferences persist', async ({ page, service }) => {
  mkdirSync(SHOTS, { recursive: true });
  const org = await initOrg(service, { ...DEFAULT_ORG, plan: 'pro' });
  const shell = await signIn(page);
  const settings = new SettingsPage(page);
  await shell.open('settings');

  await settings.rename('Acme Compliance Ltd');
  await shell.expectSignedIn('Acme Compliance Ltd');

  await settings.uploadLogo({ name: 'logo.png', mimeType: 'image/png', buffer: await logoPng() });
  await expect(settings.orgNotice).toContainText('The logo is saved');
  await expect(settings.logo).toBeVisible();
  await expect.poll(() => settings.logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(240);
  await expect(page.getByTestId('organization-logo-size')).toHaveText('240 × 80 px');

  await settings.uploadLogo({ name: 'logo.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a-not-a-logo') });
  await expect(settings.orgNotice).toHaveText('Could not save the logo: The logo must be a PNG or JPEG image');

  await expect(settings.dataDirectory).toBeVisible();
  await expect(page.getByTestId('data-directory-path')).toHaveValue(service.dataDir);
  await expect(page.getByTestId('data-directory-total')).toHaveText(/\d+(\.\d)? (KB|MB)/);
  await page.screenshot({ path: join(SHOTS, 'settings-owner.png'), fullPage: true });

  // The hosted page names whose check it is, with the logo served from its own origin.
  const key = (await createKey(service, org, { env: 'test', scopes: ['human'], name: 'Settings e2e' })).api_key;
  const res = await fetch(`${service.url}/hosted/generate`, {
    method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ product: 'human' }),
  });
  const session = (await res.json()) as HostedGenerateResponse;
  const hosted = await page.context().newPage();
  await hosted.goto(session.hosted_url);
  await expect(hosted.getByTestId('org-name')).toHaveText('Acme Compliance Ltd');
  await expect.poll(() => hosted.getByTestId('org-logo').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(240);
  await hosted.screenshot({ path: join(SHOTS, 'hosted-branding.png') });
  await hosted.close();

  // Preferences: ISO dates, kept on this computer across a reload.
  await page.getByTestId('pref-date-format').selectOption('iso');
  await page.getByTestId('pref-page-size').selectOption('25');
  await page.reload();
  await expect(page.getByTestId('pref-date-format')).toHaveValue('iso');
  await expect(page.getByTestId('pref-page-size')).toHaveValue('25');

  await settings.removeLogo.click();
  await expect(settings.orgNotice).toContainText('The logo is removed');
  await expect(settings.logo).toHaveCount(0);

  // Liveness (issue 37): the owner requires the head-turn clip of the API keys; a key's photo is then refused.
  const requireClip = page.getByTestId('settings-require-clip');
  await expect(requireClip).not.toBeChecked();
  await requireClip.check();
  await expect(page.getByTestId('liveness-settings-notice')).toContainText('The head-turn clip is now required of your API keys');
  const photo = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#888' } }).jpeg().toBuffer();
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'selfie.jpg');
  const refused = await fetch(`${service.url}/api/verify`, { method: 'POST', headers: { 'X-API-Key': key }, body: form });
  expect(refused.status).toBe(400);
  expect(await refused.json()).toMatchObject({ fields: [{ field: 'file', issue: 'video_required' }] });
  await page.reload();
  await expect(page.getByTestId('settings-require-clip')).toBeChecked();
  await page.getByTestId('settings-liveness').screenshot({ path: join(SHOTS, 'settings-liveness.png') });
  await page.getByTestId('settings-require-clip').uncheck();
  await expect(page.getByTestId('liveness-settings-notice')).toContainText('Still photos are taken from your API keys again');
});

test('a member sees the organisation read-only and no data directory', async ({ page, service }) => {
  const org = await initOrg(service, { ...DEFAULT_ORG, plan: 'pro' });
  const member = await addMember(service, org, { email: 'mo@northwind.test', password: 'a member password' });
  const shell = await signIn(page, member);
  await shell.open('settings');
  const settings = new SettingsPage(page);
  await expect(settings.name).toHaveValue(DEFAULT_ORG.organization);
  await expect(settings.name).toBeDisabled();
  await expect(settings.saveName).toHaveCount(0);
  await expect(page.getByTestId('organization-logo-upload')).toHaveCount(0);
  await expect(settings.dataDirectory).toHaveCount(0);
  await expect(page.getByTestId('settings-preferences')).toBeVisible();
  await expect(page.getByTestId('settings-require-clip')).toBeDisabled();
  await expect(page.getByTestId('liveness-settings-read-only')).toBeVisible();
});
