// A reverse proxy in front of the service (`--trust-proxy ADDRESS[,ADDRESS]`, off by default;
// issue 39). A request whose socket comes from one of those addresses and carries
// X-Forwarded-For was sent on by the proxy for someone on the network: its client is the last
// address in X-Forwarded-For that is not itself a trusted proxy (the ones before it are whatever
// the client wrote), its scheme X-Forwarded-Proto's last value, and its name X-Forwarded-Host's
// (or Host, which most proxies pass on). Such a request is never this computer's (first run and
// the desktop sign-in are refused), gets Secure cookies and HSTS when the proxy took it over
// HTTPS, and cookie writes only from the public URL's own origin. Without the flag, or from any
// other address, the forwarding headers are ignored: anyone can write them.
import { isIP } from 'node:net';
import type { Context } from 'hono';
import type { AppEnv } from './types';

/** What the proxy said of a request it passed on. */
export interface Forwarded {
  /** The client's address, as the proxy saw it. */
  address: string;
  https: boolean;
  /** The name the client asked for (lower-case host[:port]); null when the proxy passed none. */
  host: string | null;
  /** The only origin cookie writes are taken from: the public URL's (null: none set, writes refused). */
  origin: string | null;
}

/** The addresses `--trust-proxy` names: IP addresses, comma-separated; `loopback` for a proxy on this computer. */
export function parseTrustProxy(value: string): string[] {
  const out: string[] = [];
  for (const part of value.split(',').map((p) => p.trim()).filter(Boolean)) {
    if (part === 'loopback') out.push('127.0.0.1', '::1');
    else if (isIP(plain(part)) !== 0) out.push(plain(part));
    else throw new Error(`--trust-proxy takes the proxy's IP addresses (or "loopback"), comma-separated; "${part}" is not one`);
  }
  if (out.length === 0) throw new Error('--trust-proxy needs the proxy\'s address, e.g. --trust-proxy 10.0.0.5 or --trust-proxy loopback');
  return out;
}

/** An IPv4 address written inside IPv6 (::ffff:a.b.c.d), as IPv4. */
function plain(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

/** The last value of a header a chain of proxies appends to. */
function last(header: string | undefined): string | null {
  const v = header?.split(',').at(-1)?.trim();
  return v ? v : null;
}

/**
 * Reads what a trusted proxy forwarded, or null: `trusted` empty (the flag off), the socket from
 * another address, or no X-Forwarded-For (a request of this computer's own, past the proxy).
 */
export function forwardedBy(c: Context<AppEnv>, trusted: ReadonlySet<string>, publicUrl: () => string | null): Forwarded | null {
  if (trusted.size === 0) return null;
  const peer = c.env?.incoming?.socket?.remoteAddress;
  if (peer === undefined || !trusted.has(plain(peer))) return null;
  const chain = c.req.header('x-forwarded-for');
  if (chain === undefined) return null;
  const hops = chain.split(',').map((h) => plain(h.trim()));
  let address = plain(peer);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!;
    if (isIP(hop) === 0) break;
    address = hop;
    if (!trusted.has(hop)) break;
  }
  const pub = publicUrl();
  return {
    address,
    https: last(c.req.header('x-forwarded-proto'))?.toLowerCase() === 'https',
    host: (last(c.req.header('x-forwarded-host')) ?? c.req.header('host') ?? null)?.toLowerCase() ?? null,
    origin: pub === null ? null : new URL(pub).origin,
  };
}
