// List freshness (issue 23) in the console, against the real service: the shipped OFAC SDN file
// (retrieved 2024-05-03, no date of its own) is far older than the default 14-day window, so
// Screening and Batch rescreen warn about it, say how to import a newer file, and mark it in the
// Lists panel; widening the window in Settings (owner) takes the warning away.
import { join } from 'node:path';
import type { TestOrg } from '../support/accounts';
import { openListsPanel } from '../support/lists';
import { expect, test } from '../support/service';

const ORG: TestOrg = { organization: 'Freshness Ltd', email: 'owner@freshness.test', password: 'correct horse battery', plan: 'pro' };

test('stale lists: a banner on Screening and Batch rescreen naming the list and the import; the window in Settings', async ({ page, service }) => {
  const { screening } = await openListsPanel(page, service, ORG);

  const banner = page.getByTestId('stale-lists');
  const sdn = banner.getByTestId('stale-list-us_ofac_sdn');
  await expect(sdn).toBeVisible();
  // The SDN file states no date of its own: it is dated by its retrieval, not called published.
  await expect(sdn).toContainText(/retrieved 3 May 2024, \d+ days old \(older than 14 days\)/);
  // A calm notice: the form stays where it is, well within the first screen.
  for (const line of await banner.locator('li').all()) expect((await line.boundingBox())!.height).toBeLessThan(24);
  await expect(page.getByTestId('screening-form').getByLabel('First name')).toBeInViewport();
  await expect(screening.listsPanel.locator('[data-source="us_ofac_sdn"] .badge-warning')).toHaveText('Out of date');
  // CONSOLE_SCREENSHOTS=/some/dir also saves console-stale-lists.png.
  if (process.env.CONSOLE_SCREENSHOTS) await page.screenshot({ path: join(process.env.CONSOLE_SCREENSHOTS, 'console-stale-lists.png'), fullPage: true });

  // Its link opens the page with the import steps: the console's import and the real CLI command.
  await banner.getByTestId('stale-lists-how').click();
  await expect(page).toHaveURL(/#\/screening\/update-lists$/);
  await expect(page.getByTestId('update-lists-stale')).toContainText('OFAC Specially Designated Nationals');
  await expect(page.getByTestId('update-lists-cli')).toContainText('npm run cli -- lists import --data-dir DIR --source us_ofac_sdn FILE');
  await expect(page.getByText('Import newer official file…').first()).toBeVisible();
  if (process.env.CONSOLE_SCREENSHOTS) await page.screenshot({ path: join(process.env.CONSOLE_SCREENSHOTS, 'console-update-lists.png'), fullPage: true });
  await page.getByRole('link', { name: 'Back to Screening' }).click();
  await expect(banner).toBeVisible();

  await page.goto('/#/rescreen');
  await expect(page.getByTestId('stale-list-us_ofac_sdn')).toBeVisible();
  // Dismissed, it stays away for this session (here and on Screening), the list still marked in the panel.
  await page.getByTestId('stale-lists-dismiss').click();
  await expect(page.getByTestId('stale-lists')).toHaveCount(0);
  await screening.goto();
  await screening.waitForLists();
  await expect(page.getByTestId('stale-lists')).toHaveCount(0);
  await expect(screening.listsPanel.locator('[data-source="us_ofac_sdn"] .badge-warning')).toHaveText('Out of date');
  await page.evaluate(() => sessionStorage.clear());

  await page.goto('/#/settings');
  const section = page.getByTestId('settings-list-freshness');
  await expect(section.getByTestId('list-freshness-sanctions_stale_days')).toHaveValue('14');
  await section.getByTestId('list-freshness-sanctions_stale_days').fill('0');
  await section.getByTestId('list-freshness-save').click();
  await expect(section.getByTestId('list-freshness-sanctions_stale_days-error')).toContainText('from 1 to 3650');
  await section.getByTestId('list-freshness-sanctions_stale_days').fill('3650');
  await section.getByTestId('list-freshness-pep_stale_days').fill('3650');
  await section.getByTestId('list-freshness-save').click();
  await expect(section.getByTestId('list-freshness-notice')).toContainText('Saved');

  await screening.goto();
  await screening.waitForLists();
  await expect(screening.loadedLists.first()).toBeVisible();
  await expect(page.getByTestId('stale-lists')).toHaveCount(0);
});
