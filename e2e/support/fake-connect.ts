// A stand-in for the desktop shell's "run here or connect" flow in Chromium (Electron's binary
// cannot run on this machine). The shell's decisions are not faked: what to open at start, looking
// at a team server, pinning, refusing a changed certificate, the connection file — all run here,
// in the test process, through the same module the Electron main process uses
// (src-main/shell/connection.ts). Only Electron's window work is played by pages: the connect page
// is one page with `window.connect` wired to those answers, and the team server's console opens
// in a new page with the fake `window.shell` for that server, as the shell opens a new window.
// The browser must trust exactly the pinned certificate, as the shell's certificate check does:
// launch it with support/chromium.ts's launchTrusting.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Page } from '@playwright/test';
import { connectPageFile } from '../../src-main/shell/connect-page-files';
import { connectAnswers, startupPlan, type StartupPlan } from '../../src-main/shell/connection';
import { CONSOLE_CSP } from '../../src-shared/csp';
import type { ConnectRequest, ConnectState } from '../../src-shared/contracts/shell';
import { installFakeShell } from './fake-shell';

/**
 * The connect page as the shell serves it (connect-window.ts, with the same file rule), with the console's CSP, from a server of its own, since no service need be running.
 */
export async function serveConnectPage(rendererDir: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    const found = connectPageFile(rendererDir, new URL(req.url ?? '/', 'http://x').pathname);
    if (found === null) {
      res.writeHead(404).end();
      return;
    }
    readFile(found.file).then(
      (body) => res.writeHead(200, { 'Content-Type': found.type, 'Content-Security-Policy': CONSOLE_CSP }).end(body),
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/connect.html`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export class FakeDesk {
  private refusal: ConnectState['refusal'] = null;
  /** The window the shell shows now: the connect page or the team server's console. */
  window: Page | null = null;
  ranLocally = 0;

  constructor(
    private readonly context: BrowserContext,
    /** The connection file, as `<userData>/connection.json`. */
    readonly file: string,
    /** Where this test serves connect.html (the shell serves it under its own scheme). */
    private readonly connectPageUrl: string,
  ) {}

  /** The app starts: the connect page (with why), or the team server's console. */
  async start(): Promise<StartupPlan> {
    const plan = await startupPlan(this.file);
    await this.open(plan);
    return plan;
  }

  private async open(plan: StartupPlan): Promise<void> {
    const previous = this.window;
    if (plan.open === 'connect') {
      this.refusal = plan.refusal;
      this.window = await this.connectWindow();
    } else if (plan.open === 'team') {
      this.refusal = null;
      const page = await this.context.newPage();
      await installFakeShell(page, { token: null, serviceUrl: plan.team.serverUrl, connection: plan.team, onChooseServer: () => void this.open({ open: 'connect', refusal: null }) });
      await page.goto(`${plan.team.serverUrl}/`);
      this.window = page;
    } else {
      this.ranLocally += 1;
      this.window = null;
    }
    if (previous !== null && previous !== this.window) await previous.close();
  }

  private async connectWindow(): Promise<Page> {
    const page = await this.context.newPage();
    const answers = connectAnswers(this.file, () => this.refusal);
    await page.exposeFunction('__connectState', () => answers.state());
    await page.exposeFunction('__connectProbe', (url: string) => answers.probe(url));
    await page.exposeFunction('__connectConnect', async (request: ConnectRequest) => {
      const result = await answers.connect(request);
      // As the shell does after connecting: open what the file now says, once the page has its answer.
      if (result.ok) setTimeout(() => void startupPlan(this.file).then((plan) => this.open(plan)), 0);
      return result;
    });
    await page.exposeFunction('__connectRunLocally', () => {
      answers.runLocally();
      setTimeout(() => void this.open({ open: 'local' }), 0);
    });
    await page.addInitScript(() => {
      const w = window as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
      Object.defineProperty(window, 'connect', {
        value: {
          state: () => w.__connectState!(),
          probe: (url: string) => w.__connectProbe!(url),
          connect: (request: unknown) => w.__connectConnect!(request),
          runLocally: () => w.__connectRunLocally!(),
        },
      });
    });
    await page.goto(this.connectPageUrl);
    return page;
  }
}
