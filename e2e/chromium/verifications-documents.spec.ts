// The Verifications screen's try panel with a selfie and an ID document, against the real service,
// its face models and its document reader: identity read as an analyst does (the MRZ line by line,
// each check digit, the face match against its threshold), and KYC-plus of a listed holder with its
// report PDF downloaded. The documents are the repository's rendered specimens.
// CONSOLE_SCREENSHOTS=/some/dir also saves screenshots (console-verifications-*.png).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { degrade, HOLDERS, mrzLines, renderSpecimen, type Holder } from '../../src-main/service/test/document-fixtures';
import { selfie } from '../../src-main/service/test/face-fixtures';
import { DEFAULT_ORG, initOrg, signIn } from '../support/accounts';
import { expect, test } from '../support/service';

// This spec verifies people: the face and document models load as the app starts them.
test.use({ models: 'eager' });

const shotsDir = process.env.CONSOLE_SCREENSHOTS;
/**
 * The window with the answer's decision at the top, and the whole screen (`-full`): the app scrolls
 * inside its own frame, so for that the window is made as tall as the screen's content.
 */
async function shot(page: Page, name: string): Promise<void> {
  if (!shotsDir) return;
  // Scroll the app's own frame only (scrollIntoView would nudge the whole page too).
  await page.getByTestId('try-panel').evaluate((el) => {
    const main = document.getElementById('main');
    if (main) main.scrollTop += el.getBoundingClientRect().top - main.getBoundingClientRect().top - 16;
  });
  await page.screenshot({ path: join(shotsDir, `console-${name}.png`) });
  const size = page.viewportSize();
  const content = await page.evaluate(() => document.getElementById('main')?.scrollHeight ?? 0);
  if (!size || content <= size.height) return;
  await page.setViewportSize({ width: size.width, height: content + 100 });
  await page.screenshot({ path: join(shotsDir, `console-${name}-full.png`) });
  await page.setViewportSize(size);
}

/** A reading of a document takes seconds on a small machine, more while other tests run. */
const READ_TIMEOUT = 60_000;

const passport = async (h: Holder) => degrade(await renderSpecimen(h, { kind: 'td3' }), 'clean');
const jpeg = (name: string, buffer: Buffer) => ({ name, mimeType: 'image/jpeg', buffer });

/**
 * A holder on the sanctions lists, on a specimen passport. Face 'c': the selfie of face 'd' holds a
 * second face at its edge (multiple_faces), which would fail the identity part before screening.
 */
const LISTED: Holder = {
  surname: 'PUTIN', given: 'VLADIMIR VLADIMIROVICH', dob: '1952-10-07', sex: 'M', nationality: 'RUS', issuing: 'RUS',
  number: '720000001', expiry: '2031-01-01', issued: '2021-01-02', face: 'c',
};

async function storageOf(page: Page): Promise<string> {
  return page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
}

