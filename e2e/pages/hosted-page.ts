import { expect, type Locator, type Page } from '@playwright/test';

export type HostedProduct = 'human' | 'age' | 'identity' | 'compliance';

export interface NewHostedSession {
  product?: HostedProduct;
  minAge?: number;
  title?: string;
  successMessage?: string;
  failureMessage?: string;
  redirect?: string;
  failureRedirect?: string;
  hours?: number;
}

/** The console's Hosted sessions screen. */
export class HostedPage {
  readonly table: Locator;
  readonly rows: Locator;
  readonly empty: Locator;
  readonly newButton: Locator;
  readonly refreshButton: Locator;
  readonly notice: Locator;
  readonly createDialog: Locator;
  readonly createdDialog: Locator;
  readonly revokeDialog: Locator;
  readonly qr: Locator;
  constructor(readonly page: Page) {
    this.table = page.getByTestId('hosted-table');
    this.rows = this.table.getByTestId('hosted-row');
    this.empty = page.getByTestId('hosted-table-empty');
    this.newButton = page.getByTestId('new-hosted');
    this.refreshButton = page.getByTestId('hosted-refresh');
    this.notice = page.getByTestId('hosted-notice');
    this.createDialog = page.getByTestId('create-hosted-dialog');
    this.createdDialog = page.getByTestId('hosted-created-dialog');
    this.revokeDialog = page.getByTestId('revoke-hosted-dialog');
    this.qr = this.createdDialog.getByTestId('hosted-qr');
  }

  async goto(): Promise<void> {
    await this.page.goto('/#/hosted');
    await expect(this.table).toBeVisible();
  }

  row(sessionId: string): Locator {
    return this.table.locator(`[data-testid="hosted-row"][data-row-id="${sessionId}"]`);
  }

  state(sessionId: string): Locator {
    return this.row(sessionId).getByTestId('hosted-state');
  }

  /** Opens the dialog (unless open) and fills in what is given. */
  async fill(s: NewHostedSession): Promise<void> {
    if (!(await this.createDialog.isVisible())) {
      await this.newButton.click();
      await expect(this.createDialog).toBeVisible();
    }
    const d = this.createDialog;
    if (s.product) await d.getByTestId(`hosted-product-${s.product}`).check();
    if (s.minAge !== undefined) await d.getByTestId('hosted-min-age').fill(String(s.minAge));
    if (s.title !== undefined) await d.getByTestId('hosted-title').fill(s.title);
    if (s.successMessage !== undefined) await d.getByTestId('hosted-success-message').fill(s.successMessage);
    if (s.failureMessage !== undefined) await d.getByTestId('hosted-failure-message').fill(s.failureMessage);
    if (s.redirect !== undefined) await d.getByTestId('hosted-redirect').fill(s.redirect);
    if (s.failureRedirect !== undefined) await d.getByTestId('hosted-failure-redirect').fill(s.failureRedirect);
    if (s.hours !== undefined) await d.getByTestId('hosted-expiry').fill(String(s.hours));
  }

  async submit(): Promise<void> {
    await this.createDialog.getByTestId('create-hosted-submit').click();
  }

  /** The URL and session id the one-time dialog shows (left open). */
  async created(): Promise<{ url: string; sessionId: string }> {
    await expect(this.createdDialog).toBeVisible();
    return {
      url: await this.createdDialog.getByTestId('hosted-created-url').inputValue(),
      sessionId: (await this.createdDialog.getByTestId('hosted-created-id').textContent()) ?? '',
    };
  }

  async closeCreated(): Promise<void> {
    await this.createdDialog.getByTestId('hosted-created-done').click();
    await expect(this.createdDialog).toBeHidden();
  }

  async revoke(sessionId: string): Promise<void> {
    await this.row(sessionId).getByTestId('revoke-hosted').click();
    await expect(this.revokeDialog).toBeVisible();
    await this.revokeDialog.getByTestId('confirm-revoke-hosted').click();
    await expect(this.revokeDialog).toBeHidden();
  }
}
