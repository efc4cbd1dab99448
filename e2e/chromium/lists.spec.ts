// Managing lists from Screening's Lists panel, against the real service: the organisation's own
// PEP list from a CSV (report, screening with it, removal) and a newer official file (accepted,
// refused). The organization is on Pro, the first plan with screening.
// CONSOLE_SCREENSHOTS=/some/dir also saves screenshots (console-lists*.png).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { addMember, initOrg, signIn, type TestOrg } from '../support/accounts';
import { expect, ROOT, test, type Service } from '../support/service';
import { ListsPage } from '../pages/lists-page';
import { ScreeningPage } from '../pages/screening-page';
import { openListsPanel } from '../support/lists';

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

/** An import rebuilds the service's index: a few seconds, more on a busy machine. */
const REBUILD = { timeout: 30_000 };

/** A made-up politically exposed person: on no official list. */
const PEP = { firstName: 'Thaddeus', lastName: 'Quillfeather-Ndlovu', dob: '1958-03-14', country: 'ZA' };
const LIST_NAME = 'Provincial PEPs (e2e)';
const HIDDEN_VALUE = 'Nameless Alias Zebedee';
const PEP_CSV = [
  'kind,name,aliases,dob,country,id,id_type,gender,program,schema,ref,notes',
  `pep,${PEP.firstName} ${PEP.lastName},T. Quillfeather,${PEP.dob},${PEP.country},,,male,Member of the Provincial Legislature,,e2e-pep-1,`,
  'pep,Philippa Quillfeather-Ndlovu,,1962,ZA,,,female,Provincial premier,,e2e-pep-2,',
  // Row 4: no name, so it is left out; its other values never appear in the report.
  `pep,,${HIDDEN_VALUE},1970,ZA,,,,,,e2e-pep-3,`,
].join('\n');

const UN_XML = join(ROOT, 'resources', 'watchlists', 'un_sc', '2026-02-27', 'consolidated.xml');

/** Signs in to a Pro organization and opens Screening once the service has loaded its lists. */
const openLists = (page: Page, service: Service) => openListsPanel(page, service, PRO_ORG);

test('lists: the shipped lists show publisher, version date, checksum and licence; PEP screening works out of the box', async ({ page, service }) => {
  const { lists, screening } = await openLists(page, service);
  const wikidata = lists.officialList('pep_wikidata_leaders');
  await expect(wikidata.locator('.badge').filter({ hasText: /^PEP$/ })).toHaveCount(1);
  await expect(wikidata.getByTestId('loaded-list-date')).toHaveText('3 Oct 2025');
  await expect(wikidata.getByTestId('loaded-list-publisher')).toContainText('Wikidata');
  await expect(wikidata.getByTestId('loaded-list-terms')).toHaveText('Licence: Wikidata content, CC0 1.0 (public domain dedication)');
  await expect(wikidata.getByTestId('loaded-list-checksum')).toHaveText(/^SHA-256 [0-9a-f]{16}…$/);
  await expect(lists.officialList('pep_us_congress').getByTestId('loaded-list-terms')).toContainText('CC0 1.0');
  await expect(lists.officialList('un_sc').getByTestId('loaded-list-publisher')).toHaveText('United Nations Security Council');
  await expect(screening.listKind('pep')).toBeEnabled();
  await expect(screening.listKind('pep')).toBeChecked();
  await shot(lists.panel, 'lists-provenance');

  // A former president: a PEP match, for review (medium), never high risk.
  await screening.screen({ firstName: 'Joe', lastName: 'Biden', dob: '1942-11-20' });
  await expect(screening.listsChecked).toContainText('Politically exposed persons');
  await expect(screening.flags.filter({ hasText: 'PEP_STRONG_MATCH' })).toHaveCount(1);
  await expect(screening.riskBadge).toHaveAttribute('data-level', 'medium');
  await expect(screening.match(0).getByTestId('match-list')).toHaveText('Politically exposed persons');
  await expect(screening.match(0).getByTestId('match-tier')).toHaveAttribute('data-level', 'medium');
});

