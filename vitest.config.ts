import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src-main/**/*.test.ts', 'src-shared/**/*.test.ts', 'src-renderer/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    // One worker per core (vitest's default leaves one idle: on CI's 2 cores, half the machine).
    maxWorkers: Math.max(1, availableParallelism()),
    // Test files share their worker's modules: the models, the list index and the service's
    // modules load once per worker instead of once per file (the suite's files spent more time
    // importing than testing). Tests restore what they change (globals, timers, TMPDIR).
    isolate: false,
    // The suite's accounts hash passwords cheaply (core/accounts/passwords.ts); the service does not.
    setupFiles: ['src-main/service/test/setup-fast-passwords.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
