// resources/watchlists/manifest.json: which official files ship, where each came from, their
// hashes, and what the importers make of them. Everything but the hand-written provenance below
// is computed by running the importers, and shipped-lists.test.ts fails when the committed file
// and a fresh build differ, so the manifest cannot drift from the files or the code.
//
// Rewrite it after changing a shipped file or an importer:
//   npx tsx src-main/service/core/screening/lists/write-manifest.ts
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ListEntity, ListImport } from '../types';
import { countEntities, sha256Hex, type Counts } from './common';
import { CSL_EXPORT_CONTROL_CODES } from './csl';
import { dedupeImports } from './dedupe';
import { runImporter, type FileRole } from './official';
import { SOURCE_INFO, type ListFormat, type OfficialSource } from './sources';

export const MANIFEST_FILE = 'manifest.json';

interface ShippedFile {
  role: FileRole;
  /** Relative to resources/watchlists/. */
  path: string;
  /** The folder date: when the file was committed to the repository it was taken from. */
  retrieval_date: string;
  origin: string;
}

interface ShippedSource {
  source: OfficialSource;
  format: ListFormat;
  /** The primary file's folder date; the list's own date, where stated, is read from the file. */
  retrieval_date: string;
  date_note: string;
  files: ShippedFile[];
}

/** Provenance, from shared/watchlists/SOURCES.md. Choices are explained in docs/watchlists.md. */
export const SHIPPED: readonly ShippedSource[] = [
  {
    source: 'us_ofac_sdn',
    format: 'ofac-csv',
    retrieval_date: '2024-05-03',
    date_note:
      'OFAC legacy CSVs state no date. retrieval_date is the date sdn.csv was committed to its source repository; alt.csv and add.csv/sdn_comments.csv are later copies joined on ent_num (rows for entries not in sdn.csv are dropped).',
    files: [
      { role: 'primary', path: 'us_ofac_sdn/2024-05-03/sdn.csv', retrieval_date: '2024-05-03', origin: 'github.com/jackdwyer/specially-designated-nationals-list sdn.csv @ a5ec3c5' },
      { role: 'alt', path: 'us_ofac_sdn/2024-09-25/alt.csv', retrieval_date: '2024-09-25', origin: 'github.com/MonkeyWrenchGang/2024_AML data/alt.csv @ 45a08e0' },
      { role: 'add', path: 'us_ofac_sdn/2025-12-24/add.csv', retrieval_date: '2025-12-24', origin: 'github.com/moov-io/watchman internal/tfidf/testdata/add.csv @ d299005' },
      { role: 'comments', path: 'us_ofac_sdn/2025-12-24/sdn_comments.csv', retrieval_date: '2025-12-24', origin: 'github.com/moov-io/watchman internal/tfidf/testdata/sdn_comments.csv @ d299005' },
    ],
  },
  {
    source: 'us_ofac_cons',
    format: 'ofac-enhanced-xml',
    retrieval_date: '2025-01-14',
    date_note: 'list_date is <dataAsOf> in the file.',
    files: [
      { role: 'list', path: 'us_ofac_non_sdn/2025-01-14/CONS_ENHANCED.ZIP', retrieval_date: '2025-01-14', origin: 'github.com/moov-io/watchman pkg/sources/csl_us/testdata/CONS_ENHANCED.ZIP, blob f7af486 (commit 561e6e2)' },
    ],
  },
  {
    source: 'us_csl',
    format: 'csl-csv',
    retrieval_date: '2025-05',
    date_note: 'The CSL file states no date. retrieval_date is the month of the folder it came from (committed to its source repository on 2025-05-23).',
    files: [
      { role: 'list', path: 'us_csl/2025-05/consolidated.csv.gz', retrieval_date: '2025-05', origin: 'github.com/moov-io/watchman pkg/sources/csl_us/testdata/consolidated.csv.gz, blob 19383a3 (commit 561e6e2)' },
    ],
  },
  {
    source: 'un_sc',
    format: 'un-xml',
    retrieval_date: '2026-02-27',
    date_note: 'list_date is the dateGenerated attribute in the file.',
    files: [
      { role: 'list', path: 'un_sc/2026-02-27/consolidated.xml', retrieval_date: '2026-02-27', origin: 'github.com/moov-io/watchman test/testdata/UN_consolidated.xml @ d299005' },
    ],
  },
  {
    source: 'pep_us_congress',
    format: 'us-legislators-yaml',
    retrieval_date: '2026-06-15',
    date_note: 'The file states no date. list_date is the latest term start in the file; retrieval_date is the date it was committed to its source repository. A term is current when it ends after list_date.',
    files: [
      { role: 'list', path: 'pep_us_congress/2026-06-15/legislators-current.yaml', retrieval_date: '2026-06-15', origin: 'github.com/unitedstates/congress-legislators legislators-current.yaml @ dfa9622263dd (blob a05785b)' },
    ],
  },
  {
    source: 'pep_us_executive',
    format: 'us-legislators-yaml',
    retrieval_date: '2026-06-15',
    date_note: 'The file states no date. list_date is the latest term start in the file; retrieval_date is the date it was committed to its source repository. A term is current when it ends after list_date.',
    files: [
      { role: 'list', path: 'pep_us_congress/2026-06-15/executive.yaml', retrieval_date: '2026-06-15', origin: 'github.com/unitedstates/congress-legislators executive.yaml @ dfa9622263dd (blob 61549ee)' },
    ],
  },
  {
    source: 'pep_wikidata_leaders',
    format: 'wikidata-leaders-csv',
    retrieval_date: '2025-10-03',
    date_note: 'The files state no date. list_date is the latest office start date in them (one corrupt date, 20254-04-01, is dropped); retrieval_date is the date they were committed to their source repository. An office is current when leaders_current.csv lists its holder.',
    files: [
      { role: 'list', path: 'pep_wikidata_world_leaders/2025-10-03/leaders_history.csv', retrieval_date: '2025-10-03', origin: 'github.com/cfmessias/geografia data/leaders_history.csv @ 2e1e3b9cf6bf (blob 50131bc)' },
      { role: 'current', path: 'pep_wikidata_world_leaders/2025-10-03/leaders_current.csv', retrieval_date: '2025-10-03', origin: 'github.com/cfmessias/geografia data/leaders_current.csv @ 2e1e3b9cf6bf (blob 2da9e59)' },
    ],
  },
  {
    source: 'uk_sanctions',
    format: 'uk-sanctions',
    retrieval_date: '2025-08-11',
    date_note:
      'The FCDO short export (named FCDO_SL_Mon_Aug 11 2025.ods) states no date inside; list_date is its latest Date Designated. It is merged over the OFSI ConList (Last Updated 14/04/2025) by OFSI Group ID, the FCDO file winning; ConList groups missing from it are taken as delisted (docs/decisions.md).',
    files: [
      { role: 'older', path: 'uk_ofsi_conlist/2025-04-14/ConList.xlsx', retrieval_date: '2025-04-14', origin: 'github.com/mmahmed107/malverde_data_task ConList.xlsx @ 038e9e883cc8 (blob ca84e74)' },
      { role: 'list', path: 'uk_fcdo_sanctions_list/2025-08-11/FCDO_SL_Mon_Aug_11_2025.ods', retrieval_date: '2025-08-11', origin: 'github.com/JachymSRB/GitMatch "FCDO_SL_Mon_Aug 11 2025.ods" @ 569ad22b7d5b (blob b676fd4)' },
    ],
  },
  {
    source: 'au_dfat',
    format: 'dfat-xlsx',
    retrieval_date: '2024-12-17',
    date_note: 'list_date is the latest Control Date in the file (2024-11-11, also the workbook\'s modified date); retrieval_date is when it was committed to its source repository.',
    files: [
      { role: 'list', path: 'au_dfat_consolidated/2024-11-11/regulation8_consolidated.xlsx', retrieval_date: '2024-12-17', origin: 'github.com/Stanux/app-lista-negra regulation8_consolidated.xlsx @ 48e080840ca4 (blob d89158e)' },
    ],
  },
];

