// Date fields follow the console's date preference (issue 26): in "local" they show and read the
// locale's order (here en-GB, day first), in "iso" YYYY-MM-DD, and either way the screen sends
// YYYY-MM-DD. Chromium's own <input type="date"> showed mm/dd/yyyy whatever was chosen.
// CONSOLE_SCREENSHOTS=/some/dir also saves screenshots (console-date-fields*.png).
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { DEFAULT_ORG, initOrg, signIn } from '../support/accounts';
import { expect, test } from '../support/service';
import { ReportsPage } from '../pages/reports-page';
import { ScreeningPage } from '../pages/screening-page';

test.use({ locale: 'en-GB', timezoneId: 'UTC' });

const shotsDir = process.env.CONSOLE_SCREENSHOTS;
async function shot(page: Page, name: string): Promise<void> {
  if (shotsDir) await page.screenshot({ path: join(shotsDir, `console-${name}.png`) });
}

test('date fields: typed and shown in the preference\'s order, sent as YYYY-MM-DD, on the ledger, audit log, reports and screening', async ({ page, service }) => {
  test.setTimeout(90_000);
  const org = { ...DEFAULT_ORG, plan: 'pro' as const };
  await initOrg(service, org);
  const shell = await signIn(page, org);

  // Ledger, "local" (the default) in en-GB: 02/01/2026 is 2 January.
  await shell.open('verifications');
  const from = page.getByTestId('ledger-filter-from');
  await expect(from).toHaveAttribute('placeholder', 'DD/MM/YYYY');
  const asked = page.waitForRequest((r) => r.url().includes('/api/verifications?') && r.url().includes('from='));
  await from.fill('02/01/2026');
  expect(new URL((await asked).url()).searchParams.get('from')).toBe('2026-01-02T00:00:00.000Z');
  await expect(from).toHaveAttribute('data-value', '2026-01-02');
  await expect(from).not.toHaveAttribute('aria-invalid', 'true');
  // One or two digits, normalised when the field is left.
  const to = page.getByTestId('ledger-filter-to');
  await to.fill('5.1.2026');
  await to.blur();
  await expect(to).toHaveValue('05/01/2026');
  await expect(to).toHaveAttribute('data-value', '2026-01-05');
  // No such day (month 13) is marked, and no filter is sent for it.
  await to.fill('05/13/2026');
  await expect(to).toHaveAttribute('aria-invalid', 'true');
  await expect(to).toHaveAttribute('data-value', '');
  await to.blur();
  await expect(to).toHaveValue('05/13/2026');
  await shot(page, 'date-fields-ledger-local');

  // The preference to ISO: the same date is shown as YYYY-MM-DD, and typed so.
  await shell.open('settings');
  await page.getByTestId('pref-date-format').selectOption('iso');
  await shell.open('verifications');
  await expect(page.getByTestId('ledger-filter-from')).toHaveAttribute('placeholder', 'YYYY-MM-DD');
  await page.getByTestId('ledger-filter-from').fill('2026-01-03');
  await expect(page.getByTestId('ledger-filter-from')).toHaveAttribute('data-value', '2026-01-03');
  await shot(page, 'date-fields-ledger-iso');

  // The audit log's range, in ISO.
  await shell.open('audit');
  const auditFrom = page.getByTestId('audit-filter-from');
  await expect(auditFrom).toHaveAttribute('placeholder', 'YYYY-MM-DD');
  const auditAsked = page.waitForRequest((r) => r.url().includes('/api/audit?') && r.url().includes('from='));
  await auditFrom.fill('2026-01-02');
  expect(new URL((await auditAsked).url()).searchParams.get('from')).toBe('2026-01-02T00:00:00.000Z');
  await shot(page, 'date-fields-audit-iso');

  // The reports' range: a preset's dates appear in the preference's form; back to local, in the locale's.
  const reports = new ReportsPage(page);
  await reports.goto();
  await reports.preset(7).click();
  await expect(reports.from).toHaveValue(/^\d{4}-\d{2}-\d{2}$/);
  const isoFrom = await reports.isoDate(reports.from);
  await shell.open('settings');
  await page.getByTestId('pref-date-format').selectOption('local');
  await reports.goto();
  await reports.preset(7).click();
  const [y, m, d] = isoFrom.split('-');
  await expect(reports.from).toHaveValue(`${d}/${m}/${y}`);
  await shot(page, 'date-fields-reports-local');

  // Screening: a date of birth typed day first is screened as YYYY-MM-DD; no day at all is refused on the form.
  const screening = new ScreeningPage(page);
  await screening.goto();
  await screening.waitForLists();
  await screening.fill({ firstName: 'Jane', lastName: 'Example', dob: '31/02/1990' });
  await screening.submitButton.click();
  await expect(screening.fieldError('dob')).toBeVisible();
  await shot(page, 'date-fields-screening-invalid');
  await screening.field('dob').fill('12/08/1964');
  const sent = page.waitForRequest((r) => r.url().includes('/api/console/screen') && r.method() === 'POST');
  await screening.submitButton.click();
  expect(((await sent).postDataJSON() as { subject: { date_of_birth?: string } }).subject.date_of_birth).toBe('1964-08-12');
  await expect(screening.fieldError('dob')).toHaveCount(0);
  await shot(page, 'date-fields-screening');
});
