// The console's Content-Security-Policy: sent by the service with the console's files and
// re-applied by the Electron shell, so the console behaves the same in Chromium and Electron.
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  // CSV parsing and image work run in workers the console may create from blob: URLs.
  "worker-src 'self' blob:",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

// The hosted verification page's policy: its own scripts and styles only (no inline styles: the
// page sets none), pictures from the camera as blob:/data: URLs, calls to its own origin only.
// getUserMedia needs no directive; it needs a secure context (or loopback) and Permissions-Policy.
export const HOSTED_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob: data:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');
