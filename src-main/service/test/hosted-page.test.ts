// The hosted verification page's static files: its HTML for a token path with the headers a page
// carrying a token in its URL needs, its assets, and nothing outside its folder.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOSTED_CSP } from '../../../src-shared/csp';
import { compose, type Services } from '../compose';
import { createApp, type App } from '../http/app';

let s: Services;
let app: App;
beforeAll(async () => {
  const root = mkdtempSync(join(tmpdir(), 'cc-hosted-page-'));
  const hosted = join(root, 'hosted');
  mkdirSync(join(hosted, 'assets'), { recursive: true });
  writeFileSync(join(hosted, 'index.html'), '<!doctype html><title>hosted page</title>');
  writeFileSync(join(hosted, 'assets', 'index-abc.js'), 'console.log(1)');
  // A file beside the page's folder that a traversal would reach.
  writeFileSync(join(root, 'secret.txt'), 'not for the page');
  writeFileSync(join(hosted, 'secret.txt'), 'not an asset');
  const consoleDir = join(root, 'console');
  mkdirSync(consoleDir);
  writeFileSync(join(consoleDir, 'index.html'), '<!doctype html><title>console</title>');
  const widget = join(root, 'widget');
  mkdirSync(widget);
  writeFileSync(join(widget, 'age-gate.js'), '(()=>{/* the age gate */})()');
  s = await compose({ dataDir: mkdtempSync(join(tmpdir(), 'cc-hosted-page-data-')), consoleDir, hostedDir: hosted, widgetDir: widget });
  app = createApp(s).app;
});
afterAll(() => s.close());

const get = (path: string) => app.request(`http://127.0.0.1${path}`);

describe('hosted page static files', () => {
  it.each(['/hosted/v/AbC_dEf-123', '/hosted/f/AbC_dEf-123456789012'])('serves the page for %s: strict CSP, no framing, no referrer, never stored', async (path) => {
    const r = await get(path);
    expect(r.status).toBe(200);
    expect(await r.text()).toContain('hosted page');
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(r.headers.get('content-security-policy')).toBe(HOSTED_CSP);
    const csp = HOSTED_CSP.split('; ');
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("img-src 'self' blob: data:");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(HOSTED_CSP).not.toContain('unsafe');
    expect(r.headers.get('x-frame-options')).toBe('DENY');
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.headers.get('referrer-policy')).toBe('no-referrer');
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('serves its assets, and nothing outside the assets folder', async () => {
    const js = await get('/hosted/assets/index-abc.js');
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('referrer-policy')).toBe('no-referrer');
    for (const path of [
      '/hosted/assets/../secret.txt', '/hosted/assets/..%2fsecret.txt', '/hosted/assets/..%2f..%2fsecret.txt', '/hosted/assets/%2e%2e/index.html',
      '/hosted/assets/..%5csecret.txt', '/hosted/assets/missing.js', '/hosted/assets/%00.js', '/hosted/assets/',
    ]) {
      const r = await get(path);
      expect(r.status, path).toBe(404);
      expect(await r.text(), path).not.toMatch(/not for the page|not an asset|hosted page|console/);
    }
    expect((await get('/hosted/assets/%E0%A4%A')).status).toBe(400);
  });

  it('answers other /hosted/ paths with 404, never the console; the API routes beside it still answer', async () => {
    for (const path of ['/hosted', '/hosted/', '/hosted/v/', '/hosted/v/a/b', '/hosted/index.html', '/hosted/secret.txt']) {
      const r = await get(path);
      expect(r.status, path).toBe(404);
      expect(await r.text(), path).not.toContain('<title>console');
    }
    const session = await get('/hosted/session/unknown-token');
    expect(session.status).toBe(404);
    expect(await session.json()).toMatchObject({ code: 'HOSTED_SESSION_NOT_FOUND' });
    expect((await get('/keys')).status).toBe(200);
  });

  it('says the page is not built when there is no hosted folder', async () => {
    const bare = await compose({ dataDir: mkdtempSync(join(tmpdir(), 'cc-hosted-page-bare-')) });
    try {
      const r = await createApp(bare).app.request('http://127.0.0.1/hosted/v/token');
      expect(r.status).toBe(404);
      expect(await r.text()).toContain('not built');
      expect(r.headers.get('referrer-policy')).toBe('no-referrer');
    } finally {
      bare.close();
    }
  });
});

describe('the storefront widget script', () => {
  it('is served to any storefront origin as JavaScript, cached briefly; nothing else lives under /widget/', async () => {
    const r = await get('/widget/age-gate.js');
    expect(r.status).toBe(200);
    expect(await r.text()).toContain('the age gate');
    expect(r.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    expect(r.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(r.headers.get('cache-control')).toBe('public, max-age=300');
    for (const path of ['/widget/', '/widget/../secret.txt', '/widget/age-gate.js.map', '/widget/%2e%2e/secret.txt']) {
      const other = await get(path);
      expect(other.status, path).toBe(404);
      expect(await other.text()).not.toContain('console');
    }
  });

  it('says it is not built when the widget is missing', async () => {
    const bare = await compose({ dataDir: mkdtempSync(join(tmpdir(), 'cc-widget-data-')) });
    try {
      const r = await createApp(bare).app.request('http://127.0.0.1/widget/age-gate.js');
      expect(r.status).toBe(404);
      expect(await r.text()).toContain('not built');
    } finally {
      bare.close();
    }
  });
});
