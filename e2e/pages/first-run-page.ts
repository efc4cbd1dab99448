import { expect, type Locator, type Page } from '@playwright/test';

export interface Owner {
  organization: string;
  name: string;
  email: string;
  password: string;
  /** The plan chosen in first run; left at Free when not given. */
  plan?: 'free' | 'starter' | 'growth' | 'pro' | 'enterprise';
}

export class FirstRunPage {
  readonly root: Locator;
  constructor(readonly page: Page) {
    this.root = page.getByTestId('first-run');
  }

  async goto(): Promise<void> {
    await this.page.goto('/');
    await expect(this.root).toBeVisible();
  }

  async createOrganization(owner: Owner): Promise<void> {
    await this.root.getByTestId('first-run-org').fill(owner.organization);
    await this.root.getByTestId('first-run-name').fill(owner.name);
    await this.root.getByTestId('first-run-email').fill(owner.email);
    await this.root.getByTestId('first-run-password').fill(owner.password);
    await this.root.getByTestId('first-run-confirm').fill(owner.password);
    if (owner.plan) await this.root.getByTestId(`first-run-plan-${owner.plan}`).check();
    await this.root.getByTestId('first-run-submit').click();
  }
}
