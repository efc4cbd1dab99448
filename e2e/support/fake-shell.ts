// A stand-in for the desktop shell's bridge (`window.shell`, see src-main/shell/preload.ts) in
// Chromium: it hands over the one-time login token the shell gave the service once, like the
// real bridge, says which service the window shows, and saves nothing. It exists on the service's
// origin only, as the real preload's bridge answers that origin only.
import type { Page } from '@playwright/test';
import type { ShellConnection } from '../../src-shared/contracts/shell';

export interface FakeShell {
  token: string | null;
  serviceUrl: string;
  connection?: ShellConnection;
  /** Called when the console asks for "Change server". */
  onChooseServer?: () => void;
}

export async function installFakeShell(page: Page, o: FakeShell): Promise<void> {
  if (o.onChooseServer) await page.exposeFunction('__fakeShellChooseServer', o.onChooseServer);
  await page.addInitScript(
    ({ token, serviceUrl, connection }) => {
      if (window.location.origin !== serviceUrl) return;
      let pending: string | null = token;
      Object.defineProperty(window, 'shell', {
        value: {
          serviceUrl,
          connection,
          takeLoginToken: async () => {
            const t = pending;
            pending = null;
            return t;
          },
          saveFile: async () => ({ saved: false }),
          openExternal: async () => undefined,
          appVersion: async () => 'e2e',
          chooseServer: async () => {
            await (window as unknown as { __fakeShellChooseServer?: () => Promise<void> }).__fakeShellChooseServer?.();
          },
        },
      });
    },
    { token: o.token, serviceUrl: o.serviceUrl, connection: o.connection ?? { mode: 'local' } },
  );
}
