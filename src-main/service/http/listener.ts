// The service's listeners (the loopback one and the on-site HTTPS one) with their timeouts: a
// client must finish its headers within HEADERS_MS and its whole request within REQUEST_MS, and
// an idle kept-alive connection is closed after KEEP_ALIVE_MS. Bodies also have a pace of their
// own (body.ts BODY_PACE), checked as they arrive. Without these, a socket that trickles a byte
// now and then is held open for as long as its sender likes.
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
