import { expect, type Locator, type Page } from '@playwright/test';

/** Settings: the organization's four-eyes switch. */
export class SettingsPage {
  readonly fourEyes: Locator;
  readonly notice: Locator;
  constructor(readonly page: Page) {
    this.fourEyes = page.getByTestId('settings-four-eyes');
    this.notice = page.getByTestId('settings-notice');
  }

  async goto(): Promise<void> {
    await this.page.goto('/#/settings');
    await expect(this.fourEyes).toBeVisible();
  }

  async setFourEyes(on: boolean): Promise<void> {
    await expect(this.fourEyes).toBeEnabled();
    if (on) await this.fourEyes.check();
    else await this.fourEyes.uncheck();
    await expect(this.notice).toContainText(on ? 'Four-eyes is on' : 'Four-eyes is off');
  }
}