test('lists: add your own PEP list from a CSV, see its report, screen against it, remove it', async ({ page, service }) => {
  const { lists, screening } = await openLists(page, service);
  // The shipped PEP sources are loaded already; the organisation's own list comes beside them.
  await expect(screening.listKind('pep')).toBeEnabled();
  await expect(lists.panel.getByTestId('user-lists-empty')).toBeVisible();

  // The template: the header and two example rows.
  await lists.addUserButton.click();
  await expect(lists.userDialog).toBeVisible();
  await expect(lists.userDialog.getByTestId('user-list-name')).toBeFocused();
  const template = await lists.download(lists.userDialog.getByTestId('user-list-template'));
  expect(template.name).toBe('watchlist-template.csv');
  const lines = template.text.trim().split(/\r?\n/);
  expect(lines).toHaveLength(3);
  expect(lines[0]).toBe('kind,name,aliases,dob,country,id,id_type,gender,program,schema,ref,notes');
  expect(lines[1]).toMatch(/^pep,/);

  // Nothing chosen: field errors, nothing sent.
  await lists.userDialog.getByTestId('add-user-list-submit').click();
  await expect(lists.userDialog.getByTestId('user-list-name-error')).toHaveText('Enter a name for the list.');
  await expect(lists.userDialog.getByTestId('user-list-file-error')).toHaveText('Choose the CSV file to import.');

  await lists.userDialog.getByTestId('user-list-name').fill(LIST_NAME);
  await lists.userDialog.getByTestId('user-list-file').setInputFiles({ name: 'peps.csv', mimeType: 'text/csv', buffer: Buffer.from(PEP_CSV) });
  await expect(lists.userDialog.getByTestId('user-list-file-name')).toContainText('peps.csv');
  await lists.userDialog.getByTestId('user-list-columns').locator('summary').click();
  await expect(lists.userDialog.getByTestId('user-list-columns')).toContainText('required');
  await shot(page, 'lists-add-user');
  await lists.addUserList(LIST_NAME, { name: 'peps.csv', mimeType: 'text/csv', content: PEP_CSV });

  // The report: 2 imported, 1 left out, by row and column, never the row's values.
  await expect(lists.report).toHaveAttribute('data-ok', 'true');
  await expect(lists.report.getByTestId('user-list-imported')).toHaveAttribute('data-count', '2');
  await expect(lists.report.getByTestId('user-list-rejected')).toHaveAttribute('data-count', '1');
  await expect(lists.report.getByTestId('user-list-imported')).toHaveText('2');
  await expect(lists.report.getByTestId('user-list-rejected')).toHaveText('1');
  await expect(lists.errorRows).toHaveCount(1);
  const cells = lists.errorRows.first().locator('[role="gridcell"]');
  await expect(cells.nth(0)).toHaveText('4');
  await expect(cells.nth(1)).toHaveText('name');
  await expect(cells.nth(2)).not.toBeEmpty();
  await expect(lists.userDialog).not.toContainText(HIDDEN_VALUE);
  await shot(page, 'lists-report');
  await lists.userDialog.getByTestId('add-user-list-done').click();
  await expect(lists.userDialog).toBeHidden();

  // The panel lists it with its record count; the form checks PEP lists, now with it.
  const mine = lists.userList(LIST_NAME);
  await expect(mine).toHaveCount(1, REBUILD);
  await expect(mine.getByTestId('user-list-rows')).toHaveText('2 records');
  await expect(mine.getByTestId('user-list-imported-at')).toContainText('imported');
  await expect(mine.locator('.badge')).toHaveText('PEP', REBUILD);
  await expect(screening.listKind('pep')).toBeEnabled(REBUILD);
  await expect(screening.listKind('pep')).toBeChecked();
  await expect(lists.state).toHaveAttribute('data-state', 'ready');
  await page.mouse.move(0, 0);
  await shot(lists.panel, 'lists-panel');

  // Screening the made-up name with PEP checked flags it as a PEP.
  await screening.screen({ firstName: PEP.firstName, lastName: PEP.lastName, dob: PEP.dob, country: PEP.country });
  await expect(screening.listsChecked).toContainText('Politically exposed persons');
  await expect(screening.flags.filter({ hasText: /^PEP_(STRONG|POSSIBLE)_MATCH$/ })).toHaveCount(1);
  await expect(screening.match(0).getByTestId('match-list')).toHaveText('Politically exposed persons');
  await shot(page, 'lists-pep-result');

  // Remove it, after a confirmation: its records are gone, the shipped PEP lists stay.
  await mine.getByTestId('user-list-remove').click();
  await expect(lists.removeDialog).toBeVisible();
  await shot(page, 'lists-remove');
  await lists.removeDialog.getByRole('button', { name: 'Keep list' }).click();
  await expect(lists.removeDialog).toBeHidden();
  await expect(mine).toHaveCount(1);
  await lists.removeUserList(LIST_NAME);
  await expect(lists.notice).toContainText(`Removed “${LIST_NAME}”`);
  await expect(mine).toHaveCount(0, REBUILD);
  await expect(screening.listKind('pep')).toBeEnabled();
  await expect(page.getByTestId('screen-list-pep-status')).toHaveCount(0);
  await expect(lists.panel.getByTestId('user-lists-empty')).toBeVisible();
  await page.mouse.move(0, 0);
  await shot(lists.panel, 'lists-removed');
});

