// The console's foundation against the real service: first run, login, API keys, plan & credits.
import { initOrg, signIn, DEFAULT_ORG } from '../support/accounts';
import { expect, test } from '../support/service';
import { AppShell } from '../pages/app-shell';
import { FirstRunPage } from '../pages/first-run-page';
import { KeysPage } from '../pages/keys-page';
import { LoginPage } from '../pages/login-page';
import { PlanPage } from '../pages/plan-page';
import { ScreeningPage } from '../pages/screening-page';
import { createKey, createKeys } from '../support/seed';

test('first run creates the organization and its owner, then opens the console in test mode', async ({ page, request }) => {
  const firstRun = new FirstRunPage(page);
  await firstRun.goto();

  await firstRun.createOrganization({
    organization: 'Acme Screening Ltd',
    name: 'Ada Analyst',
    email: 'ada@acme.test',
    password: 'a long enough password',
  });

  const shell = new AppShell(page);
  await shell.expectSignedIn('Acme Screening Ltd');
  await expect(shell.userName).toHaveText('Ada Analyst');
  // Nothing chosen: Free, and the console says where that is changed.
  await expect(page.getByTestId('org-plan')).toHaveText('Free');
  await expect(shell.testModeBanner).toBeVisible();
  await expect(shell.testModeBanner).toContainText(/test mode/i);

  // A new install lands on Home: nothing waits yet, and it says what to set up first.
  await expect(page).toHaveURL(/#\/home$/);
  const setup = page.getByTestId('home-setup');
  await expect(setup.getByTestId('home-next-step')).toHaveText('Create a test API key and try a check');
  await expect(setup.getByTestId('home-step-team')).toHaveAttribute('data-done', 'false');
  await expect(page.getByTestId('home-attention')).toBeVisible();

  // First run happens once: the service now refuses it, and a reload keeps the session.
  expect((await (await request.get('/api/setup')).json()).needs_setup).toBe(false);
  await page.reload();
  await shell.expectSignedIn('Acme Screening Ltd');
  await expect(page.getByTestId('first-run')).toHaveCount(0);
});

test('first run on the plan the organization bought: on Pro the console screens at once', async ({ page }) => {
  const firstRun = new FirstRunPage(page);
  await firstRun.goto();
  await expect(firstRun.root.getByTestId('first-run-plan-free')).toBeChecked();
  await expect(firstRun.root).toContainText('Screening needs Pro or Enterprise');
  await expect(firstRun.root.getByTestId('first-run-plan-options')).toContainText('No screening');
  await firstRun.createOrganization({ organization: 'Acme Screening Ltd', name: 'Ada Analyst', email: 'ada@acme.test', password: 'a long enough password', plan: 'pro' });
  const shell = new AppShell(page);
  await shell.expectSignedIn('Acme Screening Ltd');
  await expect(page.getByTestId('org-plan')).toHaveText('Pro');

  const screening = new ScreeningPage(page);
  await screening.goto();
  await expect(page.getByTestId('screening-plan')).toHaveCount(0);
  await expect(screening.listsState).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  await screening.screen({ firstName: 'Vladimir', lastName: 'Putin' });
  await expect(screening.matches.first()).toBeVisible();
});

test('first run checks its form before sending it', async ({ page }) => {
  const firstRun = new FirstRunPage(page);
  await firstRun.goto();
  await firstRun.createOrganization({ organization: 'Acme', name: 'Ada', email: 'not-an-email', password: 'short' });
  await expect(page.getByTestId('first-run-email-error')).toBeVisible();
  await expect(page.getByTestId('first-run-password-error')).toContainText('10 characters');
  await expect(firstRun.root).toBeVisible();
});

test('login: a run of wrong passwords is throttled, and the page says how long to wait', async ({ page, service }) => {
  await initOrg(service);
  const login = new LoginPage(page);
  await login.goto();
  for (let i = 0; i < 5; i++) {
    await login.login(DEFAULT_ORG.email, `not the password ${i}`);
    await expect(login.error).toContainText('Invalid email or password');
  }
  await login.login(DEFAULT_ORG.email, DEFAULT_ORG.password);
  await expect(login.error).toContainText(/Too many failed attempts\. Try again later\. \(wait \d+ s\)/);
  await expect(login.root).toBeVisible();
});

test('login: an organization made by the CLI signs in; a wrong password shows an error', async ({ page, service }) => {
  await initOrg(service);
  const login = new LoginPage(page);
  await login.goto();

  await login.login(DEFAULT_ORG.email, 'not the password');
  await expect(login.error).toContainText('Invalid email or password');
  await expect(login.root).toBeVisible();

  await login.login(DEFAULT_ORG.email, DEFAULT_ORG.password);
  const shell = new AppShell(page);
  await shell.expectSignedIn(DEFAULT_ORG.organization);
  await expect(shell.testModeBanner).toBeVisible();

  await shell.logout();
  await expect(login.root).toBeVisible();
  // The session really ended: a reload stays on the login screen.
  await page.reload();
  await expect(login.root).toBeVisible();
});

test('API keys: create a test key, see it once, list it, revoke it; the key works until revoked', async ({ page, service, request }) => {
  await initOrg(service);
  await signIn(page);
  const keys = new KeysPage(page);
  await keys.goto();
  await expect(page.getByTestId('keys-table-empty')).toBeVisible();

  await keys.create({ name: 'Checkout backend', scopes: ['human', 'age'] });
  const { apiKey, secret } = await keys.revealed();
  expect(apiKey).toMatch(/^svk-.{32}$/);
  expect(secret).toMatch(/^svsk-.{48}$/);
  await expect(keys.newKeyDialog).toContainText('You will not see them again');

  // Shown once: nothing keeps the plaintext after the dialog closes.
  await keys.closeRevealed();
  const storage = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
  expect(storage).not.toContain(apiKey);
  expect(storage).not.toContain(secret);

  const row = keys.row('Checkout backend');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Test');
  await expect(row).toContainText('human');
  await expect(row).toContainText('age');
  const prefix = (await row.getByTestId('key-prefix').innerText()).replace('…', '');
  expect(apiKey.startsWith(prefix)).toBe(true);
  await expect(keys.status('Checkout backend')).toHaveAttribute('data-status', 'active');

  // The key is real: an unknown verification is "not found" (authenticated), not "unauthorised".
  const before = await request.get('/api/status/unknown', { headers: { 'X-API-Key': apiKey } });
  expect(before.status()).toBe(404);

  await keys.revoke('Checkout backend');
  await expect(keys.status('Checkout backend')).toHaveAttribute('data-status', 'revoked');
  await expect(keys.row('Checkout backend').getByTestId('revoke-key')).toHaveCount(0);

  const after = await request.get('/api/status/unknown', { headers: { 'X-API-Key': apiKey } });
  expect(after.status()).toBe(401);
});

test('API keys: the list follows the environment switch and Esc closes dialogs', async ({ page, service }) => {
  const org = await initOrg(service);
  await createKey(service, org, { env: 'live', scopes: ['human'], name: 'Live storefront' });
  const shell = await signIn(page);
  const keys = new KeysPage(page);
  await keys.goto();

  await expect(keys.rows).toHaveCount(0);
  await shell.switchEnv('live');
  await expect(shell.testModeBanner).toBeHidden();
  await expect(keys.row('Live storefront')).toHaveCount(1);

  // A new key defaults to the environment the console is in.
  await page.getByTestId('create-key').click();
  await expect(keys.createDialog.getByTestId('key-env-live')).toBeChecked();
  await page.keyboard.press('Escape');
  await expect(keys.createDialog).toBeHidden();

  await shell.switchEnv('test');
  await expect(shell.testModeBanner).toBeVisible();
  await expect(keys.rows).toHaveCount(0);
});

test('API keys: creating a live key keeps the console in Test and says where the key is listed', async ({ page, service }) => {
  await initOrg(service);
  const shell = await signIn(page);
  const keys = new KeysPage(page);
  await keys.goto();
  await keys.create({ name: 'Live storefront', env: 'live', scopes: ['human'] });
  await keys.revealed();
  await keys.closeRevealed();
  await expect(page.getByTestId('env-test')).toHaveAttribute('aria-pressed', 'true');
  await expect(shell.testModeBanner).toBeVisible();
  await expect(page.getByTestId('keys-notice')).toContainText('listed under Live keys; the console stays in Test');
  await expect(keys.rows).toHaveCount(0);
  await shell.switchEnv('live');
  await expect(keys.row('Live storefront')).toHaveCount(1);
});

test('API keys: the compliance scope needs Pro; on Pro it is offered', async ({ page, service }) => {
  await initOrg(service, { ...DEFAULT_ORG, plan: 'pro' });
  await signIn(page);
  const keys = new KeysPage(page);
  await keys.goto();
  await keys.create({ name: 'Screening service', scopes: ['compliance'] });
  await keys.revealed();
  await keys.closeRevealed();
  await expect(keys.row('Screening service')).toContainText('compliance');
});

test('Plan & credits: credits granted with the CLI show in the balance and the ledger', async ({ page, service }) => {
  await initOrg(service);
  await service.cli('credits', 'grant', '500', '--note', 'Opening balance');
  await signIn(page);
  const plan = new PlanPage(page);
  await plan.goto();

  await expect(plan.planLabel).toHaveText('Free');
  await expect(plan.balance).toHaveText('500');
  await expect(plan.ledgerRows).toHaveCount(1);
  await expect(plan.ledgerRows.first()).toContainText('+500');
  await expect(plan.ledgerRows.first()).toContainText('Opening balance');

  // Plan changes made by an administrator show on the next visit.
  await service.cli('plan', 'set', 'growth');
  await page.reload();
  await expect(plan.planLabel).toHaveText('Growth');
});

test('Plan & credits: the owner changes the plan after a confirmation that says what changes', async ({ page, service }) => {
  await initOrg(service);
  const shell = await signIn(page);
  const plan = new PlanPage(page);
  await plan.goto();
  await expect(plan.planLabel).toHaveText('Free');

  // Free to Pro: screening becomes available; Esc leaves everything as it was.
  await plan.choose('pro');
  await expect(plan.change('Screening & compliance')).toHaveText('Not included → Included');
  await expect(plan.change('Team size')).toHaveText('1 person → 25 people');
  await expect(plan.change('Verification requests')).toHaveText('1/s, bursts of 5 → 10/s, bursts of 100');
  await expect(plan.confirmButton).toHaveText('Change to Pro');
  await page.keyboard.press('Escape');
  await expect(plan.changeDialog).toBeHidden();
  await expect(plan.planLabel).toHaveText('Free');

  await plan.choose('pro');
  await plan.confirmButton.click();
  await expect(plan.changeDialog).toBeHidden();
  await expect(plan.planLabel).toHaveText('Pro');
  await expect(plan.notice).toContainText('The plan is now Pro');
  await expect(page.getByTestId('org-plan')).toHaveText('Pro');
  // No reload: the screens follow the new plan at once.
  await shell.open('screening');
  await expect(page.getByTestId('screening-form')).toBeVisible();
  await expect(page.getByTestId('screening-plan')).toHaveCount(0);

  // Down to Growth: the dialog warns that screening stops; afterwards the screen says so.
  await shell.open('plan');
  await plan.choose('growth');
  await expect(plan.changeDialog.getByTestId('change-plan-compliance-warning')).toContainText('Screening stops');
  await plan.confirmButton.click();
  await expect(plan.planLabel).toHaveText('Growth');
  await shell.open('screening');
  await expect(page.getByTestId('screening-plan')).toContainText('Pro and Enterprise');
  await expect(page.getByTestId('screening-plan').getByRole('link', { name: 'Plan & credits' })).toBeVisible();
});

test('navigation: every screen is reachable; Home shows what needs attention and the next set-up step', async ({ page, service }) => {
  const org = await initOrg(service);
  await createKey(service, org, { env: 'test', scopes: ['human'], name: 'First key' });
  const shell = await signIn(page);
  await expect(shell.testModeBanner).toBeVisible();
  // Home: credits are low on a new Free organisation; with a test key the next step is the webhook.
  await expect(page).toHaveURL(/#\/home$/);
  await expect(page.getByTestId('home-credits-low')).toContainText('Credits are low');
  await expect(page.getByTestId('home-step-test-key')).toHaveAttribute('data-done', 'true');
  await page.getByTestId('home-next-step').click();
  await expect(page).toHaveURL(/#\/webhooks$/);
  // "?" lists the keyboard shortcuts; Esc closes the list.
  await page.locator('body').press('?');
  const help = page.getByTestId('shortcuts-help');
  await expect(help).toBeVisible();
  await expect(help.getByTestId('shortcuts-risk-review')).toContainText('Next / previous result');
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();
  await shell.open('reports');
  await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();
  await shell.open('exports');
  await expect(page.getByRole('heading', { level: 1, name: 'Exports' })).toBeVisible();
  await shell.open('verifications');
  await expect(page.getByTestId('ledger-grid')).toBeVisible();
  await shell.open('team');
  await expect(page.getByTestId('members-table')).toBeVisible();
  await shell.open('hosted');
  await expect(page.getByTestId('hosted-table')).toBeVisible();
  await shell.open('plan');
  await expect(page.getByTestId('credit-balance')).toBeVisible();
  await shell.open('settings');
  await expect(page.getByTestId('settings-four-eyes')).toBeVisible();
  await shell.open('audit');
  await expect(page.getByTestId('audit-table')).toBeVisible();
  await shell.open('keys');
  await expect(page.getByTestId('keys-table')).toBeVisible();
});

test('API keys table: one tab stop, arrow keys move between cells, End reaches the row action', async ({ page, service }) => {
  const org = await initOrg(service);
  const longName = 'Second key: checkout backend of the Northwind storefronts in Oslo and Bergen';
  await createKeys(service, org, [{ env: 'test', scopes: ['human'], name: 'First key' }, { env: 'test', scopes: ['age'], name: longName }]);
  await signIn(page);
  const keys = new KeysPage(page);
  await keys.goto();
  await expect(keys.rows).toHaveCount(2);

  await expect(keys.table.locator('[tabindex="0"]')).toHaveCount(1);
  await page.getByTestId('create-key').focus();
  await page.keyboard.press('Tab');
  await expect(keys.table.getByRole('columnheader', { name: 'Name' })).toBeFocused();

  await page.keyboard.press('ArrowDown');
  await expect(keys.rows.nth(0).locator('[data-column="name"]')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(keys.rows.nth(1).locator('[data-column="name"]')).toBeFocused();
  await page.keyboard.press('End');
  await expect(keys.rows.nth(1).getByTestId('revoke-key')).toBeFocused();
  await expect(keys.table.locator('[tabindex="0"]')).toHaveCount(1);

  // Enter on the focused action opens the confirmation; Esc closes it and keeps the key.
  await page.keyboard.press('Enter');
  await expect(keys.revokeDialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(keys.revokeDialog).toBeHidden();
  await expect(keys.rows.nth(1).getByTestId('key-status')).toHaveAttribute('data-status', 'active');

  // A name cut short with an ellipsis shows whole as a tooltip; one that fits gets none.
  const longCell = keys.table.locator('[data-column="name"]').filter({ hasText: 'Second key' });
  await longCell.hover();
  await expect(longCell).toHaveAttribute('title', longName);
  const shortCell = keys.table.locator('[data-column="name"]').filter({ hasText: 'First key' });
  await shortCell.hover();
  await expect(shortCell).not.toHaveAttribute('title');
});
