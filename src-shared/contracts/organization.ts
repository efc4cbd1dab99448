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
  /** `database`, `database_journal` (-wal, -shm), then the folders the service writes (logs, lists, onsite, ...), then `other`. */
  breakdown: z.array(z.object({ name: z.string(), size_bytes: z.number().int() })),
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
