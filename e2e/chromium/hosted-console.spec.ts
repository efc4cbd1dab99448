// The console's Hosted sessions screen against the real service: make a session (the link and its
// QR code shown once), open it as a phone would, see its state follow, revoke it; a bad redirect is
// a field error; members look without changing. CONSOLE_SCREENSHOTS=/some/dir saves screenshots
// (console-hosted*.png).
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import QRCode from 'qrcode';
import sharp from 'sharp';
import { addMember, DEFAULT_ORG, initOrg, signIn } from '../support/accounts';
import { expect, test } from '../support/service';
import { HostedPage } from '../pages/hosted-page';
import { headTurnClip } from '../../src-main/service/test/face-fixtures';

// This spec verifies people: the face and document models load as the app starts them.
test.use({ models: 'eager' });

const shotsDir = process.env.CONSOLE_SCREENSHOTS;
async function shot(page: Page, name: string): Promise<void> {
  if (shotsDir) await page.screenshot({ path: join(shotsDir, `console-${name}.png`) });
}

/** The dark modules an SVG path of `M x y h w v1 h -w z` runs draws, as "x,y" strings. */
function drawnModules(d: string): Set<string> {
  const cells = new Set<string>();
  for (const m of d.matchAll(/M(\d+) (\d+)h(\d+)v1h-\d+z/g)) {
    const [x, y, w] = [Number(m[1]), Number(m[2]), Number(m[3])];
    for (let i = 0; i < w; i++) cells.add(`${x + i},${y}`);
  }
  return cells;
}

/** What a QR code of `text` must draw (4 modules of quiet zone), as "x,y" strings. */
function expectedModules(text: string): { size: number; cells: Set<string> } {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const cells = new Set<string>();
  for (let y = 0; y < modules.size; y++) for (let x = 0; x < modules.size; x++) if (modules.get(y, x)) cells.add(`${x + 4},${y + 4}`);
  return { size: modules.size + 8, cells };
}

