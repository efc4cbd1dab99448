// Clearing reasons checked against the evidence (issue 23), in the real console against the real
// service: the review detail shows each listed record's dates of birth, countries, programmes,
// listing date and aliases beside the customer's own values; a reason the evidence contradicts is
// shown before submit, needs an override note and waits for a second person even with four-eyes
// off; saved while it waits it is not carried to the next rescreen as cleared; the audit log says
// which contradiction was overridden.
// CONSOLE_SCREENSHOTS=/some/dir also saves console-review-evidence-*.png.
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import Papa from 'papaparse';
import { initOrg, signIn, type TestOrg } from '../support/accounts';
import { expect, test } from '../support/service';
import { AuditPage } from '../pages/audit-page';
import { BatchPage } from '../pages/batch-page';
import { ReviewPage } from '../pages/review-page';
import { inviteMember } from '../support/seed';

const OWNER: TestOrg = { organization: 'Northwind Compliance', email: 'owner@northwind.test', password: 'correct horse battery', plan: 'pro' };
const ADMIN = { email: 'admin@northwind.test', password: 'admin password 1' };

const HEADER = ['client_reference_id', 'first_name', 'middle_name', 'last_name', 'date_of_birth', 'gender', 'country', 'previous_screening_id', 'previous_risk_score', 'previous_risk_level'];
const FILE = [HEADER, ['cust-0001', 'Vladimir', '', 'Putin', '1952-10-07', '', 'RU', 'scr_prev1', '0', 'low']].map((r) => r.join(',')).join('\r\n') + '\r\n';
const OVERRIDE_NOTE = 'Registry extract seen: listed date of birth is a clerical match only';

const shotsDir = process.env.CONSOLE_SCREENSHOTS;
async function shot(target: Page | Locator, name: string): Promise<void> {
  if (shotsDir) await target.screenshot({ path: join(shotsDir, `console-review-evidence-${name}.png`) });
}

function parseCsv(text: string): Record<string, string>[] {
  return Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true }).data;
}

async function runToReview(page: Page, batch: BatchPage, name: string, file: string): Promise<ReviewPage> {
  await batch.importCsv(name, file);
  await batch.waitForLists();
  await batch.run();
  await batch.waitForStatus('done');
  await page.getByTestId('batch-open-review').click();
  return new ReviewPage(page);
}

