// The desktop shell's one-time token on a shared install (issue 13), simulated in Chromium with a
// stand-in `window.shell`: with several people on the team the token signs nobody in; the window
// asks "Who is signing in?", and the chosen member gives their own password.
import { join } from 'node:path';
import { addMember, DEFAULT_ORG, initOrg } from '../support/accounts';
import { installFakeShell } from '../support/fake-shell';
import { expect, ROOT, test } from '../support/service';
import { AppShell } from '../pages/app-shell';
import { LoginPage } from '../pages/login-page';

const TOKEN = 'e2e-one-time-login-token-desktop-choice-0123';

test.use({ serviceEnv: { CONSOLE_LOGIN_TOKEN: TOKEN } });

test('several members: the token opens "Who is signing in?"; a wrong password is refused; the chosen member signs in as themselves', async ({ page, service }) => {
  const org = await initOrg(service, { ...DEFAULT_ORG, plan: 'pro' });
  await addMember(service, org, { email: 'mo@northwind.test', password: 'a member password', name: 'Mo Member' });
  await installFakeShell(page, { token: TOKEN, serviceUrl: service.url });
  await page.goto('/');

  const choose = page.getByTestId('choose-member');
  await expect(choose).toBeVisible();
  await expect(choose.getByRole('heading')).toHaveText('Who is signing in?');
  const items = page.getByTestId('choose-member-item');
  await expect(items).toHaveCount(2);
  await expect(items.nth(0)).toContainText('Olivia Owner');
  await expect(items.nth(0)).toContainText(DEFAULT_ORG.email);
  await expect(items.nth(1)).toContainText('Mo Member');
  await expect(page.getByTestId('nav')).toHaveCount(0);

  await items.nth(1).click();
  await expect(page.getByTestId('choose-member-password')).toBeFocused();
  await page.getByTestId('choose-member-password').fill('not the password');
  await page.getByTestId('choose-member-submit').click();
  await expect(page.getByTestId('choose-member-error')).toHaveText('Incorrect password');
  await page.screenshot({ path: join(ROOT, 'test-results', 'desktop-choose-member.png') });

  // A reload keeps the choice open (its cookie), and the member is still to be chosen.
  await page.reload();
  await expect(page.getByTestId('choose-member-item')).toHaveCount(2);
  await page.getByTestId('choose-member-item').nth(1).click();
  await page.getByTestId('choose-member-password').fill('a member password');
  await page.getByTestId('choose-member-submit').click();
  const shell = new AppShell(page);
  await shell.expectSignedIn(DEFAULT_ORG.organization);
  await expect(shell.userName).toHaveText('Mo Member');
});

test('"Sign in with e-mail instead" leads to the ordinary sign-in form', async ({ page, service }) => {
  const org = await initOrg(service, { ...DEFAULT_ORG, plan: 'pro' });
  await addMember(service, org, { email: 'mo@northwind.test', password: 'a member password' });
  await installFakeShell(page, { token: TOKEN, serviceUrl: service.url });
  await page.goto('/');
  await page.getByTestId('choose-member-email').click();
  await expect(new LoginPage(page).root).toBeVisible();
});
