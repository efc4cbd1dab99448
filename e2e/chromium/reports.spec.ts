// The Reports dashboard against the real reporting API on a seeded ledger: the figures on screen
// are the API's, presets stop at the plan's range, advanced reports are an upgrade note (and never
// requested) below Growth, and the V2.1 credits snapshot is for owners, admins and billing only.
// CONSOLE_SCREENSHOTS=/some/dir also saves screenshots (console-reports*.png).
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { addMember, initOrg, signIn, type TestOrg } from '../support/accounts';
import { seedDecisions, seedHistory } from '../support/report-history';
import { expect, test } from '../support/service';
import { ReportsPage } from '../pages/reports-page';

const shotsDir = process.env.CONSOLE_SCREENSHOTS;
async function shot(page: Page, name: string): Promise<void> {
  if (shotsDir) await page.screenshot({ path: join(shotsDir, `console-${name}.png`), fullPage: true });
}

const org = (plan: TestOrg['plan']): TestOrg => ({
  organization: 'Northwind Compliance', email: 'owner@northwind.test', password: 'correct horse battery', plan,
});

const pct = (n: number) => `${n.toFixed(1)}%`;
const num = (n: number) => n.toLocaleString('en-US');

test('reports: the dashboard shows the API figures for the seeded ledger, advanced and V2.1 included', async ({ page, service }) => {
  await initOrg(service, org('growth'));
  await seedHistory(service);
  await seedDecisions(service);
  await page.setViewportSize({ width: 1440, height: 3300 });
  await signIn(page, org('growth'));
  const reports = new ReportsPage(page);
  await reports.goto();
  await expect(reports.preset(30)).toHaveAttribute('aria-pressed', 'true');
  for (const d of [7, 30, 90] as const) await expect(reports.preset(d)).toBeEnabled();

  await reports.preset(90).click();
  await expect(reports.preset(90)).toHaveAttribute('aria-pressed', 'true');
  const q = await reports.range();
  const overview = (await (await page.request.get(`/api/reports/overview?${q}`)).json()).data;
  expect(overview.total_verifications).toBeGreaterThan(0);
  await expect(reports.total).toHaveText(num(overview.total_verifications));
  await expect(reports.passRate).toHaveText(pct(overview.pass_rate));
  await expect(reports.avgConfidence).toHaveText(overview.avg_confidence === null ? '—' : overview.avg_confidence.toFixed(1));
  for (const s of ['PASS', 'FAIL', 'ERROR'] as const) await expect(reports.status(s)).toHaveText(num(overview.by_status[s]));

  // Screening checks beside the products (issue 26): the API's figures, under the shared names.
  const sc = overview.screening;
  expect(sc.total).toBeGreaterThan(0);
  expect(sc.decided).toBeGreaterThan(0);
  await expect(page.getByTestId('rep-screening-total-value')).toHaveText(num(sc.total));
  await expect(page.getByTestId('rep-screening-total')).toContainText(`${num(sc.screenings)} screenings, ${num(sc.rescreenings)} rescreens`);
  await expect(page.getByTestId('rep-screening-hit-rate-value')).toHaveText(pct(sc.hit_rate));
  for (const [d, label] of [['cleared_false_positive', 'Cleared'], ['escalated', 'Escalated'], ['needs_info', 'Needs info']] as const) {
    await expect(page.getByTestId(`rep-screening-${d}`)).toHaveText(`${label}${num(sc.dispositions[d])}`);
  }
  await expect(page.getByTestId('rep-screening-awaiting')).toHaveText(`Awaiting a second approval: ${num(sc.awaiting_approval)}`);
  await expect(page.getByTestId('rep-screening-median-value')).toHaveText(/^\d+ (s|min|h \d+ min|d \d+ h)$/);

  // The volume chart draws the series; its data table has one row per point.
  const volume = (await (await page.request.get(`/api/reports/volume?${q}&granularity=week`)).json()).data;
  await page.getByTestId('rep-granularity').selectOption('week');
  await expect(reports.volumeChart.locator('svg[role="img"] path.chart-area')).toHaveCount(2);
  await expect(reports.volumeChart.locator('svg[role="img"]')).toHaveAttribute('aria-label', new RegExp(`^${num(volume.totals.total)} verifications`));
  await page.getByTestId('rep-volume-chart-toggle-data').click();
  await expect(page.getByTestId('rep-volume-chart-data-row')).toHaveCount(volume.series.length);

  const usage = (await (await page.request.get(`/api/reports/usage?${q}`)).json()).data;
  await expect(reports.usageKeyRows).toHaveCount(usage.by_api_key.length);
  await expect(reports.creditsTotal).toHaveText(num(usage.credits_consumed.total));

  // Growth: the advanced reports are there.
  await expect(reports.advancedUpgrade).toHaveCount(0);
  const risk = (await (await page.request.get(`/api/reports/risk-summary?${q}`)).json()).data;
  await expect(page.getByTestId('rep-risk-confidence')).toContainText(`median ${risk.median_confidence === null ? '—' : risk.median_confidence.toFixed(1)}`);
  const widgets = (await (await page.request.get(`/api/reports/widget-performance?${q}`)).json()).data;
  await expect(page.getByTestId('rep-widget-row')).toHaveCount(widgets.widgets.length);
  const coverage = (await (await page.request.get(`/api/reports/regulatory-coverage?${q}`)).json()).data;
  await expect(page.getByTestId('rep-coverage-count')).toHaveText(num(coverage.compliance_verifications));
  // The list checks are the overview's KYC plus verifications and screening checks, said so.
  expect(coverage.compliance_verifications).toBe(overview.by_product.compliance + sc.total);
  await expect(page.getByTestId('rep-coverage-parts')).toHaveText(
    `KYC plus ${num(overview.by_product.compliance)} + screening checks ${num(sc.total)} = ${num(coverage.compliance_verifications)}.`,
  );
  // The product mix names the products as everywhere else.
  await page.getByTestId('rep-mix-chart-toggle-data').click();
  await expect(page.getByTestId('rep-mix-chart-data')).toContainText('Liveness');
  await expect(page.getByTestId('rep-mix-chart-data')).not.toContainText('Human');
  await page.getByTestId('rep-mix-chart-toggle-data').click();

  // V2.1: the score, the comparison with its direction, health checks; the owner sees credits.
  const v21 = (await (await page.request.get(`/api/reports/v21/verification?${q}`)).json()).data;
  await expect(reports.score).toHaveText(v21.compliance_effectiveness_score.toFixed(1));
  const dir = v21.period_comparison.total_delta > 0 ? 'up' : v21.period_comparison.total_delta < 0 ? 'down' : 'flat';
  await expect(page.getByTestId('rep-delta-total')).toHaveAttribute('data-direction', dir);
  await expect(page.getByTestId('rep-health-check')).toHaveCount(v21.health_checks.length);
  await expect(reports.creditsSnapshot).toBeVisible();
  await expect(reports.creditsHidden).toHaveCount(0);
  await page.getByTestId('rep-volume-chart-toggle-data').click();
  await expect(page.getByTestId('rep-volume-chart-data')).toHaveCount(0);
  await shot(page, 'reports');

  // Wheeling past the bottom of the report scrolls the report, never the window onto a blank page.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.mouse.move(900, 500);
  for (let i = 0; i < 4; i++) await page.mouse.wheel(0, 4000);
  await expect.poll(() => page.evaluate(() => document.querySelector('main')!.scrollTop)).toBeGreaterThan(0);
  expect(await page.evaluate(() => [window.scrollY, document.scrollingElement!.scrollHeight <= window.innerHeight])).toEqual([0, true]);
});

