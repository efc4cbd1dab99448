// The server goes away in the middle of a review (issue 39, item 6). An analyst has screened a
// batch and is clearing a strong sanctions match when the service stops: the clearing is not
// recorded, the reason dialog stays open with their reason and note and says the service cannot be
// reached, and the batch's results stay on screen. The service comes back on the same address and
// data directory (sessions are kept in its database): the same dialog's confirm records the
// clearing, without signing in again, and the review goes on.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { initOrg, signIn, type TestOrg } from '../support/accounts';
import { expect, runCli, startService, stopService, test, type Service } from '../support/service';
import { BatchPage } from '../pages/batch-page';
import { ReviewPage } from '../pages/review-page';

const OWNER: TestOrg = { organization: 'Away Ltd', email: 'owner@away.test', password: 'correct horse battery', plan: 'pro' };
const HEADER = 'client_reference_id,first_name,middle_name,last_name,date_of_birth,gender,country,previous_screening_id,previous_risk_score,previous_risk_level';

test('a server that goes away mid-review loses nothing: the clearing waits in its dialog and is recorded once it is back', async ({ browser }) => {
  test.setTimeout(150_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'cc-e2e-away-'));
  let child: ChildProcess | undefined;
  try {
    const first = await startService(dataDir, 'bundle', {}, ['--lazy-models']);
    child = first.child;
    const service: Service = { url: first.url, dataDir, cli: (...args) => runCli(dataDir, args) };
    await initOrg(service, OWNER);
    const page = await (await browser.newContext({ baseURL: service.url, viewport: { width: 1440, height: 900 } })).newPage();
    await signIn(page, OWNER);

    const batch = new BatchPage(page);
    await batch.goto();
    await batch.importCsv('away.csv', `${HEADER}\r\naway-1,Vladimir,,Putin,,,,scr_prev1,0,low\r\naway-2,Ingeborg,,Abrahamsen,1972-11-21,,,scr_prev2,0,low\r\n`);
    await batch.waitForLists();
    await batch.run();
    await batch.waitForStatus('done');
    await page.getByTestId('batch-open-review').click();
    const review = new ReviewPage(page);
    const putin = review.rowByName('Vladimir Putin');
    await expect(putin).toBeVisible();

    // The service stops while the analyst gives the reason.
    await putin.getByTestId('review-name').click();
    await review.press('c');
    await expect(review.reasonDialog).toBeVisible();
    await stopService(child);
    await review.reasonDialog.getByTestId('review-reason-different_dob').check();
    const note = 'Passport seen at the desk: born 1985';
    await review.reasonDialog.getByTestId('review-reason-note').fill(note);
    await review.reasonDialog.getByTestId('review-reason-confirm').click();
    await expect(review.reasonDialog.getByTestId('review-reason-failed')).toContainText('Cannot reach the Compliance Console service');
    await expect(review.reasonDialog).toBeVisible();
    await expect(review.reasonDialog.getByTestId('review-reason-note')).toHaveValue(note);
    await expect(review.disposition(putin)).toHaveAttribute('data-disposition', '');

    // Back on the same address and data directory: the same confirm records it, no new sign-in.
    const port = new URL(service.url).port;
    const again = await startService(dataDir, 'bundle', {}, ['--lazy-models', '--port', port]);
    child = again.child;
    expect(again.url).toBe(service.url);
    await review.reasonDialog.getByTestId('review-reason-confirm').click();
    await expect(review.reasonDialog).toBeHidden({ timeout: 20_000 });
    await expect(review.disposition(putin)).toHaveAttribute('data-disposition', 'cleared_false_positive');
    await expect(page.getByTestId('login')).toHaveCount(0);
    await page.context().close();
  } finally {
    if (child) await stopService(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
});
