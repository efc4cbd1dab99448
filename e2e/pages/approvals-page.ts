// Page object: the Approvals screen (owners and admins) — the queue of clearances waiting for a
// second person, with Approve and Send back, each confirmed in a dialog.
import { expect, type Locator, type Page } from '@playwright/test';

export class ApprovalsPage {
  readonly table: Locator;
  readonly rows: Locator;
  readonly empty: Locator;
  readonly notice: Locator;
  readonly approveDialog: Locator;
  readonly sendBackDialog: Locator;

  constructor(readonly page: Page) {
    this.table = page.getByTestId('approvals-table');
    this.rows = this.table.getByTestId('approvals-row');
    this.empty = page.getByTestId('approvals-empty');
    this.notice = page.getByTestId('approvals-notice');
    this.approveDialog = page.getByTestId('approvals-approve-dialog');
    this.sendBackDialog = page.getByTestId('approvals-send-back-dialog');
  }

  async goto(): Promise<void> {
    await this.page.goto('/#/approvals');
    await expect(this.page.getByTestId('approvals')).toBeVisible();
  }

  row(batchRow: number): Locator {
    return this.table.locator(`[data-testid="approvals-row"][data-row="${batchRow}"]`);
  }

  async approve(row: Locator): Promise<void> {
    await row.getByTestId('approvals-approve').click();
    await expect(this.approveDialog).toBeVisible();
    await this.approveDialog.getByTestId('approvals-approve-confirm').click();
    await expect(this.approveDialog).toBeHidden();
  }

  /** Opens "Send back…" and confirms with `note` (an empty note is refused in the dialog). */
  async sendBack(row: Locator, note: string): Promise<void> {
    await row.getByTestId('approvals-send-back').click();
    await expect(this.sendBackDialog).toBeVisible();
    await this.sendBackDialog.getByTestId('approvals-send-back-note').fill(note);
    await this.sendBackDialog.getByTestId('approvals-send-back-confirm').click();
  }
}
