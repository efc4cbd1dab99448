// A stand-in for the desktop shell's bridge (`window.shell`, see src-main/shell/preload.ts) in
// Chromium: it hands over the one-time login token the shell gave the service once, like the
// real bridge, and saves nothing.
import type { Page } from '@playwright/test';

export async function installFakeShell(page: Page, o: { token: string; serviceUrl: string }): Promise<void> {
  await page.addInitScript(
    ({ token, serviceUrl }) => {
      let pending: string | null = token;
      Object.defineProperty(window, 'shell', {
        value: {
          serviceUrl,
          takeLoginToken: async () => {
            const t = pending;
            pending = null;
            return t;
          },
          saveFile: async () => ({ saved: false }),
          openExternal: async () => undefined,
          appVersion: async () => 'e2e',
        },
      });
    },
    o,
  );
}
