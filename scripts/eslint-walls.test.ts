// The walls in eslint.config.js must refuse each kind of crossing, allow the sanctioned routes,
// and hold on this repository (the lint step of `npm test` runs them over the whole tree).
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
// The files below exist only in the test: without a TypeScript program of their own, the
// type-aware rules (service code) are off for them; the walls need no types.
const eslint = new ESLint({
  cwd: root,
  overrideConfig: {
    languageOptions: { parserOptions: { projectService: false } },
    rules: { '@typescript-eslint/no-floating-promises': 'off', '@typescript-eslint/no-misused-promises': 'off' },
  },
});

async function wallsOf(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, file) });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'boundaries/walls' || m.ruleId === 'boundaries/own-response' || m.ruleId === 'boundaries/sql-in-repos' || m.ruleId === 'no-restricted-globals')
    .map((m) => m.message);
}

describe('architecture walls (ESLint)', () => {
  it.each([
    ['src-main/service/core/x.ts', "import { app } from 'electron';\nexport const a = app;", 'never imports Electron'],
    ['src-main/service/main.ts', "const { ipcMain } = require('electron');\nexport const a = ipcMain;", 'never imports Electron'],
    ['src-main/service/http/x.ts', "export const e = await import('electron');", 'never imports Electron'],
    ['src-main/service/http/y.ts', "import { win } from '../../shell/window';\nexport const a = win;", 'never imports the Electron shell'],
    ['src-shared/x.ts', "import { readFileSync } from 'node:fs';\nexport const a = readFileSync;", 'Node module node:fs'],
    ['src-shared/y.ts', "export * from 'electron';", 'never imports Electron'],
    ['src-shared/z.ts', 'export const w = window.innerWidth;', "Unexpected use of 'window'"],
    ['src-shared/contracts/o.ts', "import { log } from '../../src-main/service/log';\nexport const a = log;", 'nothing outside src-shared'],
    ['src-main/service/core/k.ts', "import { Hono } from 'hono';\nexport const a = Hono;", 'never imports Hono'],
    ['src-main/service/core/screening/k.ts', "import { createApp } from '../../http/app';\nexport const a = createApp;", 'never imports the HTTP layer'],
    ['src-renderer/console/a.ts', "import { compose } from '../../src-main/service/compose';\nexport const a = compose;", 'never by importing src-main'],
    ['src-renderer/console/screens/review/R.tsx', "import { x } from '../batch/labels';\nexport const a = x;", 'screens share code only through'],
    ['src-main/service/http/routes/hosted.ts', "import { selfieStep } from './age';\nexport const a = selfieStep;", 'a route never imports another route'],
    ['src-main/service/http/routes/x.ts', "export const a = () => import('../routes/documents');", 'a route never imports another route'],
    ['src-main/service/core/hosted/x.ts', "import { liveness } from '../app/liveness';\nexport const a = liveness;", 'never import the use-case layer'],
    ['src-main/service/core/app/x.ts', "import type { Services } from '../../compose';\nexport const f = (s: Services) => s.clock;", 'core never imports compose.ts'],
    ['src-main/service/core/screening/x.ts', "export const c = () => import('../../compose.ts');", 'core never imports compose.ts'],
    ['src-main/service/http/routes/y.ts', 'export async function f(res: Response) { return res.json(); }', 'never reads back a Response'],
    ['src-main/service/core/app/z.ts', 'export const f = async (p: Promise<Response>) => (await p).json();', 'never reads back a Response'],
    ['src-main/service/core/keys/keys.ts', "export const f = (db: { prepare(s: string): unknown }) => db.prepare('SELECT 1');", 'SQL belongs in a repository module'],
    ['src-main/service/core/keys/keys.ts', "export const f = (q: { selectFrom(t: string): unknown }) => q.selectFrom('api_keys');", 'SQL belongs in a repository module'],
    ['src-main/service/core/app/x.ts', "export const f = (q: { updateTable(t: string): unknown }) => q.updateTable('organizations');", 'SQL belongs in a repository module'],
    ['src-main/service/core/audit/audit.ts', "import { sql } from 'kysely';\nexport const s = sql`SELECT 1`;", 'SQL belongs in a repository module'],
  ])('refuses %s: %s', async (file, code, why) => {
    const found = await wallsOf(file, code);
    expect(found.join('\n')).toContain(why);
  });

  it.each([
    ['src-main/service/http/routes/x.ts', "import { runScreening } from '../../core/screening/service';\nexport const a = runScreening;"],
    ['src-renderer/console/screens/review/R.tsx', "import { Badge } from '../../components/Badge';\nimport { x } from './labels';\nexport const a = [Badge, x];"],
    ['src-renderer/console/screens/screening/lists/L.tsx', "import { y } from '../labels';\nexport const a = y;"],
    ['src-shared/c.ts', "// never import 'electron' here\nexport const a = 1;"],
    ['src-main/service/http/routes/hosted.ts', "import { liveness } from '../../core/app/liveness';\nimport { reply } from '../call';\nexport const a = [liveness, reply];"],
    ['src-main/service/http/routes/w.ts', "import type { Services } from '../../compose';\nexport const f = (s: Services) => s.clock;"],
    ['src-main/service/core/app/hosted.ts', "import { liveness } from './liveness';\nimport { checkRedirects } from '../hosted/redirects';\nexport const a = [liveness, checkRedirects];"],
    ['src-main/service/http/routes/z.ts', 'export const f = (c: { json(v: unknown): unknown }) => c.json({ ok: true });'],
    ['src-main/service/test/x.test.ts', 'export const f = async (res: Response) => res.json();'],
    ['src-main/service/core/keys/repo.ts', "export const f = (q: { selectFrom(t: string): unknown }) => q.selectFrom('api_keys');"],
    ['src-main/service/core/hosted/flows-repo.ts', "import { sql } from 'kysely';\nexport const s = sql`SELECT 1`;"],
    ['src-main/service/core/screening/match/normalize.ts', "export const m = /^a(b)$/.exec('ab');"],
  ])('allows %s', async (file, code) => {
    expect(await wallsOf(file, code)).toEqual([]);
  });
});