test('lists: a file with no importable row is reported and nothing is stored', async ({ page, service }) => {
  const { lists } = await openLists(page, service);
  const csv = ['kind,name,dob', 'pep,,1970', 'villain,Someone Made Up,1970-13-01'].join('\n');
  await lists.addUserList('Broken list', { name: 'broken.csv', mimeType: 'text/csv', content: csv });
  await expect(lists.report).toHaveAttribute('data-ok', 'false');
  await expect(lists.report.getByTestId('user-list-failed')).toContainText('nothing was saved');
  await expect(lists.report.getByTestId('user-list-imported')).toHaveText('0');
  await expect(lists.report.getByTestId('user-list-rejected')).toHaveText('2');
  expect(await lists.errorRows.count()).toBeGreaterThanOrEqual(2);
  await expect(lists.userDialog).not.toContainText('Someone Made Up');
  // The form stays, to try a fixed file.
  await expect(lists.userDialog.getByTestId('add-user-list-submit')).toBeVisible();
  await lists.userDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(lists.userLists).toHaveCount(0);
  const stored = (await (await page.request.get('/api/screening/lists')).json()) as { user_lists: unknown[] };
  expect(stored.user_lists).toEqual([]);
});

test('lists: a list Excel saved as "CSV" (Windows-1252) is read so, said so, and screened with its accents', async ({ page, service }) => {
  const { lists, screening } = await openLists(page, service);
  // Thérèse as Windows-1252 bytes; Ł has none there, so Excel wrote "?".
  const csv = Buffer.concat([
    Buffer.from('kind,name,dob,country\r\npep,Th'), Buffer.from([0xe9, 0x72, 0xe8]), Buffer.from('se Quillfeather-Mbeki,1961-04-12,ZA\r\n'),
    Buffer.from('pep,?ukasz Quillfeather,1959,PL\r\n'),
  ]);
  await lists.addUserButton.click();
  await lists.userDialog.getByTestId('user-list-name').fill('Excel PEPs');
  await lists.userDialog.getByTestId('user-list-file').setInputFiles({ name: 'peps-excel.csv', mimeType: 'text/csv', buffer: csv });
  const encoding = lists.userDialog.getByTestId('user-list-encoding');
  await expect(encoding).toHaveAttribute('data-encoding', 'windows-1252');
  await expect(encoding).toContainText('Read as Windows-1252 (Excel)');
  await expect(lists.userDialog.getByTestId('user-list-encoding-choice')).toHaveValue('windows-1252');
  await shot(page, 'lists-add-user-excel');
  await lists.userDialog.getByTestId('add-user-list-submit').click();

  // Uploaded as read: the accented name is imported, the one that lost its Ł is left out.
  await expect(lists.report).toHaveAttribute('data-ok', 'true', REBUILD);
  await expect(lists.report.getByTestId('user-list-imported')).toHaveText('1');
  await expect(lists.report.getByTestId('user-list-rejected')).toHaveText('1');
  const cells = lists.errorRows.first().locator('[role="gridcell"]');
  await expect(cells.nth(0)).toHaveText('3');
  await expect(cells.nth(1)).toHaveText('name');
  await expect(cells.nth(2)).toContainText('a letter could not be read');
  await lists.userDialog.getByTestId('add-user-list-done').click();
  await expect(lists.userList('Excel PEPs').getByTestId('user-list-rows')).toHaveText('1 record', REBUILD);

  await expect(screening.listKind('pep')).toBeChecked(REBUILD);
  await screening.screen({ firstName: 'Thérèse', lastName: 'Quillfeather-Mbeki', dob: '1961-04-12', country: 'ZA' });
  await expect(screening.match(0).getByTestId('match-name')).toHaveText('Thérèse Quillfeather-Mbeki');
});

