// "Run on this computer" or "Connect to my team's server" (issue 39): what the desktop app keeps
// (connection.json: the mode, and for a team server its URL and the pinned certificate fingerprint,
// nothing else of the organisation), how it looks at a team server before trusting it, and the
// one rule for a certificate, used both when connecting and by the window's certificate check.
// Node only (no electron): the main process uses it, and so do its tests and the Chromium fake.
import { X509Certificate } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { isIP } from 'node:net';
import { dirname } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { z } from 'zod';
import { Health } from '../../src-shared/contracts/status';
import type { ConnectRefusal, ConnectRequest, ConnectResult, ConnectState, ProbeResult, ShellConnection, TeamServerIdentity } from '../../src-shared/contracts/shell';

export const CONNECTION_FILE = 'connection.json';
const PROBE_TIMEOUT_MS = 8_000;
const MAX_HEALTH_BYTES = 64 * 1024;

export const CHANGED_MESSAGE =
  "The team server's certificate has changed since this computer connected to it. It may be a new certificate, or someone in between: this computer will not connect until an administrator confirms the new fingerprint.";

/** SHA-256 as 32 upper-case hex pairs joined by colons. */
const FINGERPRINT = /^[0-9A-F]{2}(:[0-9A-F]{2}){31}$/;

const Stored = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('local') }).strict(),
  z.object({ mode: z.literal('team'), serverUrl: z.string(), fingerprint: z.string().regex(FINGERPRINT) }).strict(),
]);

export class ConnectError extends Error implements ConnectRefusal {
  constructor(
    readonly problem: ConnectRefusal['problem'],
    message: string,
  ) {
    super(message);
    this.name = 'ConnectError';
  }
  refusal(): ConnectRefusal {
    return { problem: this.problem, message: this.message };
  }
}

/**
 * The team server's origin from what a person typed: `https://` added when no scheme is given,
 * nothing but an origin (a path, query, fragment or credentials are refused, not dropped, so a
 * pasted link to some page is not silently taken for the server). Plain http is refused: a team
 * server is reached over HTTPS only.
 */
export function teamServerOrigin(raw: string): string {
  const typed = raw.trim();
  if (typed === '') throw new ConnectError('url', "Enter the team server's address, for example https://10.0.0.5:4443.");
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(typed) ? typed : `https://${typed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new ConnectError('url', `"${typed}" is not an address. Use the one your administrator gave you, for example https://10.0.0.5:4443.`);
  }
  if (url.protocol !== 'https:') {
    throw new ConnectError('url', 'A team server is reached over HTTPS only: use the https:// address shown under Settings → Team server.');
  }
  if (url.username !== '' || url.password !== '') throw new ConnectError('url', 'The address must not carry a user name or password.');
  if ((url.pathname !== '/' && url.pathname !== '') || url.search !== '' || url.hash !== '') {
    throw new ConnectError('url', `Use the server's address only (${url.origin}), not a page on it.`);
  }
  return url.origin;
}

/** A fingerprint as a person may type or paste it (any case, with colons, spaces or nothing between pairs), or null. */
export function normaliseFingerprint(raw: string): string | null {
  const hex = raw.replace(/[\s:-]/g, '').toUpperCase();
  if (!/^[0-9A-F]{64}$/.test(hex)) return null;
  return hex.match(/../g)!.join(':');
}

/** The connection this computer keeps, or null when none was chosen yet (first start) or the file is unreadable. */
export function readConnection(file: string): ShellConnection | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  try {
    const stored = Stored.parse(JSON.parse(text));
    if (stored.mode === 'local') return stored;
    return { mode: 'team', serverUrl: teamServerOrigin(stored.serverUrl), fingerprint: stored.fingerprint };
  } catch {
    // A damaged file means "ask again", never "trust whatever is there".
    return null;
  }
}

/** Written whole (temp file, then rename), readable by this user only. */
export function writeConnection(file: string, connection: ShellConnection): void {
  const value = Stored.parse(connection);
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  renameSync(temp, file);
}

/** The host of an origin, without IPv6 brackets: what a certificate names and a TLS hostname says. */
export function serverHost(origin: string): string {
  return new URL(origin).hostname.replace(/^\[|\]$/g, '');
}