test('hosted sessions: create one (this computer only without a public URL: no QR code), open it, see its state and failed attempts, revoke it; a public URL gives a QR code', async ({ page, service }) => {
  test.setTimeout(120_000);
  await initOrg(service);
  const shell = await signIn(page);
  await shell.open('hosted');
  const hosted = new HostedPage(page);
  await expect(hosted.table).toBeVisible();
  await expect(hosted.empty).toContainText('No test sessions yet');
  await expect(page.getByRole('heading', { name: 'Test sessions' })).toBeVisible();
  await shot(page, 'hosted-empty');

  // The Free plan has no compliance product: it cannot be chosen.
  await hosted.newButton.click();
  await expect(hosted.createDialog).toBeVisible();
  await expect(hosted.createDialog.getByTestId('hosted-product-compliance')).toBeDisabled();
  await expect(hosted.createDialog.getByTestId('hosted-env')).toContainText('Test');
  await expect(hosted.createDialog.getByTestId('hosted-min-age')).toHaveCount(0);

  // A script as the redirect: the service refuses it by field, and the form says so by the field.
  await hosted.fill({ product: 'age', minAge: 21, title: 'Front desk age check', redirect: 'javascript:alert(1)', successMessage: 'Thank you, you may go on.' });
  await shot(page, 'hosted-create');
  await hosted.submit();
  const redirect = hosted.createDialog.getByTestId('hosted-redirect');
  await expect(hosted.createDialog.getByTestId('hosted-redirect-error')).toContainText('not allowed');
  await expect(redirect).toHaveAttribute('aria-invalid', 'true');
  await expect(redirect).toBeFocused();
  await expect(hosted.createdDialog).toBeHidden();
  await shot(page, 'hosted-create-error');
  const refused = await page.request.post('/api/hosted/sessions', { data: { product: 'human', env: 'test', redirect_url: 'javascript:alert(1)' } });
  expect(refused.status()).toBe(400);
  expect((await refused.json()).fields).toEqual([{ field: 'redirect_url', issue: 'refused_scheme' }]);
  expect((await (await page.request.get('/api/hosted/sessions?env=test')).json()).sessions).toEqual([]);

  // Out of range before anything is sent.
  await hosted.fill({ redirect: 'https://example.com/ok', hours: 200 });
  await expect(hosted.createDialog.getByTestId('hosted-redirect-error')).toHaveCount(0);
  await hosted.submit();
  await expect(hosted.createDialog.getByTestId('hosted-expiry-error')).toContainText('1 to 168');
  await hosted.fill({ hours: 48 });
  await hosted.submit();

  // The link once. Neither the on-site server nor a public URL: it works on this computer only, so
  // no QR code (a phone would open itself), what to do instead, and the link still to copy (issue 26).
  const { url, sessionId } = await hosted.created();
  const token = new URL(url).pathname.split('/').pop() ?? '';
  expect(url).toBe(`${service.url}/hosted/v/${token}`);
  expect(token.length).toBeGreaterThan(20);
  await expect(hosted.createdDialog).toContainText('This link is shown once');
  await expect(hosted.createdDialog).toContainText('Only a hash of it is kept');
  const reach = hosted.createdDialog.getByTestId('hosted-link-reach');
  await expect(reach).toContainText('This link works on this computer only');
  await expect(reach.getByTestId('hosted-link-reach-onsite')).toHaveText('start the on-site server');
  await expect(reach.getByTestId('hosted-link-reach-settings')).toHaveAttribute('href', '#/settings');
  await expect(hosted.qr).toHaveCount(0);
  // Focus starts on the link's copy button.
  await expect(hosted.createdDialog.getByTestId('hosted-created-url-copy')).toBeFocused();
  await shot(page, 'hosted-created-this-computer');
  await hosted.closeCreated();
  await expect(hosted.newButton).toBeFocused();

  // Shown once: neither the page nor storage keeps the token.
  expect(await page.content()).not.toContain(token);
  const storage = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
  expect(storage).not.toContain(token);

  const row = hosted.row(sessionId);
  await expect(row).toHaveCount(1);
  await expect(hosted.state(sessionId)).toHaveAttribute('data-state', 'created');
  await expect(row.getByTestId('hosted-product')).toHaveText('Age');
  await expect(row.getByTestId('hosted-title')).toHaveText('Front desk age check');
  await expect(row.getByTestId('hosted-made-by')).toHaveText('in the console');
  await expect(page.getByTestId('hosted-count')).toHaveText('1 session, 1 open');

  // The phone opens the link: the page's own call works with the token and marks it opened.
  const opened = await page.request.get(`/hosted/session/${token}`);
  expect(opened.status()).toBe(200);
  expect(await opened.json()).toMatchObject({
    product: 'age', state: 'opened', page_title: 'Front desk age check', min_age: 21, test_mode: true, success_message: 'Thank you, you may go on.',
  });
  await hosted.refreshButton.click();
  await expect(hosted.state(sessionId)).toHaveAttribute('data-state', 'opened');
  await expect(hosted.state(sessionId)).toHaveText('Opened');
  await shot(page, 'hosted');

  // Revoke, with a confirm; Esc keeps it.
  await row.getByTestId('revoke-hosted').click();
  await expect(hosted.revokeDialog).toContainText('Front desk age check');
  await shot(page, 'hosted-revoke');
  await page.keyboard.press('Escape');
  await expect(hosted.revokeDialog).toBeHidden();
  await expect(row.getByTestId('revoke-hosted')).toBeFocused();
  await hosted.revoke(sessionId);
  await expect(hosted.notice).toContainText('Its link no longer works');
  await expect(hosted.state(sessionId)).toHaveAttribute('data-state', 'revoked');
  await expect(row.getByTestId('revoke-hosted')).toHaveCount(0);
  // Focus lands on the row's state, where the button was.
  await expect(row.locator('[data-column="state"]')).toBeFocused();
  await expect(page.getByTestId('hosted-count')).toHaveText('1 session, 0 open');
  await shot(page, 'hosted-revoked');

  // The link no longer works, and revoking twice is refused.
  const done = await page.request.post(`/hosted/complete/${token}`, { data: { date_of_birth: '1990-01-01', selfie_b64: 'AAAA' } });
  expect(done.status()).toBe(410);
  expect((await page.request.post(`/api/hosted/sessions/${sessionId}/revoke`)).status()).toBe(410);

  // A failed attempt the person can fix: they are told why and may try again; the analyst sees its code and numbers (issue 26).
  await hosted.fill({ product: 'identity', title: 'Branch identity check' });
  await hosted.submit();
  const idSession = await hosted.created();
  await hosted.closeCreated();
  const idToken = new URL(idSession.url).pathname.split('/').pop() ?? '';
  const plain = await sharp({ create: { width: 800, height: 500, channels: 3, background: '#d8e2ee' } }).jpeg().toBuffer();
  const attempt = await page.request.post(`/hosted/complete/${idToken}`, {
    data: { selfie_b64: (await headTurnClip('b')).toString('base64'), id_front_b64: plain.toString('base64') }, timeout: 60_000,
  });
  expect(await attempt.json()).toMatchObject({ status: 'retry', reason: 'document_unreadable', attempts_left: 2 });
  await hosted.refreshButton.click();
  const attemptsButton = hosted.row(idSession.sessionId).getByTestId('hosted-attempts-open');
  await expect(attemptsButton).toHaveText('1 of 3 failed');
  await attemptsButton.click();
  const attempts = page.getByTestId('hosted-attempts-dialog');
  await expect(attempts.getByTestId('hosted-attempt')).toHaveCount(1);
  await expect(attempts.getByTestId('hosted-attempt-reason')).toHaveText('document_unreadable');
  await expect(attempts.getByTestId('hosted-attempt-checks')).toContainText('one_face');
  await expect(attempts.getByTestId('hosted-attempt-checks')).not.toContainText('face_match');
  await shot(page, 'hosted-attempts');
  await attempts.getByTestId('hosted-attempts-done').click();

  // A public URL set in Settings: new links use it, with their QR code (issue 26).
  await shell.open('settings');
  const publicUrl = page.getByTestId('settings-public-url');
  await expect(publicUrl.getByTestId('public-url-reach-hosted')).toHaveAttribute('data-reach', 'this_computer');
  await page.getByTestId('public-url-input').fill('verify.example.test');
  await page.getByTestId('public-url-save').click();
  await expect(page.getByTestId('public-url-input-error')).toContainText('full address');
  await page.getByTestId('public-url-input').fill('https://verify.example.test');
  await page.getByTestId('public-url-save').click();
  await expect(page.getByTestId('public-url-notice')).toContainText('Saved');
  await expect(publicUrl.getByTestId('public-url-reach-hosted')).toHaveAttribute('data-reach', 'public');
  await expect(publicUrl.getByTestId('public-url-reach-hosted')).toContainText('https://verify.example.test');
  await page.getByTestId('settings-hosted-attempts').scrollIntoViewIfNeeded();
  await shot(page, 'settings-public-url');
  await shell.open('hosted');
  await hosted.fill({ product: 'age', title: 'Lobby age check' });
  await hosted.submit();
  const pub = await hosted.created();
  expect(pub.url).toMatch(/^https:\/\/verify\.example\.test\/hosted\/v\/[A-Za-z0-9_-]{43}$/);
  await expect(hosted.createdDialog.getByTestId('hosted-link-reach')).toHaveCount(0);
  await expect(hosted.qr).toBeVisible();
  await expect(hosted.qr).toHaveAttribute('role', 'img');
  const box = await hosted.qr.boundingBox();
  expect(box?.width).toBeGreaterThan(150);
  // The code holds exactly the link.
  const want = expectedModules(pub.url);
  await expect(hosted.qr).toHaveAttribute('viewBox', `0 0 ${want.size} ${want.size}`);
  const drawn = drawnModules((await hosted.qr.locator('path').getAttribute('d')) ?? '');
  expect(drawn.size).toBe(want.cells.size);
  expect([...want.cells].every((c) => drawn.has(c))).toBe(true);
  await shot(page, 'hosted-created');
  await hosted.closeCreated();

  // Live has its own list.
  await shell.switchEnv('live');
  await expect(page.getByRole('heading', { name: 'Live sessions' })).toBeVisible();
  await expect(hosted.empty).toContainText('No live sessions yet');
});

