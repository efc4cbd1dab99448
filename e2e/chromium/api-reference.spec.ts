// The API reference renders the service's own OpenAPI document with Swagger UI, bundled with the
// console (no CDN), and "Try it out" reaches the real service with a test key only.
import { join } from 'node:path';
import { initOrg, signIn } from '../support/accounts';
import { expect, test } from '../support/service';
import { ApiReferencePage } from '../pages/api-reference-page';
import { createKeys } from '../support/seed';

const SCREEN = '/api/compliance/v1/screen';

test('API reference: operations and schemas from the service, "Try it out" with a test key, live keys refused', async ({ page, service }) => {
  const org = await initOrg(service, { organization: 'Northwind Compliance', email: 'owner@northwind.test', password: 'correct horse battery', plan: 'pro' });
  const [live, testKey] = await createKeys(service, org, [
    { env: 'live', scopes: ['compliance'], name: 'Live backend' },
    { env: 'test', scopes: ['compliance'], name: 'Sandbox' },
  ]);
  const offsite: string[] = [];
  page.on('request', (r) => {
    if (!r.url().startsWith(service.url)) offsite.push(r.url());
  });
  await signIn(page);
  const ref = new ApiReferencePage(page);
  await ref.goto();

  // The document is the service's: its title, its operations, their schemas.
  // Swagger UI (1.5 MB of script) renders the document first: slow on a loaded machine.
  await expect(ref.doc.locator('.info .title')).toContainText('Compliance Console service API', { timeout: 30_000 });
  // Written for the people who call the API, not a note to this project's developers.
  await expect(ref.doc.locator('.info .description')).toContainText('Test keys never touch live data or credits.');
  await expect(ref.doc.locator('.info')).not.toContainText('npm run build');
  const screen = ref.operation('POST', SCREEN);
  await expect(screen).toBeVisible();
  // Every operation of the document is drawn (swagger-ui-dist 5.33 to 5.35 stopped drawing after
  // a few on this document, silently: it is pinned to 5.32.15, package.json).
  const doc = (await (await page.request.get('/api/openapi.json')).json()) as { paths: Record<string, Record<string, unknown>> };
  const operations = Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0);
  await expect(ref.doc.locator('.opblock')).toHaveCount(operations);
  await expect(ref.operation('GET', '/api/screening/lists')).toBeVisible();

  // A live key, or anything that is not one of this organisation's test keys, is refused.
  await ref.useKey(live.api_key);
  await expect(ref.keyError).toContainText('test keys');
  await ref.useKey('svk-not-a-key-at-all-0000000000');
  await expect(ref.keyError).toBeVisible();
  await ref.useKey(testKey.api_key);
  await expect(ref.keySet).toBeVisible();

  // Try it out: the real service screens a subject with the test key and answers 200.
  await screen.locator('.opblock-summary').click();
  await screen.getByRole('button', { name: 'Try it out' }).click();
  await screen.locator('textarea.body-param__text').fill(JSON.stringify({ subject: { type: 'individual', first_name: 'Vladimir', last_name: 'Putin', date_of_birth: '1952-10-07' } }));
  await screen.getByRole('button', { name: 'Execute' }).click();
  const status = screen.locator('.live-responses-table .response .response-col_status').first();
  await expect(status).toHaveText('200');
  await expect(screen.locator('.live-responses-table .response .response-col_description')).toContainText('"livemode": false');

  // Session routes are tried without the analyst's session: they answer 401 and change nothing.
  const keys = ref.operation('POST', '/api/keys');
  await keys.locator('.opblock-summary').click();
  await keys.getByRole('button', { name: 'Try it out' }).click();
  await keys.locator('textarea.body-param__text').fill(JSON.stringify({ name: 'From the reference', env: 'test', scopes: ['human'] }));
  await keys.getByRole('button', { name: 'Execute' }).click();
  await expect(keys.locator('.live-responses-table .response .response-col_status').first()).toHaveText('401');
  const listed = await page.request.get('/api/keys');
  expect(listed.status()).toBe(200);
  expect(await listed.text()).not.toContain('From the reference');

  expect(offsite).toEqual([]);
  if (process.env.CONSOLE_SCREENSHOTS) await page.screenshot({ path: join(process.env.CONSOLE_SCREENSHOTS, 'console-api-reference.png'), fullPage: false });
});
