// Screening against the real service and its shipped lists (loaded a few seconds after start).
// The organization is on Pro, the first plan with screening; the console works in Test (free).
// CONSOLE_SCREENSHOTS=/some/dir also saves screenshots of the screen (console-screening*.png).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { filesUnder, makeCanaries, scanForCanaries } from '../../src-main/service/test/privacy';
import { initOrg, signIn, type TestOrg } from '../support/accounts';
import { expect, test, type Service } from '../support/service';
import { trackApi } from '../support/settled';
import { ScreeningPage } from '../pages/screening-page';

const PRO_ORG: TestOrg = {
  organization: 'Northwind Compliance',
  email: 'owner@northwind.test',
  password: 'correct horse battery',
  plan: 'pro',
};

const shotsDir = process.env.CONSOLE_SCREENSHOTS;
/** The viewport, or one element in full (the screen scrolls inside the app, not the page). */
async function shot(target: Page | Locator, name: string): Promise<void> {
  if (shotsDir) await target.screenshot({ path: join(shotsDir, `console-${name}.png`) });
}

// The tests share one service per worker (support/service.ts): each screens its own subjects in
// Test, and none counts on what another did; the one on another plan has a service of its own.
test.use({ shareService: true });

/** Signs in to a Pro organization and opens Screening once the lists are in. */
async function openScreening(page: Page, service: Service): Promise<ScreeningPage> {
  await initOrg(service, PRO_ORG);
  await signIn(page, PRO_ORG);
  const screening = new ScreeningPage(page);
  await screening.goto();
  await screening.waitForLists();
  return screening;
}

/** Every request the page sends to the screening endpoint. */
function screenRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/console/screen')) seen.push(r.url());
  });
  return seen;
}

/** Words that would turn a risk signal into a verdict on a person. */
const VERDICT = /\b(approved|rejected|pass(ed)?|fail(ed)?)\b/i;

test('screening: a sanctioned person is high risk, with the top match explained token by token', async ({ page, service }) => {
  const screening = await openScreening(page, service);
  await expect(screening.loadedLists.first()).toBeVisible();
  await expect(screening.listKind('sanctions')).toBeChecked();
  // PEP lists ship too (issue 23); no wanted lists do.
  await expect(screening.listKind('pep')).toBeChecked();
  await expect(screening.listKind('wanted')).toBeDisabled();
  await expect(page.getByTestId('screen-list-wanted-status')).toHaveText('not loaded');
  await expect(screening.cost).toContainText('free');

  await screening.fill({ firstName: 'Vladimir', lastName: 'Putin', dob: '1952-10-07', country: 'RU' });
  await expect(page.getByTestId('screen-country-name')).toHaveText('Russia');
  await shot(page, 'screening-form');
  await screening.field('last-name').press('Enter');
  await expect(screening.result).toBeVisible();

  await expect(screening.riskBadge).toHaveAttribute('data-level', 'high');
  await expect(screening.riskBadge).toHaveAttribute('data-decision', 'high_risk_review');
  await expect(screening.riskBadge.getByTestId('risk-level')).toHaveText('High risk');
  await expect(screening.riskBadge.getByTestId('risk-decision')).toHaveText('High-risk review');
  await expect(screening.flags.filter({ hasText: 'SANCTIONS_STRONG_MATCH' })).toHaveCount(1);
  await expect(screening.listsChecked).toContainText('Sanctions');
  await expect(screening.result.getByTestId('result-subject')).toContainText('Vladimir Putin');

  // List versions: every list screened, each with a date and a short hash.
  expect(await screening.listVersions.count()).toBeGreaterThan(0);
  for (const row of await screening.listVersions.all()) {
    await expect(row.locator('code')).toHaveText(/^[0-9a-f]{12}$/);
  }

  // The OFAC record (the UK and Australian records of the same person are listed beside it).
  const top = screening.result.locator('[data-testid="screening-match"][data-entity-id="us_ofac_sdn:35096"]');
  await expect(top.getByTestId('match-name')).toContainText('PUTIN');
  await expect(top.getByTestId('match-strength')).toHaveText('Strong match');
  await expect(top.getByTestId('match-tier')).toHaveAttribute('data-level', 'high');
  await expect(top.getByTestId('match-tier')).toContainText('High-risk review');
  await expect(top.getByTestId('match-reason')).toHaveText('every part of the name matches; listed name also has: Vladimirovich; date of birth matches; country is listed');
  await expect(top.getByTestId('match-list')).toHaveText('Sanctions');
  await expect(top.getByTestId('match-dobs')).toContainText('1952-10-07');
  await expect(top.getByTestId('match-countries')).toContainText('RU');
  await expect(top.getByTestId('match-explanation')).toHaveCount(0);
  // One person, one match: the card names every list that cites him, with its programme and date.
  await expect(top.getByTestId('match-listings')).toContainText('Listed on 3 lists');
  const listings = top.getByTestId('match-listing');
  await expect(listings).toHaveCount(3);
  await expect(listings.nth(0)).toHaveAttribute('data-entity-id', 'us_ofac_sdn:35096');
  await expect(listings.nth(1)).toHaveAttribute('data-entity-id', /^uk_sanctions:/);
  await expect(listings.nth(1).getByTestId('match-listing-listed-on')).toHaveText(/listed \d{4}-\d{2}-\d{2}$/);
  await expect(listings.nth(2)).toHaveAttribute('data-entity-id', /^au_dfat:/);
  await expect(listings.nth(2).getByTestId('match-listing-programs')).toContainText('Autonomous (Russia)');

  // Expand with the keyboard; Esc closes again.
  await top.getByTestId('match-toggle').focus();
  await page.keyboard.press('Enter');
  const explanation = top.getByTestId('match-explanation');
  await expect(explanation).toBeVisible();
  await expect(top.getByTestId('match-toggle')).toHaveAttribute('aria-expanded', 'true');
  const exact = explanation.locator('[data-testid="alignment-row"][data-method="exact"]');
  await expect(exact.filter({ hasText: 'vladimir' })).toHaveCount(1);
  await expect(exact.filter({ hasText: 'putin' })).toHaveCount(1);
  await expect(exact.first().locator('.mx-tok-exact')).toHaveCount(2);
  await expect(explanation.locator('[data-testid="qualifier"][data-factor="dob_exact"]')).toContainText('+10');
  await expect(explanation.getByTestId('matched-name').locator('mark')).not.toHaveCount(0);
  await shot(screening.result, 'screening-result');
  await shot(page, 'screening-explanation');

  const resultText = (await screening.result.innerText()) ?? '';
  expect(resultText).not.toMatch(VERDICT);

  await page.keyboard.press('Escape');
  await expect(explanation).toBeHidden();
  await expect(top.getByTestId('match-toggle')).toBeFocused();

  // A click anywhere on the match's summary opens it too.
  await top.getByTestId('match-dobs').click();
  await expect(top.getByTestId('match-explanation')).toBeVisible();
});

