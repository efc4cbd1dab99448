// The Verifications screen against the real service and its face models: try a selfie from disk
// in test mode, read the result as an analyst does, and find the check in the ledger.
// CONSOLE_SCREENSHOTS=/some/dir also saves screenshots (console-verifications*.png).
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { POLICY_NAMES } from '../../src-shared/contracts/faces';
import { initOrg, signIn } from '../support/accounts';
import { expect, ROOT, test } from '../support/service';

const shotsDir = process.env.CONSOLE_SCREENSHOTS;
async function shot(page: Page, name: string): Promise<void> {
  if (shotsDir) await page.screenshot({ path: join(shotsDir, `console-${name}.png`), fullPage: true });
}

const SAMPLE = join(ROOT, 'node_modules/@vladmandic/face-api/demo/sample1.jpg');
/** A selfie cropped around one face of the demo photo, and a picture with no face. */
const selfie = () => sharp(SAMPLE).extract({ left: 122, top: 105, width: 774, height: 774 }).resize(560).jpeg().toBuffer();
const noFace = () => sharp({ create: { width: 400, height: 300, channels: 3, background: '#3a6' } }).png().toBuffer();

test('verifications: try liveness and age on images, read the rules, and find both in the ledger', async ({ page, service }) => {
  test.setTimeout(90_000);
  await initOrg(service);
  const shell = await signIn(page);
  await shell.open('verifications');
  const panel = page.getByTestId('try-panel');
  await expect(panel).toBeVisible();
  await expect(page.getByTestId('ledger-grid')).toContainText('No verifications in test mode yet');

  // Liveness on a selfie: PASS, the box over the face, every rule met.
  await page.getByTestId('try-file').setInputFiles({ name: 'selfie.jpg', mimeType: 'image/jpeg', buffer: await selfie() });
  await page.getByTestId('try-run').click();
  await expect(page.getByTestId('try-decision')).toHaveAttribute('data-status', 'PASS', { timeout: 30_000 });
  await expect(page.getByTestId('try-box')).toBeVisible();
  const checks = page.getByTestId('try-checks').locator('tbody tr');
  // Every selfie rule but the one only identity can apply (not the ID document's own picture).
  await expect(checks).toHaveCount(POLICY_NAMES.filter((p) => p !== 'not_the_document').length);
  await expect(page.getByTestId('try-checks').locator('tr[data-passed="false"]')).toHaveCount(0);
  await expect(page.getByTestId('try-json')).toContainText('"verification_id"');
  // What the liveness rested on: a still photo, weaker evidence than the head-turn clip (issue 37).
  await expect(page.getByTestId('try-evidence')).toHaveAttribute('data-kind', 'still_photo');
  await expect(page.getByTestId('try-evidence')).toContainText('Still photo — A still photo is weaker evidence');
  await panel.scrollIntoViewIfNeeded();
  await shot(page, 'verifications-liveness');

  // Age on a picture without a face: ID needed, with the rule missed.
  await page.getByTestId('try-file').setInputFiles({ name: 'plain.png', mimeType: 'image/png', buffer: await noFace() });
  await page.getByTestId('try-age').check();
  await page.getByTestId('try-min-age').fill('21');
  await page.getByTestId('try-run').click();
  await expect(page.getByTestId('try-decision')).toHaveAttribute('data-status', 'id_required');
  await expect(page.getByTestId('try-decision')).toContainText('No face found');
  await expect(page.getByTestId('try-checks').locator('tr[data-policy="one_face"]')).toHaveAttribute('data-passed', 'false');

  // A file that is not an image is refused by name.
  await page.getByTestId('try-file').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') });
  await page.getByTestId('try-run').click();
  await expect(page.getByTestId('try-error')).toContainText('file is not a JPEG, PNG or WebP image');

  // Both checks are in the ledger (newest first), made by the console, free.
  const rows = page.getByTestId('ledger-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0).getByTestId('ledger-product')).toHaveText('Age');
  await expect(rows.nth(0).getByTestId('ledger-status')).toHaveAttribute('data-status', 'id_required');
  await expect(rows.nth(1).getByTestId('ledger-status')).toHaveAttribute('data-status', 'PASS');
  // A still photo is weaker evidence of a live person than the head-turn clip, and the ledger says so (issue 37).
  await expect(rows.nth(1).getByTestId('ledger-evidence')).toHaveText('still photo');
  await page.getByTestId('ledger-filter-product').selectOption('human');
  await expect(rows).toHaveCount(1);
  await shot(page, 'verifications-ledger');

  // Nothing of the images is kept by the page.
  const storage = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
  expect(storage).not.toMatch(/base64|image/i);
});
