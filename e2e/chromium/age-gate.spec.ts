// The storefront age gate end to end: set up in the console (its live preview follows the form
// before saving), pasted as the console's script tag into a storefront page served from another
// origin (a tiny local server), and used there by visitors: an underage date of birth lands on
// the store's redirect; an adult passes, is remembered as `{ until }` only, and is not asked again;
// the sixth attempt within the hour is Too Many Attempts; a selfie store asks for a selfie.
// Each visitor is a fresh browser context, but every one of them comes from this machine's address,
// and the service counts attempts per store and address, whatever the user agent (issue 25): the
// visitors of one store share its five attempts. CONSOLE_SCREENSHOTS=/some/dir saves screenshots (age-gate-*.png).
import { rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test';
import sharp from 'sharp';
import { addMember, DEFAULT_ORG, initOrg, signIn } from '../support/accounts';
import { axeViolations } from '../support/axe';
import { CHROMIUM_PATH } from '../support/chromium';
import { fakeCameraArgs, writeY4m } from '../support/fake-camera';
import { expect, ROOT, test } from '../support/service';

const shotsDir = process.env.CONSOLE_SCREENSHOTS;
async function shot(page: Page, name: string): Promise<void> {
  if (shotsDir) await page.screenshot({ path: join(shotsDir, `age-gate-${name}.png`) });
}

const SAMPLE = join(ROOT, 'node_modules/@vladmandic/face-api/demo/sample1.jpg');
const selfie = () => sharp(SAMPLE).extract({ left: 122, top: 105, width: 774, height: 774 }).resize(560).jpeg().toBuffer();

interface Storefront {
  url: string;
  /** The script tag every page carries (set once the console has given it). */
  embed: string;
  close: () => Promise<void>;
}

/** A store on its own origin: `/products/<handle>` pages with the script tag, and `/underage`. */
async function startStorefront(): Promise<Storefront> {
  const store: Storefront = { url: '', embed: '', close: async () => undefined };
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const html = (title: string, body: string) =>
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>` +
      // Storefront styles that must not reach into the overlay.
      '<style>body{font-family:Georgia,serif;margin:0;padding:24px;background:#f6efe4;color:#5a3d1e} button,input,h2,p{color:magenta!important;font-size:40px!important}</style>' +
      `</head><body>${body}</body></html>`;
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    if (path === '/underage') {
      res.end(html('Come back later', '<h1>Underage landing page</h1>'));
      return;
    }
    const para = '<p>Small-batch wines and spirits from independent makers, shipped to your door.</p>'.repeat(30);
    res.end(html('Northwind Cellars', `<h1>Northwind Cellars</h1><h2>Reserve Pinot Noir</h2>${para}${store.embed}`));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  store.url = `http://127.0.0.1:${port}`;
  store.close = () => new Promise((r) => server.close(() => r()));
  return store;
}

/** The age-gate screen, by what a merchant sees. */
class AgeGatePage {
  readonly form: Locator;
  readonly preview: Locator;
  constructor(readonly page: Page) {
    this.form = page.getByTestId('age-gate-form');
    this.preview = page.getByTestId('age-gate-preview');
  }

  field(name: string): Locator {
    return this.page.getByTestId(`age-gate-${name}`);
  }

  /** The range by keyboard, as a person would: End for the top, then left arrows. */
  async setMinAge(age: number): Promise<void> {
    const range = this.field('min-age');
    await range.focus();
    await range.press('Home');
    for (let a = 18; a < age; a++) await range.press('ArrowRight');
    await expect(this.field('min-age-value')).toHaveText(String(age));
  }

  async save(): Promise<{ embed: string; storeId: string }> {
    await this.field('save').click();
    await expect(this.field('notice')).toContainText('Saved');
    const embed = await this.field('embed').inputValue();
    const storeId = (await this.field('store-id').textContent()) ?? '';
    return { embed, storeId };
  }
}

/** A visitor: a fresh context (its own storage and user agent; the same address), watching for errors on the storefront. */
async function visitor(browser: Browser, name: string): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext({ userAgent: `Mozilla/5.0 (age-gate e2e; ${name})`, locale: 'en-US', viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/status of 429/.test(m.text())) problems.push(`console: ${m.text()}`);
  });
  return { context, page, problems };
}

