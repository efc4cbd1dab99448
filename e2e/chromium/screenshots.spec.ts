// Screenshots of the working screens with realistic content, for reviewing the look and for
// docs. Off by default: CONSOLE_SCREENSHOTS=/some/dir npx playwright test screenshots
import { join } from 'node:path';
import { initOrg, signIn } from '../support/accounts';
import { expect, test } from '../support/service';
import { KeysPage } from '../pages/keys-page';
import { PlanPage } from '../pages/plan-page';
import { createKeys } from '../support/seed';

// This spec verifies people: the face and document models load as the app starts them.
test.use({ models: 'eager' });

const dir = process.env.CONSOLE_SCREENSHOTS;

test.skip(!dir, 'set CONSOLE_SCREENSHOTS to a directory to take screenshots');

test('screenshots of API keys and Plan & credits', async ({ page, service }) => {
  const out = (name: string) => join(dir ?? '.', `console-${name}.png`);
  const org = await initOrg(service, { organization: 'Northwind Compliance', email: 'owner@northwind.test', password: 'correct horse battery', plan: 'growth' });
  await createKeys(service, org, [
    { env: 'test', scopes: ['human', 'age'], name: 'Checkout backend' },
    { env: 'test', scopes: ['identity'], name: 'Onboarding demo', demo: true },
    { env: 'test', scopes: ['human'], name: 'Old integration' },
  ]);
  await service.cli('credits', 'grant', '2500', '--note', 'Opening balance');
  await service.cli('credits', 'grant', '1000', '--note', 'Top-up, invoice 2026-014');

  await page.goto('/');
  await expect(page.getByTestId('login')).toBeVisible();
  await page.screenshot({ path: out('login') });

  await signIn(page, { organization: 'Northwind Compliance', email: 'owner@northwind.test', password: 'correct horse battery' });
  const keys = new KeysPage(page);
  await keys.goto();
  await keys.revoke('Old integration');
  await expect(keys.rows).toHaveCount(3);
  await page.screenshot({ path: out('keys') });

  // Keyboard focus inside the table.
  await page.getByTestId('create-key').focus();
  await page.keyboard.press('Tab');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  await page.screenshot({ path: out('keys-focus'), clip: { x: 240, y: 260, width: 1200, height: 300 } });

  await keys.create({ name: 'Screening batch job', scopes: ['human', 'identity'] });
  await keys.revealed();
  await page.screenshot({ path: out('keys-created') });
  await keys.closeRevealed();

  await keys.row('Checkout backend').getByTestId('revoke-key').click();
  await page.screenshot({ path: out('keys-revoke') });
  await page.keyboard.press('Escape');

  await page.getByTestId('create-key').click();
  await page.screenshot({ path: out('keys-create') });
  await page.keyboard.press('Escape');

  const plan = new PlanPage(page);
  await plan.goto();
  await expect(plan.ledgerRows).toHaveCount(2);
  await page.screenshot({ path: out('plan') });

  await page.getByTestId('nav-team').click();
  await expect(page.getByTestId('members-table')).toBeVisible();
  await page.screenshot({ path: out('team') });

  await page.getByTestId('env-live').click();
  await page.getByTestId('nav-keys').click();
  await expect(keys.table).toBeVisible();
  await page.screenshot({ path: out('keys-live') });
});
