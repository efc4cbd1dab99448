// "Connect to my team's server" (issue 39, items 2 and 6), in Chromium with the shell's fake
// (support/fake-connect.ts: the shell's own connection.ts decides; pages play its windows). A
// built service runs a team server on 127.0.0.1 over HTTPS. At first start the person chooses the
// team server, sees the fingerprint it presents, trusts it, and signs in normally; the computer
// keeps the URL and the fingerprint and nothing else. The server's certificate is then replaced:
// the app refuses it, shows both fingerprints, refuses a wrong confirmation and connects on the
// right one. A server that has gone away is named, and tried again. Settings → This desktop app
// goes back to the choice, where "Run on this computer" is kept instead.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import type { Browser, BrowserContext } from '@playwright/test';
import { fingerprintOf } from '../../src-main/service/core/onsite/certificate';
import { cli } from '../../src-main/service/test/cli-command';
import { AppShell } from '../pages/app-shell';
import { ConnectPage } from '../pages/connect-page';
import { LoginPage } from '../pages/login-page';
import { axeViolations } from '../support/axe';
import { launchTrusting } from '../support/chromium';
import { FakeDesk, serveConnectPage } from '../support/fake-connect';
import { expect, ROOT, startService, stopService, test } from '../support/service';

const OWNER = { organization: 'Desk Two Ltd', email: 'head@desktwo.test', password: 'head of compliance 2' };

let dir: string;
let profile: string;
let port: number;
let proc: ChildProcess | undefined;
let connectPage: { url: string; close: () => Promise<void> };
const browsers: Browser[] = [];

const team = () => `https://127.0.0.1:${port}`;
const certificate = () => readFileSync(join(dir, 'team', 'team-cert.pem'), 'utf8');
const connectionFile = () => join(profile, 'connection.json');

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const p = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return p;
}

async function serve(): Promise<void> {
  const started = await startService(dir, 'bundle', {}, ['--team', `127.0.0.1:${port}`, '--lazy-models']);
  proc = started.child;
}

/** A browser that trusts exactly the team server's current certificate, as the shell's check trusts the pinned one. */
async function desk(): Promise<{ context: BrowserContext; desk: FakeDesk }> {
  const browser = await launchTrusting(certificate());
  browsers.push(browser);
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  return { context, desk: new FakeDesk(context, connectionFile(), connectPage.url) };
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dir = mkdtempSync(join(tmpdir(), 'cc-e2e-connect-'));
  profile = mkdtempSync(join(tmpdir(), 'cc-e2e-desk-profile-'));
  const made = await cli('init', '--data-dir', dir, '--org', OWNER.organization, '--owner-email', OWNER.email, '--owner-password', OWNER.password, '--plan', 'pro');
  if (made.status !== 0) throw new Error(`init: ${made.stderr}`);
  port = await freePort();
  connectPage = await serveConnectPage(join(ROOT, 'out', 'renderer'));
  await serve();
});

test.afterAll(async () => {
  for (const b of browsers) await b.close();
  if (proc) await stopService(proc);
  await connectPage.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(profile, { recursive: true, force: true });
});

test('first start: the team server is looked at, its fingerprint trusted, then the normal sign-in; the desk keeps its URL and fingerprint only', async () => {
  const { desk: app } = await desk();
  expect(await app.start()).toEqual({ open: 'connect', refusal: null });
  const connect = new ConnectPage(app.window!);
  await expect(connect.heading).toHaveText('Where does Compliance Console run?');

  // Plain http is refused, with the reason; the address without a scheme is taken as https.
  await connect.chooseTeamServer(`http://127.0.0.1:${port}`);
  await expect(connect.urlError).toContainText('HTTPS only');
  await connect.url.fill(`127.0.0.1:${port}`);
  await connect.look.click();
  await expect(connect.heading).toHaveText('Check the team server');
  await expect(connect.server).toHaveText(team());
  await connect.expectShown(fingerprintOf(certificate()));
  await expect(connect.pinNote).toContainText('Compare it with the fingerprint your administrator sees under Settings → Team server');
  expect(await axeViolations(connect.page, 'connect page, server looked at')).toEqual([]);
  await expect(connect.submit).toHaveText('Trust and connect');
  await connect.submit.click();

  // The shell replaces the connect window with the team server's console: the normal sign-in.
  await expect.poll(() => app.window?.url()).toBe(`${team()}/`);
  const console = app.window!;
  const login = new LoginPage(console);
  await expect(login.root).toBeVisible();
  await expect(console.locator('.auth-footer')).toContainText(`team server ${team()}`);
  await login.login(OWNER.email, OWNER.password);
  await new AppShell(console).expectSignedIn(OWNER.organization);

  await console.goto(`${team()}/#/settings`);
  const section = console.getByTestId('settings-desktop-connection');
  await expect(section.getByTestId('desktop-connection-mode')).toContainText(`Connected to your team’s server at ${team()}`);
  expect(ConnectPage.hex(await section.getByTestId('desktop-connection-fingerprint').textContent())).toBe(ConnectPage.hex(fingerprintOf(certificate())));
  await expect(console.getByTestId('preferences-kept')).toContainText('kept until the app closes');

  expect(JSON.parse(readFileSync(connectionFile(), 'utf8'))).toEqual({ mode: 'team', serverUrl: team(), fingerprint: fingerprintOf(certificate()) });
});

