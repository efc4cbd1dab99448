// The console's fine print for assistive technology (issue 38, item 5), on every screen of an owner
// with something in its tables: no serious or critical axe-core violation, one main landmark, and
// every control's accessible name includes the words it shows (WCAG 2.5.3, label in name: "Send test event", said by a voice user, must
// find the button whose name is "Send test event to https://…").
import { initOrg, signIn, type TestOrg } from '../support/accounts';
import { axeViolations } from '../support/axe';
import { expect, test } from '../support/service';

const ORG: TestOrg = { organization: 'Access Ltd', email: 'owner@access.test', password: 'correct horse battery', plan: 'enterprise' };

const SCREENS = [
  'home', 'screening', 'screening/update-lists', 'rescreen', 'review', 'approvals', 'verifications', 'hosted', 'age-gate', 'reports', 'exports',
  'team', 'keys', 'api-reference', 'webhooks', 'plan', 'audit', 'settings',
];

test('every screen: no serious or critical axe-core violation, one main landmark, and every labelled control\'s name includes its visible words', async ({ page, service }) => {
  test.setTimeout(120_000);
  await initOrg(service, ORG);
  await signIn(page, ORG);
  // Rows with their buttons: an API key, a webhook endpoint, an invitation.
  expect((await page.request.post('/api/keys', { data: { name: 'Checkout', env: 'test', scopes: ['human'] } })).status()).toBe(201);
  expect((await page.request.post('/api/webhooks', { data: { url: 'https://hooks.example.test/cc', env: 'test', events: ['verification.completed'] } })).status()).toBe(201);

  const problems: string[] = [];
  for (const screen of SCREENS) {
    await page.goto(`/#/${screen}`);
    await expect(page.locator('main[data-screen]')).toBeVisible();
    await expect(page.locator('h1').first()).toBeVisible();
    // Let the screen's data arrive (tables fill, panels load).
    await page.waitForLoadState('networkidle');
    // The API reference draws its document after its script loads.
    if (screen === 'api-reference') {
      await expect(page.locator('.opblock').first()).toBeVisible({ timeout: 20_000 });
      // Its tag sections repeat one operation block 137 times (13 s of axe over them): the first two
      // sections stay and are checked, the rest are taken out of the page. (Each section is the only
      // one of its parent: the `:nth-of-type(n+3)` exclusion used before matched none.)
      const left = await page.evaluate(() => {
        const sections = [...document.querySelectorAll('.opblock-tag-section')];
        for (const s of sections.slice(2)) s.remove();
        return [sections.length, document.querySelectorAll('.opblock-tag-section').length];
      });
      expect(left[0]).toBeGreaterThan(2);
      expect(left[1]).toBe(2);
    }
    // A main element given another role (Swagger UI's, named regions) is no landmark.
    const mains = await page.locator('main:not([role]), [role="main"]').count();
    if (mains !== 1) problems.push(`${screen}: ${mains} main landmarks`);
    const mismatched = await page.evaluate(() => {
      const words = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
      const out: string[] = [];
      for (const el of document.querySelectorAll<HTMLElement>('button[aria-label], a[aria-label], [role="button"][aria-label], [role="tab"][aria-label]')) {
        const shown = words(el.innerText ?? '');
        const name = words(el.getAttribute('aria-label') ?? '');
        if (shown && el.offsetParent !== null && !name.includes(shown)) out.push(`"${el.innerText.trim()}" named "${el.getAttribute('aria-label')}"`);
      }
      return out;
    });
    for (const m of mismatched) problems.push(`${screen}: ${m}`);
    problems.push(...(await axeViolations(page, screen)));
  }
  expect(problems).toEqual([]);
});
