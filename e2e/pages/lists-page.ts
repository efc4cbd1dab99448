import { readFile } from 'node:fs/promises';
import { expect, type Locator, type Page } from '@playwright/test';

export type OfficialSource = 'us_ofac_sdn' | 'us_ofac_cons' | 'us_csl' | 'un_sc' | 'pep_us_congress' | 'pep_us_executive' | 'pep_wikidata_leaders';

/** A file to upload: a path on disk, or content made in the test. */
export type UploadFile = string | { name: string; mimeType?: string; content: string | Buffer };

/**
 * An import plus the index rebuild after it: a few seconds on an idle machine. An official file
 * rules out the build's snapshot, so everything is indexed again: over a minute beside a CPU hog.
 */
const IMPORT_TIMEOUT = 120_000;

/** Screening's Lists panel: the lists loaded, your own lists, and the dialogs that change them. */
export class ListsPage {
  readonly panel: Locator;
  readonly state: Locator;
  readonly officialLists: Locator;
  readonly userLists: Locator;
  readonly notice: Locator;
  readonly addUserButton: Locator;
  readonly importOfficialButton: Locator;
  readonly userDialog: Locator;
  readonly officialDialog: Locator;
  readonly removeDialog: Locator;
  readonly report: Locator;
  readonly errorRows: Locator;
  constructor(readonly page: Page) {
    this.panel = page.getByTestId('lists-panel');
    this.state = this.panel.getByTestId('lists-state');
    this.officialLists = this.panel.getByTestId('loaded-list');
    this.userLists = this.panel.getByTestId('user-list');
    this.notice = this.panel.getByTestId('lists-notice');
    this.addUserButton = this.panel.getByTestId('lists-add-user');
    this.importOfficialButton = this.panel.getByTestId('lists-import-official');
    this.userDialog = page.getByTestId('add-user-list-dialog');
    this.officialDialog = page.getByTestId('import-official-dialog');
    this.removeDialog = page.getByTestId('remove-user-list-dialog');
    this.report = this.userDialog.getByTestId('user-list-report');
    this.errorRows = this.report.getByTestId('user-list-error-row');
  }

  /** Waits until the service answers GET /api/screening/lists with state 'ready' (2-4 s after it starts). */
  async waitForServiceLists(): Promise<void> {
    await expect
      .poll(async () => {
        const res = await this.page.request.get('/api/screening/lists');
        return res.ok() ? ((await res.json()) as { state: string }).state : `HTTP ${res.status()}`;
      }, { timeout: 30_000, intervals: [250, 500, 1000] })
      .toBe('ready');
  }

  /** The panel shows the lists as ready. */
  async waitForPanel(): Promise<void> {
    await expect(this.state).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  }

  userList(name: string): Locator {
    return this.userLists.filter({ has: this.page.getByTestId('user-list-name').getByText(name, { exact: true }) });
  }

  /** An official file held for confirmation, under "Lists loaded". */
  heldImport(source: OfficialSource): Locator {
    return this.page.getByTestId('held-import').and(this.page.locator(`[data-source="${source}"]`));
  }

  officialList(source: OfficialSource): Locator {
    return this.officialLists.and(this.page.locator(`[data-source="${source}"]`));
  }

  private async choose(input: Locator, file: UploadFile): Promise<void> {
    if (typeof file === 'string') {
      await input.setInputFiles(file);
    } else {
      const buffer = Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content);
      await input.setInputFiles({ name: file.name, mimeType: file.mimeType ?? 'application/octet-stream', buffer });
    }
  }

  /** Opens "Add your own list", fills it in and imports; waits for the report (success or not). */
  async addUserList(name: string, file: UploadFile): Promise<void> {
    if (!(await this.userDialog.isVisible())) {
      await this.addUserButton.click();
      await expect(this.userDialog).toBeVisible();
    }
    await this.userDialog.getByTestId('user-list-name').fill(name);
    await this.choose(this.userDialog.getByTestId('user-list-file'), file);
    await this.userDialog.getByTestId('add-user-list-submit').click();
    await expect(this.report.or(this.userDialog.getByTestId('add-user-list-error'))).toBeVisible({ timeout: IMPORT_TIMEOUT });
  }

  /** Opens "Import newer official file" (or starts over in it), picks the source and file, imports. */
  async importOfficial(source: OfficialSource, file: UploadFile): Promise<void> {
    if (!(await this.officialDialog.isVisible())) {
      await this.importOfficialButton.click();
      await expect(this.officialDialog).toBeVisible();
    }
    const again = this.officialDialog.getByTestId('import-official-again');
    if (await again.isVisible()) await again.click();
    await this.officialDialog.getByTestId('official-source').selectOption(source);
    await this.choose(this.officialDialog.getByTestId('official-file'), file);
    await this.officialDialog.getByTestId('import-official-submit').click();
    await expect(
      this.officialDialog.getByTestId('import-official-result')
        .or(this.officialDialog.getByTestId('import-official-error'))
        .or(this.officialDialog.getByTestId('import-official-held')),
    ).toBeVisible({ timeout: IMPORT_TIMEOUT });
  }

  async removeUserList(name: string): Promise<void> {
    await this.userList(name).getByTestId('user-list-remove').click();
    await expect(this.removeDialog).toBeVisible();
    await expect(this.removeDialog.getByTestId('remove-user-list-name')).toHaveText(name);
    await this.removeDialog.getByTestId('confirm-remove-user-list').click();
    await expect(this.removeDialog).toBeHidden({ timeout: IMPORT_TIMEOUT });
  }

  /** Clicks a button that saves a file and returns the downloaded file's name and text. */
  async download(button: Locator): Promise<{ name: string; text: string }> {
    const download = this.page.waitForEvent('download');
    await button.click();
    const d = await download;
    const path = await d.path();
    return { name: d.suggestedFilename(), text: await readFile(path, 'utf8') };
  }
}
