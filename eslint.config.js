// Lint for the whole tree: typescript-eslint, React hooks (exhaustive deps), and the house's walls
// (ARCHITECTURE.md, Boundaries) as one import rule that resolves every relative import to the
// folder it lands in, so a wall holds whatever the path's spelling.
import { builtinModules } from 'node:module';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const ROOT = dirname(fileURLToPath(import.meta.url));
const NODE_BUILTINS = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
const SCREENS = 'src-renderer/console/screens';
const ROUTES = 'src-main/service/http/routes';
const APP = 'src-main/service/core/app';
/** A module's path without its extension (an import names `./age`, the file is `age.ts`). */
const stem = (path) => path.replace(/\.(ts|tsx|js|mjs)$/, '');

/** Where an import lands, as a repo-relative path, or the bare package name. */
function target(file, spec) {
  if (!spec.startsWith('.')) return { pkg: spec };
  return { path: relative(ROOT, resolve(dirname(file), spec)).split('\\').join('/') };
}

const under = (path, dir) => path === dir || path.startsWith(`${dir}/`);
const isPkg = (pkg, name) => pkg === name || pkg.startsWith(`${name}/`);

/**
 * The walls. Each returns why an import from `from` to `to` is refused, or null.
 * - service and shared code never import Electron or React; the service never reaches the shell;
 * - core never imports Hono or the HTTP layer;
 * - shared code imports no Node modules and nothing outside src-shared;
 * - the renderer never imports src-main (it talks to the service over HTTP);
 * - a screen imports another screen's code only through components/ (or api/, stores/);
 * - a route never imports another route: what two routes share is a use case (core/app/) or an
 *   HTTP helper (http/*.ts);
 * - the domains never import the use-case layer that sits above them (core/app/).
 */
const WALLS = [
  (from, to) => under(from, 'src-main/service') && (isPkg(to.pkg ?? '', 'electron')) ? 'the service never imports Electron' : null,
  (from, to) => (under(from, 'src-main/service') || under(from, 'src-shared')) && (isPkg(to.pkg ?? '', 'react') || isPkg(to.pkg ?? '', 'react-dom'))
    ? 'service and shared code never import React' : null,
  (from, to) => under(from, 'src-main/service') && to.path && under(to.path, 'src-main/shell') ? 'the service never imports the Electron shell' : null,
  (from, to) => under(from, 'src-main/service/core') && (isPkg(to.pkg ?? '', 'hono') || (to.pkg ?? '').startsWith('@hono/'))
    ? 'core never imports Hono' : null,
  (from, to) => under(from, 'src-main/service/core') && to.path && under(to.path, 'src-main/service/http') ? 'core never imports the HTTP layer' : null,
  (from, to) => under(from, 'src-shared') && isPkg(to.pkg ?? '', 'electron') ? 'shared code never imports Electron' : null,
  (from, to) => under(from, 'src-shared') && to.pkg && NODE_BUILTINS.has(to.pkg) ? `shared code never imports the Node module ${to.pkg}` : null,
  (from, to) => under(from, 'src-shared') && to.path && !under(to.path, 'src-shared') ? 'shared code imports nothing outside src-shared' : null,
  (from, to) => under(from, 'src-renderer') && to.path && under(to.path, 'src-main') ? 'the renderer talks to the service over HTTP, never by importing src-main' : null,
  (from, to) => under(from, ROUTES) && to.path && under(to.path, ROUTES) && stem(to.path) !== stem(from)
    ? 'a route never imports another route: share a use case (core/app/) or an HTTP helper' : null,
  (from, to) => under(from, 'src-main/service/core') && !under(from, APP) && to.path && under(to.path, APP)
    ? 'the domains never import the use-case layer above them (core/app/)' : null,
  (from, to) => under(from, 'src-main/service/core') && to.path && stem(to.path) === 'src-main/service/compose'
    ? 'core never imports compose.ts: a use case declares the few services it uses (its *Deps type)' : null,
  (from, to) => {
    if (!under(from, SCREENS) || !to.path || !under(to.path, SCREENS)) return null;
    const screenOf = (p) => p.slice(SCREENS.length + 1).split('/')[0];
    return screenOf(from) !== screenOf(to.path) ? 'screens share code only through components/, api/ or stores/' : null;
  },
];

/**
 * The service never parses an answer it made itself: a zero-argument `.json()` reads a Response
 * back, which is how one route once called another's handler to carry on. Call the use case.
 */