test('reports: Starter presets stop at 30 days, advanced reports are an upgrade note and never requested', async ({ page, service }) => {
  await initOrg(service, org('starter'));
  await seedHistory(service);
  const asked: string[] = [];
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (path.startsWith('/api/reports/')) asked.push(path);
  });
  await signIn(page, org('starter'));
  const reports = new ReportsPage(page);
  await reports.goto();
  await expect(reports.preset(7)).toBeEnabled();
  await expect(reports.preset(30)).toBeEnabled();
  await expect(reports.preset(90)).toBeDisabled();
  await expect(reports.preset(90)).toHaveAttribute('title', 'Your Starter plan covers up to 30 days.');
  await expect(reports.rangeLimit).toContainText('Your Starter plan covers up to 30 days.');
  await expect(reports.total).not.toHaveText('…');

  await expect(reports.advancedUpgrade).toContainText('Advanced reports require Growth plan or higher');
  await expect(reports.risk).toHaveCount(0);
  await expect(reports.exportButton).toHaveCount(0);
  await expect(reports.exportUnavailable).toHaveText('Exports need the Growth plan or higher.');
  await expect(reports.score).not.toHaveText('…');
  expect(asked.filter((p) => /risk-summary|widget-performance|regulatory-coverage/.test(p))).toEqual([]);

  // A custom range beyond the plan is named on screen and not asked for.
  const before = asked.length;
  const to = await reports.isoDate(reports.to);
  const from = new Date(Date.parse(`${to}T00:00:00Z`) - 30 * 86_400_000).toISOString().slice(0, 10);
  await reports.from.fill(from);
  await expect(reports.rangeProblem).toHaveText('That is 31 days. Your Starter plan covers up to 30 days; choose a shorter range.');
  await expect(page.getByTestId('rep-overview')).toHaveCount(0);
  expect(asked.length).toBe(before);
  // The service refuses the same range with its own text.
  const refused = await page.request.get(`/api/reports/overview?env=test&from=${from}&to=${to}`);
  expect(refused.status()).toBe(400);
  await shot(page, 'reports-starter');
});

test('reports: on Free only the 7-day preset is offered', async ({ page, service }) => {
  await initOrg(service, org('free'));
  await signIn(page, org('free'));
  const reports = new ReportsPage(page);
  await reports.goto();
  await expect(reports.preset(7)).toHaveAttribute('aria-pressed', 'true');
  await expect(reports.preset(30)).toBeDisabled();
  await expect(reports.preset(90)).toBeDisabled();
  await expect(reports.preset(30)).toHaveAttribute('title', 'Your Free plan covers up to 7 days.');
  await expect(reports.total).toHaveText('0');
  await expect(page.getByTestId('rep-volume-chart-empty')).toHaveText('No verifications in this range.');
});

test('reports: a member sees the V2.1 analytics without the credits snapshot', async ({ page, service }) => {
  const owner = await initOrg(service, org('growth'));
  await seedHistory(service);
  const member = await addMember(service, owner, { email: 'mo@northwind.test', password: 'member password 1' });
  await signIn(page, member);
  const reports = new ReportsPage(page);
  await reports.goto();
  await expect(reports.score).not.toHaveText('…');
  await expect(reports.creditsHidden).toHaveText('The credits snapshot is shown to owners, admins and people with billing access.');
  await expect(reports.creditsSnapshot).toHaveCount(0);
  const full = (await (await page.request.get(`/api/reports/v21/full?${await reports.range()}`)).json()).data;
  expect(full.credits).toEqual({ available: false, snapshot: null });
});
