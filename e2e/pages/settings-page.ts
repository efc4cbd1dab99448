import { expect, type Locator, type Page } from '@playwright/test';

/** Settings: the organization (name, logo), four-eyes, preferences and the data directory. */
export class SettingsPage {
  readonly fourEyes: Locator;
  readonly notice: Locator;
  readonly name: Locator;
  readonly saveName: Locator;
  readonly orgNotice: Locator;
  readonly logo: Locator;
  readonly logoFile: Locator;
  readonly removeLogo: Locator;
  readonly dataDirectory: Locator;
  constructor(readonly page: Page) {
    this.fourEyes = page.getByTestId('settings-four-eyes');
    this.notice = page.getByTestId('settings-notice');
    this.name = page.getByTestId('organization-name');
    this.saveName = page.getByTestId('organization-name-save');
    this.orgNotice = page.getByTestId('organization-notice');
    this.logo = page.getByTestId('organization-logo');
    this.logoFile = page.getByTestId('organization-logo-file');
    this.removeLogo = page.getByTestId('organization-logo-remove');
    this.dataDirectory = page.getByTestId('settings-data-directory');
  }

  async rename(name: string): Promise<void> {
    await this.name.fill(name);
    await this.saveName.click();
    await expect(this.orgNotice).toContainText('name is saved');
  }

  async uploadLogo(file: { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
    await this.logoFile.setInputFiles(file);
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
