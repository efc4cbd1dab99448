// Published flows (issue 12; spec, Endpoints rule 9) against the real service: publish a flow in
// the console's Hosted sessions screen, open its stable link in a second page as a person would
// (the page starts a session of its own and moves to its address), edit the flow (the link stays
// the same, the next visit shows the new title), switch it off (the link shows the friendly
// closed page) and on again. CONSOLE_SCREENSHOTS=/some/dir saves screenshots (console-flows*.png).
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { addMember, DEFAULT_ORG, initOrg, signIn } from '../support/accounts';
import { expect, test } from '../support/service';

// No one is verified here (the page is opened, never completed): the models stay unloaded unless a
// request needs them (`models: 'lazy'`, the fixture's default).

const shotsDir = process.env.CONSOLE_SCREENSHOTS;
async function shot(page: Page, name: string): Promise<void> {
  if (shotsDir) await page.screenshot({ path: join(shotsDir, `console-${name}.png`), fullPage: true });
}

test('published flows: publish, open the stable link, edit it (same link, new title), switch it off and on', async ({ page, context, service }) => {
  await initOrg(service);
  const shell = await signIn(page);
  await shell.open('hosted');
  const panel = page.getByTestId('flows-panel');
  await expect(panel.getByTestId('flows-table-empty')).toContainText('No test flows yet');

  // Publish.
  await panel.getByTestId('new-flow').click();
  const dialog = page.getByTestId('flow-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('flow-name')).toBeFocused();
  await dialog.getByTestId('flow-name').fill('Front desk');
  await dialog.getByTestId('flow-title').fill('Welcome to Northwind');
  await dialog.getByTestId('flow-redirect').fill('javascript:alert(1)');
  await dialog.getByTestId('flow-submit').click();
  await expect(dialog.getByTestId('flow-redirect-error')).toContainText('not allowed');
  await dialog.getByTestId('flow-redirect').fill('');
  await dialog.getByTestId('flow-submit').click();

  // The link and its QR code, shown at once after publishing.
  const qrDialog = page.getByTestId('flow-qr-dialog');
  await expect(qrDialog).toBeVisible();
  const url = await qrDialog.getByTestId('flow-qr-url').inputValue();
  expect(url).toMatch(new RegExp(`^${service.url}/hosted/f/[A-Za-z0-9_-]{22}$`));
  // With neither the on-site server nor a public URL, the link works on this computer only: no QR code (issue 26).
  await expect(qrDialog.getByTestId('flow-link-reach')).toContainText('This link works on this computer only');
  await expect(qrDialog.getByTestId('flow-qr')).toHaveCount(0);
  await expect(qrDialog).toContainText('The link stays the same when you edit the flow');
  await qrDialog.getByTestId('flow-qr-done').click();

  const row = panel.getByTestId('flow-row');
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('flow-name')).toHaveText('Front desk');
  await expect(row.getByTestId('flow-url')).toHaveText(url);
  await expect(row.getByTestId('flow-state')).toHaveAttribute('data-enabled', 'true');
  await expect(row.getByTestId('flow-counts')).toContainText('0 started');

  // A person opens the link: the page starts a session and continues at its own address.
  const person = await context.newPage();
  await person.goto(url);
  await expect(person.getByTestId('page-title')).toHaveText('Welcome to Northwind');
  await expect(person.getByTestId('test-banner')).toBeVisible();
  await expect(person).toHaveURL(new RegExp(`^${service.url}/hosted/v/[A-Za-z0-9_-]{43}$`));
  const firstSession = person.url();
  // Another person (or another visit) gets a session of their own from the same link.
  await person.goto(url);
  await expect(person.getByTestId('page-title')).toHaveText('Welcome to Northwind');
  await expect(person).toHaveURL(/\/hosted\/v\//);
  expect(person.url()).not.toBe(firstSession);

  // Counts follow; the sessions list says where they came from.
  await page.getByTestId('hosted-refresh').click();
  await page.reload();
  await expect(row.getByTestId('flow-counts')).toContainText('2 started');
  await expect(page.getByTestId('hosted-table').getByTestId('hosted-made-by').first()).toHaveText('from a published flow');
  await shot(page, 'flows');

  // Edit: the link stays the same, and the next visit shows the new title.
  await row.getByTestId('flow-edit').click();
  await expect(dialog).toContainText('The link stays the same');
  await expect(dialog.getByTestId('flow-title')).toHaveValue('Welcome to Northwind');
  await dialog.getByTestId('flow-title').fill('Northwind age check');
  await dialog.getByTestId('flow-product-age').check();
  await dialog.getByTestId('flow-min-age').fill('21');
  await shot(page, 'flows-edit');
  await dialog.getByTestId('flow-submit').click();
  await expect(dialog).toBeHidden();
  await expect(panel.getByTestId('flows-notice')).toContainText('Its link is unchanged');
  await expect(row.getByTestId('flow-url')).toHaveText(url);
  await expect(row.getByTestId('flow-product')).toHaveText('Age 21+');
  await person.goto(url);
  await expect(person.getByTestId('page-title')).toHaveText('Northwind age check');
  await expect(person.getByTestId('dob')).toBeVisible();

  // Switched off: the same link shows the friendly closed page and starts nothing.
  await row.getByTestId('flow-toggle').click();
  await expect(row.getByTestId('flow-state')).toHaveAttribute('data-enabled', 'false');
  await expect(panel.getByTestId('flows-notice')).toContainText('is off');
  await shot(page, 'flows-off');
  await person.goto(url);
  await expect(person.getByTestId('closed')).toHaveAttribute('data-closed', 'flow');
  await expect(person.getByRole('heading', { level: 2 })).toHaveText('This verification is not available right now');
  await expect(person).toHaveURL(url);
  if (shotsDir) await person.screenshot({ path: join(shotsDir, 'hosted-flow-closed.png') });
  const counts = await page.request.get('/api/hosted/flows?env=test');
  expect((await counts.json()).flows[0]).toMatchObject({ enabled: false, sessions_started: 3, url });

  // Switched on again: the same link works.
  await row.getByTestId('flow-toggle').click();
  await expect(row.getByTestId('flow-state')).toHaveAttribute('data-enabled', 'true');
  await person.goto(url);
  await expect(person.getByTestId('page-title')).toHaveText('Northwind age check');

  // An unknown flow is a not-found page.
  await person.goto(`${service.url}/hosted/f/${'A'.repeat(22)}`);
  await expect(person.getByTestId('closed')).toHaveAttribute('data-closed', 'not_found');
  await expect(person.getByRole('heading', { level: 2 })).toHaveText('This link is not valid');
});

test('published flows: members see the flows and their links without changing them', async ({ page, service }) => {
  const org = await initOrg(service, { ...DEFAULT_ORG, plan: 'pro' });
  const member = await addMember(service, org, { email: 'mo.member@northwind.test', password: 'member password 1' });
  const made = await (async () => {
    const shell = await signIn(page, org);
    const res = await page.request.post('/api/hosted/flows', { data: { name: 'Branch onboarding', product: 'compliance', env: 'test' } });
    expect(res.status()).toBe(200);
    await shell.logout();
    return (await res.json()) as { id: string; url: string };
  })();
  await signIn(page, member);
  await page.goto('/#/hosted');
  const panel = page.getByTestId('flows-panel');
  await expect(panel.getByTestId('flow-url')).toHaveText(made.url);
  await expect(panel.getByTestId('flow-product')).toHaveText('KYC plus');
  await expect(panel.getByTestId('new-flow')).toHaveCount(0);
  await expect(panel.getByTestId('flow-edit')).toHaveCount(0);
  await expect(panel.getByTestId('flow-reach')).toHaveText('This computer only');
  await panel.getByTestId('flow-qr-open').click();
  await expect(page.getByTestId('flow-link-reach')).toBeVisible();
  await expect(page.getByTestId('flow-qr-url')).toHaveValue(made.url);
  expect((await page.request.post(`/api/hosted/flows/${made.id}/disable`)).status()).toBe(403);
});
