// The hosted page's active liveness challenge (human sessions) against the real service and its
// face models, at a phone's size: Chromium's fake camera is fed a y4m made here from frames of the
// test faces. With a head that turns (a 3D render of a test selfie: headTurnFrames), the page
// records a short WebM clip, sends it as selfie_b64, and the session passes and follows its
// redirect. A flat photo turned in front of the camera, or a still picture filmed, misses the
// challenge: the page says why and offers Try again, and the third miss fails the session. A
// recording that fails offers Try again. No photo is offered at any point (the service refuses one).
// CONSOLE_SCREENSHOTS=/some/dir also saves screenshots (hosted-challenge-*.png).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import type { HostedCompleteResponse, HostedGenerateRequest, HostedGenerateResponse } from '../../src-shared/contracts/hosted';
import { flatPhotoFrames, headTurnFrames, selfieFrames } from '../../src-main/service/test/face-fixtures';
import { DEFAULT_ORG, initOrg } from '../support/accounts';
import { CHROMIUM_PATH } from '../support/chromium';
import { expect, test, type Service } from '../support/service';
import { fakeCameraArgs, writeY4m } from '../support/fake-camera';
import { createKey } from '../support/seed';

// Each test makes its own key and session on the one Pro organisation: they share a service per
// worker (support/service.ts), so the models load once per worker, not once per test.
test.use({ shareService: true });

const PHONE = { width: 390, height: 844 };
const FPS = 6;
const shotsDir = process.env.CONSOLE_SCREENSHOTS;
async function shot(page: Page, name: string): Promise<void> {
  if (shotsDir) await page.screenshot({ path: join(shotsDir, `hosted-challenge-${name}.png`), fullPage: true });
}

type Feed = 'head-turn' | 'flat-photo' | 'still';
const FEEDS: Record<Feed, () => Promise<Buffer[]>> = {
  'head-turn': () => headTurnFrames('c', { n: 18, degrees: 35 }),
  'flat-photo': () => flatPhotoFrames('yaw', 'c', { n: 18, degrees: 60 }),
  still: () => selfieFrames(false, 18),
};

async function cameraBrowser(feed: Feed): Promise<Browser> {
  const y4m = join(tmpdir(), `cc-hosted-challenge-${feed}-${process.pid}.y4m`);
  // 18 frames at 6 per second: a 3-second loop (the head turns to one side and back, the photo
  // is turned 60° and back, or the picture stands still).
  await writeY4m(y4m, await FEEDS[feed](), FPS);
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--no-sandbox', '--disable-gpu', '--no-first-run',
      ...fakeCameraArgs(y4m),
    ],
  });
}

async function startLanding(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Shop</title><h1>Back at the shop</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) };
}