export interface ManifestFile extends ShippedFile {
  bytes: number;
  sha256: string;
}

export interface ManifestSource {
  source: OfficialSource;
  title: string;
  publisher: string;
  list_kind: string;
  format: ListFormat;
  /** Stated in the file, YYYY-MM-DD; null when the format states none. */
  list_date: string | null;
  retrieval_date: string;
  date_note: string;
  terms: string;
  /** The importer's input hash: SHA-256 over the files' bytes in the order listed. */
  sha256: string;
  files: ManifestFile[];
  /** The importer's output for this source alone. */
  counts: Counts;
  skipped: Record<string, number>;
  /** CSL sub-lists left out of screening (export control); see docs/watchlists.md. */
  excluded_sub_lists?: string[];
  /**
   * After cross-source de-duplication: what screening uses. records_digest is SHA-256 over the
   * sorted "id recordHash" lines, so a parser change that alters records (and so reopens cleared
   * matches) shows up as a manifest change in review.
   */
  loaded: { counts: Counts; removed_as_duplicates: Record<string, number>; by_sub_list: Record<string, number>; records_digest: string };
}

export interface Manifest {
  manifest_version: 1;
  generated_by: string;
  sources: ManifestSource[];
  loaded_total: Counts;
}

function sorted<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export function recordsDigest(entities: readonly ListEntity[]): string {
  const lines = entities.map((e) => `${e.id} ${e.recordHash}`).sort();
  return sha256Hex(new TextEncoder().encode(lines.join('\n')));
}