function day(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * The one rule for a team server's certificate, on connecting and on every connection the window
 * makes: within its dates, naming the address the person typed, and, once pinned, the pinned one.
 * A certificate from a public authority is held to the same pin: the pin is what was checked.
 */
export function judgeCertificate(cert: X509Certificate, origin: string, pinned: string | null, now = Date.now()): void {
  const from = new Date(Date.parse(cert.validFrom));
  const to = new Date(Date.parse(cert.validTo));
  if (now > to.getTime()) {
    throw new ConnectError('expired', `The team server's certificate expired on ${day(to)}. Ask your administrator to renew it (Settings → Team server); this computer will not connect until then.`);
  }
  if (now < from.getTime()) {
    throw new ConnectError('not_yet_valid', `The team server's certificate is not valid before ${day(from)}. Check this computer's clock and the server's.`);
  }
  const name = serverHost(origin);
  const names = isIP(name) ? cert.checkIP(name) : cert.checkHost(name);
  if (names === undefined) {
    const listed = (cert.subjectAltName ?? '').replace(/IP Address:|DNS:/g, '').trim() || 'no names';
    throw new ConnectError('name_mismatch', `The team server's certificate is for ${listed}, not ${name}. Use the address shown under Settings → Team server.`);
  }
  if (pinned !== null && cert.fingerprint256 !== pinned) throw new ConnectError('changed', CHANGED_MESSAGE);
}

interface Looked {
  cert: X509Certificate;
  version: string;
}

/** One HTTPS request for /api/health, the certificate taken from the connection that answered it. */
function look(origin: string, timeoutMs: number): Promise<Looked> {
  const name = serverHost(origin);
  return new Promise((resolve, reject) => {
    let cert: X509Certificate | undefined;
    const req = request(
      `${origin}/api/health`,
      {
        method: 'GET',
        headers: { Accept: 'application/json' },
        agent: false,
        // Judged by judgeCertificate (pin, dates, name), not by this computer's list of authorities:
        // a team server's certificate is usually its own.
        rejectUnauthorized: false,
        ...(isIP(name) ? {} : { servername: name }),
        timeout: timeoutMs,
      },
      (res) => {
        cert ??= (res.socket as TLSSocket).getPeerX509Certificate();
        let size = 0;
        const parts: Buffer[] = [];
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_HEALTH_BYTES) req.destroy(new ConnectError('not_console', `${origin} answers, but not as a Compliance Console team server.`));
          else parts.push(chunk);
        });
        res.on('end', () => {
          if (cert === undefined) return reject(new ConnectError('tls', `${origin} presented no certificate.`));
          let health: Health;
          try {
            health = Health.parse(JSON.parse(Buffer.concat(parts).toString('utf8')));
          } catch {
            return reject(new ConnectError('not_console', `${origin} answers, but not as a Compliance Console team server (HTTP ${res.statusCode}).`));
          }
          resolve({ cert, version: health.version });
        });
      },
    );
    req.on('socket', (socket) => {
      socket.once('secureConnect', () => {
        cert = (socket as TLSSocket).getPeerX509Certificate();
      });
    });
    req.on('timeout', () => req.destroy(new ConnectError('unreachable', `${origin} did not answer within ${Math.round(timeoutMs / 1000)} seconds.`)));
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error instanceof ConnectError) return reject(error);
      const code = error.code ?? '';
      if (['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'ECONNRESET'].includes(code) && cert === undefined) {
        const why = code === 'ECONNREFUSED' ? 'nothing is listening there' : code === 'ENOTFOUND' || code === 'EAI_AGAIN' ? 'that name is not known on this network' : 'the network did not reach it';
        return reject(new ConnectError('unreachable', `Cannot reach ${origin}: ${why}. Check the address, and that the team server is running (Settings → Team server on the server).`));
      }
      reject(new ConnectError('tls', `${origin} did not complete a secure connection (${code || error.message}). Check that the address is the team server's https address.`));
    });
    req.end();
  });
}

export interface ProbeOptions {
  /** The fingerprint pinned here for this server, if any. */
  pinned: string | null;
  now?: number;
  timeoutMs?: number;
}

/** Looks at a team server before trusting it: reachable, a Compliance Console service, a sound certificate; and how it compares with the pin. */
export async function probeTeamServer(rawUrl: string, o: ProbeOptions): Promise<ProbeResult> {
  try {
    const serverUrl = teamServerOrigin(rawUrl);
    const seen = await look(serverUrl, o.timeoutMs ?? PROBE_TIMEOUT_MS);
    judgeCertificate(seen.cert, serverUrl, null, o.now);
    const fingerprint = seen.cert.fingerprint256;
    const identity: TeamServerIdentity = {
      serverUrl,
      fingerprint,
      subject: /(?:^|\n)CN=([^\n]*)/.exec(seen.cert.subject)?.[1] ?? seen.cert.subject,
      validTo: new Date(Date.parse(seen.cert.validTo)).toISOString(),
      version: seen.version,
      pin: o.pinned === null ? 'new' : o.pinned === fingerprint ? 'same' : 'changed',
      pinnedFingerprint: o.pinned,
    };
    return { ok: true, ...identity };
  } catch (error) {
    if (error instanceof ConnectError) return { ok: false, ...error.refusal() };
    throw error;
  }
}

