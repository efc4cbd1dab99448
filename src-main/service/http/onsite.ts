// The service's network listeners beside the loopback one, both HTTPS on one chosen local address,
// off by default, started from the console or at start, and started again at the next start while
// they are left on (their setting, core/onsite/setting-repo.ts):
// - the on-site server answers only the hosted page and the calls that page makes (a published
//   flow's page and its start call too); everything else (API-key, session and console routes,
//   health, the console itself) is 404 there, decided before any route runs;
// - the team server (issue 39) answers everything the loopback listener does, for a team's
//   consoles on other desks; its requests carry `listener: 'team'` (cookies Secure, HSTS, the
//   CSRF check against its own origin: auth.ts).
import { createServer as createHttpsServer } from 'node:https';
import type { IncomingMessage, Server } from 'node:http';
import { X509Certificate } from 'node:crypto';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import type { OnsiteStatus } from '../../../src-shared/contracts/onsite';
import { AppError } from '../../../src-shared/errors';
import { ensureCertificate, ONSITE_CERTIFICATE, TEAM_CERTIFICATE, type CertificateUse, type ServerCertificate } from '../core/onsite/certificate';
import type { ListenerSettingStore } from '../core/onsite/setting-repo';
import { createListener, listenOn } from './listener';

/** What the LAN may reach: the hosted page, its assets, its session and completion calls, and published flows. */
const ALLOWED: { method: string; path: RegExp }[] = [
  { method: 'GET', path: /^\/hosted\/v\/[A-Za-z0-9_-]{20,100}$/ },
  { method: 'GET', path: /^\/hosted\/assets\/[A-Za-z0-9._-]+$/ },
  { method: 'GET', path: /^\/hosted\/session\/[A-Za-z0-9_-]{20,100}$/ },
  { method: 'GET', path: /^\/hosted\/logo\/[A-Za-z0-9_-]{20,100}$/ },
  { method: 'POST', path: /^\/hosted\/complete\/[A-Za-z0-9_-]{20,100}$/ },
  // A published flow: its stable page, and the page's call that starts a session from it.
  { method: 'GET', path: /^\/hosted\/f\/[A-Za-z0-9_-]{16,64}$/ },
  { method: 'POST', path: /^\/hosted\/flow\/[A-Za-z0-9_-]{16,64}\/start$/ },
];

export function onsiteAllows(method: string, path: string): boolean {
  return ALLOWED.some((a) => (a.method === method || (a.method === 'GET' && method === 'HEAD')) && a.path.test(path));
}

const NOT_FOUND = () =>
  new Response(JSON.stringify({ error: 'Not found', status: 'ERROR', code: 'NOT_FOUND' }), {
    status: 404, headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' },
  });

export function onsiteInterfaces(): OnsiteStatus['interfaces'] {
  const out: OnsiteStatus['interfaces'] = [];
  for (const [name, addrs] of Object.entries(networkInterfaces())) {
    for (const a of addrs ?? []) if (a.family === 'IPv4') out.push({ name, address: a.address, internal: a.internal });
  }
  return out;
}

/** What the app is told about a request's listener (AppEnv Bindings). */
export interface ListenerBindings {
  incoming?: IncomingMessage;
  listener?: 'team';
  /** The `host:port` names a browser may send it by (auth.ts sameOrigin): its address, its certificate's DNS names. */
  authorities?: readonly string[];
}
type Fetch = (req: Request, env?: ListenerBindings) => Response | Promise<Response>;

interface ListenerKind {
  name: 'onsite' | 'team';
  certificate: CertificateUse;
  /** Which requests it answers; absent: all. */
  allows?: (method: string, path: string) => boolean;
  /** Set on the app's bindings for each request it answers. */
  tag?: ListenerBindings['listener'];
}

export interface NetworkListenerStatus extends OnsiteStatus {
  /** The certificate served: the organisation's own (given at start), or one made on this computer. */
  certificate: 'own' | 'generated' | null;
}