const gateScript = (page: Page) => page.locator('script[data-store]');
const dialog = (page: Page) => page.getByTestId('age-gate-dialog');

/** Gives a date of birth in the overlay by keyboard (en-US: the month, named, then day and year) and sends it. */
async function enterDob(page: Page, { day, month, year }: { day: number; month: number; year: number }): Promise<void> {
  const monthList = page.getByLabel('Month');
  await expect(monthList).toBeFocused();
  // The month by its name, as a visitor types it into the list ("Mar" for March).
  await page.keyboard.type(new Intl.DateTimeFormat('en-US', { month: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(2000, month - 1, 15))).slice(0, 3));
  await expect(monthList).toHaveValue(String(month));
  await page.keyboard.press('Tab');
  await page.keyboard.type(String(day));
  await page.keyboard.press('Tab');
  await page.keyboard.type(String(year));
  await page.keyboard.press('Enter');
}

const thisYear = new Date().getFullYear();
const ADULT = { day: 15, month: 3, year: 1990 };
const AGED_19 = { day: 1, month: 1, year: thisYear - 19 };

test('age gate: set up in the console with a live preview; on a storefront underage is redirected, an adult is remembered, the sixth attempt is Too Many Attempts', async ({ page, service, browser }) => {
  test.setTimeout(120_000);
  const store = await startStorefront();
  try {
    await initOrg(service);
    const shell = await signIn(page);
    await expect(page.getByTestId('nav-age-gate')).toBeVisible();
    await shell.open('age-gate');
    const gate = new AgeGatePage(page);
    await expect(gate.field('enabled')).not.toBeChecked();
    await expect(gate.field('embed-panel')).toHaveCount(0);
    await shot(page, 'console-new');

    // The preview is the widget's overlay, drawn before anything is saved, and follows the form.
    await expect(gate.preview.getByTestId('age-gate-test-banner')).toContainText('Test mode');
    await expect(gate.preview.getByTestId('age-gate-message')).toContainText('18 or older');
    await gate.field('use_case').selectOption('alcohol');
    await expect(gate.preview.getByTestId('age-gate-heading')).toHaveText('Are you of legal drinking age?');
    await expect(gate.preview.getByTestId('age-gate-message')).toContainText('This store sells alcohol');
    await expect(gate.field('effective-age')).toContainText('at least 21');
    await gate.field('use_case').selectOption('adult');
    await gate.field('custom-message').fill('Northwind Cellars sells wine. Please confirm your age.');
    await expect(gate.preview.getByTestId('age-gate-message')).toHaveText('Northwind Cellars sells wine. Please confirm your age.');
    await expect(gate.field('dirty')).toHaveText('Unsaved changes');
    await gate.field('require-selfie').uncheck();
    await gate.field('preview-step-too_many').click();
    await expect(gate.preview.getByTestId('age-gate-heading')).toHaveText('Too Many Attempts');
    await gate.field('preview-step-dob').click();

    // The contract's rules answer before sending: a page-handles list with nothing in it is fine,
    // a too-long message is not.
    await gate.field('custom-message').fill('x'.repeat(501));
    await gate.field('save').click();
    await expect(gate.field('custom_message-error')).toContainText('At most 500 characters');
    await expect(gate.field('custom-message')).toBeFocused();
    await gate.field('custom-message').fill('Northwind Cellars sells wine. Please confirm your age.');
    await expect(gate.field('custom_message-error')).toHaveCount(0);

    // The service's own check of the redirect shows at the field.
    await gate.field('enabled').check();
    await gate.setMinAge(21);
    await gate.field('underage_redirect_url').fill('javascript:alert(1)');
    await gate.field('save').click();
    await expect(gate.field('underage_redirect_url-error')).toContainText('not allowed');
    await expect(gate.field('underage_redirect_url')).toBeFocused();

    await gate.field('underage_redirect_url').fill(`${store.url}/underage`);
    await shot(page, 'console-form');
    const { embed, storeId } = await gate.save();
    expect(storeId).toMatch(/^ag_test_/);
    expect(embed).toBe(`<script src="${service.url}/widget/age-gate.js" data-store="${storeId}" async></script>`);
    // No public URL: the tag loads from this computer's own address, and the screen says so beside it (issue 26).
    await expect(gate.field('embed-reach')).toContainText('This script tag works on this computer only');
    await expect(gate.field('embed-reach').getByTestId('age-gate-embed-reach-settings')).toHaveAttribute('href', '#/settings');
    await expect(gate.field('dirty')).toHaveText('All changes saved');
    await expect(gate.field('embed-copy')).toBeVisible();
    await shot(page, 'console-saved');
    await gate.field('advanced').locator('summary').click();
    await expect(gate.field('advanced')).toContainText('Minimum Age21');
    await gate.field('advanced').scrollIntoViewIfNeeded();
    await shot(page, 'console-advanced');

    // Live is another store: not set up yet, and its preview has no test banner.
    await shell.switchEnv('live');
    await expect(page.getByRole('heading', { name: 'Live storefront settings' })).toBeVisible();
    await expect(gate.field('enabled')).not.toBeChecked();
    await expect(gate.field('embed-panel')).toHaveCount(0);
    await expect(gate.preview.getByTestId('age-gate-heading')).toBeVisible();
    await expect(gate.preview.getByTestId('age-gate-test-banner')).toHaveCount(0);
    await shell.switchEnv('test');
    await expect(gate.field('store-id')).toHaveText(storeId);
    store.embed = embed;

    // (a) Underage: the store's redirect.
    {
      const v = await visitor(browser, 'underage');
      await v.page.goto(`${store.url}/products/reserve-pinot`);
      await expect(dialog(v.page)).toBeVisible();
      await expect(gateScript(v.page)).toHaveAttribute('data-state', 'open');
      await expect(v.page.getByTestId('age-gate-test-banner')).toBeVisible();
      await expect(v.page.getByTestId('age-gate-message')).toHaveText('Northwind Cellars sells wine. Please confirm your age.');
      // Storefront styles stay outside: the page's magenta, 40px buttons do not reach the overlay.
      const button = v.page.getByTestId('age-gate-continue');
      expect(await button.evaluate((b) => [getComputedStyle(b).color, getComputedStyle(b).fontSize])).toEqual(['rgb(255, 255, 255)', '15px']);
      expect(await v.page.evaluate(() => document.documentElement.style.overflow)).toBe('hidden');
      await shot(v.page, 'storefront-overlay');
      // The overlay (not the store's own page) has no serious or critical axe-core violation.
      expect(await axeViolations(v.page, 'age-gate overlay', '[data-cc-age-gate]')).toEqual([]);
      // A date that does not exist is refused by the overlay, at the fields.
      await enterDob(v.page, { day: 31, month: 2, year: 1990 });
      await expect(v.page.getByRole('alert')).toHaveText('That is not a valid date. Check the day, month and year.');
      await expect(v.page.getByLabel('Month')).toHaveAttribute('aria-invalid', 'true');
      await shot(v.page, 'storefront-invalid');
      await v.page.getByLabel('Day').fill(String(AGED_19.day));
      await v.page.getByLabel('Month').selectOption(String(AGED_19.month));
      await v.page.getByLabel('Year').fill(String(AGED_19.year));
      await v.page.getByTestId('age-gate-continue').click();
      await expect(v.page).toHaveURL(`${store.url}/underage`);
      await expect(v.page.getByRole('heading', { name: 'Underage landing page' })).toBeVisible();
      expect(v.problems).toEqual([]);
      await v.context.close();
    }

    // (b) An adult: the overlay goes, the page scrolls again, and the success is remembered as `{ until }` only.
    {
      const v = await visitor(browser, 'adult');
      await v.page.goto(`${store.url}/products/reserve-pinot`);
      await expect(dialog(v.page)).toBeVisible();
      // Focus stays inside the dialog.
      for (let i = 0; i < 6; i++) await v.page.keyboard.press('Tab');
      expect(await v.page.evaluate(() => document.activeElement?.hasAttribute('data-cc-age-gate'))).toBe(true);
      await v.page.getByLabel('Month').focus();
      const before = Date.now();
      await enterDob(v.page, ADULT);
      await expect(gateScript(v.page)).toHaveAttribute('data-state', 'verified');
      await expect(dialog(v.page)).toHaveCount(0);
      await expect(v.page.locator('[data-cc-age-gate]')).toHaveCount(0);
      expect(await v.page.evaluate(() => document.documentElement.style.overflow)).toBe('');
      const stored = await v.page.evaluate(() => Object.fromEntries(Object.entries(localStorage)));
      expect(Object.keys(stored)).toEqual([`cc-age-gate:${storeId}`]);
      const value = JSON.parse(stored[`cc-age-gate:${storeId}`] ?? 'null') as { until: number };
      expect(Object.keys(value)).toEqual(['until']);
      expect(value.until).toBeGreaterThanOrEqual(before + 24 * 3_600_000);
      expect(value.until).toBeLessThan(Date.now() + 24 * 3_600_000 + 1_000);
      await shot(v.page, 'storefront-verified');

      await v.page.reload();
      await expect(gateScript(v.page)).toHaveAttribute('data-state', 'remembered');
      await expect(dialog(v.page)).toHaveCount(0);
      expect(v.problems).toEqual([]);
      await v.context.close();
    }

    // (c) Five attempts in the hour, then Too Many Attempts, with nothing more to try. A fresh
    // context with another user agent is no fresh visitor: (a) and (b) came from this address too.
    {
      const v = await visitor(browser, 'many');
      for (let i = 3; i <= 5; i++) {
        await v.page.goto(`${store.url}/products/reserve-pinot`);
        await expect(dialog(v.page)).toBeVisible();
        await enterDob(v.page, ADULT);
        await expect(gateScript(v.page)).toHaveAttribute('data-state', 'verified');
        await v.page.evaluate(() => localStorage.clear());
      }
      await v.page.goto(`${store.url}/products/reserve-pinot`);
      await enterDob(v.page, ADULT);
      await expect(v.page.getByTestId('age-gate-heading')).toHaveText('Too Many Attempts');
      await expect(v.page.getByTestId('age-gate-heading')).toBeFocused();
      await expect(v.page.getByTestId('age-gate-too-many')).toContainText('Please try again later.');
      await expect(dialog(v.page).getByRole('button')).toHaveCount(0);
      await expect(gateScript(v.page)).toHaveAttribute('data-state', 'open');
      await shot(v.page, 'storefront-too-many');
      expect(v.problems).toEqual([]);
      await v.context.close();
    }
  } finally {
    await store.close();
  }
});

