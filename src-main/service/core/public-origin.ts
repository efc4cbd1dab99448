// Where the links this service hands out point (issue 25): hosted-session URLs and their QR codes,
// published flows' URLs, the age gate's script tag, the console's own links (an invitation's
// acceptance, the plan screen). Always an origin the service was configured with, never one a
// request names (its Host header is the client's to set: a link built from it could send a
// person's verification to another server). In order: the on-site server's address while it runs
// (hosted pages only: it serves nothing else), the public URL given at start (`--public-url`, the
// operator's), the public URL an owner or admin saved in Settings (issue 26), the team server's
// address while it runs (issue 39), else the loopback listener's own address as it bound it. Each
// link says how far it reaches (issue 26). The console's own links (an invitation, the plan
// screen) go to the team server while it runs: a colleague at another desk opens them.
import { checkPublicUrl, type LinkOrigin, type LinkReach } from '../../../src-shared/contracts/links';

/** `--public-url`: the shared rule (an http(s) origin only); its canonical form, or an error naming the flag. */
export function parsePublicUrl(raw: string): string {
  const r = checkPublicUrl(raw);
  if (!r.ok) throw new Error(`--public-url ${r.message}`);
  return r.origin;
}

/** Names that only ever reach this computer, whatever else is configured. */
const LOOPBACK = /^(127(\.\d{1,3}){3}|localhost|\[::1\])$/i;

export function createPublicOrigin(opts: { publicUrl?: string; onsite: () => string | null; setting?: () => string | null; team?: () => string | null }) {
  const configured = opts.publicUrl === undefined ? null : parsePublicUrl(opts.publicUrl);
  const saved = opts.setting ?? (() => null);
  let loopback: string | null = null;
  const own = (): string => {
    // Only a service that never listened (a script composing it) can get here; it makes no links.
    if (loopback === null) throw new Error('The service\'s origin is not known yet: it is not listening');
    return loopback;
  };
  /** A loopback name reaches this computer only, even as a public URL or the on-site address. */
  const reachOf = (origin: string, otherwise: LinkReach): LinkReach => (LOOPBACK.test(new URL(origin).hostname) ? 'this_computer' : otherwise);
  const team = opts.team ?? (() => null);
  /** The service's own address: the team server while it runs, else the loopback listener. */
  const home = (): LinkOrigin => {
    const t = team();
    return t !== null ? { origin: t, link_reach: reachOf(t, 'team') } : { origin: own(), link_reach: 'this_computer' };
  };
  const service = (): LinkOrigin => {
    const pub = configured ?? saved();
    return pub !== null ? { origin: pub, link_reach: reachOf(pub, 'public') } : home();
  };
  return {
    /** The loopback listener's address as it bound it (main.ts; the test harness gives its own). */
    listening(url: string): void {
      loopback = new URL(url).origin;
    },
    /** Hosted pages (sessions, published flows, their QR codes): the on-site server while it runs, else the service's. */
    hosted: (): LinkOrigin => {
      const onsite = opts.onsite();
      return onsite !== null ? { origin: onsite, link_reach: reachOf(onsite, 'onsite') } : service();
    },
    /** What only the loopback listener (or the public URL in front of it) serves: the storefront widget's script. */
    service,
    /**
     * The console's own links (an invitation's acceptance, `upgrade_url`): the team server while it
     * runs, else the loopback listener's address; never the public URL, since the console takes
     * cookie writes only on its listeners' own names (DNS rebinding, auth.ts sameOrigin).
     */
    console: home,
    /** The public URL given at start, null without `--public-url`: it wins over the saved setting. */
    startUrl: (): string | null => configured,
  };
}
export type PublicOrigin = ReturnType<typeof createPublicOrigin>;
