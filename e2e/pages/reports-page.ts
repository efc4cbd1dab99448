import { expect, type Locator, type Page } from '@playwright/test';

/** The Reports dashboard. */
export class ReportsPage {
  readonly total: Locator;
  readonly passRate: Locator;
  readonly avgConfidence: Locator;
  readonly exportButton: Locator;
  readonly exportUnavailable: Locator;
  readonly advancedUpgrade: Locator;
  readonly risk: Locator;
  readonly widgets: Locator;
  readonly coverage: Locator;
  readonly score: Locator;
  readonly creditsSnapshot: Locator;
  readonly creditsHidden: Locator;
  readonly usageKeyRows: Locator;
  readonly creditsTotal: Locator;
  readonly from: Locator;
  readonly to: Locator;
  readonly rangeProblem: Locator;
  readonly rangeLimit: Locator;
  readonly volumeChart: Locator;
  constructor(readonly page: Page) {
    this.total = page.getByTestId('rep-total-value');
    this.passRate = page.getByTestId('rep-pass-rate-value');
    this.avgConfidence = page.getByTestId('rep-avg-confidence-value');
    this.exportButton = page.getByTestId('rep-export');
    this.exportUnavailable = page.getByTestId('rep-export-unavailable');
    this.advancedUpgrade = page.getByTestId('rep-advanced-upgrade');
    this.risk = page.getByTestId('rep-risk');
    this.widgets = page.getByTestId('rep-widgets');
    this.coverage = page.getByTestId('rep-coverage');
    this.score = page.getByTestId('rep-score');
    this.creditsSnapshot = page.getByTestId('rep-credits-snapshot');
    this.creditsHidden = page.getByTestId('rep-credits-hidden');
    this.usageKeyRows = page.getByTestId('rep-usage-key-row');
    this.creditsTotal = page.getByTestId('rep-credits-total');
    this.from = page.getByTestId('rep-range-from');
    this.to = page.getByTestId('rep-range-to');
    this.rangeProblem = page.getByTestId('rep-range-problem');
    this.rangeLimit = page.getByTestId('rep-range-limit');
    this.volumeChart = page.getByTestId('rep-volume-chart');
  }

  async goto(): Promise<void> {
    await this.page.goto('/#/reports');
    await expect(this.page.getByTestId('rep-range')).toBeVisible();
  }

  preset(days: 7 | 30 | 90): Locator {
    return this.page.getByTestId(`rep-range-preset-${days}`);
  }

  status(s: 'PASS' | 'FAIL' | 'ERROR'): Locator {
    return this.page.getByTestId(`rep-status-${s}`).locator('dd');
  }

  /** A date field's date as YYYY-MM-DD (the field shows it as the date preference says). */
  async isoDate(field: Locator): Promise<string> {
    return (await field.getAttribute('data-value')) ?? '';
  }

  /** The range on screen, as the query the dashboard sends. */
  async range(env: 'test' | 'live' = 'test'): Promise<string> {
    return new URLSearchParams({ env, from: await this.isoDate(this.from), to: await this.isoDate(this.to) }).toString();
  }
}
