import { expect, type Locator, type Page } from '@playwright/test';

/** API reference: Swagger UI over the service's OpenAPI document, and the test key for "Try it out". */
export class ApiReferencePage {
  readonly doc: Locator;
  readonly keyInput: Locator;
  readonly keyError: Locator;
  readonly keySet: Locator;
  readonly unavailable: Locator;
  constructor(readonly page: Page) {
    this.doc = page.getByTestId('api-ref-doc');
    this.keyInput = page.getByTestId('api-ref-key');
    this.keyError = page.getByTestId('api-ref-key-error');
    this.keySet = page.getByTestId('api-ref-key-set');
    this.unavailable = page.getByTestId('api-ref-unavailable');
  }

  async goto(): Promise<void> {
    await this.page.goto('/#/api-reference');
    await expect(this.page.getByRole('heading', { name: 'API reference' })).toBeVisible();
  }

  /** The operation block of `method path` (Swagger UI's markup). */
  operation(method: string, path: string): Locator {
    return this.doc.locator(`.opblock-${method.toLowerCase()}`).filter({
      has: this.page.locator(`.opblock-summary-path[data-path="${path}"]`),
    });
  }

  async useKey(key: string): Promise<void> {
    await this.keyInput.fill(key);
    await this.page.getByTestId('api-ref-key-use').click();
  }
}
