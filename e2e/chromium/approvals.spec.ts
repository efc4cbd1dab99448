// The approval queue against the real service (issue 26): with four-eyes on, an analyst clears a
// strong sanctions match; an admin, signed in in their own browser, finds it from Home in the
// Approvals queue and sends it back with a note; the analyst's review shows the note and the row
// undecided; the analyst clears it again, the admin approves it, and the analyst sees it approved.
// The queue shows what the analyst saw (the customer, the listed person, the analyst's note) while
// the analyst's batch is open, and says it is no longer held once they start another (issue 36).
// Members see no Approvals screen. The notes and the customer never reach the service's data directory.
// CONSOLE_SCREENSHOTS=/some/dir also saves console-approvals-*.png.
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { makeCanaries, scanForCanaries } from '../../src-main/service/test/privacy';
import { initOrg, signIn, type TestOrg } from '../support/accounts';
import { expect, test, type Service } from '../support/service';
import { inviteMember } from '../support/seed';
import { ApprovalsPage } from '../pages/approvals-page';
import { BatchPage } from '../pages/batch-page';
import { ReviewPage } from '../pages/review-page';
import { SettingsPage } from '../pages/settings-page';

const OWNER: TestOrg = { organization: 'Northwind Compliance', email: 'owner@northwind.test', password: 'correct horse battery', plan: 'pro' };
const ADMIN = { email: 'admin@northwind.test', password: 'admin password 1', name: 'Ada Admin' };
const ANALYST = { email: 'analyst@northwind.test', password: 'analyst password', name: 'Ana Analyst' };
const HEADER = 'client_reference_id,first_name,middle_name,last_name,date_of_birth,gender,country,previous_screening_id,previous_risk_score,previous_risk_level';

const shotsDir = process.env.CONSOLE_SCREENSHOTS;
async function shot(page: Page, name: string): Promise<void> {
  if (shotsDir) await page.screenshot({ path: join(shotsDir, `console-approvals-${name}.png`), fullPage: true });
}

/** A second browser: its own cookies, as the approver's own computer would have. */
async function secondBrowser(browser: Browser, service: Service): Promise<Page> {
  const context = await browser.newContext({ baseURL: service.url, viewport: { width: 1440, height: 900 } });
  return context.newPage();
}

/** The row's outcome arrives by polling (every few seconds). */
const OUTCOME = { timeout: 20_000 };

