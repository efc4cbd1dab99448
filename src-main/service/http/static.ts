// Serves the built console (out/renderer) from the service's own origin, so the session
// cookie stays same-origin in Chromium and in the Electron window alike.
import { readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import type { Hono } from 'hono';
import { CONSOLE_CSP } from '../../../src-shared/csp';
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
