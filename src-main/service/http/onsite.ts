// The on-site server: a second listener, HTTPS with a certificate made on first use, bound to one
// chosen local address, off by default. It answers only the hosted page and the calls that page
// makes (a published flow's page and its start call too); everything else (API-key, session and
// console routes, health, the console itself) is 404 there, decided before any route runs.
// Started or stopped from the console, that choice is kept (core/onsite/setting.ts): a service
// that stops while it runs starts it again at its next start (`resume`).
import { createServer as createHttpsServer } from 'node:https';
import type { Server } from 'node:http';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import type { OnsiteStatus } from '../../../src-shared/contracts/onsite';
import { AppError } from '../../../src-shared/errors';
import { ensureCertificate, type OnsiteCertificate } from '../core/onsite/certificate';
import type { OnsiteSettingStore } from '../core/onsite/setting';
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

type Fetch = (req: Request) => Response | Promise<Response>;

export function createOnsite(opts: { dataDir: string; log: (m: string, f?: Record<string, string | number>) => void; setting?: OnsiteSettingStore }) {
  let fetch: Fetch | null = null;
  let running: { server: Server; host: string; port: number; cert: OnsiteCertificate } | null = null;

  const handler: Fetch = (req) => {
    const { pathname } = new URL(req.url);
    if (!fetch || !onsiteAllows(req.method, pathname)) return NOT_FOUND();
    return fetch(req);
  };

  async function stop(): Promise<void> {
    const r = running;
    running = null;
    if (!r) return;
    await new Promise<void>((resolve) => {
      r.server.close(() => resolve());
      (r.server as Server & { closeAllConnections?: () => void }).closeAllConnections?.();
    });
    opts.log('onsite_stopped');
  }

  const status = (): OnsiteStatus => ({
    running: running !== null,
    url: running ? `https://${running.host}:${running.port}` : null,
    host: running?.host ?? null,
    port: running?.port ?? null,
    fingerprint: running?.cert.fingerprint ?? null,
    certificate_expires_at: running?.cert.notAfter ?? null,
    interfaces: onsiteInterfaces(),
  });

  async function listen(host: string, port: number): Promise<OnsiteStatus> {
    if (!onsiteInterfaces().some((i) => i.address === host)) {
      throw new AppError('invalid_parameters', { message: 'host must be one of this computer\'s addresses', fields: [{ field: 'host', issue: 'not_local' }] });
    }
    await stop();
    const cert = await ensureCertificate(join(opts.dataDir, 'onsite'), host);
    const server = createListener(handler, { createServer: createHttpsServer, serverOptions: { key: cert.key, cert: cert.cert } });
    const bound = await listenOn(server, host, port).catch((e: NodeJS.ErrnoException) => {
      throw new AppError('conflict', { message: e.code === 'EADDRINUSE' ? `Port ${port} is in use on ${host}. Choose another port.` : `The on-site server could not start (${e.code ?? 'error'}).` });
    });
    running = { server, host, port: bound, cert };
    opts.log('onsite_started', { host, port: bound });
    return status();
  }

  return {
    /** The service's own fetch (the app), which allowed requests go on to. */
    attach(f: Fetch): void {
      fetch = f;
    },
    status,
    /** The origin hosted URLs use while the server runs (for QR codes a device on site can open). */
    origin: (): string | null => (running ? `https://${running.host}:${running.port}` : null),
    /** Started from the console: kept as on, with the port it bound (so the links and QR codes stay the same after a restart). */
    async start(host: string, port: number): Promise<OnsiteStatus> {
      const st = await listen(host, port);
      opts.setting?.started(host, st.port!);
      return st;
    },
    /**
     * At the service's start: the server again when it was left running. An address no longer on
     * this computer or a port now taken is logged and leaves it stopped (still on, for the next
     * start); the service starts either way.
     */
    async resume(): Promise<OnsiteStatus> {
      const kept = opts.setting?.get();
      if (!kept?.running) return status();
      try {
        return await listen(kept.host, kept.port);
      } catch (e) {
        const reason = e instanceof AppError ? (e.details.fields?.[0]?.issue ?? e.code) : 'error';
        opts.log('onsite_resume_failed', { host: kept.host, port: kept.port, reason });
        return status();
      }
    },
    /** Stopped from the console: kept as off. */
    stop: async (): Promise<OnsiteStatus> => {
      opts.setting?.stopped();
      await stop();
      return status();
    },
    /** The service stopping: the server closes, its setting stays as it was. */
    close: stop,
  };
}
export type Onsite = ReturnType<typeof createOnsite>;
