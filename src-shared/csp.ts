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
