import { expect, type Locator, type Page } from '@playwright/test';

export class LoginPage {
  readonly root: Locator;
  readonly error: Locator;
  constructor(readonly page: Page) {
    this.root = page.getByTestId('login');
    this.error = page.getByTestId('login-error');
  }

  async goto(): Promise<void> {
    await this.page.goto('/');
    await expect(this.root).toBeVisible();
  }

  async login(email: string, password: string): Promise<void> {
    await this.root.getByTestId('login-email').fill(email);
    await this.root.getByTestId('login-password').fill(password);
    await this.root.getByTestId('login-submit').click();
  }
}
