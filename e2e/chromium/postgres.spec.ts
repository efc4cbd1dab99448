// The console against two instances of the service whose ledger is on one PostgreSQL (issue 40),
// as a team behind a load balancer has them: an owner signed in on one instance adds the
// organisation's own PEP list in Screening's Lists panel; an analyst's console on the other
// instance, without any restart, shows the list and screens a person on it; removed there, it is
// gone from the first. Skipped, saying why, where PostgreSQL is not installed.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runStatement } from '../../src-main/service/test/pg-cluster';
import { signIn, type TestOrg } from '../support/accounts';
import { openListsPanel } from '../support/lists';
import { expect, startService, stopService, test } from '../support/service';
import { ListsPage } from '../pages/lists-page';
import { ScreeningPage } from '../pages/screening-page';

const CLUSTER = process.env.CONSOLE_E2E_POSTGRES;
// One name for the run's own cluster (each process that loads this file computes the same one).
const DATABASE = 'cc_e2e_two_instances';
const DATABASE_URL = CLUSTER?.replace('/postgres?', `/${DATABASE}?`) ?? '';

const ORG: TestOrg = { organization: 'Northwind Compliance', email: 'owner@northwind.test', password: 'correct horse battery', plan: 'pro' };
const PEP = { firstName: 'Thaddeus', lastName: 'Quillfeather-Ndlovu', dob: '1958-03-14', country: 'ZA' };
const LIST_NAME = 'Provincial PEPs (shared)';
const PEP_CSV = [
  'kind,name,aliases,dob,country,id,id_type,gender,program,schema,ref,notes',
  `pep,${PEP.firstName} ${PEP.lastName},,${PEP.dob},${PEP.country},,,male,Member of the Provincial Legislature,,e2e-pg-1,`,
].join('\n');

/** One statement on the cluster's maintenance database. */
const admin = (statement: string): Promise<void> => runStatement(CLUSTER!, statement);

test.skip(!CLUSTER, `PostgreSQL is not available here: ${process.env.CONSOLE_E2E_POSTGRES_SKIP ?? 'no cluster was started'}`);
// The database is made before the test's service starts (a fixture: it runs before the service's).
test.use({
  serviceEnv: async ({}, use) => {
    await admin(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
    await admin(`CREATE DATABASE ${DATABASE}`);
    await use({ CONSOLE_DATABASE_URL: DATABASE_URL });
  },
});
test.afterAll(async () => {
  if (CLUSTER) await admin(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
});

test('two instances on one PostgreSQL: a list added in one console is screened in the other, without a restart', async ({ page, browser, service }) => {
  const { lists, screening } = await openListsPanel(page, service, ORG);

  // The other instance: its own data directory, the same database.
  const otherDir = await mkdtemp(join(tmpdir(), 'cc-e2e-pg-other-'));
  const other = await startService(otherDir, 'bundle', { CONSOLE_DATABASE_URL: DATABASE_URL }, ['--lazy-models']);
  const context = await browser.newContext({ baseURL: other.url });
  try {
    const page2 = await context.newPage();
    // A session is good on any instance: signing in there is the same account.
    await signIn(page2, ORG);
    const screening2 = new ScreeningPage(page2);
    await screening2.goto();
    await screening2.waitForLists();
    const lists2 = new ListsPage(page2);
    await lists2.waitForPanel();
    await expect(lists2.userList(LIST_NAME)).toHaveCount(0);

    await lists.addUserList(LIST_NAME, { name: 'peps.csv', mimeType: 'text/csv', content: PEP_CSV });
    await expect(lists.report).toHaveAttribute('data-ok', 'true');
    await lists.userDialog.getByTestId('add-user-list-done').click();
    await expect(lists.userList(LIST_NAME)).toBeVisible();

    // The other console: the list arrives with the next look at the lists, and it screens with it.
    await expect(async () => {
      await page2.reload();
      await screening2.goto();
      await expect(lists2.userList(LIST_NAME)).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
    await screening2.waitForLists();
    // The made-up person is on no shipped list: a PEP match is the shared list's.
    await screening2.screen(PEP);
    await expect(screening2.flags.filter({ hasText: /^PEP_(STRONG|POSSIBLE)_MATCH$/ })).toHaveCount(1);
    await expect(screening2.match(0).getByTestId('match-list')).toHaveText('Politically exposed persons');

    // Removed in the other console: gone from the first one too.
    await lists2.removeUserList(LIST_NAME);
    await expect(async () => {
      await page.reload();
      await screening.goto();
      await lists.waitForPanel();
      await expect(lists.userList(LIST_NAME)).toHaveCount(0, { timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
  } finally {
    await context.close();
    await stopService(other.child);
    await rm(otherDir, { recursive: true, force: true });
  }
});
