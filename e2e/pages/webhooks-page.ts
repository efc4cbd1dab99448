import { expect, type Locator, type Page } from '@playwright/test';

export interface NewEndpoint {
  url: string;
  env?: 'test' | 'live';
  events: string[];
  description?: string;
}

export class WebhooksPage {
  readonly table: Locator;
  readonly rows: Locator;
  readonly empty: Locator;
  readonly addButton: Locator;
  readonly notice: Locator;
  readonly addDialog: Locator;
  readonly secretDialog: Locator;
  readonly removeDialog: Locator;
  readonly deliveries: Locator;
  readonly deliveryRows: Locator;
  constructor(readonly page: Page) {
    this.table = page.getByTestId('webhooks-table');
    this.rows = this.table.getByTestId('webhook-row');
    this.empty = page.getByTestId('webhooks-table-empty');
    this.addButton = page.getByTestId('add-webhook');
    this.notice = page.getByTestId('webhooks-notice');
    this.addDialog = page.getByTestId('add-webhook-dialog');
    this.secretDialog = page.getByTestId('new-webhook-dialog');
    this.removeDialog = page.getByTestId('remove-webhook-dialog');
    this.deliveries = page.getByTestId('deliveries-panel');
    this.deliveryRows = this.deliveries.getByTestId('delivery-row');
  }

  async goto(): Promise<void> {
    await this.page.goto('/#/webhooks');
    await expect(this.table).toBeVisible();
  }

  row(url: string): Locator {
    return this.rows.filter({ has: this.page.getByTestId('webhook-url').getByText(url, { exact: true }) });
  }

  /** Opens the add dialog and fills it in; `submit` sends it (the secret dialog then opens on success). */
  async fillAdd(endpoint: NewEndpoint): Promise<void> {
    if (!(await this.addDialog.isVisible())) {
      await this.addButton.click();
      await expect(this.addDialog).toBeVisible();
    }
    await this.addDialog.getByTestId('webhook-url-input').fill(endpoint.url);
    if (endpoint.env) await this.addDialog.getByTestId(`webhook-env-${endpoint.env}`).check();
    for (const event of endpoint.events) await this.addDialog.getByTestId(`webhook-event-${event}`).check();
    if (endpoint.description) await this.addDialog.getByTestId('webhook-description-input').fill(endpoint.description);
  }

  async submitAdd(): Promise<void> {
    await this.addDialog.getByTestId('add-webhook-submit').click();
  }

  /** Adds an endpoint and returns the signing secret from the one-time dialog (left open). */
  async add(endpoint: NewEndpoint): Promise<string> {
    await this.fillAdd(endpoint);
    await this.submitAdd();
    return this.revealedSecret();
  }

  async revealedSecret(): Promise<string> {
    await expect(this.secretDialog).toBeVisible();
    return this.secretDialog.getByTestId('new-webhook-secret').inputValue();
  }

  async closeRevealed(): Promise<void> {
    await this.secretDialog.getByTestId('new-webhook-done').click();
    await expect(this.secretDialog).toBeHidden();
  }

  async sendTest(url: string): Promise<void> {
    await this.row(url).getByTestId('test-webhook').click();
    await expect(this.notice).toContainText('Test event queued');
  }

  async openDeliveries(url: string): Promise<void> {
    await this.row(url).getByTestId('webhook-deliveries').click();
    await expect(this.deliveries).toBeVisible();
    await expect(this.deliveries.getByTestId('deliveries-url')).toHaveText(url);
  }

  deliveryState(index = 0): Locator {
    return this.deliveryRows.nth(index).getByTestId('delivery-state');
  }

  async remove(url: string): Promise<void> {
    await this.row(url).getByTestId('remove-webhook').click();
    await expect(this.removeDialog).toBeVisible();
    await expect(this.removeDialog.getByTestId('remove-webhook-url')).toHaveText(url);
    await this.removeDialog.getByTestId('confirm-remove-webhook').click();
    await expect(this.removeDialog).toBeHidden();
  }
}
