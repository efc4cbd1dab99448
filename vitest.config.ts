import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/** Files that measure this process's heap: they run in a worker of their own modules. */
const OWN_HEAP = ['src-main/service/core/screening/index-release.test.ts'];
/**
 * Fuzz, chaos and soak drive the built service: one at a time, in a vitest process of their own
 * beside the rest (scripts/unit.mjs, `--project drivers`).
 */
const DRIVERS = ['scripts/fuzz.test.ts', 'scripts/fuzz-images.test.ts', 'scripts/chaos.test.ts', 'scripts/soak.test.ts'];
/**
 * The route files run a second time with every test service's ledger on PostgreSQL (issue 40:
 * the routes that touch storage, on both engines). Not these: the ones that choose their engine
 * themselves; the face and document model files, whose storage is one ledger row a request (the
 * same path the others run) and whose time is the models'; and the two refusal matrices (security:
 * every route without a key, scope, session or role it needs; permissions: every role on every
 * act), whose storage is the session, key and role lookups every other route file runs on
 * PostgreSQL (auth: the idle window; keys; team-roles: members and admins refused; age-init: an
 * expired trial). On PostgreSQL they took 100 of the unit phase's worker-seconds for none of its own.
 */
const ROUTES = 'src-main/service/test/routes/*.test.ts';
const ROUTES_ON_ONE_ENGINE = [
  'postgres', 'shared-lists', 'health-status',
  'documents', 'documents-photos', 'faces', 'faces-challenge', 'face-match', 'liveness-policy', 'presentation-attacks',
  'security', 'permissions',
].map((f) => `src-main/service/test/routes/${f}.test.ts`);

export default defineConfig({
  test: {
    environment: 'node',
    pool: 'forks',
    // One worker per core (vitest's default leaves one idle: on CI's 2 cores, half the machine).
    maxWorkers: Math.max(1, availableParallelism()),
    // The suite's accounts hash passwords cheaply (core/accounts/passwords.ts); the service does not.
    setupFiles: ['src-main/service/test/setup-fast-passwords.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          // One throwaway PostgreSQL cluster for the files that run on both engines (test/engines.ts),
          // and the shipped lists indexed once for every worker (test/shipped-index-setup.ts).
          globalSetup: ['src-main/service/test/pg-global-setup.ts', 'src-main/service/test/shipped-index-setup.ts'],
          include: ['src-main/**/*.test.ts', 'src-shared/**/*.test.ts', 'src-renderer/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...OWN_HEAP, ...DRIVERS],
          // Test files share their worker's modules: the models, the list index and the service's
          // modules load once per worker instead of once per file (the suite's files spent more
          // time importing than testing). Tests restore what they change (globals, timers, TMPDIR).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'routes-postgres',
          globalSetup: ['src-main/service/test/pg-global-setup.ts', 'src-main/service/test/shipped-index-setup.ts'],
          include: [ROUTES],
          exclude: [...configDefaults.exclude, ...ROUTES_ON_ONE_ENGINE],
          env: { CONSOLE_TEST_ENGINE: 'postgres' },
          isolate: false,
        },
      },
      // A heap measured beside other files' leftovers is noise, and their full collections slow.
      { extends: true, test: { name: 'own-heap', include: OWN_HEAP, isolate: true } },
      { extends: true, test: { name: 'drivers', include: DRIVERS, isolate: true } },
    ],
  },
});
