// The console inside the desktop shell, simulated in Chromium: a stand-in `window.shell` hands
// over the one-time login token the shell gave the service, so the user lands signed in.
import { initOrg, DEFAULT_ORG } from '../support/accounts';
import { installFakeShell } from '../support/fake-shell';
import { expect, test } from '../support/service';
import { AppShell } from '../pages/app-shell';
import { LoginPage } from '../pages/login-page';

const TOKEN = 'e2e-one-time-login-token-0123456789';

test.use({ serviceEnv: { CONSOLE_LOGIN_TOKEN: TOKEN } });

test('with a shell bridge, the one-time token signs the owner in; afterwards login is needed', async ({ page, service }) => {
  await initOrg(service);
  await installFakeShell(page, { token: TOKEN, serviceUrl: service.url });

  await page.goto('/');
  const shell = new AppShell(page);
  await shell.expectSignedIn(DEFAULT_ORG.organization);
  await expect(page.getByTestId('login')).toHaveCount(0);

  // The token is spent: after signing out, a fresh window (new init script, same token) must log in.
  await shell.logout();
  await page.reload();
  await expect(new LoginPage(page).root).toBeVisible();
});
