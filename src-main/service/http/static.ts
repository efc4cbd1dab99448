// Serves the built console (out/renderer) from the service's own origin, so the session
// cookie stays same-origin in Chromium and in the Electron window alike.
import { readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import type { Context, Hono } from 'hono';
import { CONSOLE_CSP, HOSTED_CSP } from '../../../src-shared/csp';
import { AppError } from '../../../src-shared/errors';
import type { AppEnv } from './types';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.csv': 'text/csv; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};


export function serveConsole(app: Hono<AppEnv>, root: string): void {
  const base = normalize(root + sep);
  app.get('*', (c) => {
    const rel = decodePath(c.req.path);
    // A malformed escape (`/%`, overlong UTF-8 such as `%c0%af`) is a bad request; a NUL can name no file.
    if (rel === null) return c.text('Bad request', 400);
    if (rel.includes('\0')) return c.text('Not found', 404);
    let file = normalize(join(root, rel));
    if (!file.startsWith(base) || !isFile(file)) {
      // Client-side routes have no extension; a missing asset is a real 404, not the app.
      if (extname(rel) !== '') return c.text('Not found', 404);
      file = join(root, 'index.html');
    }
    if (!isFile(file)) return c.text('Console not built: run `npm run build`', 404);
    const type = TYPES[extname(file)] ?? 'application/octet-stream';
    const html = type.startsWith('text/html');
    c.header('Content-Type', type);
    c.header('Content-Security-Policy', CONSOLE_CSP);
    c.header('X-Frame-Options', 'DENY');
    // Hashed asset names never change content; the HTML must always be fresh.
    c.header('Cache-Control', html ? 'no-cache' : 'public, max-age=31536000, immutable');
    return c.body(readFileSync(file));
  });
}

/**
 * The hosted verification page (out/hosted): its HTML for `/hosted/v/:token` (the token is read by
 * the page from its own path) and for a published flow's `/hosted/f/:slug`, and its hashed assets
 * under `/hosted/assets/`. Any other `/hosted/` path that no API route took is a 404, never the console. Without a built page, the page path
 * says so. The token is in the URL: no referrer leaves the page, and the HTML is never stored.
 */
export function serveHosted(app: Hono<AppEnv>, root: string | undefined): void {
  const secure = (c: Context<AppEnv>) => {
    c.header('Content-Security-Policy', HOSTED_CSP);
    c.header('X-Frame-Options', 'DENY');
    c.header('Referrer-Policy', 'no-referrer');
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Permissions-Policy', 'camera=(self), microphone=(), geolocation=()');
  };
  const page = (c: Context<AppEnv>) => {
    secure(c);
    c.header('Cache-Control', 'no-store');
    const file = root ? join(root, 'index.html') : '';
    if (!root || !isFile(file)) return c.text('Hosted page not built: run `npm run build`', 404);
    c.header('Content-Type', TYPES['.html']!);
    return c.body(readFileSync(file));
  };
  app.get('/hosted/v/:token', page);
  // A published flow's stable URL: the same page, which asks for a session by POST (a GET starts nothing).
  app.get('/hosted/f/:slug', page);
  app.get('/hosted/assets/*', (c) => {
    secure(c);
    if (!root) return c.text('Not found', 404);
    const rel = decodePath(c.req.path.slice('/hosted/'.length));
    if (rel === null) return c.text('Bad request', 400);
    const base = normalize(join(root, 'assets') + sep);
    const file = normalize(join(root, rel));
    if (rel.includes('\0') || !file.startsWith(base) || !isFile(file)) return c.text('Not found', 404);
    c.header('Content-Type', TYPES[extname(file)] ?? 'application/octet-stream');
    c.header('Cache-Control', 'public, max-age=31536000, immutable');
    return c.body(readFileSync(file));
  });
  app.get('/hosted/*', () => {
    throw new AppError('not_found');
  });
}

/**
 * The storefront age-gate widget (out/widget/age-gate.js): one script any storefront page may
 * include, so it is served to every origin. Its name is not hashed: a short cache, then revalidate.
 */
export function serveWidget(app: Hono<AppEnv>, root: string | undefined): void {
  app.get('/widget/age-gate.js', (c) => {
    c.header('Access-Control-Allow-Origin', '*');
    c.header('Cross-Origin-Resource-Policy', 'cross-origin');
    c.header('X-Content-Type-Options', 'nosniff');
    const file = root ? join(root, 'age-gate.js') : '';
    if (!root || !isFile(file)) return c.text('Widget not built: run `npm run build`', 404);
    c.header('Content-Type', TYPES['.js']!);
    c.header('Cache-Control', 'public, max-age=300');
    return c.body(readFileSync(file));
  });
  app.get('/widget/*', (c) => c.text('Not found', 404));
}

function decodePath(path: string): string | null {
  try {
    return decodeURIComponent(path);
  } catch {
    return null;
  }
}

function isFile(p: string): boolean {
  return statSync(p, { throwIfNoEntry: false })?.isFile() ?? false;
}