test('review: the listed record beside the customer; a contradicted reason needs an override note and a second person, and is audited', async ({ page, service }) => {
  test.setTimeout(150_000);
  await initOrg(service, OWNER);
  await inviteMember(service, OWNER, { ...ADMIN, role: 'admin' });
  const shell = await signIn(page, OWNER);
  const batch = new BatchPage(page);
  await batch.goto();
  const review = await runToReview(page, batch, 'watch.csv', FILE);

  const putin = review.rowByName('Vladimir Putin');
  await putin.getByTestId('review-name').click();
  await review.press('o');
  await expect(review.detail).toBeVisible();

  // The OFAC record: its date of birth and country beside the customer's; OFAC states no listing date.
  const ofac = review.detail.locator('[data-testid="review-match"][data-entity-id^="us_ofac_sdn:"]').first().getByTestId('review-compare');
  const cells = (label: string) => ofac.getByTestId(`review-compare-${label}`).locator('td');
  await expect(cells('date-of-birth').nth(0)).toHaveText('1952-10-07');
  await expect(cells('date-of-birth').nth(1)).toContainText('1952-10-07');
  await expect(cells('country').nth(0)).toHaveText('RU');
  await expect(cells('country').nth(1)).toContainText('RU');
  await expect(cells('programmes').nth(1)).toContainText('RUSSIA');
  await expect(cells('listed-on').nth(1)).toHaveText('not stated by the list');
  await expect(cells('aliases').nth(1)).not.toHaveText('not given');
  // The UK and Australian records of the same person are listings of that one match; the UK's states when it was designated.
  const listings = review.detail.locator('[data-testid="review-match"][data-entity-id^="us_ofac_sdn:"]').first().getByTestId('review-match-listing');
  await expect(listings).toHaveCount(3);
  const uk = listings.and(review.detail.locator('[data-entity-id^="uk_sanctions:"]'));
  await expect(uk.getByTestId('review-match-listing-listed-on')).toHaveText(/listed \d{4}-\d{2}-\d{2}$/);
  await shot(page, 'detail');

  // Four-eyes is off, yet "different date of birth" on an exact date of birth asks for an override.
  await review.press('c');
  await expect(review.reasonDialog).toBeVisible();
  await expect(review.reasonDialog.getByTestId('review-reason-four-eyes')).toHaveCount(0);
  await expect(review.reasonDialog.getByTestId('review-reason-confirm')).toHaveText('Clear match');
  await review.reasonDialog.getByTestId('review-reason-different_dob').check();
  const warning = review.reasonDialog.getByTestId('review-reason-contradiction');
  await expect(warning).toContainText('a listed date of birth matches exactly');
  await expect(warning).toContainText('an owner or admin other than you must then approve it');
  await expect(review.reasonDialog.getByTestId('review-reason-confirm')).toHaveText('Clear and ask for approval');
  await review.reasonDialog.getByTestId('review-reason-confirm').click();
  await expect(review.reasonDialog.getByTestId('review-reason-note-error')).toContainText('override note');
  await shot(page, 'override');
  // "Name only" while the date of birth agrees is refused the same way, before submit (issue 36).
  await review.reasonDialog.getByTestId('review-reason-name_only_common_name').check();
  await expect(warning).toContainText('"name-only match on a common name" but the date of birth agrees');
  // A reason the evidence does not contradict shows no warning.
  await review.reasonDialog.getByTestId('review-reason-list_record_outdated').check();
  await expect(warning).toHaveCount(0);
  await review.giveReason('different_dob', OVERRIDE_NOTE);
  await expect(review.disposition(putin)).toHaveAttribute('data-approval', 'pending');

  // The session ends by itself (it expired, or was ended elsewhere) with a decision unsaved: the
  // console asks the same person for their password in place, and nothing is lost.
  await page.context().clearCookies();
  await shell.open('audit');
  const lock = page.getByTestId('session-lock');
  await expect(lock).toBeVisible();
  await expect(lock.getByTestId('session-lock-email')).toHaveText(OWNER.email);
  await expect(lock.getByTestId('session-lock-unsaved')).toHaveText('1 decision is not saved yet.');
  await expect(page.locator('.app')).toHaveAttribute('inert', '');
  await shot(page, 'session-lock');
  await lock.getByTestId('session-lock-password').fill('not my password');
  await lock.getByTestId('session-lock-submit').click();
  await expect(lock.getByTestId('session-lock-error')).toBeVisible();
  await expect(lock.getByTestId('session-lock-password')).toBeFocused();
  await lock.getByTestId('session-lock-password').fill(OWNER.password);
  await lock.getByTestId('session-lock-submit').click();
  await expect(lock).toBeHidden();
  // What had focus when the session ended (the title of the screen just opened) has it again.
  await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeFocused();
  // The request the ended session refused was sent again: the audit log shows.
  await expect(new AuditPage(page).row('batch.created').first()).toBeVisible();
  await shell.open('review');
  await expect(review.disposition(putin)).toHaveAttribute('data-approval', 'pending');
  // Signing out names the unsaved decision first; keeping it stays signed in.
  await shell.logout();
  const discard = page.getByTestId('batch-discard-dialog');
  await expect(discard).toContainText('1 disposition has not been saved');
  await discard.getByRole('button', { name: 'Keep them' }).click();
  await expect(discard).toBeHidden();
  await expect(review.disposition(putin)).toHaveAttribute('data-approval', 'pending');

  // Saved while it waits: not cleared, so the next rescreen does not carry it.
  const pendingFile = await batch.download(review.saveButton);
  expect(parseCsv(pendingFile.text)[0]).toMatchObject({ disposition: 'awaiting_approval', disposition_reason: 'different_dob' });

  await review.approve(putin, ADMIN.email, ADMIN.password);
  await expect(review.approveDialog).toBeHidden();
  await expect(review.disposition(putin)).toHaveAttribute('data-approval', 'approved');
  const approvedFile = await batch.download(review.saveButton);
  expect(parseCsv(approvedFile.text)[0]).toMatchObject({ disposition: 'cleared_false_positive', disposition_reason: 'different_dob', approved_by: ADMIN.email });

  // The audit log names the contradiction the clearance overrode, on screen and in its export; never the note.
  await shell.open('audit');
  const audit = new AuditPage(page);
  await expect(audit.row('clearance.requested').first()).toContainText('overriding the evidence (The reason is "different date of birth" but a listed date of birth matches exactly)');
  await expect(audit.row('clearance.approved').first()).toContainText('overriding the evidence');
  await shot(page, 'audit');
  const exported = await audit.exportCsv();
  const lines = parseCsv(exported.text);
  expect(lines.find((l) => l.action === 'clearance.requested')).toMatchObject({ reason_code: 'different_dob', override_contradiction: 'dob_matches_exactly' });
  expect(lines.find((l) => l.action === 'clearance.approved')).toMatchObject({ override_contradiction: 'dob_matches_exactly', approver: ADMIN.email });
  expect(exported.text).not.toContain(OVERRIDE_NOTE);

  // The file saved while waiting carries nothing: the rescreen shows it waiting, and the match high again.
  await shell.open('rescreen');
  const again = await runToReview(page, batch, 'watch-pending.csv', pendingFile.text);
  await again.filter('all');
  const waiting = again.rowByName('Vladimir Putin');
  await expect(waiting.getByTestId('review-earlier')).toHaveText('Earlier: Clearance awaiting approval');
  await expect(waiting.getByTestId('review-risk')).toHaveAttribute('data-level', 'high');

  // The file saved once approved carries the clearance, at its record version.
  await shell.open('rescreen');
  const cleared = await runToReview(page, batch, 'watch-approved.csv', approvedFile.text);
  await cleared.filter('all');
  const row = cleared.rowByName('Vladimir Putin');
  await expect(row.getByTestId('review-earlier')).toHaveText('Earlier: Cleared: false positive');
  await row.getByTestId('review-name').click();
  await cleared.press('o');
  await expect(cleared.detail.locator('[data-testid="review-match"][data-cleared="true"]').first()).toBeVisible();
});
