// Organisation settings (issue 13): the display name and logo used by hosted pages and PDF
// exports, and the data directory's size. Session-authenticated; what the spec leaves open is in
// docs/decisions.md ("Account settings and sign-in (issue 13)").
import { z } from 'zod';

/** Largest logo upload taken (bytes); larger bodies answer 413 while they stream. */
export const LOGO_MAX_UPLOAD_BYTES = 512 * 1024;
/** The stored logo is re-encoded to a PNG at most this many pixels on a side. */
export const LOGO_MAX_SIDE = 512;

export const OrganizationName = z.string().trim().min(1).max(120);

export const OrganizationLogo = z.object({
  /** Same-origin URL of the PNG (session-authenticated); changes when the logo changes. */
  url: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  size_bytes: z.number().int(),
  updated_at: z.string(),
});
export type OrganizationLogo = z.infer<typeof OrganizationLogo>;

export const OrganizationSettings = z.object({
  name: z.string(),
  logo: OrganizationLogo.nullable(),
});
export type OrganizationSettings = z.infer<typeof OrganizationSettings>;

export const UpdateOrganizationRequest = z.object({ name: OrganizationName });
export type UpdateOrganizationRequest = z.infer<typeof UpdateOrganizationRequest>;

export const DataDirectory = z.object({
  path: z.string(),
  size_bytes: z.number().int(),
  /**
   * `database`, `database_journal` (-wal, -shm: the SQLite ledger, absent when the ledger is on
   * PostgreSQL), then the folders the service writes (logs, lists, onsite, ...), then `other`.
   */
  breakdown: z.array(z.object({ name: z.string(), size_bytes: z.number().int() })),
  /** Where the ledger is (issue 40) and its size: the SQLite file here (counted above), or a PostgreSQL database (not in this directory). */
  ledger: z.object({ engine: z.enum(['sqlite', 'postgres']), size_bytes: z.number().int() }),
});
export type DataDirectory = z.infer<typeof DataDirectory>;

/**
 * List freshness (issue 23): a list whose publication date is older than its kind's window is
 * stale. Sanctions (and wanted) lists use `sanctions_stale_days`, PEP (and RCA) lists
 * `pep_stale_days`. Read by every member; changed by owners and admins.
 */
export const STALE_DAYS_MIN = 1;
export const STALE_DAYS_MAX = 3650;
export const DEFAULT_STALE_DAYS = { sanctions_stale_days: 14, pep_stale_days: 180 } as const;
const StaleDays = z.number().int().min(STALE_DAYS_MIN).max(STALE_DAYS_MAX);

export const ListFreshnessSettings = z.object({ sanctions_stale_days: StaleDays, pep_stale_days: StaleDays });
export type ListFreshnessSettings = z.infer<typeof ListFreshnessSettings>;

/** PATCH /api/settings/list-freshness: either window or both. */
export const UpdateListFreshnessRequest = ListFreshnessSettings.partial()
  .strict()
  .refine((b) => b.sanctions_stale_days !== undefined || b.pep_stale_days !== undefined, 'Give sanctions_stale_days, pep_stale_days or both');
export type UpdateListFreshnessRequest = z.infer<typeof UpdateListFreshnessRequest>;

/**
 * App schemes (issue 25): the custom URL schemes of the organisation's own mobile apps, which
 * hosted-session, published-flow and age-gate redirects may use to return to the app (`myapp:`).
 * Any other scheme than https (and http to this computer) is refused as a redirect. A scheme is
 * RFC 3986 syntax in lower case, two characters or more (one letter reads as a Windows drive), and
 * never one that runs content, opens the browser's or the operating system's own handlers, or
 * already has a rule of its own: those are FORBIDDEN_APP_SCHEMES, and every `ms-` scheme.
 */
export const APP_SCHEMES_MAX = 10;
export const APP_SCHEME_MAX_LENGTH = 64;
export const FORBIDDEN_APP_SCHEMES: readonly string[] = [
  // Run or embed content in the page.
  'javascript', 'vbscript', 'data', 'blob', 'file', 'filesystem', 'about', 'jar', 'mhtml', 'mk',
  // The browser's own pages and extensions.
  'chrome', 'chrome-extension', 'chrome-untrusted', 'edge', 'brave', 'opera', 'moz-extension', 'resource', 'view-source', 'devtools',
  // Web and mail schemes, which have rules of their own (https; http to this computer) or are not an app's return.
  'http', 'https', 'ws', 'wss', 'ftp', 'ftps', 'sftp', 'mailto', 'tel', 'sms', 'callto',
  // Operating-system protocol handlers and file shares (ms-msdt, search-ms, shell:, hcp:, smb:, Android intents, iOS installs).
  'search-ms', 'search', 'shell', 'hcp', 'its', 'res', 'smb', 'nfs', 'afp', 'cifs', 'webdav', 'ldap', 'ldaps', 'jnlp',
  'intent', 'android-app', 'content', 'itms-services', 'x-apple-systempreferences',
];
/** Every Windows `ms-` handler (ms-msdt, ms-officecmd, ms-settings, ...), present and future. */
export const FORBIDDEN_APP_SCHEME_PREFIXES: readonly string[] = ['ms-'];

export function isForbiddenAppScheme(scheme: string): boolean {
  const s = scheme.toLowerCase();
  return FORBIDDEN_APP_SCHEMES.includes(s) || FORBIDDEN_APP_SCHEME_PREFIXES.some((p) => s.startsWith(p));
}

/** One registered scheme, without its colon: `myapp`, `com.example.app`. */
export const AppScheme = z
  .string()
  .min(2)
  .max(APP_SCHEME_MAX_LENGTH)
  .regex(/^[a-z][a-z0-9+.-]*$/, 'a URL scheme in lower case: a letter, then letters, digits, +, - or .')
  .refine((s) => !isForbiddenAppScheme(s), { message: 'a scheme that may not be used for a redirect', params: { issue: 'forbidden_scheme' } });

export const AppSchemesSettings = z.object({ app_schemes: z.array(AppScheme).max(APP_SCHEMES_MAX) });
export type AppSchemesSettings = z.infer<typeof AppSchemesSettings>;

/** PUT /api/settings/app-schemes: the whole list (an empty list removes them all); each scheme once. */
export const UpdateAppSchemesRequest = z
  .object({ app_schemes: z.array(AppScheme).max(APP_SCHEMES_MAX) })
  .strict()
  .refine((b) => new Set(b.app_schemes).size === b.app_schemes.length, { message: 'each scheme once', path: ['app_schemes'], params: { issue: 'duplicate' } });
export type UpdateAppSchemesRequest = z.infer<typeof UpdateAppSchemesRequest>;
