import { readFile } from 'node:fs/promises';
import { expect, type Locator, type Page } from '@playwright/test';

/** Batch rescreen: import a CSV, run it, watch the progress, save the results. */
export class BatchPage {
  readonly fileInput: Locator;
  readonly validation: Locator;
  readonly rowsRead: Locator;
  readonly rowsValid: Locator;
  readonly rowsInvalid: Locator;
  readonly issues: Locator;
  readonly issueRows: Locator;
  readonly parseError: Locator;
  readonly lists: Locator;
  readonly env: Locator;
  readonly cost: Locator;
  readonly runButton: Locator;
  readonly cancelButton: Locator;
  readonly progressBlock: Locator;
  readonly progress: Locator;
  readonly progressRows: Locator;
  readonly rate: Locator;
  readonly outcome: Locator;
  readonly saveButton: Locator;
  readonly results: Locator;
  readonly resultRows: Locator;
  readonly confirmLive: Locator;
  /** Owners and admins: every open batch of the organisation, with End. */
  readonly openBatches: Locator;
  readonly openBatchRows: Locator;
  constructor(readonly page: Page) {
    this.fileInput = page.getByTestId('batch-file-input');
    this.validation = page.getByTestId('batch-validation');
    this.rowsRead = page.getByTestId('batch-rows-read');
    this.rowsValid = page.getByTestId('batch-rows-valid');
    this.rowsInvalid = page.getByTestId('batch-rows-invalid');
    this.issues = page.getByTestId('batch-issues');
    this.issueRows = page.getByTestId('batch-issue-row');
    this.parseError = page.getByTestId('batch-parse-error');
    this.lists = page.getByTestId('batch-lists');
    this.env = page.getByTestId('batch-env');
    this.cost = page.getByTestId('batch-cost');
    this.runButton = page.getByTestId('batch-run-button');
    this.cancelButton = page.getByTestId('batch-cancel');
    this.progressBlock = page.getByTestId('batch-progress-block');
    this.progress = page.getByTestId('batch-progress').getByRole('progressbar');
    this.progressRows = page.getByTestId('batch-progress-rows');
    this.rate = page.getByTestId('batch-rate');
    this.outcome = page.getByTestId('batch-outcome');
    this.saveButton = page.getByTestId('batch-save');
    this.results = page.getByTestId('batch-results-grid');
    this.resultRows = this.results.getByTestId('batch-result-row');
    this.confirmLive = page.getByTestId('batch-confirm-live');
    this.openBatches = page.getByTestId('open-batches');
    this.openBatchRows = this.openBatches.getByTestId('open-batch-row');
  }

  async goto(): Promise<void> {
    await this.page.goto('/#/rescreen');
    await expect(this.page.getByTestId('batch-import')).toBeVisible();
  }

  /** The service loads its lists a few seconds after start; a batch cannot open before. */
  async waitForLists(): Promise<void> {
    await expect(this.lists).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  }

  /** Chooses a CSV through the file input and waits until it has been read. */
  async importCsv(name: string, content: string | Buffer): Promise<void> {
    await this.fileInput.setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.isBuffer(content) ? content : Buffer.from(content) });
    await expect(this.page.getByTestId('batch-parse-progress')).toBeHidden({ timeout: 30_000 });
    await expect(this.validation).toBeVisible();
  }

  async run(): Promise<void> {
    await expect(this.runButton).toBeEnabled({ timeout: 15_000 });
    await this.runButton.click();
  }

  async waitForStatus(status: 'done' | 'cancelled', timeout = 60_000): Promise<void> {
    await expect(this.progressBlock).toHaveAttribute('data-status', status, { timeout });
  }

  async processed(): Promise<number> {
    return Number(await this.progressRows.getAttribute('data-processed'));
  }

  /** Save results… (or the template, the error report) is a download in a browser. */
  async saveResults(): Promise<{ name: string; text: string }> {
    return this.download(this.saveButton);
  }

  /** Clicks a button that saves a file and returns the downloaded file's name and text. */
  async download(button: Locator): Promise<{ name: string; text: string }> {
    const download = this.page.waitForEvent('download');
    await button.click();
    const d = await download;
    const path = await d.path();
    return { name: d.suggestedFilename(), text: await readFile(path, 'utf8') };
  }

  row(rowNumber: number): Locator {
    return this.resultRows.and(this.page.locator(`[data-row="${rowNumber}"]`));
  }
}
