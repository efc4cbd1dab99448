// Report exports in the console against the real export jobs: create, watch it finish by polling,
// download through the page (a real browser download named by the service), and the plan gate.
// CONSOLE_SCREENSHOTS=/some/dir also saves screenshots (console-exports*.png).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { initOrg, signIn, type TestOrg } from '../support/accounts';
import { seedHistory } from '../support/report-history';
import { expect, test } from '../support/service';
import { ExportsPage } from '../pages/exports-page';
import { ReportsPage } from '../pages/reports-page';

const shotsDir = process.env.CONSOLE_SCREENSHOTS;
async function shot(page: Page, name: string): Promise<void> {
  if (shotsDir) await page.screenshot({ path: join(shotsDir, `console-${name}.png`) });
}

const org = (plan: TestOrg['plan']): TestOrg => ({
  organization: 'Northwind Compliance', email: 'owner@northwind.test', password: 'correct horse battery', plan,
});

async function newestId(page: Page): Promise<number> {
  const list = await (await page.request.get('/api/reports/exports')).json();
  return list.exports[0].id as number;
}

test('exports: a PDF export is made, followed until ready, and downloads as report_<id>.pdf', async ({ page, service }) => {
  await initOrg(service, org('growth'));
  await seedHistory(service);
  await signIn(page, org('growth'));
  const exportsPage = new ExportsPage(page);
  await exportsPage.goto();
  await expect(page.getByTestId('exports-table-empty')).toContainText('No exports yet.');

  await exportsPage.newButton.click();
  await expect(exportsPage.dialog.getByTestId('export-env-test')).toBeChecked();
  await exportsPage.create({ reportType: 'full', format: 'pdf', preset: 30 });
  await expect(exportsPage.notice).toContainText('was queued');
  const id = await newestId(page);
  const row = exportsPage.row(id);
  await expect(row.getByTestId('export-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 30_000 });
  await expect(row.getByTestId('export-expiry')).toHaveText(/^expires in 2[34] h \d+ min$/);
  await expect(page.getByTestId('exports-announce')).toContainText(`Export #${id}`);
  await shot(page, 'exports');

  const [download] = await Promise.all([page.waitForEvent('download'), row.getByTestId('export-download').click()]);
  expect(download.suggestedFilename()).toBe(`report_${id}.pdf`);
  const bytes = await readFile((await download.path())!);
  expect(bytes.subarray(0, 4).toString('latin1')).toBe('%PDF');
});

test('exports: the Reports screen exports its range as CSV and links to the Exports screen', async ({ page, service }) => {
  await initOrg(service, org('growth'));
  await seedHistory(service);
  await signIn(page, org('growth'));
  const reports = new ReportsPage(page);
  await reports.goto();
  await reports.preset(7).click();
  const from = await reports.isoDate(reports.from);
  await reports.exportButton.click();
  const exportsPage = new ExportsPage(page);
  // The dialog opens on the range on screen.
  await expect(exportsPage.dialog.getByTestId('export-range-from')).toHaveAttribute('data-value', from);
  await exportsPage.create({ reportType: 'volume', format: 'csv' });
  await page.getByTestId('rep-export-link').click();
  await expect(page).toHaveURL(/#\/exports$/);

  const id = await newestId(page);
  const job = await (await page.request.get(`/api/reports/exports/${id}`)).json();
  expect(job).toMatchObject({ report_type: 'volume', format: 'csv', params: { env: 'test', from } });
  const row = exportsPage.row(id);
  await expect(row.getByTestId('export-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 30_000 });
  const [download] = await Promise.all([page.waitForEvent('download'), row.getByTestId('export-download').click()]);
  expect(download.suggestedFilename()).toBe(`report_${id}.csv`);
  const text = await readFile((await download.path())!, 'utf8');
  expect(text.length).toBeGreaterThan(0);
  expect(text).not.toContain('%PDF');
});

test('exports: plans below Growth see why there are no exports', async ({ page, service }) => {
  await initOrg(service, org('starter'));
  await signIn(page, org('starter'));
  const exportsPage = new ExportsPage(page);
  await exportsPage.goto();
  await expect(exportsPage.upgrade.getByRole('heading')).toHaveText('Export functionality requires Growth plan or higher');
  await expect(exportsPage.newButton).toHaveCount(0);
  // The service refuses with the same words.
  const refused = await page.request.post('/api/reports/exports', { data: { report_type: 'overview', env: 'test', from: '2026-01-01', to: '2026-01-07' } });
  expect(refused.status()).toBe(403);
  expect((await refused.json()).error).toBe('Export functionality requires Growth plan or higher');
});

test('exports: a queued export is cancelled from the list and leaves it', async ({ page, service }) => {
  await initOrg(service, org('growth'));
  await seedHistory(service, { rows: 3000 });
  await signIn(page, org('growth'));
  // Ten exports at once (the most one organisation may have unfinished): they run one at a time,
  // so the newest waits in the queue for several seconds.
  const to = new Date().toISOString().slice(0, 10);
  const from = new Date(Date.now() - 89 * 86_400_000).toISOString().slice(0, 10);
  const ids: number[] = [];
  for (let i = 0; i < 10; i++) {
    const res = await page.request.post('/api/reports/exports', { data: { report_type: 'full-v21', format: 'pdf', env: 'test', from, to } });
    expect(res.status()).toBe(201);
    ids.push((await res.json()).id);
  }
  const newest = ids[ids.length - 1]!;
  const exportsPage = new ExportsPage(page);
  await exportsPage.goto();
  const row = exportsPage.row(newest);
  await expect(row.getByTestId('export-status')).toHaveAttribute('data-status', 'queued');
  await row.getByTestId('export-cancel').click();
  await expect(exportsPage.notice).toHaveText(`Export job cancelled: #${newest}, Full analytics (V2.1).`);
  await expect(row).toHaveCount(0);
  expect((await page.request.get(`/api/reports/exports/${newest}`)).status()).toBe(404);
  // The others are still followed to the end.
  await expect(exportsPage.row(ids[8]!).getByTestId('export-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 45_000 });
});