test('approval queue: an admin sends a clearance back with a note, then approves it; the analyst sees each outcome', async ({ page, service, browser }) => {
  test.setTimeout(150_000);
  const c = makeCanaries();
  await initOrg(service, OWNER);
  await inviteMember(service, OWNER, { ...ADMIN, role: 'admin' });
  await inviteMember(service, OWNER, { ...ANALYST, role: 'member' });

  // The admin, on their own computer, turns four-eyes on.
  const adminPage = await secondBrowser(browser, service);
  const adminShell = await signIn(adminPage, { ...OWNER, ...ADMIN });
  await adminShell.open('settings');
  await new SettingsPage(adminPage).setFourEyes(true);

  // The analyst (a member) runs a batch and clears the strong match: it waits. No Approvals for them.
  await signIn(page, { ...OWNER, ...ANALYST });
  await expect(page.getByTestId('nav-approvals')).toHaveCount(0);
  const batch = new BatchPage(page);
  await batch.goto();
  await batch.importCsv('watch.csv', `${HEADER}\r\n${c.clientReference},Vladimir,,Putin,,,,scr_prev1,0,low\r\n`);
  await batch.waitForLists();
  await batch.run();
  await batch.waitForStatus('done');
  await page.getByTestId('batch-open-review').click();
  const review = new ReviewPage(page);
  const putin = review.rowByName('Vladimir Putin');
  await putin.getByTestId('review-name').click();
  await review.press('c');
  await expect(review.reasonDialog.getByTestId('review-reason-four-eyes')).toContainText('in their Approvals queue');
  await review.giveReason('different_dob', `Analyst note about ${c.fullName}`);
  await expect(review.disposition(putin)).toHaveAttribute('data-approval', 'pending');
  await page.goto('/#/approvals');
  await expect(page.getByTestId('approvals-not-allowed')).toBeVisible();
  await page.goto('/#/review');

  // The admin finds it from Home: one clearance waits, and the link opens the queue.
  await adminShell.open('home');
  await expect(adminPage.getByTestId('home-clearances')).toContainText('1 cleared match waits');
  await adminPage.getByTestId('home-clearances').getByRole('link', { name: 'Approvals' }).click();
  await expect(adminPage).toHaveURL(/#\/approvals$/);
  const approvals = new ApprovalsPage(adminPage);
  await expect(approvals.rows).toHaveCount(1);
  const item = approvals.row(2);
  await expect(item.getByTestId('approvals-requester')).toHaveText(ANALYST.name);
  await expect(item.getByTestId('approvals-reason')).toHaveText('Different date of birth');
  await expect(item.getByTestId('approvals-matches')).toContainText('Sanctions');
  // What the analyst saw, from the service's memory while their batch is open: the customer, the
  // listed person and the analyst's note.
  await expect(item.getByTestId('approvals-customer')).toHaveText('Vladimir Putin');
  await expect(item.getByTestId('approvals-customer-details')).toHaveText(`no date of birth · no country · ref ${c.clientReference}`);
  await expect(item.getByTestId('approvals-listed-name').first()).toContainText(/putin/i);
  await expect(item.getByTestId('approvals-note')).toContainText(`Analyst note about ${c.fullName}`);
  await expect(item.getByTestId('approvals-not-held')).toHaveCount(0);
  await shot(adminPage, 'queue');

  // Sending back needs a note; with one, the row leaves the queue.
  await item.getByTestId('approvals-send-back').click();
  await approvals.sendBackDialog.getByTestId('approvals-send-back-confirm').click();
  await expect(approvals.sendBackDialog.getByTestId('approvals-send-back-note-error')).toContainText('Say why it goes back');
  await shot(adminPage, 'send-back');
  const note = `The listed date of birth matches ${c.fullName}'s passport: check again`;
  await approvals.sendBackDialog.getByTestId('approvals-send-back-note').fill(note);
  await approvals.sendBackDialog.getByTestId('approvals-send-back-confirm').click();
  await expect(approvals.sendBackDialog).toBeHidden();
  await expect(approvals.notice).toContainText(`Sent back: row 2 is undecided again in ${ANALYST.name}’s review`);
  await expect(approvals.empty).toBeVisible();
  await shot(adminPage, 'empty');

  // The analyst's review learns it: the row is undecided, with the admin's note.
  await expect(review.disposition(putin)).toHaveAttribute('data-approval', 'sent_back', OUTCOME);
  await expect(review.disposition(putin)).toHaveAttribute('data-disposition', '');
  await expect(review.disposition(putin).getByTestId('review-sent-back-by')).toContainText(ADMIN.email);
  await expect(page.getByTestId('review-outcome-notice')).toContainText(note);
  await putin.getByTestId('review-toggle').click();
  await expect(review.detail.getByTestId('review-sent-back-note')).toHaveText(note);
  await shot(page, 'analyst-sent-back');

  // The analyst decides again; the admin approves; the analyst sees it approved.
  await review.detail.getByTestId('review-dispose-cleared_false_positive').click();
  await review.giveReason('different_nationality');
  await expect(review.disposition(putin)).toHaveAttribute('data-approval', 'pending');
  await expect(approvals.rows).toHaveCount(1, { timeout: 15_000 });
  await expect(approvals.row(2).getByTestId('approvals-reason')).toHaveText('Different nationality or country');
  await approvals.approve(approvals.row(2));
  await expect(approvals.notice).toContainText('Approved: row 2');
  await expect(approvals.empty).toBeVisible();
  await expect(review.disposition(putin)).toHaveAttribute('data-approval', 'approved', OUTCOME);
  await expect(review.disposition(putin).getByTestId('review-approved-by')).toHaveText(`Approved by ${ADMIN.email}`);
  await expect(review.detail.getByTestId('review-sent-back')).toContainText('Sent back earlier');
  await shot(page, 'analyst-approved');

  // A clearing still waiting when the analyst starts another batch: the approver is told the
  // customer's details are no longer held; the clearance still waits, with its evidence flags.
  await review.detail.getByTestId('review-dispose-escalated').click();
  await expect(review.disposition(putin)).toHaveAttribute('data-disposition', 'escalated');
  await review.detail.getByTestId('review-dispose-cleared_false_positive').click();
  await review.giveReason('other', `Second note about ${c.fullName}`);
  await expect(approvals.rows).toHaveCount(1, { timeout: 15_000 });
  await expect(approvals.row(2).getByTestId('approvals-customer')).toHaveText('Vladimir Putin');
  await page.getByTestId('nav-rescreen').click();
  // The unsaved decisions are named first; the analyst discards them for the new file.
  await batch.fileInput.setInputFiles({
    name: 'next.csv', mimeType: 'text/csv', buffer: Buffer.from(`${HEADER}\r\n${c.clientReference}-2,Maren,,Quellfeather,,,,scr_prev2,0,low\r\n`),
  });
  await page.getByTestId('batch-discard-dialog').getByTestId('batch-discard-confirm').click();
  await expect(page.getByTestId('batch-parse-progress')).toBeHidden({ timeout: 30_000 });
  await expect(batch.rowsValid).toHaveText('1');
  await batch.waitForLists();
  await batch.run();
  await batch.waitForStatus('done');
  await expect(approvals.row(2).getByTestId('approvals-not-held')).toHaveText('No longer held: the analyst’s batch has ended', { timeout: 15_000 });
  await expect(approvals.row(2).getByTestId('approvals-customer')).toHaveCount(0);
  await expect(approvals.row(2).getByTestId('approvals-matches')).toContainText('Sanctions');
  await expect(adminPage.getByTestId('approvals')).not.toContainText(c.fullName);
  await shot(adminPage, 'not-held');

  // The audit log says who sent back and who approved; the note itself is nowhere at rest.
  await adminShell.open('audit');
  await expect(adminPage.getByTestId('audit-table')).toContainText(`sent back to ${ANALYST.email} with a note`);
  await expect(adminPage.getByTestId('audit-table')).not.toContainText('check again');
  expect(scanForCanaries(service.dataDir, c)).toEqual([]);
  await adminPage.context().close();
});