function createNetworkListener(kind: ListenerKind, opts: {
  dataDir: string; log: (m: string, f?: Record<string, string | number>) => void; setting?: ListenerSettingStore; own?: ServerCertificate;
}) {
  let fetch: Fetch | null = null;
  let running: { server: Server; host: string; port: number; cert: ServerCertificate; authorities: readonly string[] } | null = null;

  // (The node server's bindings: its request and response.)
  const handler = (req: Request, env?: object): Response | Promise<Response> => {
    if (!fetch) return NOT_FOUND();
    if (kind.allows) {
      const { pathname } = new URL(req.url);
      if (!kind.allows(req.method, pathname)) return NOT_FOUND();
    }
    return fetch(req, { ...(env as ListenerBindings | undefined), ...(kind.tag ? { listener: kind.tag, authorities: running?.authorities ?? [] } : {}) });
  };

  async function stop(): Promise<void> {
    const r = running;
    running = null;
    if (!r) return;
    await new Promise<void>((resolve) => {
      r.server.close(() => resolve());
      (r.server as Server & { closeAllConnections?: () => void }).closeAllConnections?.();
    });
    opts.log(`${kind.name}_stopped`);
  }

  const status = (): NetworkListenerStatus => ({
    running: running !== null,
    url: running ? `https://${running.host}:${running.port}` : null,
    host: running?.host ?? null,
    port: running?.port ?? null,
    fingerprint: running?.cert.fingerprint ?? null,
    certificate_expires_at: running?.cert.notAfter ?? null,
    certificate: running ? (opts.own ? 'own' : 'generated') : null,
    interfaces: onsiteInterfaces(),
  });

  async function listen(host: string, port: number): Promise<NetworkListenerStatus> {
    if (!onsiteInterfaces().some((i) => i.address === host)) {
      throw new AppError('invalid_parameters', { message: 'host must be one of this computer\'s addresses', fields: [{ field: 'host', issue: 'not_local' }] });
    }
    await stop();
    const cert = opts.own ?? (await ensureCertificate(join(opts.dataDir, kind.certificate.stem), host, Date.now(), kind.certificate));
    const server = createListener(handler, { createServer: createHttpsServer, serverOptions: { key: cert.key, cert: cert.cert } });
    const what = kind.name === 'team' ? 'The team server' : 'The on-site server';
    const bound = await listenOn(server, host, port).catch((e: NodeJS.ErrnoException) => {
      throw new AppError('conflict', { message: e.code === 'EADDRINUSE' ? `Port ${port} is in use on ${host}. Choose another port.` : `${what} could not start (${e.code ?? 'error'}).` });
    });
    running = { server, host, port: bound, cert, authorities: authoritiesOf(host, bound, cert.cert) };
    opts.log(`${kind.name}_started`, { host, port: bound });
    return status();
  }

  return {
    /** The service's own fetch (the app), which allowed requests go on to. */
    attach(f: Fetch): void {
      fetch = f;
    },
    status,
    /** Its origin while it runs (the links it is used for: hosted QR codes, or all of them for the team server). */
    origin: (): string | null => (running ? `https://${running.host}:${running.port}` : null),
    /** Its `host:port` while it runs, as a browser sends it in Host and Origin. */
    authority: (): string | null => (running ? `${running.host}:${running.port}` : null),
    /** Started from the console or at start: kept as on, with the port it bound (so links stay the same after a restart). */
    async start(host: string, port: number): Promise<NetworkListenerStatus> {
      const st = await listen(host, port);
      await opts.setting?.started(host, st.port!);
      return st;
    },
    /**
     * At the service's start: the server again when it was left running. An address no longer on
     * this computer or a port now taken is logged and leaves it stopped (still on, for the next
     * start); the service starts either way.
     */
    async resume(): Promise<NetworkListenerStatus> {
      const kept = await opts.setting?.get();
      if (!kept?.running) return status();
      try {
        return await listen(kept.host, kept.port);
      } catch (e) {
        const reason = e instanceof AppError ? (e.details.fields?.[0]?.issue ?? e.code) : 'error';
        opts.log(`${kind.name}_resume_failed`, { host: kept.host, port: kept.port, reason });
        return status();
      }
    },
    /** Stopped from the console: kept as off. */
    stop: async (): Promise<NetworkListenerStatus> => {
      await opts.setting?.stopped();
      await stop();
      return status();
    },
    /** The service stopping: the server closes, its setting stays as it was. */
    close: stop,
  };
}
export type NetworkListener = ReturnType<typeof createNetworkListener>;

/**
 * The names a browser reaches a listener by, as `host:port` (and bare on 443): the address it
 * bound, and the DNS names its certificate gives (an organisation's own certificate names its
 * server; `localhost` only when the address is loopback).
 */
function authoritiesOf(host: string, port: number, pem: string): string[] {
  const names = new Set([host.toLowerCase()]);
  for (const part of (new X509Certificate(pem).subjectAltName ?? '').split(/,\s*/)) {
    const dns = /^DNS:(.+)$/.exec(part)?.[1]?.toLowerCase();
    if (dns && !dns.includes('*') && (dns !== 'localhost' || host.startsWith('127.'))) names.add(dns);
  }
  return [...names].flatMap((n) => (port === 443 ? [`${n}:${port}`, n] : [`${n}:${port}`]));
}

export function createOnsite(opts: { dataDir: string; log: (m: string, f?: Record<string, string | number>) => void; setting?: ListenerSettingStore }) {
  const l = createNetworkListener({ name: 'onsite', certificate: ONSITE_CERTIFICATE, allows: onsiteAllows }, opts);
  // Its certificate is always made here: its status does not say.
  const plain = ({ certificate: _made, ...st }: NetworkListenerStatus): OnsiteStatus => st;
  return {
    ...l,
    status: () => plain(l.status()),
    start: async (host: string, port: number) => plain(await l.start(host, port)),
    resume: async () => plain(await l.resume()),
    stop: async () => plain(await l.stop()),
  };
}
export type Onsite = ReturnType<typeof createOnsite>;

export function createTeamServer(opts: { dataDir: string; log: (m: string, f?: Record<string, string | number>) => void; setting?: ListenerSettingStore; own?: ServerCertificate }) {
  return createNetworkListener({ name: 'team', certificate: TEAM_CERTIFICATE, tag: 'team' }, opts);
}
export type TeamServer = NetworkListener;
