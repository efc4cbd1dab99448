import { expect, type Locator, type Page } from '@playwright/test';

export type PlanId = 'free' | 'starter' | 'growth' | 'pro' | 'enterprise';

export class PlanPage {
  readonly balance: Locator;
  readonly planLabel: Locator;
  readonly ledger: Locator;
  readonly ledgerRows: Locator;
  readonly changeButton: Locator;
  readonly changeDialog: Locator;
  readonly changes: Locator;
  readonly confirmButton: Locator;
  readonly notice: Locator;
  constructor(readonly page: Page) {
    this.balance = page.getByTestId('credit-balance');
    this.planLabel = page.getByTestId('plan-label');
    this.ledger = page.getByTestId('ledger-table');
    this.ledgerRows = this.ledger.getByTestId('ledger-row');
    this.changeButton = page.getByTestId('change-plan');
    this.changeDialog = page.getByTestId('change-plan-dialog');
    this.changes = this.changeDialog.getByTestId('plan-changes');
    this.confirmButton = this.changeDialog.getByTestId('change-plan-confirm');
    this.notice = page.getByTestId('plan-notice');
  }

  async goto(): Promise<void> {
    await this.page.goto('/#/plan');
    await expect(this.ledger).toBeVisible();
  }

  /** Opens "Change plan…" and picks a plan; the dialog then shows what changes. */
  async choose(plan: PlanId): Promise<void> {
    await this.changeButton.click();
    await expect(this.changeDialog).toBeVisible();
    await this.changeDialog.getByTestId(`change-plan-${plan}`).check();
  }

  /** The "before → after" text of one row of the change summary, e.g. 'Team size'. */
  change(label: string): Locator {
    return this.changes.locator('div').filter({ has: this.page.locator('dt', { hasText: label }) }).locator('dd');
  }
}
