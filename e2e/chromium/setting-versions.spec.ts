// Two admins at two desks change the same setting (issue 39, item 6): both open Settings, the
// admin turns the head-turn clip requirement on, then the owner, whose screen still shows it off,
// clicks it. The owner is told someone else changed it and their change was kept, and the box now
// shows it as it stands (on); the owner's next change, made on what they now see, goes through.
import type { Browser, Page } from '@playwright/test';
import { initOrg, signIn, type TestOrg } from '../support/accounts';
import { inviteMember } from '../support/seed';
import { expect, test, type Service } from '../support/service';

const OWNER: TestOrg = { organization: 'Two Desks Ltd', email: 'owner@twodesks.test', password: 'correct horse battery', plan: 'pro' };
const ADMIN = { email: 'admin@twodesks.test', password: 'admin password 1', name: 'Ada Admin' };

async function otherDesk(browser: Browser, service: Service): Promise<Page> {
  const context = await browser.newContext({ baseURL: service.url, viewport: { width: 1440, height: 900 } });
  return context.newPage();
}

test('the second of two admins to change a setting is told it changed, and sees it as it stands', async ({ page, service, browser }) => {
  await initOrg(service, OWNER);
  await inviteMember(service, OWNER, { ...ADMIN, role: 'admin' });
  const ownerShell = await signIn(page, OWNER);
  await ownerShell.open('settings');
  const adminPage = await otherDesk(browser, service);
  const adminShell = await signIn(adminPage, { ...OWNER, email: ADMIN.email, password: ADMIN.password });
  await adminShell.open('settings');

  const ownerBox = page.getByTestId('settings-require-clip');
  const adminBox = adminPage.getByTestId('settings-require-clip');
  await expect(ownerBox).not.toBeChecked();
  await expect(ownerBox).toBeEnabled();
  await expect(adminBox).toBeEnabled();

  await adminBox.check();
  await expect(adminPage.getByTestId('liveness-settings-notice')).toContainText('The head-turn clip is now required');

  // The owner's screen still shows it off: their click is made on what they saw, not on what is.
  await expect(ownerBox).not.toBeChecked();
  await ownerBox.click();
  await expect(page.getByTestId('liveness-settings-notice')).toContainText('Someone else changed this setting after you opened it, and their change was kept');
  await expect(ownerBox).toBeChecked();

  // Now that the owner has seen it, their change goes through.
  await ownerBox.uncheck();
  await expect(page.getByTestId('liveness-settings-notice')).toContainText('Still photos are taken from your API keys again');
  await adminPage.reload();
  await expect(adminPage.getByTestId('settings-require-clip')).not.toBeChecked();
  await adminPage.context().close();
});
