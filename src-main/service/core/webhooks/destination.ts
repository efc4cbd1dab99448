// Where a webhook may be delivered (issue 39, item 4). A delivery is a request the service makes
// on a customer's behalf, so without a rule its delivery log would answer "is anything listening
// on 10.0.0.7:22?" for whoever can add an endpoint. Refused, unless the organisation's owner named
// the host as an on-premises receiver: loopback (127/8, ::1, `localhost` and its subdomains), link-
// local (169.254/16 with the cloud metadata address, fe80::/10), private (10/8, 172.16/12,
// 192.168/16, fc00::/7), shared (100.64/10), "this network" (0/8, ::), multicast, reserved and
// broadcast ranges, IPv4 written inside IPv6 (::ffff:a.b.c.d, 64:ff9b::/96), and every address of
// this computer's own interfaces (the service itself, the team server). Checked when an endpoint
// is added (an address written in the URL) and again at every delivery on the addresses the name
// resolves to, in the lookup of the connection itself, so DNS cannot answer one address to the
// check and another to the connection. Redirects are never followed (a 3xx is a failed attempt).
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, isIPv4 } from 'node:net';
import { networkInterfaces } from 'node:os';

export type RefusedRange = 'loopback' | 'link_local' | 'private' | 'unspecified' | 'multicast' | 'reserved' | 'this_computer';

const V4_RANGES: [number, number, RefusedRange][] = [
  [v4('0.0.0.0'), 8, 'unspecified'],
  [v4('10.0.0.0'), 8, 'private'],
  [v4('100.64.0.0'), 10, 'private'],
  [v4('127.0.0.0'), 8, 'loopback'],
  [v4('169.254.0.0'), 16, 'link_local'],
  [v4('172.16.0.0'), 12, 'private'],
  [v4('192.0.0.0'), 24, 'reserved'],
  [v4('192.168.0.0'), 16, 'private'],
  [v4('198.18.0.0'), 15, 'reserved'],
  [v4('224.0.0.0'), 4, 'multicast'],
  [v4('240.0.0.0'), 4, 'reserved'],
];

function v4(a: string): number {
  return a.split('.').reduce((n, o) => n * 256 + Number(o), 0);
}

/** An IPv6 address as eight 16-bit groups (an embedded dotted IPv4 as its two groups). */
function groups6(a: string): number[] {
  let s = a.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (dotted) {
    const n = v4(dotted[1]!);
    s = `${s.slice(0, -dotted[1]!.length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = s.split('::') as [string, string | undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : Array<string>(8 - h.length - t.length).fill('0');
  return [...h, ...fill, ...t].map((g) => parseInt(g, 16));
}

/** Why an address may not be delivered to, or null when it may. `own`: this computer's addresses. */
export function refusedRange(address: string, own: ReadonlySet<string> = ownAddresses()): RefusedRange | null {
  const bare = address.replace(/^\[|\]$/g, '');
  const range = rangeOf(bare, own);
  return range ?? (own.has(bare.toLowerCase()) ? 'this_computer' : null);
}

/** The refused range an address is in (the most telling name first: a loopback address is loopback, not "this computer's"). */
function rangeOf(bare: string, own: ReadonlySet<string>): RefusedRange | null {
  if (isIPv4(bare)) {
    const n = v4(bare);
    if (n === 0xffffffff) return 'reserved';
    for (const [base, bits, range] of V4_RANGES) if (Math.floor(n / 2 ** (32 - bits)) === Math.floor(base / 2 ** (32 - bits))) return range;
    return null;
  }
  if (isIP(bare) !== 6) return 'reserved';
  const g = groups6(bare);
  if (g.every((x) => x === 0)) return 'unspecified';
  if (g.slice(0, 7).every((x) => x === 0) && g[7] === 1) return 'loopback';
  // IPv4 inside IPv6: mapped (::ffff:0:0/96), compatible (::/96) and NAT64 (64:ff9b::/96) are their IPv4.
  const embedded = `${g[6]! >>> 8}.${g[6]! & 255}.${g[7]! >>> 8}.${g[7]! & 255}`;
  if (g.slice(0, 5).every((x) => x === 0) && (g[5] === 0xffff || g[5] === 0)) return refusedRange(embedded, own);
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return refusedRange(embedded, own);
  if ((g[0]! & 0xffc0) === 0xfe80) return 'link_local';
  if ((g[0]! & 0xfe00) === 0xfc00) return 'private';
  if ((g[0]! & 0xff00) === 0xff00) return 'multicast';
  return null;
}

/** Every address of this computer's interfaces, lower-case (the service and the team server listen on some). */
export function ownAddresses(): Set<string> {
  const out = new Set<string>();
  for (const addrs of Object.values(networkInterfaces())) for (const a of addrs ?? []) out.add(a.address.toLowerCase());
  return out;
}

/** The host of a URL as the allow-list names it: lower-case, an IPv6 address without brackets. */
export function hostOf(url: string): string {
  return new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, '');
}

/**
 * Why a URL's own host may not be added as a webhook endpoint, or null: an address written in it
 * (in any spelling the URL parser reads: 2130706433, 0x7f.1, [::ffff:7f00:1]) or a loopback name.
 * A DNS name is checked at delivery, on what it resolves to. `allowed`: the owner's named hosts.
 */
export function refusedHost(url: string, allowed: readonly string[]): RefusedRange | null {
  const host = hostOf(url);
  if (allowed.includes(host)) return null;
  if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback';
  return isIP(host) ? refusedRange(host) : null;
}

export const RANGE_WORDS: Record<RefusedRange, string> = {
  loopback: 'a loopback address (this computer)',
  link_local: 'a link-local address',
  private: 'a private network address',
  unspecified: 'an unspecified address',
  multicast: 'a multicast address',
  reserved: 'a reserved address',
  this_computer: 'one of this computer\'s own addresses',
};

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
export type Resolve = (host: string, cb: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

const systemResolve: Resolve = (host, cb) => dnsLookup(host, { all: true }, cb);

/**
 * A `lookup` for http(s).request that refuses a name resolving to any refused address (unless the
 * owner named the host): the connection is made only to addresses this check has seen.
 */
export function guardedLookup(allowed: readonly string[], resolve: Resolve = systemResolve) {
  return (host: string, options: { all?: boolean }, cb: LookupCallback): void => {
    resolve(host, (err, addresses) => {
      if (err) return cb(err, '', 0);
      const named = allowed.includes(host.toLowerCase().replace(/^\[|\]$/g, ''));
      const own = ownAddresses();
      for (const a of addresses) {
        const range = named ? null : refusedRange(a.address, own);
        if (range) {
          const e = new Error(`destination refused: ${host} resolves to ${RANGE_WORDS[range]}`) as NodeJS.ErrnoException;
          e.code = 'EDESTINATION';
          return cb(e, '', 0);
        }
      }
      if (addresses.length === 0) return cb(Object.assign(new Error(`no address for ${host}`), { code: 'ENOTFOUND' }), '', 0);
      if (options.all) return cb(null, addresses);
      return cb(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}
