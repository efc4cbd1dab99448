// The shape of `window.shell`, the only thing the Electron preload exposes to the console.
// Written once here: the preload implements it, the console consumes it (and falls back to
// plain browser behaviour when it is absent, as in Chromium e2e and `npm run serve`).

export interface SaveFileFilter {
  name: string;
  extensions: string[];
}

export interface SaveFileOptions {
  defaultName: string;
  content: string | Uint8Array;
  filters?: SaveFileFilter[];
}

export interface SaveFileResult {
  saved: boolean;
  path?: string;
}

export interface ShellBridge {
  /** `http://127.0.0.1:PORT` or the team server's `https://host:port` (no trailing slash): the origin the console was loaded from. */
  readonly serviceUrl: string;
  /** This computer's service, or the team server and the certificate fingerprint pinned for it. */
  readonly connection: ShellConnection;
  /** The one-time login token for POST /api/auth/token; null after the first call (always null on a team server). */
  takeLoginToken(): Promise<string | null>;
  /** Shows a save dialog and writes the content in the main process. */
  saveFile(options: SaveFileOptions): Promise<SaveFileResult>;
  /** Opens an http(s) URL in the OS browser; rejects for any other scheme. */
  openExternal(url: string): Promise<void>;
  appVersion(): Promise<string>;
  /** Closes the console and shows "Run on this computer or connect to my team's server" again. */
  chooseServer(): Promise<void>;
}

/**
 * How this desktop app reaches its service (issue 39): its own service on this computer, or a
 * team server over HTTPS whose certificate fingerprint was checked on first connection and pinned.
 * This (in `<userData>/connection.json`) is all a member's computer keeps of a team server.
 */
export type ShellConnection = { mode: 'local' } | { mode: 'team'; serverUrl: string; fingerprint: string };

/** Why a team server was not connected to; each comes with a sentence for the person at the desk. */
export type ConnectProblem =
  | 'url'
  | 'unreachable'
  | 'tls'
  | 'expired'
  | 'not_yet_valid'
  | 'name_mismatch'
  | 'not_console'
  | 'changed'
  | 'wrong_fingerprint';

export interface ConnectRefusal {
  problem: ConnectProblem;
  message: string;
}

/** What a team server presented when this computer looked at it. */
export interface TeamServerIdentity {
  /** `https://host:port`, no trailing slash. */
  serverUrl: string;
  /** SHA-256 of its certificate, upper-case hex pairs joined by colons (as Settings → Team server shows it). */
  fingerprint: string;
  /** The certificate's subject common name. */
  subject: string;
  /** ISO date the certificate expires. */
  validTo: string;
  /** The service's version, from its /api/health. */
  version: string;
  /** `new`: no pin here yet; `same`: the pinned certificate; `changed`: not the pinned one. */
  pin: 'new' | 'same' | 'changed';
  /** The fingerprint pinned on this computer for this server, if any. */
  pinnedFingerprint: string | null;
}

export type ProbeResult = ({ ok: true } & TeamServerIdentity) | ({ ok: false } & ConnectRefusal);

export interface ConnectRequest {
  serverUrl: string;
  /** The fingerprint the person was shown and accepted; the shell checks the server still presents it. */
  fingerprint: string;
  /** When the pinned certificate changed: the new fingerprint as an administrator read it out. */
  confirmation?: string;
}

export type ConnectResult = { ok: true } | ({ ok: false } & ConnectRefusal);

export interface ConnectState {
  current: ShellConnection | null;
  /** Why this page shows instead of the console: null at first start or when the person chose to change. */
  refusal: (ConnectRefusal & { server?: TeamServerIdentity }) | null;
}

/** `window.connect`, exposed only to the shell's "Run here or connect" page (connect.html). */
export interface ConnectBridge {
  state(): Promise<ConnectState>;
  probe(serverUrl: string): Promise<ProbeResult>;
  connect(request: ConnectRequest): Promise<ConnectResult>;
  runLocally(): Promise<void>;
}
