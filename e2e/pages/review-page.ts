import { expect, type Locator, type Page } from '@playwright/test';

export type ReviewFilter = 'increased' | 'decreased' | 'new' | 'all';
export type Disposition = 'cleared_false_positive' | 'escalated' | 'needs_info';
export type ReasonCode =
  | 'different_dob' | 'different_nationality' | 'different_person_other_identifiers' | 'name_only_common_name' | 'list_record_outdated' | 'other';

/** Risk review: the last batch's changes, worked through with the keyboard. */
export class ReviewPage {
  readonly grid: Locator;
  readonly rows: Locator;
  readonly empty: Locator;
  readonly progress: Locator;
  readonly singleKeys: Locator;
  readonly search: Locator;
  readonly saveButton: Locator;
  readonly detail: Locator;
  readonly announce: Locator;
  readonly reasonDialog: Locator;
  readonly approveDialog: Locator;
  readonly decisionError: Locator;
  constructor(readonly page: Page) {
    this.grid = page.getByTestId('review-grid');
    this.rows = this.grid.getByTestId('review-row');
    this.empty = page.getByTestId('review-grid-empty');
    this.progress = page.getByTestId('review-progress');
    this.singleKeys = page.getByTestId('review-single-keys');
    this.search = page.getByTestId('review-search');
    this.saveButton = page.getByTestId('review-save');
    this.detail = page.getByTestId('review-detail');
    this.announce = page.getByTestId('review-announce');
    this.reasonDialog = page.getByTestId('review-reason-dialog');
    this.approveDialog = page.getByTestId('review-approve-dialog');
    this.decisionError = page.getByTestId('review-decision-error');
  }

  /** In the open "Clear a strong sanctions match" dialog: picks a reason, writes a note, confirms. */
  async giveReason(reason: ReasonCode, note = ''): Promise<void> {
    await expect(this.reasonDialog).toBeVisible();
    await this.reasonDialog.getByTestId(`review-reason-${reason}`).check();
    if (note) await this.reasonDialog.getByTestId('review-reason-note').fill(note);
    await this.reasonDialog.getByTestId('review-reason-confirm').click();
    await expect(this.reasonDialog).toBeHidden();
  }

  /** Opens "Approve…" on a row awaiting approval and signs the approver in. */
  async approve(row: Locator, email: string, password: string): Promise<void> {
    if (!(await this.approveDialog.isVisible())) await row.getByTestId('review-approve').click();
    await expect(this.approveDialog).toBeVisible();
    await this.approveDialog.getByTestId('review-approve-email').fill(email);
    await this.approveDialog.getByTestId('review-approve-password').fill(password);
    await this.approveDialog.getByTestId('review-approve-submit').click();
  }

  async goto(): Promise<void> {
    await this.page.goto('/#/review');
    await expect(this.grid).toBeVisible();
  }

  filterButton(f: ReviewFilter): Locator {
    return this.page.getByTestId(`review-filter-${f}`);
  }

  async filter(f: ReviewFilter): Promise<void> {
    await this.filterButton(f).click();
    await expect(this.filterButton(f)).toHaveAttribute('aria-selected', 'true');
  }

  rowAt(index: number): Locator {
    return this.rows.and(this.page.locator(`[aria-rowindex="${index + 2}"]`));
  }

  /** The row holding the grid's tab stop (a focused cell or control inside it). */
  focusedRow(): Locator {
    return this.rows.filter({ has: this.page.locator(':focus') });
  }

  rowByName(name: string): Locator {
    return this.rows.filter({ has: this.page.getByTestId('review-name').getByText(name, { exact: true }) });
  }

  disposition(row: Locator): Locator {
    return row.getByTestId('review-disposition');
  }

  /** The header of a sortable column (it carries aria-sort). */
  columnHeader(column: string): Locator {
    return this.grid.getByRole('columnheader').filter({ has: this.page.getByTestId(`sort-${column}`) });
  }

  /** Clicks a sortable column's header until it sorts in `direction`. */
  async sortBy(column: string, direction: 'ascending' | 'descending'): Promise<void> {
    const header = this.columnHeader(column);
    for (let i = 0; i < 2 && (await header.getAttribute('aria-sort')) !== direction; i++) await header.getByRole('button').click();
    await expect(header).toHaveAttribute('aria-sort', direction);
  }

  /** The customers' names in the order the grid shows them (the rows in the DOM, top first). */
  async names(): Promise<string[]> {
    const rows = await this.rows.all();
    const byIndex = await Promise.all(rows.map(async (r) => [Number(await r.getAttribute('aria-rowindex')), (await r.getByTestId('review-name').textContent()) ?? ''] as const));
    return byIndex.sort((a, b) => a[0] - b[0]).map(([, name]) => name);
  }

  async press(key: string): Promise<void> {
    await this.page.keyboard.press(key);
  }

  /**
   * Two animation frames: after an explanation closes, the grid re-measures its rows and gives
   * focus back to the row in a frame of its own (a keypress before that lands on the page, not
   * the grid, as it would for a person that fast).
   */
  async settled(): Promise<void> {
    await this.page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(null)))));
  }
}
