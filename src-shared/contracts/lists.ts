// The lists the service screens against and the organisation's own lists (session-authenticated;
// not in the spec, see docs/decisions.md): what is loaded, and the answers of the imports.
import { z } from 'zod';
import { LIST_KINDS } from './screening';
import { ListFreshnessSettings } from './organization';

/** The official sources a newer file can replace. */
export const OFFICIAL_SOURCES = [
  'us_ofac_sdn', 'us_ofac_cons', 'us_csl', 'un_sc', 'uk_sanctions', 'au_dfat',
  'pep_us_congress', 'pep_us_executive', 'pep_wikidata_leaders',
] as const;
export type OfficialSource = (typeof OFFICIAL_SOURCES)[number];

export const OFFICIAL_FORMATS = [
  'ofac-csv', 'ofac-enhanced-xml', 'csl-csv', 'un-xml', 'uk-sanctions', 'dfat-xlsx',
  'us-legislators-yaml', 'wikidata-leaders-csv',
] as const;

/** A user list's slug: the same name (whatever its accents or case) replaces the same list. */
export function listSlug(name: string): string {
  return name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

export const LISTS_STATES = ['loading', 'ready', 'failed'] as const;

/** One loaded list, with its title and the records screened against after de-duplication. */
export const LoadedList = z.object({
  source: z.string(),
  title: z.string(),
  kind: z.enum(LIST_KINDS),
  list_date: z.string().nullable(),
  retrieval_date: z.string().nullable(),
  sha256: z.string(),
  /** Who publishes the list and the attribution its licence asks for; null for own lists. */
  publisher: z.string().nullable(),
  terms: z.string().nullable(),
  /** As in a screening's list_versions (contracts/screening.ts ListVersion), for the caller's organisation now. */
  published_at: z.string().nullable(),
  stale: z.boolean(),
  /** Whole days since published_at (null when it is null): the console's banner says how old. */
  age_days: z.number().int().nullable(),
  /** The organisation's window for this list's kind, in days (stale past it). */
  stale_after_days: z.number().int(),
  counts: z.object({
    total: z.number().int(),
    person: z.number().int(),
    organization: z.number().int(),
    vessel: z.number().int(),
    aircraft: z.number().int(),
    unknown: z.number().int(),
  }),
});
export type LoadedList = z.infer<typeof LoadedList>;

export const UserList = z.object({ slug: z.string(), name: z.string(), rows: z.number().int(), imported_at: z.string() });
export type UserList = z.infer<typeof UserList>;

/** One listed record an import adds, removes or changes (public list data). */
export const ListChangeRecord = z.object({ id: z.string(), name: z.string(), programs: z.array(z.string()) });

/**
 * What a newer official file changes against the edition in use, compared by the list's own
 * record ids and content: counts, the programmes most changed, and up to 25 records of each kind.
 */
export const ListChanges = z.object({
  /** Records of the edition in use (null: none was loaded). */
  before: z.number().int().nullable(),
  after: z.number().int(),
  added: z.number().int(),
  removed: z.number().int(),
  changed: z.number().int(),
  by_program: z.array(z.object({ program: z.string(), added: z.number().int(), removed: z.number().int(), changed: z.number().int() })).max(50),
  examples: z.object({ added: z.array(ListChangeRecord).max(25), removed: z.array(ListChangeRecord).max(25), changed: z.array(ListChangeRecord).max(25) }),
});
export type ListChanges = z.infer<typeof ListChanges>;

/**
 * POST /api/screening/lists/official: 201 when the file is in use, 202 when it is held (`held`,
 * with the `reason`) until an owner or admin applies it (POST .../official/held/{source}) or
 * discards it; screening keeps the edition in use meanwhile. The held imports are also listed
 * in GET /api/screening/lists (`held_imports`).
 */
export const OfficialImport = z.object({
  ok: z.literal(true),
  source: z.enum(OFFICIAL_SOURCES),
  format: z.enum(OFFICIAL_FORMATS),
  records: z.number().int(),
  list_date: z.string().nullable(),
  sha256: z.string(),
  changes: ListChanges,
  held: z.boolean(),
  /** Why the import waits for confirmation; null when it is in use. */
  reason: z.string().nullable(),
  /** When the file was uploaded and held; null when it is in use. */
  held_at: z.string().nullable(),
});
export type OfficialImport = z.infer<typeof OfficialImport>;

/** GET /api/screening/lists. */
export const ListsStatus = z.object({
  state: z.enum(LISTS_STATES),
  loaded_kinds: z.array(z.enum(LIST_KINDS)),
  lists: z.array(LoadedList),
  index: z
    .object({
      entities: z.number().int(),
      names: z.number().int(),
      keys: z.number().int(),
      build_ms: z.number().int(),
      load_ms: z.number().int(),
    })
    .nullable(),
  user_lists: z.array(UserList),
  /** Official files uploaded and held for confirmation (OfficialImport with `held: true`). */
  held_imports: z.array(OfficialImport),
  /** The organisation's windows the `stale` flags were computed with (contracts/organization.ts). */
  stale_windows: ListFreshnessSettings,
});
export type ListsStatus = z.infer<typeof ListsStatus>;

export const OfficialListQuery = z.object({ source: z.enum(OFFICIAL_SOURCES), filename: z.string().max(200).default('') });
export const OfficialSourceParams = z.object({ source: z.enum(OFFICIAL_SOURCES) });
export type OfficialSourceParams = z.infer<typeof OfficialSourceParams>;
export const UserListQuery = z.object({
  name: z.string().trim().min(1).max(80).refine((n) => listSlug(n) !== '', 'must contain a letter or digit'),
});


export const ListIssue = z.object({
  /** Spreadsheet row: the header is row 1, the first record row 2. */
  row: z.number().int(),
  column: z.string(),
  reason: z.string(),
});
export type ListIssue = z.infer<typeof ListIssue>;

/** Problems of each kind a user-list report lists; the rest are counted. */
export const LIST_ISSUES_REPORTED = 100;

/**
 * POST /api/screening/lists/user: 201 when a row was imported, 400 with `ok: false` otherwise.
 * `errors` and `warnings` hold the first LIST_ISSUES_REPORTED of each; `errors_total` and
 * `warnings_total` count them all, so a file with thousands of bad rows gets a short report.
 */
export const UserListReport = z.object({
  ok: z.boolean(),
  source: z.string(),
  rows: z.object({ total: z.number().int(), imported: z.number().int(), rejected: z.number().int() }),
  errors: z.array(ListIssue).max(LIST_ISSUES_REPORTED),
  warnings: z.array(ListIssue).max(LIST_ISSUES_REPORTED),
  errors_total: z.number().int(),
  warnings_total: z.number().int(),
});
export type UserListReport = z.infer<typeof UserListReport>;
