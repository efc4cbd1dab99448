// The review's audit trail against the real service: clearing a strong sanctions match asks for a
// reason; with four-eyes on a second person approves at the analyst's desk; the saved results
// say who, when, why and who approved; the audit log shows it all, verifies its chain and exports
// it; nothing about the customers reaches the service's data directory.
// CONSOLE_SCREENSHOTS=/some/dir also saves console-review-*.png and console-audit*.png.
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import Papa from 'papaparse';
import { makeCanaries, scanForCanaries } from '../../src-main/service/test/privacy';
import { initOrg, signIn, type TestOrg } from '../support/accounts';
import { expect, test } from '../support/service';
import { trackApi } from '../support/settled';
import { AuditPage } from '../pages/audit-page';
import { BatchPage } from '../pages/batch-page';
import { ReviewPage } from '../pages/review-page';
import { SettingsPage } from '../pages/settings-page';
import { inviteMember } from '../support/seed';

const OWNER: TestOrg = { organization: 'Northwind Compliance', email: 'owner@northwind.test', password: 'correct horse battery', plan: 'pro' };
const ADMIN = { email: 'admin@northwind.test', password: 'admin password 1' };
const ANALYST = { email: 'analyst@northwind.test', password: 'analyst password' };

const shotsDir = process.env.CONSOLE_SCREENSHOTS;
async function shot(target: Page | Locator, name: string): Promise<void> {
  if (shotsDir) await target.screenshot({ path: join(shotsDir, `console-${name}.png`) });
}

const HEADER = ['client_reference_id', 'first_name', 'middle_name', 'last_name', 'date_of_birth', 'gender', 'country', 'previous_screening_id', 'previous_risk_score', 'previous_risk_level'];

function csv(rows: string[][]): string {
  return [HEADER, ...rows].map((r) => r.join(',')).join('\r\n') + '\r\n';
}

function parseCsv(text: string): Record<string, string>[] {
  return Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true }).data;
}

