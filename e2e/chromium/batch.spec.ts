// Batch rescreen and risk review against the real service and its shipped lists (loaded a few
// seconds after start). The organization is on Pro, the first plan with screening.
// The customer files are generated here: made-up names (checked to match nothing on the shipped
// lists), sanctioned people whose previous result was low risk, a few broken rows, and canaries
// for the privacy scan. CONSOLE_SCREENSHOTS=/some/dir also saves console-batch*/console-review*.png.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import Papa from 'papaparse';
import { filesUnder, makeCanaries, scanForCanaries, type Canaries } from '../../src-main/service/test/privacy';
import { addMember, initOrg, signIn, type TestOrg } from '../support/accounts';
import { expect, test, type Service } from '../support/service';
import { trackApi } from '../support/settled';
import { BatchPage } from '../pages/batch-page';
import { ReviewPage } from '../pages/review-page';

const PRO_ORG: TestOrg = {
  organization: 'Northwind Compliance',
  email: 'owner@northwind.test',
  password: 'correct horse battery',
  plan: 'pro',
};

const shotsDir = process.env.CONSOLE_SCREENSHOTS;
async function shot(target: Page | Locator, name: string): Promise<void> {
  if (shotsDir) await target.screenshot({ path: join(shotsDir, `console-${name}.png`) });
}

const HEADER = [
  'client_reference_id', 'first_name', 'middle_name', 'last_name', 'date_of_birth', 'gender', 'country',
  'previous_screening_id', 'previous_risk_score', 'previous_risk_level', 'previous_flags', 'cleared_entities',
];

/** People on the shipped sanctions lists (each reported on its name alone). */
const LISTED = [
  'Vladimir Putin', 'Kim Jong Un', 'Ramzan Kadyrov', 'Alexander Lukashenko', 'Bashar Assad', 'Nicolas Maduro', 'Sergei Lavrov',
  'Igor Sechin', 'Gennady Timchenko', 'Arkady Rotenberg', 'Boris Rotenberg', 'Yevgeny Prigozhin', 'Alisher Usmanov', 'Oleg Deripaska',
  'Viktor Vekselberg', 'Dmitry Medvedev', 'Sergei Shoigu', 'Ali Khamenei', 'Kim Yo Jong', 'Viktor Bout', 'Hassan Nasrallah',
  'Mikhail Mishustin', 'Valery Gerasimov', 'Nikolai Patrushev',
];

// Made-up names: every combination was screened once and matches nothing on the shipped lists.
const FIRST = ['Maren', 'Tobias', 'Elin', 'Jorunn', 'Halvard', 'Ingrid', 'Sander', 'Liv', 'Oskar', 'Tuva', 'Brede', 'Signe', 'Eirik', 'Ylva', 'Aksel', 'Runa', 'Vebjorn', 'Solveig', 'Kasper', 'Hedda'];
const PREFIX = ['Quell', 'Bright', 'Thorn', 'Marr', 'Vell', 'Ashen', 'Brom', 'Calder', 'Dunmere', 'Fenwick', 'Gorr', 'Holl', 'Ivers', 'Jask', 'Kestr'];
const SUFFIX = ['feather', 'water', 'wick', 'stead', 'mere', 'holm', 'dale', 'ford', 'by', 'ton'];
const COUNTRIES = ['NO', 'SE', 'DK', 'DE', 'GB', 'FR'];