async function session(service: Service, body: HostedGenerateRequest): Promise<HostedGenerateResponse> {
  const org = await initOrg(service, { ...DEFAULT_ORG, plan: 'pro' });
  const key = (await createKey(service, org, { env: 'test', scopes: ['human'], name: 'Challenge e2e' })).api_key;
  const res = await fetch(`${service.url}/hosted/generate`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as HostedGenerateResponse;
}

/**
 * Opens the camera, checks the instructions, records the challenge and submits it; returns what
 * the page sent (the clip's first bytes and size) and what the service answered.
 */
async function recordAndSubmit(page: Page, shots: boolean, open: 'open-camera' | 'try-again' = 'open-camera'): Promise<{ head: string; bytes: number; answer: HostedCompleteResponse }> {
  await expect(page.getByRole('heading', { name: 'Take a selfie' })).toBeFocused();
  // The challenge takes a recording only: no photo from a file (the service would refuse it).
  await expect(page.getByTestId('photo-file')).toHaveCount(0);
  await page.getByTestId(open).click();
  const video = page.getByTestId('camera-video');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.videoWidth)).toBeGreaterThan(0);
  await expect(page.getByTestId('status')).toHaveText('Camera ready. Read the instructions, then press Start recording.');
  const instructions = page.getByTestId('challenge-instructions');
  await expect(instructions).toContainText('turn your head slowly to one side and back');
  await expect(instructions).toContainText('The recording takes 3 seconds');
  await expect(instructions).toContainText('close your eyes for a moment');
  // The challenge replaces the single photo while the browser can record.
  await expect(page.getByTestId('take-photo')).toHaveCount(0);
  if (shots) await shot(page, 'instructions');

  await page.getByTestId('start-recording').click();
  const cue = page.getByTestId('challenge-cue');
  await expect(cue).toBeFocused();
  await expect(page.getByTestId('challenge-progress')).toBeVisible();
  await expect(page.getByTestId('challenge-countdown')).toContainText(/\d seconds? left/);
  // The cue moves on as the recording runs, and the live region says it too.
  await expect(cue).toHaveText('Turn your head slowly to one side…', { timeout: 3_000 });
  await expect(page.getByTestId('status')).toHaveText('Turn your head slowly to one side…');
  if (shots) await shot(page, 'recording');
  await expect(cue).toHaveText('…and back to the camera', { timeout: 3_000 });

  // Recorded: the camera is stopped, the clip is shown back, the heading has the focus again.
  await expect(page.getByTestId('clip-preview')).toBeVisible({ timeout: 10_000 });
  await expect(page.getByTestId('status')).toHaveText('Video recorded and the camera is off. Check it, then submit.');
  await expect(video).toBeHidden();
  expect(await video.evaluate((v: HTMLVideoElement) => v.srcObject)).toBeNull();
  await expect(page.getByRole('heading', { name: 'Take a selfie' })).toBeFocused();
  await expect(page.getByTestId('open-camera')).toHaveText('Record again');
  if (shots) await shot(page, 'recorded');

  const request = page.waitForRequest((r) => r.url().includes('/hosted/complete/'));
  // Ten described frames in the face worker: a few seconds here, more on a busy machine.
  const response = page.waitForResponse((r) => r.url().includes('/hosted/complete/'), { timeout: 90_000 });
  await page.getByTestId('continue').click();
  const sent = JSON.parse((await request).postData() ?? '{}') as { selfie_b64?: string };
  const clip = Buffer.from(sent.selfie_b64 ?? '', 'base64');
  const answer = (await (await response).json()) as HostedCompleteResponse;
  return { head: clip.subarray(0, 4).toString('hex'), bytes: clip.length, answer };
}

test('hosted challenge: a head turning in front of the fake camera passes as a clip and follows the redirect', async ({ service }) => {
  test.setTimeout(180_000);
  const landing = await startLanding();
  const browser = await cameraBrowser('head-turn');
  try {
    const page = await browser.newPage({ viewport: PHONE });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text())) problems.push(`csp: ${m.text()}`);
    });
    const s = await session(service, { product: 'human', redirect_url: `${landing.url}/welcome` });
    await page.goto(s.hosted_url);
    const { head, bytes, answer } = await recordAndSubmit(page, true);
    // A WebM clip (EBML magic), well inside the service's 10 MB limit.
    expect(head).toBe('1a45dfa3');
    expect(bytes).toBeGreaterThan(10_000);
    expect(bytes).toBeLessThan(10 * 1024 * 1024);
    expect(answer).toMatchObject({ status: 'passed', reason: null });
    await expect(page.getByTestId('result')).toHaveAttribute('data-status', 'passed');
    await shot(page, 'passed');
    await page.waitForURL((u) => u.href.startsWith(landing.url), { timeout: 10_000 });
    const landed = new URL(page.url());
    expect(landed.pathname).toBe('/welcome');
    expect(landed.searchParams.get('hosted_session')).toBe(s.session_id);
    expect(landed.searchParams.get('status')).toBe('passed');
    expect(await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }))).toBe('{}{}');
    expect(problems).toEqual([]);
  } finally {
    await browser.close();
    await landing.close();
  }
});

