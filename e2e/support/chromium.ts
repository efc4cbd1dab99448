// Which of Debian's Chromium builds the end-to-end tests drive. Both come from Debian's one
// `chromium` source package (same version, same Blink and V8): `chromium-headless-shell` is the
// headless build without a browser window around the page, which is what Playwright itself runs
// for headless Chromium. The full browser (`/usr/bin/chromium`) renders a window's toolbar in a
// renderer of its own for every test's context: on this 2-core machine it used 2.3 CPU-seconds per
// test against 0.9 for the shell, and the suite ran 6 minutes instead of 4½. The full browser stays
// the fallback when the shell is not installed, and CONSOLE_E2E_CHROMIUM=/usr/bin/chromium picks it.
import { createHash, X509Certificate } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chromium, type Browser } from '@playwright/test';

const FULL_CHROMIUM = '/usr/bin/chromium';
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

export const CHROMIUM_PATH = process.env.CONSOLE_E2E_CHROMIUM ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : FULL_CHROMIUM);

/**
 * Chromium trusting exactly one certificate besides the public authorities: `pem`'s key (its SPKI
 * SHA-256, as --ignore-certificate-errors-spki-list takes it), as a desk that compared the team
 * server's fingerprint, or the desktop shell's pinned certificate check, does. No other
 * certificate error is ignored.
 */
export function launchTrusting(pem: string): Promise<Browser> {
  const spki = createHash('sha256').update(new X509Certificate(pem).publicKey.export({ type: 'spki', format: 'der' })).digest('base64');
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', `--ignore-certificate-errors-spki-list=${spki}`] });
}
