import { expect, type Locator, type Page } from '@playwright/test';

export type Scope = 'human' | 'age' | 'identity' | 'compliance';

export interface NewKey {
  name: string;
  env?: 'test' | 'live';
  scopes: Scope[];
  demo?: boolean;
}

export class KeysPage {
  readonly table: Locator;
  readonly rows: Locator;
  readonly createDialog: Locator;
  readonly newKeyDialog: Locator;
  readonly revokeDialog: Locator;
  constructor(readonly page: Page) {
    this.table = page.getByTestId('keys-table');
    this.rows = this.table.getByTestId('key-row');
    this.createDialog = page.getByTestId('create-key-dialog');
    this.newKeyDialog = page.getByTestId('new-key-dialog');
    this.revokeDialog = page.getByTestId('revoke-key-dialog');
  }

  async goto(): Promise<void> {
    await this.page.goto('/#/keys');
    await expect(this.table).toBeVisible();
  }

  row(name: string): Locator {
    return this.rows.filter({ has: this.page.getByTestId('key-name').getByText(name, { exact: true }) });
  }

  status(name: string): Locator {
    return this.row(name).getByTestId('key-status');
  }

  /** Fills and submits the create form; leaves the one-time dialog open. */
  async create(key: NewKey): Promise<void> {
    await this.page.getByTestId('create-key').click();
    await expect(this.createDialog).toBeVisible();
    await this.createDialog.getByTestId('key-name-input').fill(key.name);
    if (key.env) await this.createDialog.getByTestId(`key-env-${key.env}`).check();
    for (const scope of key.scopes) await this.createDialog.getByTestId(`key-scope-${scope}`).check();
    if (key.demo) await this.createDialog.getByTestId('key-demo').check();
    await this.createDialog.getByTestId('create-key-submit').click();
  }

  /** Reads the key and secret from the one-time dialog. */
  async revealed(): Promise<{ apiKey: string; secret: string }> {
    await expect(this.newKeyDialog).toBeVisible();
    return {
      apiKey: await this.newKeyDialog.getByTestId('new-key-value').inputValue(),
      secret: await this.newKeyDialog.getByTestId('new-key-secret').inputValue(),
    };
  }

  async closeRevealed(): Promise<void> {
    await this.newKeyDialog.getByTestId('new-key-done').click();
    await expect(this.newKeyDialog).toBeHidden();
  }

  async revoke(name: string): Promise<void> {
    await this.row(name).getByTestId('revoke-key').click();
    await expect(this.revokeDialog).toBeVisible();
    await expect(this.revokeDialog).toContainText(name);
    await this.revokeDialog.getByTestId('confirm-revoke').click();
    await expect(this.revokeDialog).toBeHidden();
  }
}