test('verifications: identity by selfie and passport shows the MRZ with every check digit and the face match against its threshold', async ({ page, service }) => {
  test.setTimeout(180_000);
  const holder = HOLDERS[1]!;
  await initOrg(service);
  const shell = await signIn(page);
  await shell.open('verifications');
  const panel = page.getByTestId('try-panel');
  await expect(panel).toBeVisible();
  // KYC-plus screens the holder: not on the Free plan.
  await expect(page.getByTestId('try-kyc')).toBeDisabled();

  // Identity needs the document as well as the selfie.
  await page.getByTestId('try-identity').check();
  await page.getByTestId('try-file').setInputFiles(jpeg('selfie.jpg', await selfie('b')));
  await expect(page.getByTestId('try-run')).toBeDisabled();
  await page.getByTestId('try-front-file').setInputFiles(jpeg('passport.jpg', await passport(holder)));
  await expect(page.getByTestId('try-front-drop').getByRole('img')).toBeVisible();
  // A back is optional (cards with the MRZ there), and can be taken away again.
  await page.getByTestId('try-back-file').setInputFiles(jpeg('back.jpg', await passport(holder)));
  await expect(page.getByTestId('try-back-drop').getByRole('img')).toBeVisible();
  await page.getByTestId('try-back-remove').click();
  await expect(page.getByTestId('try-back-drop')).toContainText('Drop the back here');
  await page.getByTestId('try-run').click();

  const decision = page.getByTestId('try-decision');
  await expect(decision).toHaveAttribute('data-status', 'verified', { timeout: READ_TIMEOUT });
  await expect(decision).toContainText('Verified');

  // The MRZ as read, line by line, and every check digit valid.
  await expect(page.getByTestId('try-mrz-line')).toHaveText(mrzLines(holder, 'td3'));
  const digits = page.getByTestId('try-check-digit');
  await expect(digits).toHaveCount(5);
  for (const d of await digits.all()) {
    await expect(d).toHaveAttribute('data-valid', 'true');
    await expect(d).toContainText('Valid');
  }
  await expect(page.getByTestId('try-printed-field')).toHaveCount(4);
  await expect(page.getByTestId('try-printed').locator('[data-agreement="mismatch"]')).toHaveCount(0);

  // What was read, the document checks, and the face match against its threshold.
  await expect(page.getByTestId('try-doc-name')).toHaveText(`${holder.given} ${holder.surname}`);
  await expect(page.getByTestId('try-document')).toContainText('12 Aug 1964');
  await expect(page.getByTestId('try-authenticity')).toHaveAttribute('data-genuine', 'true');
  await expect(page.getByTestId('try-authenticity-checks').locator('tr[data-critical="true"][data-result="fail"]')).toHaveCount(0);
  const face = page.getByTestId('try-face-match');
  await expect(face).toHaveAttribute('data-match', 'true');
  const similarity = Number(await page.getByTestId('try-similarity').textContent());
  const threshold = Number(await page.getByTestId('try-threshold').textContent());
  expect(threshold).toBeGreaterThan(0);
  expect(similarity).toBeGreaterThanOrEqual(threshold);
  await expect(face).toContainText('at or above the threshold');
  await expect(page.getByTestId('try-json')).toContainText('"verification_id": "idv_');
  await shot(page, 'verifications-identity');

  // Someone else's selfie against the same passport: not verified, and why in plain words.
  await page.getByTestId('try-file').setInputFiles(jpeg('other.jpg', await selfie('a')));
  await page.getByTestId('try-run').click();
  await expect(decision).toHaveAttribute('data-reason', 'face_mismatch', { timeout: READ_TIMEOUT });
  await expect(decision).toHaveAttribute('data-status', 'not_verified');
  await expect(decision).toContainText('Face does not match the document');
  await expect(face).toHaveAttribute('data-match', 'false');
  await expect(face).toContainText('below the threshold');
  await shot(page, 'verifications-identity-mismatch');

  // Both are in the test ledger, made by the console.
  const rows = page.getByTestId('ledger-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0).getByTestId('ledger-product')).toHaveText('Identity');
  await expect(rows.nth(0).getByTestId('ledger-status')).toContainText('Face does not match the document');
  await expect(rows.nth(1).getByTestId('ledger-status')).toHaveAttribute('data-status', 'PASS');

  // Nothing of the images or the holder is kept by the page.
  expect(await storageOf(page)).not.toMatch(/base64|image|MUSTERMANN/i);
});

test('verifications: KYC-plus of a listed holder is a potential match with the record, and its report downloads as a PDF', async ({ page, service }) => {
  test.setTimeout(180_000);
  const org = await initOrg(service, { ...DEFAULT_ORG, plan: 'pro' });
  const shell = await signIn(page, org);
  await shell.open('verifications');

  await page.getByTestId('try-kyc').check();
  await page.getByTestId('try-file').setInputFiles(jpeg('selfie.jpg', await selfie('c')));
  await page.getByTestId('try-front-file').setInputFiles(jpeg('passport.jpg', await passport(LISTED)));
  await page.getByTestId('try-run').click();

  // The screening of the holder read from the document: a potential match, with the record and why.
  const screening = page.getByTestId('try-screening');
  await expect(screening).toHaveAttribute('data-status', 'Potential Match', { timeout: READ_TIMEOUT });
  const decision = page.getByTestId('try-decision');
  await expect(decision).toHaveAttribute('data-reason', 'screening_hit');
  await expect(decision).toContainText('Potential watchlist match');
  const hits = page.getByTestId('try-hit');
  expect(await hits.count()).toBeGreaterThan(0);
  await expect(page.getByTestId('try-hits')).toContainText(String(await hits.count()));
  await expect(hits.first()).toContainText(/PUTIN/i);
  await expect(hits.first().locator('td').last()).not.toHaveText('—');
  // The identity part held: the face matched and the document read.
  await expect(page.getByTestId('try-face-match')).toHaveAttribute('data-match', 'true');
  await expect(page.getByTestId('try-check-digit').and(page.locator('[data-valid="false"]'))).toHaveCount(0);

  // The report: a PDF download, named by the service.
  let downloading = page.waitForEvent('download');
  await page.getByTestId('try-report-download').click();
  let download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^kyc_report_kyc_.+\.pdf$/);
  let pdf = await readFile(await download.path());
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  await expect(page.getByTestId('try-report-notice')).toContainText('downloaded');
  await shot(page, 'verifications-kyc');

  // With a password: encrypted, still a PDF.
  await page.getByTestId('try-report-password').fill('report secret 42');
  downloading = page.waitForEvent('download');
  await page.getByTestId('try-report-download').click();
  download = await downloading;
  pdf = await readFile(await download.path());
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(pdf.toString('latin1')).toContain('/Encrypt');
  await expect(page.getByTestId('try-report-notice')).toContainText('encrypted');

  const rows = page.getByTestId('ledger-row');
  await expect(rows).toHaveCount(1);
  await expect(rows.nth(0).getByTestId('ledger-product')).toHaveText('KYC plus');
  await expect(rows.nth(0).getByTestId('ledger-status')).toHaveAttribute('data-status', 'FAIL');

  // Nothing of the images, the holder or the password is kept by the page.
  expect(await storageOf(page)).not.toMatch(/base64|image|PUTIN|secret/i);
});
