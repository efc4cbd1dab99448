// Links that reach (issue 26): where the links, QR codes and script tags the service hands out can
// be opened, and the installation's public URL that decides it. One rule for a public URL, used by
// the `--public-url` start flag (core/public-origin.ts) and by the console's setting alike.
import { z } from 'zod';

/**
 * How far a link reaches: `public` (the public URL: a proxy or tunnel in front of this service,
 * reachable wherever its operator made it), `team` (the team server: the team's network, over
 * HTTPS), `onsite` (the on-site server: devices on this computer's network), `this_computer` (a
 * loopback address: a phone scanning it opens itself).
 */
export const LINK_REACHES = ['public', 'team', 'onsite', 'this_computer'] as const;
export const LinkReach = z.enum(LINK_REACHES);
export type LinkReach = z.infer<typeof LinkReach>;

export type PublicUrlIssue = 'not_a_url' | 'scheme' | 'not_an_origin';

/** The longest public URL taken (an origin is far shorter; the bound keeps a pasted page out). */
export const PUBLIC_URL_MAX = 2048;

/**
 * A public URL: an absolute http(s) origin only, no path, query, fragment or credentials. Answers
 * its canonical form (`https://verify.example.com`), or why it is refused.
 */
export function checkPublicUrl(raw: string): { ok: true; origin: string } | { ok: false; issue: PublicUrlIssue; message: string } {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return { ok: false, issue: 'not_a_url', message: 'must be an absolute URL such as https://verify.example.com' };
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return { ok: false, issue: 'scheme', message: 'must use https (or http)' };
  if (u.username || u.password || u.search || u.hash || (u.pathname !== '/' && u.pathname !== '')) {
    return { ok: false, issue: 'not_an_origin', message: 'must be an origin only: scheme, host and port, no path, query or credentials' };
  }
  return { ok: true, origin: u.origin };
}

/** The same rule as a zod field: refused with `issue` in the field's error, accepted as its canonical origin. */
export const PublicUrl = z
  .string()
  .trim()
  .min(1)
  .max(PUBLIC_URL_MAX)
  .transform((raw, ctx) => {
    const r = checkPublicUrl(raw);
    if (r.ok) return r.origin;
    ctx.addIssue({ code: 'custom', message: r.message, params: { issue: r.issue } });
    return z.NEVER;
  });

/** An origin links are built on, and how far they reach. */
export const LinkOrigin = z.object({ origin: z.string(), link_reach: LinkReach });
export type LinkOrigin = z.infer<typeof LinkOrigin>;

/**
 * GET/PUT /api/settings/public-url. The installation's public URL as set in the console, the one
 * given at start (`--public-url`, the operator's, which wins: the setting then shows as
 * overridden), and where each kind of link points now.
 */
export const PublicUrlSettings = z.object({
  /** Saved in the console's Settings (null: none). */
  public_url: z.string().nullable(),
  /** Given at start with `--public-url` (null: none). When both are given this one is used. */
  start_url: z.string().nullable(),
  /** The saved setting is not used because the service was started with `--public-url`. */
  overridden: z.boolean(),
  /** Hosted sessions, published flows and their QR codes (the on-site server's address while it runs). */
  hosted: LinkOrigin,
  /** The storefront age gate's script tag (never the on-site server: it does not serve the widget). */
  widget: LinkOrigin,
});
export type PublicUrlSettings = z.infer<typeof PublicUrlSettings>;

/** Sets the public URL, or clears it with null. */
export const UpdatePublicUrlRequest = z.object({ public_url: PublicUrl.nullable() }).strict();
export type UpdatePublicUrlRequest = z.input<typeof UpdatePublicUrlRequest>;