function csv(rows: string[][]): string {
  const cell = (c: string) => (/[",\r\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c);
  return [HEADER, ...rows].map((r) => r.map(cell).join(',')).join('\r\n') + '\r\n';
}

function madeUp(i: number): string[] {
  const first = FIRST[i % FIRST.length]!;
  const last = PREFIX[(i * 7) % PREFIX.length]! + SUFFIX[(i * 3) % SUFFIX.length]!;
  const dob = `${1950 + (i % 50)}-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`;
  const withPrevious = i % 3 === 0;
  return [
    `cust-${String(i).padStart(5, '0')}`, first, '', last, dob, i % 2 ? 'female' : 'male', COUNTRIES[i % COUNTRIES.length]!,
    withPrevious ? `scr_prev${i}` : '', withPrevious ? '0' : '', withPrevious ? 'low' : '', '', '',
  ];
}

/** Spreadsheet row number of data row i (the header is row 1). */
const rowNo = (i: number) => i + 2;

interface Customers {
  text: string;
  listedRows: Map<number, string>;
  invalidRows: number[];
}

function customers(n: number, c: Canaries): Customers {
  const rows: string[][] = [];
  const listedRows = new Map<number, string>();
  const broken: Record<number, (r: string[]) => void> = {
    100: (r) => (r[3] = ''), // no last name
    200: (r) => (r[4] = '31/12/1990'), // not YYYY-MM-DD
    300: (r) => (r[6] = 'Germany'), // not a country code
    400: (r) => {
      r[8] = 'high';
      r[9] = 'low';
    },
    500: (r) => {
      r[8] = '0';
      r[9] = 'low';
      r[11] = 'Q123';
    },
  };
  for (let i = 0; i < n; i++) {
    const listed = (i - 17) % 40 === 0 ? LISTED[(i - 17) / 40] : undefined;
    let r: string[];
    if (listed) {
      const [first, ...last] = listed.split(' ');
      // Names alone are reported for review; Putin's row also gives his date of birth, which makes his match strong (high).
      const dob = listed === 'Vladimir Putin' ? '1952-10-07' : '';
      r = [`cust-${String(i).padStart(5, '0')}`, first!, '', last.join(' '), dob, '', '', `scr_prev${i}`, '0', 'low', '', ''];
      listedRows.set(rowNo(i), listed);
    } else if (i === 50 || i === 650 || i === 850) {
      r = [c.clientReference, c.firstName, '', c.lastName, c.dob, '', 'NO', '', '', '', '', ''];
    } else {
      r = madeUp(i);
    }
    broken[i]?.(r);
    rows.push(r);
  }
  return { text: csv(rows), listedRows, invalidRows: Object.keys(broken).map((k) => rowNo(Number(k))).filter((r) => r - 2 < n) };
}

async function openBatch(page: Page, service: Service): Promise<BatchPage> {
  await initOrg(service, PRO_ORG);
  await signIn(page, PRO_ORG);
  const batch = new BatchPage(page);
  await batch.goto();
  return batch;
}

function parseCsv(text: string): Record<string, string>[] {
  const parsed = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true });
  expect(parsed.errors).toEqual([]);
  return parsed.data;
}

