// The verification ledger searched by id or client reference (issue 26): screenings made with an
// API key, then found by typing into the Verifications screen's search box.
// CONSOLE_SCREENSHOTS=/some/dir also saves screenshots (console-ledger-search*.png).
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { DEFAULT_ORG, initOrg, signIn } from '../support/accounts';
import { createKey } from '../support/seed';
import { expect, test } from '../support/service';

const shotsDir = process.env.CONSOLE_SCREENSHOTS;
async function shot(page: Page, name: string): Promise<void> {
  if (shotsDir) await page.screenshot({ path: join(shotsDir, `console-${name}.png`) });
}

const REFERENCE = 'CUST-2026-000417';

test('ledger search: an id, its first characters or an exact client reference finds the verification', async ({ page, service }) => {
  // Screening by API key needs the Pro plan.
  const org = await initOrg(service, { ...DEFAULT_ORG, plan: 'pro' });
  const key = await createKey(service, org, { name: 'Backend', env: 'test', scopes: ['compliance'] });
  const screen = async (reference?: string): Promise<string> => {
    let id = '';
    await expect.poll(async () => {
      const res = await page.request.post('/api/compliance/v1/screen', {
        headers: { 'X-API-Key': key.api_key },
        data: { subject: { type: 'individual', first_name: 'Jane', last_name: 'Example' }, ...(reference ? { client_reference_id: reference } : {}) },
      });
      if (res.ok()) id = ((await res.json()) as { id: string }).id;
      return res.status();
    }, { timeout: 20_000 }).toBe(200);
    return id;
  };
  const withRef = await screen(REFERENCE);
  const other = await screen('CUST-2026-000999');
  const plain = await screen();

  const shell = await signIn(page);
  await shell.open('verifications');
  const total = page.getByTestId('ledger-total');
  const rows = page.getByTestId('ledger-grid').getByTestId('ledger-row');
  await expect(total).toHaveAttribute('data-total', '3');
  const box = page.getByTestId('ledger-search');
  await expect(box).toHaveAttribute('autocomplete', 'off');

  // A whole id, as pasted from a support ticket.
  await box.fill(plain);
  await expect(total).toHaveAttribute('data-total', '1');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(plain);
  await shot(page, 'ledger-search-id');

  // The client reference, exactly as it was sent: found through its HMAC.
  await box.fill(REFERENCE);
  await expect(total).toHaveAttribute('data-total', '1');
  await expect(rows.first()).toContainText(withRef);
  await expect(page.getByTestId('ledger-grid')).not.toContainText(other);
  await shot(page, 'ledger-search-reference');

  // Part of a reference finds nothing; the table says what was searched for.
  await box.fill(REFERENCE.slice(0, 9));
  await expect(total).toHaveAttribute('data-total', '0');
  await expect(page.getByTestId('ledger-grid')).toContainText('No verification has this id');
  await shot(page, 'ledger-search-none');

  // The start of an id (the ids share their prefix here, so all three), then Clear filters.
  await box.fill('scr_');
  await box.press('Enter');
  await expect(total).toHaveAttribute('data-total', '3');
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(box).toHaveValue('');
  await expect(total).toHaveAttribute('data-total', '3');

  // Nothing typed is kept in the window's storage.
  const storage = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
  expect(storage).not.toContain(REFERENCE);
});
