import { expect, type Locator, type Page } from '@playwright/test';

/** The On-site server panel on the Hosted sessions screen. */
export class OnsitePanel {
  readonly panel: Locator;
  readonly state: Locator;
  readonly host: Locator;
  readonly port: Locator;
  readonly startButton: Locator;
  readonly stopButton: Locator;
  readonly url: Locator;
  readonly fingerprint: Locator;
  readonly expires: Locator;
  readonly notice: Locator;
  readonly readOnly: Locator;
  constructor(readonly page: Page) {
    this.panel = page.getByTestId('onsite-panel');
    this.state = this.panel.getByTestId('onsite-state');
    this.host = this.panel.getByTestId('onsite-host');
    this.port = this.panel.getByTestId('onsite-port');
    this.startButton = this.panel.getByTestId('onsite-start');
    this.stopButton = this.panel.getByTestId('onsite-stop');
    this.url = this.panel.getByTestId('onsite-url');
    this.fingerprint = this.panel.getByTestId('onsite-fingerprint');
    this.expires = this.panel.getByTestId('onsite-expires');
    this.notice = this.panel.getByTestId('onsite-notice');
    this.readOnly = this.panel.getByTestId('onsite-read-only');
  }

  async expectRunning(running: boolean): Promise<void> {
    await expect(this.state).toHaveAttribute('data-running', String(running));
  }

  /** Starts it from the form on `host` and `port`. */
  async start(host: string, port: number | string): Promise<void> {
    await this.host.selectOption(host);
    await this.port.fill(String(port));
    await this.startButton.click();
  }
}
