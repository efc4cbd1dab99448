// Where the links this service hands out point (issue 25): hosted-session URLs and their QR codes,
// published flows' URLs, the age gate's script tag. Always an origin the service was configured
// with, never one a request names (its Host header is the client's to set: a link built from it
// could send a person's verification to another server). In order: the on-site server's address
// while it runs (hosted pages only: it serves nothing else), the public URL given at start
// (`--public-url`), else the loopback listener's own address as it bound it.

/** `--public-url`: an http(s) origin only (no path, query, fragment or credentials); its canonical form. */
export function parsePublicUrl(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new Error('--public-url must be an absolute URL such as https://verify.example.com');
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error('--public-url must use https (or http)');
  if (u.username || u.password || u.search || u.hash || (u.pathname !== '/' && u.pathname !== '')) {
    throw new Error('--public-url must be an origin only: scheme, host and port, no path, query or credentials');
  }
  return u.origin;
}

export function createPublicOrigin(opts: { publicUrl?: string; onsite: () => string | null }) {
  const configured = opts.publicUrl === undefined ? null : parsePublicUrl(opts.publicUrl);
  let loopback: string | null = null;
  const service = (): string => {
    const o = configured ?? loopback;
    // Only a service that never listened (a script composing it) can get here; it makes no links.
    if (o === null) throw new Error('The service\'s origin is not known yet: it is not listening');
    return o;
  };
  return {
    /** The loopback listener's address as it bound it (main.ts; the test harness gives its own). */
    listening(url: string): void {
      loopback = new URL(url).origin;
    },
    /** Hosted pages (sessions, published flows, their QR codes): the on-site server while it runs, else the service's. */
    hosted: (): string => opts.onsite() ?? service(),
    /** What only the loopback listener (or the public URL in front of it) serves: the storefront widget's script. */
    service,
  };
}
export type PublicOrigin = ReturnType<typeof createPublicOrigin>;
