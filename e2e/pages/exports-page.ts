import { expect, type Locator, type Page } from '@playwright/test';

/** The Exports screen and its New export dialog. */
export class ExportsPage {
  readonly table: Locator;
  readonly rows: Locator;
  readonly newButton: Locator;
  readonly dialog: Locator;
  readonly notice: Locator;
  readonly upgrade: Locator;
  constructor(readonly page: Page) {
    this.table = page.getByTestId('exports-table');
    this.rows = this.table.getByTestId('export-row');
    this.newButton = page.getByTestId('new-export');
    this.dialog = page.getByTestId('create-export-dialog');
    this.notice = page.getByTestId('exports-notice');
    this.upgrade = page.getByTestId('exports-upgrade');
  }

  async goto(): Promise<void> {
    await this.page.goto('/#/exports');
    await expect(this.page.getByRole('heading', { level: 1, name: 'Exports' })).toBeVisible();
  }

  row(id: number): Locator {
    return this.table.locator(`[data-row-id="${id}"]`);
  }

  /** Fills the open dialog and creates the export. */
  async create(opts: { reportType: string; format: 'pdf' | 'csv'; preset?: 7 | 30 | 90 }): Promise<void> {
    await this.dialog.getByTestId('export-report-type').selectOption(opts.reportType);
    await this.dialog.getByTestId(`export-format-${opts.format}`).check();
    if (opts.preset) await this.dialog.getByTestId(`export-range-preset-${opts.preset}`).click();
    await this.dialog.getByTestId('create-export-submit').click();
    await expect(this.dialog).toBeHidden();
  }
}
