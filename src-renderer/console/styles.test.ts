// Guards for the console's structure: colours are named once, in styles/tokens.css, and
// api/client.ts is the only module that talks to the network.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = dirname(fileURLToPath(import.meta.url));

function files(dir: string, ext: readonly string[]): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...files(path, ext));
    else if (ext.some((e) => name.endsWith(e))) out.push(path);
  }
  return out;
}

const rel = (path: string) => relative(ROOT, path).split(sep).join('/');

/** `file:line: text` for each line matching `pattern`, comments left out. */
function hits(path: string, pattern: RegExp): string[] {
  const text = readFileSync(path, 'utf8').replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '));
  const out: string[] = [];
  text.split('\n').forEach((line, i) => {
    const code = path.endsWith('.css') ? line : line.replace(/(^|[^:])\/\/.*$/, '$1');
    if (pattern.test(code)) out.push(`${rel(path)}:${i + 1}: ${line.trim()}`);
  });
  return out;
}

// #abc, #abcd, #aabbcc, #aabbccdd, not followed by more word characters (ids like #main-nav
// would need a letter beyond a-f; a selector like #add is rare enough to rename).
const HEX = /#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})(?![\w-])/i;
const FETCH = /(^|[^\w.])fetch\s*\(|window\.fetch|globalThis\.fetch/;

describe('console styles', () => {
  it('has no hex colour outside styles/tokens.css', () => {
    const found = files(ROOT, ['.css', '.tsx'])
      .filter((f) => rel(f) !== 'styles/tokens.css')
      .flatMap((f) => hits(f, HEX));
    expect(found).toEqual([]);
  });

  it('names its colours in styles/tokens.css', () => {
    expect(readFileSync(join(ROOT, 'styles/tokens.css'), 'utf8')).toMatch(/--[\w-]+:\s*#[0-9a-f]{3,8};/i);
  });
});

describe('console network access', () => {
  it('calls fetch only in api/client.ts', () => {
    const found = files(ROOT, ['.ts', '.tsx'])
      .filter((f) => rel(f) !== 'api/client.ts' && rel(f) !== 'styles.test.ts')
      .flatMap((f) => hits(f, FETCH));
    expect(found).toEqual([]);
  });

  it('still finds the fetch in api/client.ts (the scan works)', () => {
    expect(hits(join(ROOT, 'api/client.ts'), FETCH).length).toBeGreaterThan(0);
  });
});