test('screening: an exact listed name with a wrong date of birth and country stays listed, for review, saying why', async ({ page, service }) => {
  const screening = await openScreening(page, service);
  await screening.screen({ firstName: 'Vladimir', lastName: 'Putin', dob: '1980-01-01', country: 'BR' });
  await expect(screening.riskBadge).toHaveAttribute('data-level', 'medium');
  await expect(screening.riskBadge.getByTestId('risk-decision')).toHaveText('Review');
  const putin = screening.result.locator('[data-testid="screening-match"][data-entity-id="us_ofac_sdn:35096"]');
  await expect(putin).toHaveCount(1);
  await expect(putin.getByTestId('match-strength')).toHaveText('Possible match');
  await expect(putin.getByTestId('match-tier')).toHaveAttribute('data-level', 'medium');
  await expect(putin.getByTestId('match-tier')).toContainText('Review');
  await expect(putin.getByTestId('match-reason')).toHaveText('name matches; date of birth differs; country differs');
  await shot(page, 'screening-exact-name-review');
});

test('screening: a name on no list shows the no-matches state and a clear badge', async ({ page, service }) => {
  const screening = await openScreening(page, service);
  await screening.screen({ firstName: 'Ingeborg', lastName: 'Abrahamsen' });
  await expect(screening.noMatches).toContainText('No matches on the lists checked');
  await expect(screening.matches).toHaveCount(0);
  await expect(screening.riskBadge).toHaveAttribute('data-level', 'low');
  await expect(screening.riskBadge.getByTestId('risk-decision')).toHaveText('Clear');
  await expect(screening.result.getByTestId('screening-flags')).toHaveText('None');
  expect(await screening.listVersions.count()).toBeGreaterThan(0);
  await shot(page, 'screening-clear');
  // The ledger shows a screening's risk score, not a "confidence 0.0".
  await page.getByTestId('nav-verifications').click();
  const row = page.getByTestId('ledger-grid').getByRole('row').filter({ has: page.getByTestId('ledger-product') }).first();
  await expect(row.getByTestId('ledger-risk')).toHaveText('risk 0');
});