test('age gate: a selfie store with an uploaded logo asks an adult for a selfie after the date of birth, taken from a file; members only look', async ({ page, service, browser }) => {
  test.setTimeout(120_000);
  const store = await startStorefront();
  try {
    const org = await initOrg(service, { ...DEFAULT_ORG, plan: 'starter' });
    const member = await addMember(service, org, { email: 'mo@northwind.test', password: 'member password 1' });
    const shell = await signIn(page);
    await shell.open('age-gate');
    const gate = new AgeGatePage(page);
    await gate.field('enabled').check();
    await expect(gate.field('require-selfie')).toBeChecked();
    await gate.field('preview-step-selfie').click();
    await expect(gate.preview.getByTestId('age-gate-heading')).toHaveText('Take a selfie');
    // A logo uploaded into the settings shows in the preview at once, and on the storefront.
    const logo = await sharp({ create: { width: 120, height: 40, channels: 3, background: { r: 120, g: 30, b: 60 } } }).png().toBuffer();
    await gate.field('logo-file').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: logo });
    await expect(gate.field('logo-thumb')).toBeVisible();
    await expect(gate.preview.locator('img.logo')).toHaveAttribute('src', /^data:image\/png;base64,/);
    const { embed } = await gate.save();
    store.embed = embed;

    const v = await visitor(browser, 'selfie');
    await v.page.goto(`${store.url}/products/reserve-pinot`);
    await expect(v.page.getByAltText('Store logo')).toBeVisible();
    await enterDob(v.page, ADULT);
    await expect(v.page.getByTestId('age-gate-heading')).toHaveText('Take a selfie');
    await expect(dialog(v.page)).toHaveAttribute('data-step', 'selfie');
    await expect(v.page.getByTestId('age-gate-file')).toHaveAttribute('capture', 'user');
    await shot(v.page, 'storefront-selfie');
    const posted = v.page.waitForRequest((r) => r.url().endsWith('/api/verify-age') && r.method() === 'POST');
    await v.page.getByTestId('age-gate-file').setInputFiles({ name: 'selfie.jpg', mimeType: 'image/jpeg', buffer: await selfie() });
    const body = (await posted).postDataJSON() as Record<string, unknown>;
    expect(body).toMatchObject({ date_of_birth: '1990-03-15', store_id: expect.stringMatching(/^ag_test_/), attestation_only: false });
    expect(typeof body.selfie_b64).toBe('string');
    // The test face's estimate decides: verified (the overlay goes), or not conclusive (try again).
    await expect(async () => {
      const state = await gateScript(v.page).getAttribute('data-state');
      const step = state === 'open' ? await dialog(v.page).getAttribute('data-step') : null;
      expect(state === 'verified' || step === 'not_conclusive').toBe(true);
    }).toPass({ timeout: 30_000 });
    expect(v.problems).toEqual([]);
    await v.context.close();

    // A member sees the settings and the script tag, and changes nothing.
    await shell.logout();
    const memberShell = await signIn(page, member);
    await memberShell.open('age-gate');
    await expect(gate.field('read-only')).toBeVisible();
    await expect(gate.field('enabled')).toBeDisabled();
    await expect(gate.field('save')).toHaveCount(0);
    await expect(gate.field('embed')).toHaveValue(embed);
  } finally {
    await store.close();
  }
});