test('lists: import a newer official file; a file that is not that list is refused with the reason', async ({ page, service }) => {
  // The import indexes every list again (no snapshot stands in for an imported official file).
  test.setTimeout(180_000);
  const { lists } = await openLists(page, service);
  await lists.importOfficialButton.click();
  await expect(lists.officialDialog).toBeVisible();
  await lists.officialDialog.getByTestId('official-source').selectOption('un_sc');
  await expect(lists.officialDialog.getByTestId('official-current')).toContainText('1,003 records');

  await lists.importOfficial('un_sc', UN_XML);
  const result = lists.officialDialog.getByTestId('import-official-result');
  await expect(result).toBeVisible();
  const summary = result.getByTestId('import-official-summary');
  await expect(summary).toHaveAttribute('data-records', '1003');
  await expect(summary).toHaveAttribute('data-list-date', '2026-02-27');
  await expect(result.getByTestId('import-official-records')).toHaveText('1,003 records');
  await expect(result.locator('time')).toHaveAttribute('datetime', '2026-02-27');
  await expect(result.getByTestId('import-official-date')).toHaveText('27 Feb 2026');
  await shot(page, 'lists-official-done');

  // The panel shows the imported file as the UN list (its retrieval date is today now).
  const un = lists.officialList('un_sc');
  await expect(un).toContainText('1,003 records');
  await expect(un.getByTestId('loaded-list-date')).toHaveText('27 Feb 2026');
  const stored = (await (await page.request.get('/api/screening/lists')).json()) as { lists: { source: string; retrieval_date: string }[] };
  expect(stored.lists.find((l) => l.source === 'un_sc')?.retrieval_date).toBe(new Date().toISOString().slice(0, 10));

  // package.json is no CSL file: the service's reason is shown as it gave it.
  await lists.importOfficial('us_csl', join(ROOT, 'package.json'));
  const refusal = lists.officialDialog.getByTestId('import-official-error');
  await expect(refusal).toBeVisible();
  await expect(refusal).toContainText('The file was not imported.');
  await expect(refusal.getByTestId('import-official-error-text')).toContainText('Not imported:');
  await expect(lists.officialDialog.getByTestId('official-file-name')).toContainText('package.json');
  await shot(page, 'lists-official-refused');
  await lists.officialDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(lists.officialDialog).toBeHidden();
  await expect(lists.officialList('us_csl')).toBeVisible();
});