/** One shipped source as its importer reads it on its own (no cross-source de-duplication). */
export interface ShippedImport {
  shipped: ShippedSource;
  files: (ShippedFile & { data: Uint8Array })[];
  imp: ListImport;
}

/** Reads and imports every shipped source under `resourcesDir` (resources/watchlists). */
export function importShippedFiles(resourcesDir: string): ShippedImport[] {
  return SHIPPED.map((s) => {
    const files = s.files.map((f) => ({ ...f, data: readFileSync(join(resourcesDir, f.path)) }));
    const byRole: Partial<Record<FileRole, Uint8Array>> = {};
    for (const f of files) byRole[f.role] = f.data;
    return { shipped: s, files, imp: runImporter(s.source, s.format, byRole) };
  });
}

/** Builds the manifest from the shipped files (pass their imports to avoid importing twice). */
export function buildManifest(resourcesDir: string, built: readonly ShippedImport[] = importShippedFiles(resourcesDir)): Manifest {
  const deduped = dedupeImports(built.map((b) => b.imp));
  const sources = built.map(({ shipped, files, imp }, i): ManifestSource => {
    const d = deduped[i];
    if (!d) throw new Error('dedupe lost an import');
    const bySubList: Record<string, number> = {};
    for (const e of d.entities) bySubList[e.sourceList] = (bySubList[e.sourceList] ?? 0) + 1;
    const info = SOURCE_INFO[shipped.source];
    const entry: ManifestSource = {
      source: shipped.source,
      title: info.title,
      publisher: info.publisher,
      list_kind: info.listKind,
      format: shipped.format,
      list_date: imp.listDate,
      retrieval_date: shipped.retrieval_date,
      date_note: shipped.date_note,
      terms: info.terms,
      sha256: imp.sha256,
      files: files.map(({ data, ...f }) => ({ ...f, bytes: data.length, sha256: sha256Hex(data) })),
      counts: imp.counts,
      skipped: sorted(imp.skipped),
      loaded: {
        counts: countEntities(d.entities),
        removed_as_duplicates: sorted(d.skipped),
        by_sub_list: sorted(bySubList),
        records_digest: recordsDigest(d.entities),
      },
    };
    if (shipped.source === 'us_csl') entry.excluded_sub_lists = [...CSL_EXPORT_CONTROL_CODES];
    return entry;
  });
  return {
    manifest_version: 1,
    generated_by: 'npx tsx src-main/service/core/screening/lists/write-manifest.ts',
    sources,
    loaded_total: countEntities(deduped.flatMap((d) => d.entities)),
  };
}

export function manifestJson(m: Manifest): string {
  return `${JSON.stringify(m, null, 2)}\n`;
}

export function readManifest(resourcesDir: string): Manifest {
  return JSON.parse(readFileSync(join(resourcesDir, MANIFEST_FILE), 'utf8')) as Manifest;
}