const ownResponse = {
  meta: { type: 'problem', schema: [], messages: { own: 'the service never reads back a Response it made (`.json()`): call the use case instead' } },
  create(context) {
    const from = relative(ROOT, context.filename).split('\\').join('/');
    if (!under(from, 'src-main/service') || /\.test\.ts$|\/test\//.test(from)) return {};
    return {
      CallExpression: (n) => {
        if (n.arguments.length === 0 && n.callee.type === 'MemberExpression' && !n.callee.computed && n.callee.property.name === 'json') {
          context.report({ node: n, messageId: 'own' });
        }
      },
    };
  },
};

/**
 * SQL lives in the repository modules (`repo.ts`, `*-repo.ts`) of core's domains, the one place
 * that know which database engine runs (issue 40): a statement begun anywhere else in core (a
 * better-sqlite3 `prepare`, a query builder's `selectFrom`/`insertInto`/`updateTable`/
 * `deleteFrom`, a raw sql`…`) is refused. The file below still holds statements of its own and is to be moved; none may join it.
 */
const SQL_NOT_YET_IN_REPOS = new Set([
  'src-main/service/core/reports/history.ts',
]);
/** A statement begun: better-sqlite3's prepare, and the query builder's (Kysely) four. */
const STATEMENTS = new Set(['prepare', 'selectFrom', 'insertInto', 'updateTable', 'deleteFrom']);
const sqlInRepos = {
  meta: { type: 'problem', schema: [], messages: { sql: 'SQL belongs in a repository module (repo.ts or *-repo.ts) of its domain' } },
  create(context) {
    const from = relative(ROOT, context.filename).split('\\').join('/');
    if (!under(from, 'src-main/service/core') || /\.test\.ts$/.test(from) || /(^|\/)repo\.ts$|-repo\.ts$/.test(from) || SQL_NOT_YET_IN_REPOS.has(from)) return {};
    return {
      CallExpression: (n) => {
        if (n.callee.type === 'MemberExpression' && !n.callee.computed && STATEMENTS.has(n.callee.property.name)) context.report({ node: n, messageId: 'sql' });
      },
      // Kysely's raw SQL: sql`…`, sql.raw(…) (the query builder's own calls are caught above).
      TaggedTemplateExpression: (n) => {
        if (n.tag.type === 'Identifier' && n.tag.name === 'sql') context.report({ node: n, messageId: 'sql' });
      },
    };
  },
};

const boundaries = {
  rules: {
    'own-response': ownResponse,
    'sql-in-repos': sqlInRepos,
    walls: {
      meta: { type: 'problem', schema: [], messages: { wall: '{{why}} (imports \'{{spec}}\')' } },
      create(context) {
        const from = relative(ROOT, context.filename).split('\\').join('/');
        const check = (node, spec) => {
          if (typeof spec !== 'string') return;
          const to = target(context.filename, spec);
          for (const wall of WALLS) {
            const why = wall(from, to);
            if (why) context.report({ node, messageId: 'wall', data: { why, spec } });
          }
        };
        return {
          ImportDeclaration: (n) => check(n, n.source.value),
          ExportNamedDeclaration: (n) => n.source && check(n, n.source.value),
          ExportAllDeclaration: (n) => check(n, n.source.value),
          ImportExpression: (n) => n.source.type === 'Literal' && check(n, n.source.value),
          CallExpression: (n) => n.callee.type === 'Identifier' && n.callee.name === 'require' && n.arguments[0]?.type === 'Literal' && check(n, n.arguments[0].value),
        };
      },
    },
  },
};

export default tseslint.config(
  { ignores: ['node_modules/', 'out/', 'dist/', 'release/', 'test-results/', 'playwright-report/', 'scripts/native/', '.data/', '.scratch/'] },
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.node } },
    plugins: { boundaries },
    rules: {
      'boundaries/walls': 'error',
      'boundaries/own-response': 'error',
      'boundaries/sql-in-repos': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  {
    // The service's data layer is asynchronous (issue 40): a promise nobody awaits is an act that
    // may not have happened when the answer goes out, and its failure an unhandled rejection.
    files: ['src-main/service/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: ROOT } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
    },
  },
  {
    files: ['src-renderer/**/*.{ts,tsx}', 'e2e/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    // Shared code runs in the renderer, the service and the shell: no DOM, no Node.
    files: ['src-shared/**/*.ts'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-globals': ['error', 'window', 'document', 'navigator', 'localStorage', 'sessionStorage', 'process', 'Buffer', '__dirname', 'require'],
    },
  },
  {
    // Scripts, CLIs and tests print their results.
    files: ['scripts/**', 'src-main/service/cli.ts', 'src-main/service/**/*.test.ts', 'e2e/**', '**/*.config.{js,ts}'],
    rules: { 'no-console': 'off' },
  },
);