test('lists: a file that would remove most of a list is held with what it changes, and used only once applied', async ({ page, service }) => {
  test.setTimeout(180_000);
  const { lists } = await openLists(page, service);
  // The UN list cut short after its first three people: a truncated download.
  const un = readFileSync(UN_XML, 'utf8');
  const people = un.match(/<INDIVIDUAL>[\s\S]*?<\/INDIVIDUAL>/g)!.slice(0, 3);
  const short = `${un.slice(0, un.indexOf('<INDIVIDUALS>'))}<INDIVIDUALS>\n${people.join('\n')}\n</INDIVIDUALS>\n<ENTITIES/>\n</CONSOLIDATED_LIST>\n`;
  await lists.importOfficial('un_sc', { name: 'consolidated.xml', content: short });
  const held = lists.officialDialog.getByTestId('import-official-held');
  await expect(held).toContainText('1000 of the 1003 records');
  await expect(held.getByTestId('import-official-changes-removed')).toHaveAttribute('data-count', '1000');
  await shot(page, 'lists-official-held');
  await lists.officialDialog.getByTestId('import-official-done').click();

  // Nothing changed yet: the UN list in use keeps its records; the held file waits in the panel.
  await expect(lists.officialList('un_sc')).toContainText('1,003 records');
  const item = lists.heldImport('un_sc');
  await expect(item).toBeVisible();
  await expect(item.getByTestId('held-import-changes-removed')).toHaveAttribute('data-count', '1000');
  await item.getByTestId('held-import-changes-removed-names').locator('summary').click();
  await expect(item.getByTestId('held-import-changes-removed-names').locator('li')).toHaveCount(25);
  await shot(lists.panel, 'lists-held');
  await item.getByTestId('held-import-apply').click();
  await expect(page.getByTestId('lists-notice')).toContainText('in use now', REBUILD);
  await expect(lists.officialList('un_sc')).toContainText('3 records', REBUILD);
  await expect(lists.heldImport('un_sc')).toHaveCount(0);
});

test('lists: members see the lists without add, import or remove', async ({ page, service }) => {
  await initOrg(service, PRO_ORG);
  const member = await addMember(service, PRO_ORG, { email: 'mo.member@northwind.test', password: 'member password 1' });
  // The owner imports the list over the API (this page's cookies), then signs out.
  const login = await page.request.post('/api/auth/login', { data: { email: PRO_ORG.email, password: PRO_ORG.password } });
  expect(login.status()).toBe(200);
  const importList = () => page.request.post(`/api/screening/lists/user?name=${encodeURIComponent(LIST_NAME)}`, {
    headers: { 'Content-Type': 'text/csv' },
    data: PEP_CSV,
  });
  expect((await importList()).status()).toBe(201);
  expect((await page.request.post('/api/auth/logout')).status()).toBe(200);

  // A real member, signed in with their own credentials; the service refuses them an import.
  await signIn(page, member);
  const me = await page.request.get('/api/auth/me');
  expect(((await me.json()) as { user: { role: string; email: string } }).user).toMatchObject({ role: 'member', email: member.email });
  expect((await importList()).status()).toBe(403);
  const lists = new ListsPage(page);
  await lists.waitForServiceLists();
  const screening = new ScreeningPage(page);
  await screening.goto();
  await lists.waitForPanel();
  await expect(lists.userList(LIST_NAME)).toHaveCount(1);
  await expect(lists.userList(LIST_NAME).getByTestId('user-list-remove')).toHaveCount(0);
  await expect(lists.addUserButton).toHaveCount(0);
  await expect(lists.importOfficialButton).toHaveCount(0);
  await expect(lists.panel.getByTestId('lists-read-only')).toBeVisible();
  await expect(screening.listKind('pep')).toBeEnabled(REBUILD);
  await shot(lists.panel, 'lists-member');
});