test('hosted challenge: a flat photo turned in front of the camera is asked to record again with the reason, and fails the third time', async ({ service }) => {
  test.setTimeout(400_000);
  const browser = await cameraBrowser('flat-photo');
  try {
    const page = await browser.newPage({ viewport: PHONE });
    const s = await session(service, { product: 'human', failure_message: 'Please see the desk.' });
    await page.goto(s.hosted_url);
    for (const left of [2, 1]) {
      const { head, answer } = await recordAndSubmit(page, left === 2, left === 2 ? 'open-camera' : 'try-again');
      expect(head).toBe('1a45dfa3');
      expect(answer).toMatchObject({ status: 'retry', reason: 'spoof_suspected', challenge: { failed: 'head_turn', attempts_left: left } });
      // Back at the selfie: why, in words, in an alert; how many recordings are left; Try again.
      const why = page.getByTestId('challenge-retry');
      await expect(why).toContainText('We could not see your head turn');
      await expect(why).toContainText('A photo or a screen held up to the camera cannot do this.');
      await expect(why).toContainText(left === 1 ? 'You can record one more time.' : 'You can record 2 more times.');
      await expect(why).toHaveAttribute('role', 'alert');
      await expect(page.getByTestId('status')).toContainText('Please record again.');
      await expect(page.getByTestId('try-again')).toHaveText('Try again');
      // The service asked for a recording: the page no longer offers a photo instead.
      await expect(page.getByTestId('photo-file')).toHaveCount(0);
      if (left === 2) await shot(page, 'retry');
    }
    const { answer } = await recordAndSubmit(page, false, 'try-again');
    expect(answer).toMatchObject({ status: 'failed', reason: 'spoof_suspected', challenge: { failed: 'head_turn', attempts_left: 0 } });
    await expect(page.getByTestId('result')).toHaveAttribute('data-status', 'failed');
    await expect(page.getByRole('heading', { name: 'Not verified' })).toBeFocused();
    await expect(page.getByTestId('result-message')).toHaveText('Please see the desk.');
    await expect(page.getByTestId('result-why')).toContainText('We could not see your head turn');
    await shot(page, 'failed');
  } finally {
    await browser.close();
  }
});

test('hosted challenge: a still picture filmed by the fake camera misses the challenge on head_turn', async ({ service }) => {
  test.setTimeout(180_000);
  const browser = await cameraBrowser('still');
  try {
    const page = await browser.newPage({ viewport: PHONE });
    const s = await session(service, { product: 'human' });
    await page.goto(s.hosted_url);
    const { answer } = await recordAndSubmit(page, false);
    expect(answer).toMatchObject({ status: 'retry', reason: 'spoof_suspected', challenge: { failed: 'head_turn', attempts_left: 2 } });
    await expect(page.getByTestId('challenge-retry')).toHaveAttribute('data-rule', 'head_turn');
    await expect(page.getByRole('heading', { name: 'Take a selfie' })).toBeFocused();
  } finally {
    await browser.close();
  }
});

test('hosted challenge: a recording that fails says so, stops the camera and offers Try again', async ({ service }) => {
  test.setTimeout(60_000);
  const browser = await cameraBrowser('head-turn');
  try {
    const page = await browser.newPage({ viewport: PHONE });
    // The first recording refuses to start, as a recorder can on a busy or odd device.
    await page.addInitScript(() => {
      const start = MediaRecorder.prototype.start;
      let failed = false;
      MediaRecorder.prototype.start = function (this: MediaRecorder, ...args: [number?]) {
        if (!failed) {
          failed = true;
          throw new DOMException('refused', 'NotSupportedError');
        }
        start.apply(this, args);
      };
    });
    const s = await session(service, { product: 'human' });
    await page.goto(s.hosted_url);
    await page.getByTestId('open-camera').click();
    await page.getByTestId('start-recording').click();
    await expect(page.getByTestId('photo-problem')).toHaveText('The recording did not work. Try again.');
    await expect(page.getByTestId('camera-video')).toBeHidden();
    // No photo instead: the service takes only the recording.
    await expect(page.getByTestId('photo-file')).toHaveCount(0);
    await page.getByTestId('try-again').click();
    await expect(page.getByTestId('photo-problem')).toHaveCount(0);
    await page.getByTestId('start-recording').click();
    await expect(page.getByTestId('clip-preview')).toBeVisible({ timeout: 10_000 });
  } finally {
    await browser.close();
  }
});
