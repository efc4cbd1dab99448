// Pure URL rules shared by the main process and the sandboxed preload, so both sides agree on
// what counts as "the service" and what may leave the app. No electron or node: imports here.

/** The origin of a URL, or null when it does not parse (an origin never equals null). */
export function originOf(raw: string): string | null {
  try {
    return new URL(raw).origin;
  } catch {
    return null;
  }
}

/**
 * The origin of `http://127.0.0.1:PORT[/...]`, or null for anything else. The service only
 * listens on loopback IPv4, so a ready message or argument naming another host is a bug or an
 * attack, and the shell must not trust it with cookies, CSP exemptions or permissions.
 */
export function loopbackOrigin(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' || url.hostname !== '127.0.0.1') return null;
  if (url.port === '' || url.username !== '' || url.password !== '') return null;
  return url.origin;
}

/**
 * The origin of the console the window shows: this computer's service (`http://127.0.0.1:PORT`)
 * or a team server (`https://host[:port]`, reached only after its certificate was pinned; see
 * connection.ts). Anything else, or a URL with credentials, is null.
 */
export function consoleOrigin(raw: string): string | null {
  const loopback = loopbackOrigin(raw);
  if (loopback !== null) return loopback;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || url.username !== '' || url.password !== '') return null;
  return url.origin;
}

/**
 * Whether a URL may be handed to the OS browser. Only http(s): other schemes (file:, smb:,
 * custom protocol handlers) can launch programs or leak credentials through the OS.
 */
export function isExternalWebUrl(raw: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  return (url.protocol === 'https:' || url.protocol === 'http:') && url.username === '' && url.password === '';
}