test('age gate: the selfie step takes its photo with the camera (Chromium\'s fake camera fed the test face) and stops it', async ({ page, service }) => {
  test.setTimeout(120_000);
  const store = await startStorefront();
  const y4m = join(tmpdir(), `cc-age-gate-selfie-${process.pid}.y4m`);
  await writeY4m(y4m, Array<Buffer>(5).fill(await selfie()), 10);
  const camera = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', ...fakeCameraArgs(y4m)] });
  try {
    await initOrg(service);
    await signIn(page);
    // The settings straight through the console's own API (same session cookie).
    const saved = await page.request.put('/api/age-gate', { data: { env: 'test', settings: { enabled: true, require_selfie: true } } });
    expect(saved.status()).toBe(200);
    store.embed = ((await saved.json()) as { embed: string }).embed;

    const v = await visitor(camera, 'camera');
    await v.page.goto(`${store.url}/products/reserve-pinot`);
    await enterDob(v.page, ADULT);
    await expect(dialog(v.page)).toHaveAttribute('data-step', 'selfie');
    await v.page.getByTestId('age-gate-open-camera').click();
    const video = v.page.locator('[data-cc-age-gate] video');
    await expect(video).toBeVisible();
    await expect.poll(() => video.evaluate((el: HTMLVideoElement) => el.videoWidth)).toBeGreaterThan(0);
    await expect(v.page.getByText('Camera ready. Press Take photo.')).toBeVisible();
    await expect(v.page.getByTestId('age-gate-take-photo')).toBeFocused();
    await shot(v.page, 'storefront-camera');
    const posted = v.page.waitForRequest((r) => r.url().endsWith('/api/verify-age') && r.method() === 'POST');
    await v.page.getByTestId('age-gate-take-photo').click();
    const body = (await posted).postDataJSON() as { selfie_b64?: string };
    expect(Buffer.from(body.selfie_b64 ?? '', 'base64').subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    await expect(async () => {
      const state = await gateScript(v.page).getAttribute('data-state');
      const step = state === 'open' ? await dialog(v.page).getAttribute('data-step') : null;
      expect(state === 'verified' || step === 'not_conclusive').toBe(true);
    }).toPass({ timeout: 30_000 });
    await expect(video).toHaveCount(0);
    expect(v.problems).toEqual([]);
    await v.context.close();
  } finally {
    await camera.close();
    await store.close();
    await rm(y4m, { force: true });
  }
});

test('age gate: the live store\'s daily selfie limit is set in the console, and today\'s paid selfie checks show against it', async ({ page, service }) => {
  test.setTimeout(120_000);
  await initOrg(service);
  await service.cli('credits', 'grant', '100', '--note', 'Selfie checks');
  const shell = await signIn(page);
  await shell.open('age-gate');
  const gate = new AgeGatePage(page);
  // A test store is free and has no limit: nothing to set.
  await expect(gate.field('selfie-cap-test')).toBeVisible();
  await expect(gate.field('daily-selfie-cap')).toHaveCount(0);

  await shell.switchEnv('live');
  await expect(page.getByRole('heading', { name: 'Live storefront settings' })).toBeVisible();
  await expect(gate.field('selfie-usage')).toHaveText('0 of 200 selfie checks today');
  await gate.field('daily-selfie-cap').fill('0');
  await gate.field('save').click();
  await expect(gate.field('daily_selfie_cap-error')).toHaveText('At least 1.');
  await expect(gate.field('daily-selfie-cap')).toBeFocused();
  await gate.field('enabled').check();
  await gate.field('daily-selfie-cap').fill('1');
  const { storeId } = await gate.save();
  expect(storeId).toMatch(/^ag_live_/);
  await expect(gate.field('daily-selfie-cap')).toHaveValue('1');
  await expect(gate.field('selfie-usage')).toHaveText('0 of 1 selfie checks today');
  await expect(gate.field('selfie-cap-reached')).toHaveCount(0);

  // One paid selfie check as the widget posts it; the next is refused until the day ends.
  const check = async () => page.request.post(`${service.url}/api/verify-age`, {
    data: { store_id: storeId, date_of_birth: '1990-03-15', selfie_b64: (await selfie()).toString('base64') },
    // A face analysis, not a page action: on a loaded machine it may take longer than actionTimeout.
    timeout: 60_000,
  });
  expect((await check()).status()).toBe(200);
  const refused = await check();
  expect(refused.status()).toBe(429);
  expect(await refused.json()).toMatchObject({ code: 'DAILY_CAP_REACHED' });
  expect(Number(refused.headers()['retry-after'])).toBeGreaterThan(0);

  // The screen reads the count again with the environment: the limit is reached, and it says so.
  await shell.switchEnv('test');
  await shell.switchEnv('live');
  await expect(gate.field('selfie-usage')).toHaveText('1 of 1 selfie checks today');
  await expect(gate.field('selfie-cap-reached')).toContainText('asked to try again later');
  await shot(page, 'console-selfie-cap');
  await gate.field('daily-selfie-cap').fill('5');
  await gate.save();
  await expect(gate.field('selfie-usage')).toHaveText('1 of 5 selfie checks today');
  await expect(gate.field('selfie-cap-reached')).toHaveCount(0);

  // A public URL set (Settings; here through its route): the script tag uses it and the warning goes (issue 26).
  await expect(gate.field('embed-reach')).toBeVisible();
  expect((await page.request.put('/api/settings/public-url', { data: { public_url: 'https://verify.example.test' } })).status()).toBe(200);
  await shell.switchEnv('test');
  await shell.switchEnv('live');
  await expect(gate.field('embed')).toHaveValue(`<script src="https://verify.example.test/widget/age-gate.js" data-store="${storeId}" async></script>`);
  await expect(gate.field('embed-reach')).toHaveCount(0);
  await shot(page, 'console-public-url');
});