test('batch rescreen: import with a validation report, run in Test, review with the keyboard, save, re-import keeps a cleared match cleared', async ({ page, service }) => {
  const api = trackApi(page, service);
  test.setTimeout(120_000);
  const c = makeCanaries();
  const file = customers(1000, c);
  const batch = await openBatch(page, service);

  // Import: 1,000 rows, 5 of them broken; the report says where and why, never the value.
  await batch.importCsv('customers.csv', file.text);
  await expect(batch.rowsRead).toHaveText('1,000');
  await expect(batch.rowsValid).toHaveText('995');
  await expect(batch.rowsInvalid).toHaveText('5');
  await expect(batch.issueRows).toHaveCount(5);
  const report = await batch.issues.innerText();
  expect(report).toContain('date_of_birth');
  expect(report).toContain('use the format YYYY-MM-DD');
  expect(report).toContain('last_name');
  expect(report).toContain('country');
  expect(report).toContain('cleared_entities');
  for (const r of file.invalidRows) await expect(batch.issueRows.filter({ has: page.locator('[role="gridcell"][data-column="row"]', { hasText: new RegExp(`^${r}$`) }) })).not.toHaveCount(0);
  expect(report).not.toContain('31/12/1990');
  expect(report).not.toContain('Germany');
  await shot(page, 'batch-import');
  const errors = await batch.download(page.getByTestId('batch-save-issues'));
  expect(errors.name).toBe('customers-errors.csv');
  expect(parseCsv(errors.text)).toContainEqual({ row: '202', column: 'date_of_birth', reason: 'use the format YYYY-MM-DD' });
  expect(errors.text).not.toContain('31/12/1990');

  const help = page.getByTestId('batch-columns-help');
  await help.locator('summary').click();
  await expect(help).toContainText('entity_id@record_hash');
  await shot(help, 'batch-columns-help');
  await help.locator('summary').click();

  // The template names every column an import reads.
  const template = await batch.download(page.getByTestId('batch-template'));
  expect(template.name).toBe('batch-rescreen-template.csv');
  expect(Object.keys(parseCsv(template.text)[0]!)).toEqual([...HEADER, 'previous_disposition']);

  // Run in Test: free; the progress reaches 100 %.
  await expect(batch.env).toHaveAttribute('data-env', 'test');
  await expect(batch.cost).toHaveText('Free in Test mode');
  await batch.waitForLists();
  await batch.run();
  await batch.waitForStatus('done');
  await expect(batch.progress).toHaveAttribute('aria-valuenow', '100');
  await shot(page.getByTestId('batch-run'), 'batch-run-done');
  await shot(page.getByTestId('batch-results'), 'batch-results');
  await expect(batch.progressRows).toHaveText('995 / 995');
  await expect(page.getByTestId('count-increased')).toContainText(String(LISTED.length));
  // The results table is virtualised: every row counted, only some in the DOM.
  await expect(batch.results).toHaveAttribute('aria-rowcount', '996');
  expect(await batch.resultRows.count()).toBeLessThan(100);
  const putinRow = [...file.listedRows].find(([, name]) => name === 'Vladimir Putin')![0];
  await expect(batch.row(putinRow).getByTestId('result-risk')).toHaveAttribute('data-level', 'high');
  await expect(batch.row(putinRow).getByTestId('result-change')).toHaveAttribute('data-change', 'risk_increased');
  // Flags: the first in words, then how many more; nothing cut inside the cell (issue 38).
  const flags = batch.row(putinRow).getByTestId('result-flags');
  await expect(flags).toHaveAttribute('data-flags', /SANCTIONS_STRONG_MATCH/);
  await expect(flags.locator('.bat-flag')).toHaveText('Sanctions: strong');
  await expect(flags).toHaveAttribute('title', /^Sanctions: strong match, /);
  await expect(flags.locator('.bat-flag-more')).toContainText(/^\+\d+/);
  expect(await flags.evaluate((el) => [...el.querySelectorAll<HTMLElement>('.chip')].every((c) => c.scrollWidth <= c.clientWidth))).toBe(true);
  await shot(page, 'batch-done');

  // Risk review, keyboard only.
  await page.getByTestId('batch-open-review').click();
  await expect(page).toHaveURL(/#\/review$/);
  const review = new ReviewPage(page);
  await expect(review.filterButton('increased')).toHaveAttribute('aria-selected', 'true');
  // The filters are WAI-ARIA tabs: the selected one alone in the Tab order, arrows move and select.
  await expect(page.getByRole('tablist', { name: 'Show' }).getByRole('tab')).toHaveCount(4);
  await expect(review.filterButton('decreased')).toHaveAttribute('tabindex', '-1');
  await review.filterButton('increased').focus();
  await page.keyboard.press('ArrowRight');
  await expect(review.filterButton('decreased')).toBeFocused();
  await expect(review.filterButton('decreased')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tabpanel')).toHaveAttribute('aria-labelledby', 'review-tab-decreased');
  await page.keyboard.press('ArrowLeft');
  await expect(review.filterButton('increased')).toHaveAttribute('aria-selected', 'true');
  await expect(review.grid).toHaveAttribute('aria-rowcount', String(LISTED.length + 1));
  await expect(review.progress).toHaveText(`0 reviewed of ${LISTED.length}`);
  const nameAt = async (i: number) => (await review.rowAt(i).getByTestId('review-name').textContent()) ?? '';
  const cleared = await nameAt(0);
  const escalated = await nameAt(1);

  await review.press('j'); // lands on the current row
  await expect(review.focusedRow()).toHaveAttribute('aria-rowindex', '2');
  await review.press('j');
  await expect(review.focusedRow()).toHaveAttribute('aria-rowindex', '3');
  await review.press('k');
  await expect(review.focusedRow()).toHaveAttribute('aria-rowindex', '2');
  // A strong sanctions match: C asks why before it clears, then moves on to the next row. (Putin's
  // row gives his date of birth, so "name-only match" would contradict it: another reason.)
  await review.press('c');
  await review.giveReason('list_record_outdated');
  await expect(review.disposition(review.rowAt(0))).toHaveAttribute('data-disposition', 'cleared_false_positive');
  await expect(review.focusedRow()).toHaveAttribute('aria-rowindex', '3');
  await review.press('e');
  await expect(review.disposition(review.rowAt(1))).toHaveAttribute('data-disposition', 'escalated');
  await expect(review.progress).toHaveText(`2 reviewed of ${LISTED.length}`);
  await review.press('u'); // undo the escalation
  await expect(review.disposition(review.rowAt(1))).toHaveAttribute('data-disposition', '');
  await expect(review.focusedRow()).toHaveAttribute('aria-rowindex', '3');
  await review.press('e');
  await expect(review.disposition(review.rowAt(1))).toHaveAttribute('data-disposition', 'escalated');
  await expect(review.announce).toContainText('escalated');

  // Enter opens the explanation of the focused row; Esc closes it.
  await review.press('k');
  await review.press('Enter');
  const opened = review.rowAt(1);
  await expect(opened).toHaveAttribute('aria-expanded', 'true');
  const explanation = opened.getByTestId('review-explanation').first();
  await expect(explanation).toBeVisible();
  await expect(explanation.getByTestId('review-alignment-row').first()).toBeVisible();
  await expect(explanation.getByTestId('review-matched-name').locator('mark')).not.toHaveCount(0);
  await expect(explanation.locator('[data-method="exact"]')).not.toHaveCount(0);
  // The level this match carries and why, in words.
  await expect(explanation.getByTestId('review-match-tier')).toHaveAttribute('data-level', /^(medium|high)$/);
  await expect(explanation.getByTestId('review-match-reason')).toHaveText(/^(name matches|every part of the name matches|close spelling|typo or another name|another name|sounds alike|short form|initial|written together|read from another script|not in the listed name|listed name also has)/);
  await shot(page, 'review-explanation');
  await review.press('Escape');
  await expect(review.detail).toHaveCount(0);
  await review.settled();
  await expect(review.focusedRow()).toHaveAttribute('aria-rowindex', '3');
  await review.press('o');
  await expect(review.detail).toBeVisible();
  await review.press('Escape');
  await expect(review.detail).toHaveCount(0);

  // Single keys switched off: N does nothing.
  await review.singleKeys.uncheck();
  await review.rowAt(2).getByTestId('review-name').click();
  await review.press('n');
  await expect(review.disposition(review.rowAt(2))).toHaveAttribute('data-disposition', '');
  await review.singleKeys.check();
  await shot(page, 'review-queue');

  // Filters and search.
  await review.filter('all');
  await expect(review.grid).toHaveAttribute('aria-rowcount', '996');
  await review.search.fill('putin');
  await expect(review.rows).toHaveCount(1);
  await review.search.fill('');
  await review.filter('new');
  await expect(review.grid).toHaveAttribute('aria-rowcount', String(LISTED.length + 1));
  await review.filter('increased');

  // Save results: a download in a browser, with the new risk, the change and the dispositions.
  const saved = await batch.download(review.saveButton);
  expect(saved.name).toMatch(/^customers-rescreen-\d{4}-\d{2}-\d{2}-\d{4}\.csv$/);
  await expect(page.getByTestId('review-save-notice')).toContainText('Saved');
  const out = parseCsv(saved.text);
  expect(out).toHaveLength(995);
  expect(Object.keys(out[0]!)).toEqual(expect.arrayContaining([
    'screening_id', 'risk_score', 'risk_level', 'risk_decision', 'risk_change', 'flags', 'top_match_entity_id', 'top_match_name',
    'top_match_list', 'top_match_score', 'top_match_explanation', 'disposition', 'disposition_entities',
  ]));
  const byName = (name: string) => out.find((r) => `${r.first_name} ${r.last_name}` === name)!;
  const clearedOut = byName(cleared);
  expect(clearedOut).toMatchObject({ risk_change: 'risk_increased', risk_level: 'high', disposition: 'cleared_false_positive' });
  expect(clearedOut.disposition_entities).toMatch(/^[^@;]+@[0-9a-f]+(;[^@;]+@[0-9a-f]+)*$/);
  expect(clearedOut.top_match_explanation).toContain('matched');
  expect(byName(escalated)).toMatchObject({ risk_change: 'risk_increased', disposition: 'escalated' });
  expect(out.filter((r) => r.risk_change === 'risk_increased')).toHaveLength(LISTED.length);
  expect(out.filter((r) => r.disposition !== '')).toHaveLength(2);
  expect(saved.text).not.toContain('31/12/1990');

  // Re-import the saved file: the cleared match stays cleared, so that row's risk went down.
  await page.getByTestId('nav-rescreen').click();
  await batch.importCsv('customers-rescreen.csv', saved.text);
  await expect(page.getByTestId('batch-from-results')).toBeVisible();
  await expect(batch.rowsValid).toHaveText('995');
  await expect(batch.rowsInvalid).toHaveText('0');
  await batch.run();
  await batch.waitForStatus('done');
  await expect(page.getByTestId('count-increased')).toContainText('0');
  await expect(page.getByTestId('count-decreased')).toContainText('1');
  // No risk went up this time: the review opens on the first tab that has rows.
  await page.getByTestId('batch-open-review').click();
  await expect(review.filterButton('decreased')).toHaveAttribute('aria-selected', 'true');
  await expect(review.rows).toHaveCount(1);
  await review.search.fill(cleared);
  await expect(review.rows).toHaveCount(1);
  await expect(review.rowAt(0).getByTestId('review-change')).toHaveAttribute('data-change', 'risk_decreased');
  await expect(review.rowAt(0).getByTestId('review-risk')).toHaveAttribute('data-level', 'low');
  await review.rowAt(0).getByTestId('review-toggle').click();
  await expect(review.detail.getByTestId('review-match').first()).toHaveAttribute('data-cleared', 'true');
  await shot(page, 'review-reimported');
  await review.search.fill(escalated);
  await review.filter('all');
  await expect(review.rowAt(0).getByTestId('review-change')).toHaveAttribute('data-change', 'risk_unchanged');
  await expect(review.rowAt(0).getByTestId('review-earlier')).toHaveText('Earlier: Escalated');

  // Discard drops everything; the review then has nothing to show.
  await page.getByTestId('review-discard').click();
  await expect(page.getByTestId('review-empty')).toBeVisible();

  // Privacy: no subject from the file anywhere in the service's data directory or the browser's storage.
  await api.settled();
  expect(scanForCanaries(service.dataDir, c)).toEqual([]);
  const needles = [madeUp(1)[3]!, madeUp(2)[3]!, madeUp(3)[3]!, 'cust-00001'];
  const found: string[] = [];
  for (const f of filesUnder(service.dataDir)) {
    const data = readFileSync(f);
    const text = data.toString('latin1').toLowerCase();
    const utf16 = data.toString('utf16le').toLowerCase();
    for (const n of needles) if (text.includes(n.toLowerCase()) || utf16.includes(n.toLowerCase())) found.push(`${f}: ${n}`);
  }
  expect(found).toEqual([]);
  const storage = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
  for (const n of [...needles, c.firstName, c.lastName]) expect(storage).not.toContain(n);
});

test('batch rescreen: Cancel stops a run and frees the slot for the next one', async ({ page, service }) => {
  test.setTimeout(120_000);
  const batch = await openBatch(page, service);
  const rows: string[][] = [];
  for (let i = 0; i < 20_000; i++) rows.push(madeUp(i));
  await batch.importCsv('large.csv', csv(rows));
  await expect(batch.rowsValid).toHaveText('20,000');
  await batch.waitForLists();
  await batch.run();
  await expect.poll(() => batch.processed(), { timeout: 30_000 }).toBeGreaterThan(0);
  await expect(batch.rate).toContainText('rows/s');
  await shot(page, 'batch-running');
  await shot(page.getByTestId('batch-run'), 'batch-run-progress');
  await batch.cancelButton.click();
  await batch.waitForStatus('cancelled');
  const done = await batch.processed();
  expect(done).toBeGreaterThan(0);
  expect(done).toBeLessThan(20_000);
  await expect(page.getByTestId('batch-cancelled')).toContainText('Cancelled after');
  await expect(batch.results).toHaveAttribute('aria-rowcount', String(done + 1));
  await shot(page, 'batch-cancelled');

  // The service's batch slot was freed: a new run starts at once (no "another batch is running").
  await batch.run();
  await expect.poll(() => batch.processed(), { timeout: 30_000 }).toBeGreaterThan(0);
  await expect(page.getByTestId('batch-run-error')).toHaveCount(0);
  await batch.cancelButton.click();
  await batch.waitForStatus('cancelled');
});

test('batch rescreen: a live run shows its cost and asks before spending credits', async ({ page, service }) => {
  const batch = await openBatch(page, service);
  await service.cli('credits', 'grant', '5000', '--note', 'Rescreen budget');
  const rows: string[][] = [];
  for (let i = 0; i < 100; i++) rows.push(madeUp(i));
  await batch.importCsv('live.csv', csv(rows));
  await page.getByTestId('env-live').click();
  await expect(batch.env).toHaveAttribute('data-env', 'live');
  await expect(batch.cost).toContainText('100 × 30 = 3,000 credits');
  await expect(batch.cost).toContainText('balance 5,000');
  await batch.waitForLists();

  await batch.run();
  await expect(batch.confirmLive).toBeVisible();
  await expect(page.getByTestId('batch-confirm-cost')).toHaveText('100 rows × 30 credits = 3,000 credits; balance 5,000.');
  await shot(page, 'batch-confirm-live');
  await page.keyboard.press('Escape');
  await expect(batch.confirmLive).toBeHidden();
  await expect(batch.progressBlock).toHaveCount(0);

  await batch.run();
  await page.getByTestId('batch-confirm-live-run').click();
  await batch.waitForStatus('done');
  await expect(page.getByTestId('batch-credits')).toHaveText('3,000');
  await expect(batch.cost).toContainText('balance 2,000');

  // Signing out drops the results: nothing is left to review after signing in again.
  await page.getByTestId('logout').click();
  await signIn(page, PRO_ORG);
  await page.goto('/#/review');
  await expect(page.getByTestId('review-empty')).toBeVisible();
  await batch.goto();
  await expect(batch.validation).toHaveCount(0);
});

/**
 * Text as Excel's "CSV (Comma delimited)" saves it on a Western European Windows: Windows-1252,
 * one byte a letter (Latin-1's, and € ‘ ’ “ ” … at 0x80-0x9F), "?" for a letter it has no byte for.
 */
function windows1252(text: string): Buffer {
  const HIGH: Record<string, number> = { '€': 0x80, '‚': 0x82, '„': 0x84, '…': 0x85, '‘': 0x91, '’': 0x92, '“': 0x93, '”': 0x94, '–': 0x96, '—': 0x97 };
  return Buffer.from([...text].map((c) => {
    const code = c.codePointAt(0)!;
    return code < 0x80 || (code >= 0xa0 && code <= 0xff) ? code : HIGH[c] ?? 0x3f;
  }));
}

test('batch rescreen: a Windows-1252 file from Excel with day-first dates is read as the analyst accepts it, names and dates intact', async ({ page, service }) => {
  test.setTimeout(90_000);
  const batch = await openBatch(page, service);
  const rows = [
    ['xl-1', 'Élodie', '', 'Quellfeather', '31/12/1984', 'female', 'FR'], // can only be day first
    ['xl-2', 'Søren', '', 'Vellstraße', '05.03.1979', 'male', 'DK'], // reads both ways
    ['xl-3', 'Maëlle', '', 'D’Arcymere', '17-06-1990', 'female', 'FR'],
    ['xl-4', 'Jürgen', '', 'Brommeier', '1975-04-02', 'male', 'DE'],
    ['xl-5', 'Łukasz', '', 'Marrholm', '02/11/1988', 'male', 'PL'], // Ł has no byte in Windows-1252: Excel wrote "?"
  ];
  const text = ['client_reference_id,first_name,middle_name,last_name,date_of_birth,gender,country', ...rows.map((r) => r.join(','))].join('\r\n') + '\r\n';
  const bytes = windows1252(text);
  // É, ’ and the ? for Ł, as Excel writes them.
  expect([bytes.includes(Buffer.from([0xc9, 0x6c])), bytes.includes(Buffer.from([0x44, 0x92, 0x41])), bytes.includes('?ukasz')]).toEqual([true, true, true]);

  await batch.importCsv('customers-excel.csv', bytes);

  // How it was read: Windows-1252, a guess the analyst may change; the dates are day first (row 2 says so).
  const encoding = page.getByTestId('batch-encoding');
  await expect(encoding).toHaveAttribute('data-encoding', 'windows-1252');
  await expect(encoding).toContainText('Read as Windows-1252 (Excel)');
  const dates = page.getByTestId('batch-dates');
  await expect(dates).toHaveAttribute('data-order', 'day_first');
  await expect(dates).toContainText('Row 2’s date can only be day/month/year');
  const dayFirst = page.getByTestId('batch-day-first');
  await expect(dayFirst).not.toBeChecked();
  // Until the analyst accepts, numeric dates are left out, and the name that lost its Ł is never screened.
  await expect(batch.rowsValid).toHaveText('1');
  await expect(batch.rowsInvalid).toHaveText('4');
  const lost = batch.issueRows.filter({ has: page.locator('[data-column="row"]', { hasText: /^6$/ }) }).filter({ hasText: 'first_name' });
  await expect(lost).toContainText('a letter could not be read');

  await shot(page.getByTestId('batch-import'), 'batch-import-excel-ask');

  // Read as UTF-8 instead, every accented name has lost its letters and is left out, never screened as U+FFFD.
  await page.getByTestId('batch-encoding-choice').selectOption('utf-8');
  await expect(encoding).toHaveAttribute('data-encoding', 'utf-8');
  await expect(batch.rowsValid).toHaveText('0');
  await expect(batch.issues).toContainText('a letter could not be read');
  await page.getByTestId('batch-encoding-choice').selectOption('windows-1252');
  await expect(encoding).toHaveAttribute('data-encoding', 'windows-1252');
  await expect(batch.rowsValid).toHaveText('1');

  // Read dates as day/month/year: the preview shows the ISO date each row is screened with.
  await dayFirst.check();
  await expect(dayFirst).toBeChecked();
  await expect(batch.rowsValid).toHaveText('4');
  await expect(batch.rowsInvalid).toHaveText('1');
  const preview = page.getByTestId('batch-preview-row');
  await expect(preview).toHaveCount(4);
  const expected = [
    ['Élodie Quellfeather', '1984-12-31'], ['Søren Vellstraße', '1979-03-05'], ['Maëlle D’Arcymere', '1990-06-17'], ['Jürgen Brommeier', '1975-04-02'],
  ];
  for (const [i, [name, dob]] of expected.entries()) {
    await expect(preview.nth(i).getByTestId('preview-name')).toHaveText(name!);
    await expect(preview.nth(i).getByTestId('preview-dob')).toHaveAttribute('data-dob', dob!);
  }
  await expect(preview.nth(0).getByTestId('preview-dob')).toContainText('31 Dec 1984');
  await shot(page.getByTestId('batch-import'), 'batch-import-excel');

  // Screened as read: the results carry the names, and the saved file the ISO dates.
  await batch.waitForLists();
  await batch.run();
  await batch.waitForStatus('done');
  await expect(batch.progressRows).toHaveText('4 / 4');
  for (const [i, [name]] of expected.entries()) await expect(batch.row(i + 2).getByTestId('result-name')).toHaveText(name!);
  const saved = parseCsv((await batch.saveResults()).text);
  expect(saved.map((r) => [`${r.first_name} ${r.last_name}`, r.date_of_birth])).toEqual(expected);

  const storage = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
  for (const [name] of expected) expect(storage).not.toContain(name!.split(' ')[1]);
});

test('batch rescreen: an owner sees a member\'s open batch and ends it; the member\'s console says an administrator ended it', async ({ page, service, browser }) => {
  test.setTimeout(180_000);
  await initOrg(service, PRO_ORG);
  const member = await addMember(service, PRO_ORG, { email: 'mo@northwind.test', password: 'a member password', name: 'Mo Member' });

  // The member, in a browser of their own, runs 10,000 rows: two chunks. The second waits here
  // until the batch has been ended, so the End always lands between the two.
  const context = await browser.newContext({ baseURL: service.url, viewport: { width: 1440, height: 900 } });
  const memberPage = await context.newPage();
  let letThrough!: () => void;
  const ended = new Promise<void>((resolve) => (letThrough = resolve));
  let chunks = 0;
  await memberPage.route('**/api/console/batches/*/rows', async (route) => {
    if (++chunks === 2) await ended;
    await route.continue();
  });
  await signIn(memberPage, member);
  const mine = new BatchPage(memberPage);
  await mine.goto();
  await expect(mine.openBatches, 'members do not see the open batches').toHaveCount(0);
  const rows: string[][] = [];
  for (let i = 0; i < 10_000; i++) rows.push(madeUp(i));
  await mine.importCsv('members-file.csv', csv(rows));
  await mine.waitForLists();
  await mine.run();
  // The first chunk's 5,000 rows are screened once the second chunk is asked for.
  await expect.poll(() => chunks, { timeout: 120_000 }).toBe(2);

  // The owner's Batch screen lists it: who, mode, progress, last activity.
  await signIn(page, PRO_ORG);
  const batch = new BatchPage(page);
  await batch.goto();
  await expect(batch.openBatchRows).toHaveCount(1);
  const row = batch.openBatchRows.first();
  await expect(row.getByTestId('open-batch-analyst')).toHaveText('Mo Member');
  await expect(row).toContainText('mo@northwind.test');
  await expect(row.getByTestId('open-batch-progress')).toHaveAttribute('data-total', '10000');
  await expect(row.getByTestId('open-batch-progress')).toHaveAttribute('data-processed', '5000');
  await expect(row.getByTestId('open-batch-state')).toContainText('Ends by itself at');
  await shot(batch.openBatches, 'batch-open-batches');

  // End asks first, naming whose batch and how far it got.
  await row.getByTestId('open-batch-end').click();
  const dialog = page.getByTestId('remove-batch-dialog');
  await expect(dialog).toContainText('The test batch of Mo Member stops now, after 5,000 of 10,000 rows.');
  await shot(dialog, 'batch-end-confirm');
  await page.getByTestId('confirm-remove-batch').click();
  await expect(page.getByTestId('open-batches-notice')).toContainText('The batch of Mo Member was ended after 5,000 of 10,000 rows.');
  await expect(batch.openBatchRows).toHaveCount(0);
  await expect(batch.openBatches).toContainText('No batch is running in your organization.');

  // The member's next chunk is refused: the run stops and says an administrator ended it.
  letThrough();
  await mine.waitForStatus('cancelled');
  await expect(memberPage.getByTestId('batch-cancelled')).toContainText('Ended by an administrator');
  await expect(memberPage.getByTestId('batch-run-error')).toHaveCount(0);
  await expect(mine.results).toHaveAttribute('aria-rowcount', '5001');
  await shot(memberPage.getByTestId('batch-run'), 'batch-ended-by-admin');

  // The audit log says who ended whose batch.
  await page.goto('/#/audit');
  const ending = page.getByTestId('audit-row').filter({ has: page.locator('[data-action="batch.cancelled"]') });
  await expect(ending).toHaveCount(1);
  await expect(ending.getByTestId('audit-actor')).toHaveText(PRO_ORG.email);
  await expect(ending.getByTestId('audit-detail')).toContainText('of mo@northwind.test · 5000 of 10000 rows screened');
  await context.close();
});
