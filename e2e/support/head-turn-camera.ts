// A phone whose camera shows a head turning (issue 37: every hosted product's selfie is the
// recorded head turn): Chromium's fake camera fed a y4m of a test face rendered in 3D, turned 35°
// and back (headTurnFrames), and the page steps that record it.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { headTurnFrames, type FaceId } from '../../src-main/service/test/face-fixtures';
import { CHROMIUM_PATH } from './chromium';
import { fakeCameraArgs, writeY4m } from './fake-camera';
import { expect } from './service';

/** A browser whose camera (front and back alike) loops a 3-second head turn of test face `face`. */
export async function headTurnBrowser(face: FaceId = 'c'): Promise<Browser> {
  const y4m = join(tmpdir(), `cc-head-turn-${face}-${process.pid}.y4m`);
  await writeY4m(y4m, await headTurnFrames(face, { n: 18, degrees: 35 }), 6);
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', ...fakeCameraArgs(y4m)] });
}

/** On the selfie step: opens the camera, records the head turn and waits for the clip's preview. */
export async function recordHeadTurn(page: Page, open: 'open-camera' | 'try-again' = 'open-camera'): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Take a selfie' })).toBeFocused();
  // The head turn only: no photo from a file (the service would refuse it).
  await expect(page.getByTestId('photo-file')).toHaveCount(0);
  await page.getByTestId(open).click();
  const video = page.getByTestId('camera-video');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.videoWidth)).toBeGreaterThan(0);
  await page.getByTestId('start-recording').click();
  await expect(page.getByTestId('clip-preview')).toBeVisible({ timeout: 15_000 });
}