test('screening: a misspelt name is still found, with its fuzzy tokens marked apart from exact ones', async ({ page, service }) => {
  const screening = await openScreening(page, service);
  await screening.screen({ firstName: 'Wladimir', lastName: 'Poutin' });
  // The OFAC record (the UK and Australian records of the same person are listed beside it).
  const top = screening.result.locator('[data-testid="screening-match"][data-entity-id="us_ofac_sdn:35096"]');
  await expect(top.getByTestId('match-name')).toContainText('PUTIN');
  const explanation = await screening.expand(top);
  const rows = explanation.getByTestId('alignment-row');
  await expect(rows.filter({ hasText: 'wladimir' })).toHaveAttribute('data-tone', 'exact');
  await expect(rows.filter({ hasText: 'poutin' })).toHaveAttribute('data-tone', 'fuzzy');
  await expect(rows.filter({ hasText: 'poutin' }).locator('.mx-tok-fuzzy')).toHaveCount(2);
  await expect(explanation.getByTestId('qualifiers-none')).toBeVisible();
  await shot(page, 'screening-fuzzy');

  // Several matches: strongest first (strong before possible), as the count says; among equals by score.
  await screening.screen({ firstName: 'Mohammed', lastName: 'Ali' });
  await expect(screening.flags.filter({ hasText: 'MULTIPLE_MATCHES' })).toHaveCount(1);
  await expect(page.getByTestId('match-count')).toContainText('strongest first');
  const strengths = await page.locator('[data-strength]').evaluateAll((els) => els.map((e) => (e.getAttribute('data-strength') === 'strong' ? 1 : 0)));
  expect(strengths.length).toBeGreaterThan(1);
  expect([...strengths].sort((a, b) => b - a)).toEqual(strengths);
  await shot(page, 'screening-many');
});

test('screening: while the service is still loading its lists the panel says so and the screen waits', async ({ page, service }) => {
  await initOrg(service, PRO_ORG);
  await signIn(page, PRO_ORG);
  // The service has usually finished loading by the time an analyst signs in: answer "loading"
  // to the first few polls to see the screen wait for it.
  let polls = 0;
  let holding = true;
  await page.route('**/api/screening/lists', async (route) => {
    polls += 1;
    if (polls <= 2 || holding) await route.fulfill({ json: { state: 'loading', loaded_kinds: [], lists: [], index: null, user_lists: [], held_imports: [], stale_windows: { sanctions_stale_days: 14, pep_stale_days: 180 } } });
    else await route.continue();
  });
  const screening = new ScreeningPage(page);
  await screening.goto();
  await expect(screening.listsState).toHaveAttribute('data-state', 'loading');
  await expect(screening.submitButton).toBeDisabled();
  await expect(page.getByTestId('screen-list-sanctions-status')).toHaveText('loading…');
  await shot(page, 'screening-loading');
  // Asked for less motion (the suite's browsers ask: playwright.config.ts), the spinner stands
  // still; asked for nothing, it turns.
  const spinner = screening.listsState.locator('.scr-spinner');
  await expect(spinner).toHaveCSS('animation-name', 'none');
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  await expect(spinner).toHaveCSS('animation-name', 'scr-spin');
  await page.emulateMedia({ reducedMotion: 'reduce' });
  holding = false;
  await screening.waitForLists();
  expect(polls).toBeGreaterThanOrEqual(3);
  await expect(screening.listKind('sanctions')).toBeEnabled();
  await expect(screening.loadedLists.first()).toBeVisible();
});

test('screening: a missing last name is a field error and nothing is screened', async ({ page, service }) => {
  const screening = await openScreening(page, service);
  const sent = screenRequests(page);
  await screening.fill({ firstName: 'Vladimir' });
  await screening.field('first-name').press('Enter');
  await expect(screening.fieldError('last-name')).toHaveText('Enter the last name.');
  await expect(screening.field('last-name')).toHaveAttribute('aria-invalid', 'true');
  await expect(screening.field('last-name')).toBeFocused();
  await expect(screening.result).toBeHidden();
  await shot(page, 'screening-invalid');

  // Typing in the field clears its error; the service itself refuses the same request.
  await screening.field('last-name').fill('P');
  await expect(screening.fieldError('last-name')).toBeHidden();
  expect(sent).toEqual([]);
  const refused = await page.request.post('/api/console/screen?env=test', {
    data: { subject: { type: 'individual', first_name: 'Vladimir' } },
  });
  expect(refused.status()).toBe(400);
  expect((await refused.json()).error.message).toContain('subject.last_name');
});

