// The boundary check must fail on each kind of violation, and pass on this repository.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const script = join(import.meta.dirname, 'check-boundaries.mjs');

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'cc-bound-'));
  for (const [p, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), content);
  }
  return root;
}

describe('check-boundaries', () => {
  it('passes on this repository', () => {
    const out = execFileSync(process.execPath, [script, join(import.meta.dirname, '..')], { encoding: 'utf8' });
    expect(out).toContain('Boundaries hold');
  });

  it.each([
    ['src-main/service/core/x.ts', "import { app } from 'electron';", 'imports electron'],
    ['src-main/service/main.ts', "const { ipcMain } = require('electron');", 'imports electron'],
    ['src-main/service/http/x.ts', "const e = await import('electron');", 'imports electron'],
    ['src-shared/x.ts', "import { readFileSync } from 'node:fs';", 'imports the Node module node:fs'],
    ['src-shared/y.ts', "export * from 'electron';", 'imports electron'],
    ['src-shared/z.ts', 'export const w = window.innerWidth;', 'uses DOM globals'],
    ['src-main/service/core/k.ts', "import { Hono } from 'hono';", 'imports Hono'],
    ['src-main/service/core/k.ts', "import { x } from '../../http/app';", 'imports the HTTP layer'],
    ['src-renderer/console/a.ts', "import { compose } from '../../src-main/service/compose';", 'imports src-main'],
  ])('fails on %s: %s', (file, content, why) => {
    const r = spawnSync(process.execPath, [script, tree({ [file]: content })], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(why);
  });

  it('ignores mentions in comments', () => {
    const r = spawnSync(process.execPath, [script, tree({ 'src-shared/c.ts': "// never import 'electron' here\nexport const a = 1;" })], { encoding: 'utf8' });
    expect(r.status).toBe(0);
  });
});
