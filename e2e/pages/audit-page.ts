import { readFile } from 'node:fs/promises';
import { expect, type Locator, type Page } from '@playwright/test';

/** Audit log: the chain's status, filters, the table, and the CSV export. */
export class AuditPage {
  readonly chain: Locator;
  readonly table: Locator;
  readonly rows: Locator;
  readonly total: Locator;
  readonly exportButton: Locator;
  readonly actionFilter: Locator;
  readonly actorFilter: Locator;
  readonly fromFilter: Locator;
  readonly toFilter: Locator;
  readonly referenceFilter: Locator;
  constructor(readonly page: Page) {
    this.chain = page.getByTestId('audit-chain');
    this.table = page.getByTestId('audit-table');
    this.rows = this.table.getByTestId('audit-row');
    this.total = page.getByTestId('audit-total');
    this.exportButton = page.getByTestId('audit-export');
    this.actionFilter = page.getByTestId('audit-filter-action');
    this.actorFilter = page.getByTestId('audit-filter-actor');
    this.fromFilter = page.getByTestId('audit-filter-from');
    this.toFilter = page.getByTestId('audit-filter-to');
    this.referenceFilter = page.getByTestId('audit-filter-reference');
  }

  async goto(): Promise<void> {
    await this.page.goto('/#/audit');
    await expect(this.table).toBeVisible();
  }

  /** The actions of the rows on screen, newest first. */
  async actions(): Promise<string[]> {
    return this.rows.getByTestId('audit-action').evaluateAll((els) => els.map((e) => e.getAttribute('data-action') ?? ''));
  }

  row(action: string): Locator {
    return this.rows.filter({ has: this.page.locator(`[data-testid="audit-action"][data-action="${action}"]`) });
  }

  async findReference(reference: string): Promise<void> {
    await this.referenceFilter.fill(reference);
    await this.page.getByTestId('audit-filter-find').click();
  }

  async exportCsv(): Promise<{ name: string; text: string }> {
    const download = this.page.waitForEvent('download');
    await this.exportButton.click();
    const d = await download;
    return { name: d.suggestedFilename(), text: await readFile(await d.path(), 'utf8') };
  }
}