/** The pin kept for the server a person typed: only the one server this computer connects to has one. */
export function pinFor(current: ShellConnection | null, typed: string): string | null {
  if (current?.mode !== 'team') return null;
  try {
    return teamServerOrigin(typed) === current.serverUrl ? current.fingerprint : null;
  } catch {
    return null;
  }
}

/**
 * Connects: looks at the server again (never trusting the page's word for what it presents),
 * requires the certificate the person accepted, and, when it is not the pinned one, the new
 * fingerprint as an administrator read it out. On success the new connection is written.
 */
export async function connectTeamServer(file: string, req: ConnectRequest, o: { now?: number; timeoutMs?: number } = {}): Promise<ConnectResult> {
  let serverUrl: string;
  try {
    serverUrl = teamServerOrigin(req.serverUrl);
  } catch (error) {
    if (error instanceof ConnectError) return { ok: false, ...error.refusal() };
    throw error;
  }
  const current = readConnection(file);
  const seen = await probeTeamServer(serverUrl, { pinned: pinFor(current, serverUrl), ...o });
  if (!seen.ok) return seen;
  if (normaliseFingerprint(req.fingerprint) !== seen.fingerprint) {
    return { ok: false, problem: 'changed', message: "The team server now presents another certificate than the one shown. Look at it again before connecting." };
  }
  if (seen.pin === 'changed') {
    const confirmed = normaliseFingerprint(req.confirmation ?? '');
    if (confirmed !== seen.fingerprint) {
      return {
        ok: false,
        problem: 'wrong_fingerprint',
        message:
          confirmed === null
            ? "Type the new fingerprint as your administrator reads it from Settings → Team server (64 hexadecimal characters)."
            : "That is not the fingerprint this server presents. Do not connect: ask your administrator, who sees the server's fingerprint under Settings → Team server.",
      };
    }
  }
  writeConnection(file, { mode: 'team', serverUrl, fingerprint: seen.fingerprint });
  return { ok: true };
}

/** The certificate check Electron's window makes for each connection to the team server: the same rule. */
export function verifyTeamCertificate(pem: string, connection: { serverUrl: string; fingerprint: string }, now = Date.now()): ConnectRefusal | null {
  try {
    judgeCertificate(new X509Certificate(pem), connection.serverUrl, connection.fingerprint, now);
    return null;
  } catch (error) {
    if (error instanceof ConnectError) return error.refusal();
    return { problem: 'tls', message: 'The team server presented a certificate this computer cannot read.' };
  }
}

export type TeamConnection = Extract<ShellConnection, { mode: 'team' }>;

/** What the shell shows: the connect page (and why), this computer's service, or the team server's console. */
export type StartupPlan = { open: 'connect'; refusal: ConnectState['refusal'] } | { open: 'local' } | { open: 'team'; team: TeamConnection };

/**
 * At start and after connecting: nothing chosen yet asks; this computer runs its service; a team
 * server is opened only while it still presents the pinned certificate and is sound, otherwise
 * the connect page says why (a changed certificate with both fingerprints).
 */
export async function startupPlan(file: string, o: { now?: number; timeoutMs?: number } = {}): Promise<StartupPlan> {
  const connection = readConnection(file);
  if (connection === null) return { open: 'connect', refusal: null };
  if (connection.mode === 'local') return { open: 'local' };
  const seen = await probeTeamServer(connection.serverUrl, { pinned: connection.fingerprint, ...o });
  if (!seen.ok) return { open: 'connect', refusal: { problem: seen.problem, message: seen.message } };
  if (seen.pin !== 'same') {
    const { ok: _ok, ...server } = seen;
    return { open: 'connect', refusal: { problem: 'changed', message: CHANGED_MESSAGE, server } };
  }
  return { open: 'team', team: connection };
}

/** The connect page's four questions, answered for the connection file (the shell adds the windows). */
export function connectAnswers(file: string, refusal: () => ConnectState['refusal']) {
  return {
    state: (): ConnectState => ({ current: readConnection(file), refusal: refusal() }),
    probe: (serverUrl: string): Promise<ProbeResult> => probeTeamServer(serverUrl, { pinned: pinFor(readConnection(file), serverUrl) }),
    connect: (request: ConnectRequest): Promise<ConnectResult> => connectTeamServer(file, request),
    runLocally: (): void => writeConnection(file, { mode: 'local' }),
  };
}
