// The service's listeners (the loopback one and the on-site HTTPS one), made and bound here, with
// their timeouts (LISTENER_TIMEOUTS): a client must finish its headers within 20 s and its whole
// request within 120 s, and an idle kept-alive connection is closed after 5 s. Bodies also have a
// pace of their own (body.ts BODY_PACE), checked as they arrive. Without these, a socket that
// trickles a byte now and then is held open for as long as its sender likes.
import type { Server, ServerOptions } from 'node:http';
import { createAdaptorServer } from '@hono/node-server';

export interface ListenerTimeouts {
  headersTimeout: number;
  requestTimeout: number;
  keepAliveTimeout: number;
  /** How often Node looks for connections past the first two limits. */
  connectionsCheckingInterval: number;
}

export const LISTENER_TIMEOUTS: ListenerTimeouts = {
  headersTimeout: 20_000,
  requestTimeout: 120_000,
  keepAliveTimeout: 5_000,
  connectionsCheckingInterval: 2_000,
};

type AdaptorOptions = Parameters<typeof createAdaptorServer>[0];

/** A listener for `fetch` with the timeouts (an HTTPS one when `createServer` and its options are given). */
export function createListener(
  fetch: AdaptorOptions['fetch'],
  o: { timeouts?: Partial<ListenerTimeouts>; createServer?: (...args: never[]) => unknown; serverOptions?: ServerOptions & Record<string, unknown> } = {},
): Server {
  const timeouts = { ...LISTENER_TIMEOUTS, ...o.timeouts };
  const options = { fetch, ...(o.createServer ? { createServer: o.createServer } : {}), serverOptions: { ...o.serverOptions, ...timeouts } };
  const server = createAdaptorServer(options as AdaptorOptions) as unknown as Server;
  // Older Node versions read these from the server, not the options.
  server.headersTimeout = timeouts.headersTimeout;
  server.requestTimeout = timeouts.requestTimeout;
  server.keepAliveTimeout = timeouts.keepAliveTimeout;
  return server;
}

/** Listens on `host:port` (0: any free port); resolves with the port bound, rejects with the listen error (EADDRINUSE...). */
export function listenOn(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}
