import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src-main/**/*.test.ts', 'src-shared/**/*.test.ts', 'src-renderer/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    // The suite's accounts hash passwords cheaply (core/accounts/passwords.ts); the service does not.
    setupFiles: ['src-main/service/test/setup-fast-passwords.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
