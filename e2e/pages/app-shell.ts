import { expect, type Locator, type Page } from '@playwright/test';

/** The signed-in frame: navigation, top bar, environment switch, test-mode banner. */
export class AppShell {
  readonly nav: Locator;
  readonly orgName: Locator;
  readonly userName: Locator;
  readonly testModeBanner: Locator;
  readonly logoutButton: Locator;
  constructor(readonly page: Page) {
    this.nav = page.getByTestId('nav');
    this.orgName = page.getByTestId('org-name');
    this.userName = page.getByTestId('user-name');
    this.testModeBanner = page.getByTestId('test-mode-banner');
    this.logoutButton = page.getByTestId('logout');
  }

  async expectSignedIn(orgName: string): Promise<void> {
    await expect(this.nav).toBeVisible();
    await expect(this.orgName).toHaveText(orgName);
  }

  async open(screen: string): Promise<void> {
    await this.nav.getByTestId(`nav-${screen}`).click();
    await expect(this.page).toHaveURL(new RegExp(`#/${screen}$`));
  }

  async switchEnv(env: 'test' | 'live'): Promise<void> {
    await this.page.getByTestId(`env-${env}`).click();
    await expect(this.page.getByTestId(`env-${env}`)).toHaveAttribute('aria-pressed', 'true');
  }

  async logout(): Promise<void> {
    await this.logoutButton.click();
  }
}
