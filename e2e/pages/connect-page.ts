import { expect, type Locator, type Page } from '@playwright/test';

/** The desktop app's "Where does Compliance Console run?" page (connect.html). */
export class ConnectPage {
  readonly root: Locator;
  readonly heading: Locator;
  readonly refusal: Locator;
  readonly url: Locator;
  readonly urlError: Locator;
  readonly look: Locator;
  readonly server: Locator;
  readonly fingerprint: Locator;
  readonly pinnedFingerprint: Locator;
  readonly pinNote: Locator;
  readonly changed: Locator;
  readonly confirmation: Locator;
  readonly confirmationError: Locator;
  readonly submit: Locator;
  constructor(readonly page: Page) {
    this.root = page.getByTestId('connect');
    this.heading = this.root.getByRole('heading', { level: 1 });
    this.refusal = page.getByTestId('connect-refusal');
    this.url = page.getByTestId('connect-url');
    this.urlError = page.getByTestId('connect-url-error');
    this.look = page.getByTestId('connect-look');
    this.server = page.getByTestId('connect-server');
    this.fingerprint = page.getByTestId('connect-fingerprint');
    this.pinnedFingerprint = page.getByTestId('connect-pinned-fingerprint');
    this.pinNote = page.getByTestId('connect-pin-note');
    this.changed = page.getByTestId('connect-changed');
    this.confirmation = page.getByTestId('connect-confirmation');
    this.confirmationError = page.getByTestId('connect-confirmation-error');
    this.submit = page.getByTestId('connect-submit');
  }

  async chooseTeamServer(address: string): Promise<void> {
    await this.page.getByTestId('connect-choose-team').click();
    await this.url.fill(address);
    await this.look.click();
  }

  async chooseThisComputer(): Promise<void> {
    await this.page.getByTestId('connect-choose-local').click();
    await this.page.getByTestId('connect-run-local').click();
  }

  /** The fingerprint shown, as the 64 hex digits a person compares. */
  static hex(text: string | null): string {
    return (text ?? '').replace(/[^0-9A-F]/gi, '').toUpperCase();
  }

  async expectShown(fingerprint: string): Promise<void> {
    await expect(this.fingerprint).toBeVisible();
    expect(ConnectPage.hex(await this.fingerprint.textContent())).toBe(ConnectPage.hex(fingerprint));
  }
}