test('hosted sessions: KYC plus on Pro; members see the list without creating or revoking', async ({ page, service }) => {
  const org = await initOrg(service, { ...DEFAULT_ORG, plan: 'pro' });
  const member = await addMember(service, org, { email: 'mo.member@northwind.test', password: 'member password 1' });
  const shell = await signIn(page, org);
  const hosted = new HostedPage(page);
  await hosted.goto();
  await hosted.newButton.click();
  await expect(hosted.createDialog.getByTestId('hosted-product-compliance')).toBeEnabled();
  await hosted.fill({ product: 'compliance', title: 'Branch onboarding' });
  await hosted.submit();
  const { sessionId } = await hosted.created();
  await hosted.closeCreated();
  await expect(hosted.row(sessionId).getByTestId('hosted-product')).toHaveText('KYC plus');
  await shell.logout();

  await signIn(page, member);
  await hosted.goto();
  await expect(page.getByTestId('hosted-read-only')).toBeVisible();
  await expect(hosted.newButton).toHaveCount(0);
  await expect(hosted.row(sessionId)).toHaveCount(1);
  await expect(hosted.state(sessionId)).toHaveAttribute('data-state', 'created');
  await expect(hosted.table.getByTestId('revoke-hosted')).toHaveCount(0);
  // The service itself refuses the member's changes.
  expect((await page.request.post('/api/hosted/sessions', { data: { product: 'human', env: 'test' } })).status()).toBe(403);
  expect((await page.request.post(`/api/hosted/sessions/${sessionId}/revoke`)).status()).toBe(403);
  await shot(page, 'hosted-member');
});
