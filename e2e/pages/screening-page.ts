import { expect, type Locator, type Page } from '@playwright/test';

export interface Subject {
  firstName?: string;
  middleName?: string;
  lastName?: string;
  dob?: string;
  country?: string;
  gender?: 'female' | 'male';
  reference?: string;
}

/** Screening: the subject form, the Lists loaded panel and the result. */
export class ScreeningPage {
  readonly form: Locator;
  readonly submitButton: Locator;
  readonly clearButton: Locator;
  readonly cost: Locator;
  readonly error: Locator;
  readonly listsPanel: Locator;
  readonly listsState: Locator;
  readonly loadedLists: Locator;
  readonly result: Locator;
  readonly riskBadge: Locator;
  readonly flags: Locator;
  readonly listsChecked: Locator;
  readonly listVersions: Locator;
  readonly matches: Locator;
  readonly noMatches: Locator;
  constructor(readonly page: Page) {
    this.form = page.getByTestId('screening-form');
    this.submitButton = page.getByTestId('screen-submit');
    this.clearButton = page.getByTestId('screen-clear');
    this.cost = page.getByTestId('screen-cost');
    this.error = page.getByTestId('screening-error');
    this.listsPanel = page.getByTestId('lists-panel');
    this.listsState = page.getByTestId('lists-state');
    this.loadedLists = this.listsPanel.getByTestId('loaded-list');
    this.result = page.getByTestId('screening-result');
    this.riskBadge = this.result.getByTestId('risk-badge');
    this.flags = this.result.getByTestId('screening-flag');
    this.listsChecked = this.result.getByTestId('lists-checked');
    this.listVersions = this.result.getByTestId('list-version');
    this.matches = this.result.getByTestId('screening-match');
    this.noMatches = this.result.getByTestId('screening-no-matches');
  }

  async goto(): Promise<void> {
    await this.page.goto('/#/screening');
    await expect(this.form).toBeVisible();
  }

  /** The service loads its lists a few seconds after it starts; screening waits for them. */
  async waitForLists(): Promise<void> {
    await expect(this.listsState).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
    await expect(this.submitButton).toBeEnabled();
  }

  field(name: 'first-name' | 'middle-name' | 'last-name' | 'dob' | 'country' | 'gender' | 'reference'): Locator {
    return this.form.getByTestId(`screen-${name}`);
  }

  fieldError(name: 'first-name' | 'middle-name' | 'last-name' | 'dob' | 'country' | 'reference'): Locator {
    return this.form.getByTestId(`screen-${name}-error`);
  }

  listKind(kind: 'sanctions' | 'pep' | 'rca' | 'wanted'): Locator {
    return this.form.getByTestId(`screen-list-${kind}`);
  }

  async fill(s: Subject): Promise<void> {
    if (s.firstName !== undefined) await this.field('first-name').fill(s.firstName);
    if (s.middleName !== undefined) await this.field('middle-name').fill(s.middleName);
    if (s.lastName !== undefined) await this.field('last-name').fill(s.lastName);
    if (s.dob !== undefined) await this.field('dob').fill(s.dob);
    if (s.country !== undefined) await this.field('country').fill(s.country);
    if (s.gender !== undefined) await this.field('gender').selectOption(s.gender);
    if (s.reference !== undefined) await this.field('reference').fill(s.reference);
  }

  /** Fills the form and sends it with Enter from the last-name field; waits for the result. */
  async screen(s: Subject): Promise<void> {
    await this.fill(s);
    await this.field('last-name').press('Enter');
    // The button reads "Screening…" while the request is out (also when a result is already shown).
    await expect(this.submitButton).toHaveText('Screen');
    await expect(this.result).toBeVisible();
  }

  match(index: number): Locator {
    return this.matches.nth(index);
  }

  async expand(match: Locator): Promise<Locator> {
    await match.getByTestId('match-toggle').click();
    const explanation = match.getByTestId('match-explanation');
    await expect(explanation).toBeVisible();
    return explanation;
  }
}
