// Which file of the built renderer a request for the connect page may read: connect.html and the
// hashed assets it names, nothing else of the disk. Pure (node:path only): the shell's scheme
// handler (connect-window.ts) uses it, and so does the Chromium fake that serves the same page.
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
};

/** The file and its Content-Type for a request path, or null (a 404). */
export function connectPageFile(rendererDir: string, pathname: string): { file: string; type: string } | null {
  let path: string;
  try {
    path = pathname === '/' ? '/connect.html' : decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (path.includes('\0') || (path !== '/connect.html' && !path.startsWith('/assets/'))) return null;
  const file = normalize(join(rendererDir, path));
  const type = TYPES[extname(file)];
  if (!file.startsWith(normalize(rendererDir + sep)) || type === undefined) return null;
  return { file, type };
}