async function runToReview(page: Page, file: string): Promise<{ batch: BatchPage; review: ReviewPage }> {
  const batch = new BatchPage(page);
  await batch.goto();
  await batch.importCsv('watch.csv', file);
  await batch.waitForLists();
  await batch.run();
  await batch.waitForStatus('done');
  await page.getByTestId('batch-open-review').click();
  return { batch, review: new ReviewPage(page) };
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

test('review: a strong sanctions match is cleared only with a reason; the saved results and the audit log say who, when and why', async ({ page, service }) => {
  const api = trackApi(page, service);
  test.setTimeout(120_000);
  const c = makeCanaries();
  const note = `Checked ${c.fullName}'s passport ${c.documentNumber}: born ${c.dob}`;
  await initOrg(service, OWNER);
  const shell = await signIn(page, OWNER);
  const { batch, review } = await runToReview(page, csv([
    [c.clientReference, 'Vladimir', '', 'Putin', '', '', '', '', '', ''],
    ['cust-0002', 'Kim', '', 'Jong Un', '', '', '', '', '', ''],
    ['cust-0003', c.firstName, '', c.lastName, c.dob, '', 'NO', '', '', ''],
    ['cust-0004', 'Maren', '', 'Quellfeather', '1984-02-17', 'female', 'GB', '', '', ''],
  ]));

  // Nothing was screened before, so no risk moved: the review opens on the tab with the rows.
  await expect(review.filterButton('new')).toHaveAttribute('aria-selected', 'true');
  await expect(review.rows).toHaveCount(2);
  const putin = review.rowByName('Vladimir Putin');
  const kim = review.rowByName('Kim Jong Un');

  // C on a strong sanctions match asks why instead of clearing.
  await putin.getByTestId('review-name').click();
  await review.press('c');
  await expect(review.reasonDialog).toBeVisible();
  await expect(review.reasonDialog).toContainText('PUTIN');
  await expect(review.disposition(putin)).toHaveAttribute('data-disposition', '');
  await review.reasonDialog.getByTestId('review-reason-confirm').click();
  await expect(review.reasonDialog.getByTestId('review-reason-error')).toBeVisible();
  await review.reasonDialog.getByTestId('review-reason-other').check();
  await review.reasonDialog.getByTestId('review-reason-confirm').click();
  await expect(review.reasonDialog.getByTestId('review-reason-note-error')).toBeVisible();
  await shot(page, 'review-reason');
  await review.giveReason('other', note);
  await expect(review.disposition(putin)).toHaveAttribute('data-disposition', 'cleared_false_positive');
  await expect(review.disposition(putin)).toContainText('Other');

  // Escalate, undo, escalate again: each step is recorded.
  await kim.getByTestId('review-name').click();
  await review.press('e');
  await expect(review.disposition(kim)).toHaveAttribute('data-disposition', 'escalated');
  await review.press('u');
  await expect(review.disposition(kim)).toHaveAttribute('data-disposition', '');
  await review.press('e');
  await expect(review.disposition(kim)).toHaveAttribute('data-disposition', 'escalated');
  await expect(review.decisionError).toHaveCount(0);

  // The saved results carry the decision, the reason, the note, who and when.
  const saved = await batch.download(review.saveButton);
  const out = parseCsv(saved.text);
  const row = (ref: string) => out.find((r) => r.client_reference_id === ref)!;
  expect(row(c.clientReference)).toMatchObject({
    disposition: 'cleared_false_positive', disposition_reason: 'other', disposition_note: note, decided_by: OWNER.email, approved_by: '', approved_at: '',
  });
  expect(row(c.clientReference).decided_at).toMatch(ISO);
  expect(row(c.clientReference).disposition_entities).toMatch(/(^|;)us_ofac_sdn:/);
  expect(row('cust-0002')).toMatchObject({ disposition: 'escalated', disposition_reason: '', decided_by: OWNER.email });
  expect(row('cust-0004')).toMatchObject({ disposition: '', decided_by: '' });

  // The audit log: every step, newest first, and a verified chain. The owner's sign-ins (the first
  // run's and the one above) come first.
  await shell.open('audit');
  const audit = new AuditPage(page);
  await expect(audit.chain).toHaveAttribute('data-ok', 'true');
  await expect(audit.total).toHaveAttribute('data-total', '8');
  await expect.poll(() => audit.actions()).toEqual([
    'disposition.set', 'disposition.removed', 'disposition.set', 'disposition.set', 'batch.finished', 'batch.created', 'session.signed_in', 'session.signed_in',
  ]);
  await expect(audit.row('batch.created')).toContainText('4 rows');
  await expect(audit.rows.last()).toContainText('at the first run');
  await expect(audit.row('disposition.set').last()).toContainText('Cleared: false positive, reason: Other, with a note');
  await expect(audit.row('disposition.set').last().getByTestId('audit-actor')).toHaveText(OWNER.email);
  await shot(page, 'audit');

  await audit.actionFilter.selectOption('disposition.set');
  await expect(audit.total).toHaveAttribute('data-total', '3');
  // A customer's reference finds their rows, through its keyed hash.
  await audit.actionFilter.selectOption('');
  await audit.findReference(c.clientReference);
  await expect(audit.total).toHaveAttribute('data-total', '1');
  await expect(audit.rows.first()).toContainText('Cleared: false positive');
  await shot(page, 'audit-filtered');
  const filtered = await audit.exportCsv();
  expect(parseCsv(filtered.text)).toHaveLength(1);
  await page.getByTestId('audit-filter-clear').click();
  await expect(audit.total).toHaveAttribute('data-total', '8');
  const exported = await audit.exportCsv();
  expect(exported.name).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = parseCsv(exported.text);
  expect(lines.map((l) => l.action)).toEqual([
    'disposition.set', 'disposition.removed', 'disposition.set', 'disposition.set', 'batch.finished', 'batch.created', 'session.signed_in', 'session.signed_in',
  ]);
  expect(lines[0]!.action_label).toBe('Disposition set');
  expect(lines[3]).toMatchObject({ actor: OWNER.email, actor_role: 'owner', reason_code: 'other', has_note: 'true', row_number: '2', client_ref_hmac: expect.stringMatching(/^[0-9a-f]{64}$/) });
  // The export holds what the table holds: no customer's name, reference or note.
  for (const needle of [c.firstName, c.lastName, c.clientReference, c.documentNumber, 'Putin', 'Quellfeather', note]) expect(exported.text).not.toContain(needle);

  await api.settled();
  expect(scanForCanaries(service.dataDir, c)).toEqual([]);
});

test('review: a disposition undone shows the row undecided again, and the disposition sort and the count follow', async ({ page, service }) => {
  test.setTimeout(90_000);
  await initOrg(service, OWNER);
  await signIn(page, OWNER);
  const { review } = await runToReview(page, csv([
    ['cust-0001', 'Maren', '', 'Quellfeather', '1984-02-17', 'female', 'GB', '', '', ''],
    ['cust-0002', 'Kim', '', 'Jong Un', '', '', '', '', '', ''],
    ['cust-0003', 'Tobias', '', 'Wendeborn', '1979-11-03', 'male', 'DE', '', '', ''],
  ]));
  await review.filter('all');
  await expect(review.rows).toHaveCount(3);
  await review.sortBy('disposition', 'descending');
  const kim = review.rowByName('Kim Jong Un');
  const undecided = ['Maren Quellfeather', 'Kim Jong Un', 'Tobias Wendeborn'];
  // Nothing decided: the sort keeps the rows' order.
  await expect.poll(() => review.names()).toEqual(undecided);

  // Escalated, the row leads the disposition sort (decided first, descending) and counts as reviewed.
  await kim.getByTestId('review-name').click();
  await review.press('e');
  await expect(review.disposition(kim)).toHaveAttribute('data-disposition', 'escalated');
  await expect(kim).toHaveClass(/rev-row-done/);
  await expect(review.progress).toHaveText('1 reviewed of 3');
  await expect.poll(() => review.names()).toEqual(['Kim Jong Un', 'Maren Quellfeather', 'Tobias Wendeborn']);

  // Undone: the same row is undecided again, back in its place, and no longer counted.
  await review.press('u');
  await expect(review.announce).toContainText('Undone: row 3.');
  await expect(review.disposition(kim)).toHaveAttribute('data-disposition', '');
  await expect(kim).not.toHaveClass(/rev-row-done/);
  await expect(review.progress).toHaveText('0 reviewed of 3');
  await expect.poll(() => review.names()).toEqual(undecided);
  await expect(review.columnHeader('disposition')).toHaveAttribute('aria-sort', 'descending');
  await expect(review.decisionError).toHaveCount(0);
});

test('four-eyes: a cleared strong match waits until an owner or admin other than the analyst approves it at the analyst\'s desk', async ({ page, service }) => {
  const api = trackApi(page, service);
  test.setTimeout(120_000);
  const c = makeCanaries();
  await initOrg(service, OWNER);
  await inviteMember(service, OWNER, { ...ADMIN, role: 'admin' });
  await inviteMember(service, OWNER, { ...ANALYST, role: 'member' });

  // The owner turns four-eyes on.
  let shell = await signIn(page, OWNER);
  const settings = new SettingsPage(page);
  await shell.open('settings');
  await settings.setFourEyes(true);
  await shot(page, 'settings');
  await shell.logout();

  // The analyst (a member) works the batch; the audit log is not theirs to see.
  shell = await signIn(page, { ...OWNER, ...ANALYST });
  await expect(page.getByTestId('nav-audit')).toHaveCount(0);
  const { batch, review } = await runToReview(page, csv([
    [c.clientReference, 'Vladimir', '', 'Putin', '', '', '', 'scr_prev1', '0', 'low'],
    ['cust-0002', c.firstName, '', c.lastName, c.dob, '', 'NO', 'scr_prev2', '0', 'low'],
  ]));
  await expect(review.filterButton('increased')).toHaveAttribute('aria-selected', 'true');
  const putin = review.rowByName('Vladimir Putin');
  await putin.getByTestId('review-name').click();
  await review.press('c');
  await expect(review.reasonDialog.getByTestId('review-reason-four-eyes')).toContainText('Four-eyes is on');
  await review.giveReason('different_dob', `Not ${c.fullName}`);
  await expect(review.disposition(putin)).toHaveAttribute('data-approval', 'pending');
  await expect(review.disposition(putin)).toContainText('Awaiting approval');

  // Saved now, the row does not count as cleared.
  const pendingFile = await batch.download(review.saveButton);
  const before = parseCsv(pendingFile.text).find((r) => r.client_reference_id === c.clientReference)!;
  expect(before).toMatchObject({ disposition: 'awaiting_approval', disposition_reason: 'different_dob', decided_by: ANALYST.email, approved_by: '' });

  // The analyst cannot approve it, nor can a wrong password; the admin can.
  await review.approve(putin, ANALYST.email, ANALYST.password);
  await expect(review.approveDialog).toContainText('Only an owner or admin can approve');
  await review.approve(putin, ADMIN.email, 'not the password');
  await expect(review.approveDialog.getByTestId('review-approve-error')).toHaveText('Invalid approver e-mail or password');
  await shot(page, 'review-approve');
  await review.approve(putin, ADMIN.email, ADMIN.password);
  await expect(review.approveDialog).toBeHidden();
  await expect(review.disposition(putin)).toHaveAttribute('data-approval', 'approved');
  await expect(review.disposition(putin).getByTestId('review-approved-by')).toHaveText(`Approved by ${ADMIN.email}`);
  await shot(page, 'review-approved');

  const after = parseCsv((await batch.download(review.saveButton)).text).find((r) => r.client_reference_id === c.clientReference)!;
  expect(after).toMatchObject({ disposition: 'cleared_false_positive', disposition_reason: 'different_dob', decided_by: ANALYST.email, approved_by: ADMIN.email });
  expect(after.approved_at).toMatch(ISO);
  expect(after.disposition_note).toBe(`Not ${c.fullName}`);

  // The file saved while the clearance waited, imported again: shown as the earlier review, and
  // the match is not carried over as cleared.
  await shell.open('rescreen');
  await batch.importCsv('watch-pending.csv', pendingFile.text);
  await expect(batch.rowsInvalid).toHaveText('0');
  await batch.run();
  await batch.waitForStatus('done');
  await page.getByTestId('batch-open-review').click();
  await review.filter('all');
  const again = review.rowByName('Vladimir Putin');
  await expect(again.getByTestId('review-earlier')).toHaveText('Earlier: Clearance awaiting approval');
  // Still flagged: a name alone (no date of birth in this file) is reviewed at medium, never cleared by the file.
  await expect(again.getByTestId('review-risk')).toHaveAttribute('data-level', 'medium');
  await shell.logout();

  // The owner sees who asked and who approved.
  shell = await signIn(page, OWNER);
  await shell.open('audit');
  const audit = new AuditPage(page);
  await expect(audit.chain).toHaveAttribute('data-ok', 'true');
  await expect(audit.row('clearance.approved')).toContainText(`approved by ${ADMIN.email}`);
  await expect(audit.row('clearance.approved').getByTestId('audit-actor')).toHaveText(ADMIN.email);
  await expect(audit.row('clearance.requested').getByTestId('audit-actor')).toHaveText(ANALYST.email);
  await expect(audit.row('settings.changed')).toContainText('Four-eyes: off → on');
  // The owner invited both; each accepted with their own password (sign-ins push them off the first page: filtered).
  await audit.actionFilter.selectOption('member.invited');
  await expect(audit.row('member.invited')).toHaveCount(2);
  await audit.actionFilter.selectOption('invite.accepted');
  await expect(audit.row('invite.accepted')).toHaveCount(2);
  await audit.actionFilter.selectOption('');
  await audit.actorFilter.selectOption({ label: ANALYST.email });
  await expect.poll(() => audit.actions()).toEqual([
    'session.signed_out', 'batch.finished', 'batch.created', 'clearance.requested', 'batch.finished', 'batch.created', 'session.signed_in',
    'session.signed_in', 'invite.accepted',
  ]);

  await api.settled();
  expect(scanForCanaries(service.dataDir, c)).toEqual([]);
});

test('review: reloading or closing the window with unsaved dispositions asks first; saved, it does not', async ({ page, service }) => {
  await initOrg(service, OWNER);
  await signIn(page, OWNER);
  const { batch, review } = await runToReview(page, csv([['cust-0001', 'Kim', '', 'Jong Un', '', '', '', 'scr_prev1', '0', 'low']]));
  await expect(review.filterButton('increased')).toHaveAttribute('aria-selected', 'true');
  await review.rowAt(0).getByTestId('review-name').click();
  await review.press('e');
  await expect(review.disposition(review.rowAt(0))).toHaveAttribute('data-disposition', 'escalated');

  const asked: string[] = [];
  page.on('dialog', (d) => {
    asked.push(d.type());
    void d.dismiss();
  });
  await page.close({ runBeforeUnload: true });
  await expect.poll(() => asked).toEqual(['beforeunload']);
  expect(page.isClosed()).toBe(false);
  await expect(review.disposition(review.rowAt(0))).toHaveAttribute('data-disposition', 'escalated');

  await batch.download(review.saveButton);
  const closed = page.waitForEvent('close');
  await page.close({ runBeforeUnload: true });
  await closed;
  expect(asked).toEqual(['beforeunload']);
});
