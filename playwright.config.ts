// Two targets: the console in Debian's Chromium (e2e/support/chromium.ts) against the built service
// (a fresh data directory per test, or per file and worker for files that share one:
// e2e/support/service.ts), and the Electron app itself.
import { defineConfig } from '@playwright/test';
import { CHROMIUM_PATH } from './e2e/support/chromium';

export default defineConfig({
  testDir: 'e2e',
  globalSetup: './e2e/support/global-setup.ts',
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  reporter: 'list',
  timeout: 60_000,
  expect: { timeout: 7_500 },
  fullyParallel: true,
  use: {
    actionTimeout: 10_000,
    navigationTimeout: 20_000,
    trace: 'on-first-retry',
    // Every page the tests open (hand-launched browsers' too) asks for less motion, as a user can:
    // the console's, hosted page's and overlay's spinners then stand still. A turning one costs the
    // software compositor a frame of the whole viewport 60 times a second, and the checks it waits
    // beside run longer on two busy cores: on the age gate's spec, 18 → 8 CPU-s of Chromium's GPU
    // process. screening.spec.ts sees the spinner turn when no preference is given.
    reducedMotion: 'reduce',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      testMatch: 'chromium/**/*.spec.ts',
      use: {
        browserName: 'chromium',
        viewport: { width: 1440, height: 900 },
        launchOptions: {
          executablePath: CHROMIUM_PATH,
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
          ],
        },
      },
    },
    {
      name: 'electron',
      testMatch: 'electron/**/*.spec.ts',
    },
  ],
});