test('a changed certificate is refused until the new fingerprint is confirmed; a wrong fingerprint is refused', async () => {
  const pinned = fingerprintOf(certificate());
  // The administrator's server gets a new certificate (made afresh at its next start).
  await stopService(proc!);
  rmSync(join(dir, 'team', 'team-cert.pem'));
  rmSync(join(dir, 'team', 'team-key.pem'));
  await serve();
  const renewed = fingerprintOf(certificate());
  expect(renewed).not.toBe(pinned);

  const { desk: app } = await desk();
  const plan = await app.start();
  expect(plan).toMatchObject({ open: 'connect', refusal: { problem: 'changed' } });
  const connect = new ConnectPage(app.window!);
  await expect(connect.heading).toHaveText("The team server's certificate has changed");
  await expect(connect.changed).toContainText('Do not connect until an administrator has read you the new fingerprint');
  expect(ConnectPage.hex(await connect.pinnedFingerprint.textContent())).toBe(ConnectPage.hex(pinned));
  await connect.expectShown(renewed);
  await expect(connect.submit).toBeDisabled();

  // One byte off at the very end: refused, and the pin stays.
  const last = renewed.slice(-2) === '00' ? '01' : '00';
  await connect.confirmation.fill(`${renewed.slice(0, -2)}${last}`);
  await connect.submit.click();
  await expect(connect.confirmationError).toContainText('That is not the fingerprint this server presents. Do not connect');
  expect(await axeViolations(connect.page, 'connect page, certificate changed')).toEqual([]);
  expect(JSON.parse(readFileSync(connectionFile(), 'utf8')).fingerprint).toBe(pinned);

  // As the administrator reads it: lower case, in groups, without colons.
  await connect.confirmation.fill(renewed.replace(/:/g, ' ').toLowerCase());
  await connect.submit.click();
  await expect.poll(() => app.window?.url()).toBe(`${team()}/`);
  await expect(new LoginPage(app.window!).root).toBeVisible();
  expect(JSON.parse(readFileSync(connectionFile(), 'utf8'))).toEqual({ mode: 'team', serverUrl: team(), fingerprint: renewed });
});

test('a team server that went away is named, and tried again; Change server goes back to the choice, where this computer can be chosen', async () => {
  await stopService(proc!);
  const { desk: app } = await desk();
  expect(await app.start()).toMatchObject({ open: 'connect', refusal: { problem: 'unreachable' } });
  const connect = new ConnectPage(app.window!);
  await expect(connect.refusal).toContainText(`Cannot reach ${team()}: nothing is listening there`);
  await expect(connect.url).toHaveValue(team());
  expect(await axeViolations(connect.page, 'connect page, server away')).toEqual([]);
  await connect.look.click();
  await expect(connect.urlError).toContainText('nothing is listening there');

  await serve();
  await connect.look.click();
  await expect(connect.pinNote).toHaveText('This is the certificate this computer already trusts for this server.');
  await expect(connect.submit).toHaveText('Connect');
  await connect.submit.click();
  await expect.poll(() => app.window?.url()).toBe(`${team()}/`);
  const console = app.window!;
  await new LoginPage(console).login(OWNER.email, OWNER.password);
  await new AppShell(console).expectSignedIn(OWNER.organization);

  await console.goto(`${team()}/#/settings`);
  await console.getByTestId('desktop-connection-change').click();
  await expect.poll(() => app.window?.url()).toBe(connectPage.url);
  const again = new ConnectPage(app.window!);
  await expect(again.heading).toHaveText('Where does Compliance Console run?');
  await again.chooseThisComputer();
  await expect.poll(() => app.ranLocally).toBe(1);
  expect(JSON.parse(readFileSync(connectionFile(), 'utf8'))).toEqual({ mode: 'local' });
});
