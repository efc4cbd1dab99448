import { expect, type Locator, type Page } from '@playwright/test';

export class PlanPage {
  readonly balance: Locator;
  readonly planLabel: Locator;
  readonly ledger: Locator;
  readonly ledgerRows: Locator;
  constructor(readonly page: Page) {
    this.balance = page.getByTestId('credit-balance');
    this.planLabel = page.getByTestId('plan-label');
    this.ledger = page.getByTestId('ledger-table');
    this.ledgerRows = this.ledger.getByTestId('ledger-row');
  }

  async goto(): Promise<void> {
    await this.page.goto('/#/plan');
    await expect(this.ledger).toBeVisible();
  }
}