test('screening: leaving the screen, or Clear, forgets the subject and the result', async ({ page, service }) => {
  const screening = await openScreening(page, service);
  await screening.screen({ firstName: 'Vladimir', lastName: 'Putin', dob: '1952-10-07', country: 'RU', reference: 'case-4411' });
  await screening.expand(screening.match(0));

  await page.getByTestId('nav-keys').click();
  await expect(page.getByTestId('keys-table')).toBeVisible();
  await page.getByTestId('nav-screening').click();
  await expect(screening.form).toBeVisible();
  for (const name of ['first-name', 'middle-name', 'last-name', 'dob', 'country', 'reference'] as const) {
    await expect(screening.field(name)).toHaveValue('');
  }
  await expect(screening.result).toBeHidden();

  // Back in the browser's history: still nothing.
  await page.goBack();
  await expect(page.getByTestId('keys-table')).toBeVisible();
  await page.goForward();
  await expect(screening.form).toBeVisible();
  await expect(screening.field('first-name')).toHaveValue('');
  await expect(screening.result).toBeHidden();

  // Clear empties the form and the result in place.
  await screening.waitForLists();
  await screening.screen({ firstName: 'Ingeborg', lastName: 'Abrahamsen' });
  await screening.clearButton.click();
  await expect(screening.result).toBeHidden();
  await expect(screening.field('first-name')).toHaveValue('');
  await expect(screening.field('last-name')).toHaveValue('');
  await expect(screening.field('first-name')).toBeFocused();
});

test('screening: live shows the cost, and a refusal for want of credits is explained', async ({ page, service }) => {
  const screening = await openScreening(page, service);
  await page.getByTestId('env-live').click();
  await expect(screening.cost).toHaveText(/60 credits/);
  await screening.fill({ firstName: 'Ingeborg', lastName: 'Abrahamsen' });
  await screening.submitButton.click();
  await expect(screening.error).toContainText('Not enough credits');
  await expect(screening.error.getByRole('link', { name: 'Plan & credits' })).toBeVisible();
  await expect(screening.result).toBeHidden();
  await shot(page, 'screening-live-credits');

  // In test the same subject is screened for free; the live refusal does not linger.
  await page.getByTestId('env-test').click();
  await expect(screening.error).toBeHidden();
  await expect(screening.cost).toContainText('free');
  await screening.submitButton.click();
  await expect(screening.noMatches).toBeVisible();
});

test.describe(() => {
  test.use({ shareService: false });
  test('screening: below Pro the screen says which plans include it and sends nothing', async ({ page, service }) => {
    const growth: TestOrg = { ...PRO_ORG, plan: 'growth' };
    await initOrg(service, growth);
    await signIn(page, growth);
    const screening = new ScreeningPage(page);
    await screening.goto();
    await expect(page.getByTestId('screening-plan')).toContainText('Pro and Enterprise');
    await expect(screening.listsState).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
    await expect(screening.submitButton).toBeDisabled();
  });
});

test('screening: the subject leaves no trace in the data directory or the browser', async ({ page, service }) => {
  const api = trackApi(page, service);
  const screening = await openScreening(page, service);
  const c = makeCanaries();
  await screening.screen({ firstName: c.firstName, lastName: c.lastName, dob: c.dob, country: 'NO', reference: c.clientReference });
  await expect(screening.noMatches).toBeVisible();
  await screening.screen({ firstName: 'Ingeborg', middleName: 'Solveig', lastName: 'Abrahamsen', dob: '1961-04-12' });
  await expect(screening.result.getByTestId('result-subject')).toContainText('Ingeborg Solveig Abrahamsen');

  // Wait until the service has answered and logged every request (its ledger, audit and outbox rows are in).
  await api.settled();
  expect(scanForCanaries(service.dataDir, c)).toEqual([]);
  const needles = ['Ingeborg', 'Solveig', 'Abrahamsen', '1961-04-12'];
  const found: string[] = [];
  for (const file of filesUnder(service.dataDir)) {
    const text = readFileSync(file).toString('latin1').toLowerCase();
    const utf16 = readFileSync(file).toString('utf16le').toLowerCase();
    for (const n of needles) if (text.includes(n.toLowerCase()) || utf16.includes(n.toLowerCase())) found.push(`${file}: ${n}`);
  }
  expect(found).toEqual([]);

  // Nor in the browser: storage, address, title.
  const browser = await page.evaluate(() => ({
    local: JSON.stringify({ ...localStorage }),
    session: JSON.stringify({ ...sessionStorage }),
    url: location.href,
    title: document.title,
  }));
  for (const value of Object.values(browser)) {
    for (const n of [c.firstName, c.lastName, c.clientReference, ...needles]) expect(value).not.toContain(n);
  }
});
