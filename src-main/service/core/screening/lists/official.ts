// Running the right importer for an official source, and recognising a newer official file an
// analyst hands to the CLI or the console (same formats as shipped). Pure: bytes in, result out;
// where an accepted file is stored is the caller's decision.
import type { ListImport } from '../types';
import { FormatError, sha256Hex } from './common';
import { importCsl } from './csl';
import { importDfat } from './dfat';
import type { CslDuplicateCheck } from './dedupe';
import { importOfacCsv } from './ofac-csv';
import { importOfacEnhancedXml } from './ofac-enhanced-xml';
import { isOfficialSource, SOURCE_INFO, type ListFormat, type OfficialSource } from './sources';
import { importUk } from './uk';
import { importUnXml } from './un-xml';
import { importUsLegislators, US_YAML_MAX_BYTES } from './pep-us';
import { importWikidataLeaders, looksLikeWikidataLeaders } from './pep-wikidata';

/**
 * A file's part in a set: OFAC's legacy CSVs come as four files, the Wikidata leaders as a
 * history ('list') and a current file, the UK list as one or two (an older ConList under a newer
 * FCDO file), everything else as one.
 */
export const FILE_ROLES = ['primary', 'alt', 'add', 'comments', 'list', 'current', 'older'] as const;
export type FileRole = (typeof FILE_ROLES)[number];

export interface OfficialFile {
  /** The file's name as uploaded (used to tell sdn.csv from alt.csv); may be ''. */
  name: string;
  bytes: Uint8Array;
}

export interface ImportOptions {
  /** CSL only: keep the export-control lists (Entity List, UVL, MEU). */
  includeExportControl?: boolean;
  /** CSL only: skip rows an OFAC source already holds (dedupe.ts, cslDuplicateCheck). */
  cslDuplicateOf?: CslDuplicateCheck;
}

/**
 * `remember: false`: the import is not kept for a later read of the same files (a read made
 * before is still used). For the screening worker, whose index holds the records as JSON: the
 * objects would stay beside them for the worker's life (a 30 MB file's are ~40 MB).
 */
export type ReadOptions = ImportOptions & {
  remember?: boolean;
  /**
   * The import is kept for the next read of the same files in this thread, once, and never beside
   * the imports remembered: the screening worker checks an uploaded file, then (once it is stored)
   * splices the same records into its index without parsing the file a second time.
   */
  handOver?: boolean;
};

export type OfficialImportOutcome =
  | {
      ok: true;
      source: OfficialSource;
      format: ListFormat;
      import: ListImport;
      files: { name: string; role: FileRole; sha256: string; bytes: number }[];
    }
  | { ok: false; reason: string };

/**
 * The last two imports of each source made in this process, by format and file hashes (public
 * list data only): the edition in use and a newer file. A newer file is checked beside the edition
 * in use (read again for the comparison), the CLI then loads the lists in the same process, and a
 * process that loads the shipped lists again (from source, without the build's snapshot) reads the
 * same files: the UK and Australian spreadsheets take seconds, a 30 MB UN file ~1.8 s. (The
 * service reloads in a new worker, which starts without them.) An import that depends on more than
 * its files (the CSL's, on the OFAC imports) is made every time.
 */
const lastImports = new Map<OfficialSource, { key: string; imp: ListImport }[]>();

/** The import handed over to the next read of its files (ReadOptions.handOver). */
let handedOver: { source: OfficialSource; key: string; imp: ListImport } | null = null;

/** Lets go of an import handed over and not read (the file was held, or not stored). */
export function dropHandedOver(): void {
  handedOver = null;
}

/** The importer for one format. Throws FormatError when the bytes are not that format. */
export function runImporter(
  source: OfficialSource,
  format: ListFormat,
  files: Partial<Record<FileRole, Uint8Array>>,
  { remember = true, handOver = false, ...options }: ReadOptions = {},
): ListImport {
  if (Object.values(options).some((v) => v !== undefined)) return importNow(source, format, files, options);
  const key = `${format} ${FILE_ROLES.map((r) => (files[r] ? `${r}:${sha256Hex(files[r])}` : '')).join(' ')}`;
  const handed = handedOver?.source === source && handedOver.key === key ? handedOver.imp : undefined;
  const kept = lastImports.get(source) ?? [];
  const imp = handed ?? kept.find((k) => k.key === key)?.imp ?? importNow(source, format, files, options);
  if (handOver) handedOver = { source, key, imp };
  else if (handed) handedOver = null;
  else if (remember && !kept.some((k) => k.imp === imp)) lastImports.set(source, [{ key, imp }, ...kept].slice(0, 2));
  return imp;
}

function importNow(
  source: OfficialSource,
  format: ListFormat,
  files: Partial<Record<FileRole, Uint8Array>>,
  options: ImportOptions,
): ListImport {
  const one = files.list ?? files.primary ?? (format === 'wikidata-leaders-csv' ? files.current : undefined);
  if (!one) throw new FormatError('no file given');
  let imp: ListImport;
  switch (format) {
    case 'ofac-csv':
      if (source !== 'us_ofac_sdn' && source !== 'us_ofac_cons') throw new FormatError(`${format} is not a format of ${source}`);
      imp = importOfacCsv(
        { primary: one, alt: files.alt, add: files.add, comments: files.comments },
        { list: source === 'us_ofac_sdn' ? 'sdn' : 'cons' },
      );
      break;
    case 'ofac-enhanced-xml':
      imp = importOfacEnhancedXml(one);
      break;
    case 'csl-csv':
      imp = importCsl(one, { includeExportControl: options.includeExportControl ?? false, duplicateOf: options.cslDuplicateOf });
      break;
    case 'un-xml':
      imp = importUnXml(one);
      break;
    case 'us-legislators-yaml':
      imp = importUsLegislators(one);
      break;
    case 'wikidata-leaders-csv':
      imp = importWikidataLeaders({ history: files.list ?? files.primary, current: files.current });
      break;
    case 'uk-sanctions':
      imp = importUk(files.older ? [files.older, one] : [one]);
      break;
    case 'dfat-xlsx':
      imp = importDfat(one);
      break;
  }
  if (imp.source !== source) {
    const actual = isOfficialSource(imp.source) ? SOURCE_INFO[imp.source].title : imp.source;
    throw new FormatError(`the file is the ${actual}, not the ${SOURCE_INFO[source].title}`);
  }
  if (imp.entities.length === 0) throw new FormatError('no records found in the file');
  return imp;
}

const CSV_ROLES: ReadonlyArray<readonly [RegExp, FileRole]> = [
  [/(?:^|[\\/])(?:sdn|cons_prim)\.csv$/i, 'primary'],
  [/(?:^|[\\/])(?:alt|cons_alt)\.csv$/i, 'alt'],
  [/(?:^|[\\/])(?:add|cons_add)\.csv$/i, 'add'],
  [/(?:^|[\\/])(?:sdn_comments|cons_comments)\.csv$/i, 'comments'],
];

function isZip(b: Uint8Array): boolean {
  return b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04;
}

function looksLikeXml(b: Uint8Array): boolean {
  for (let i = 0; i < Math.min(b.length, 64); i++) {
    const c = b[i];
    if (c === 0x3c) return true; // '<'
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0xef && c !== 0xbb && c !== 0xbf) return false;
  }
  return false;
}

/** The PEP sources: recognised by content (the YAML's terms, the CSV's header), one or two files. */
function detectPep(source: OfficialSource, files: readonly OfficialFile[]): { format: ListFormat; roles: Map<FileRole, OfficialFile> } {
  if (source === 'pep_wikidata_leaders') {
    if (files.length === 0 || files.length > 2) throw new FormatError('give the leaders history file, the current file, or both');
    const roles = new Map<FileRole, OfficialFile>();
    for (const f of files) {
      if (!looksLikeWikidataLeaders(f.bytes)) throw new FormatError('not a Wikidata leaders CSV (expected the header iso3,country,role,person,person_qid,start,end,...)');
      // One file alone is read whole (current holders: no end); of two, the one named *current* is the current file.
      const role: FileRole = files.length === 2 && /current[^\\/]*$/i.test(f.name) ? 'current' : 'list';
      if (roles.has(role)) throw new FormatError('of two files, name one leaders_current.csv and the other leaders_history.csv');
      roles.set(role, f);
    }
    return { format: 'wikidata-leaders-csv', roles };
  }
  const single = files.length === 1 ? files[0] : undefined;
  if (!single) throw new FormatError(`give exactly one file for ${source}`);
  if (single.bytes.length > US_YAML_MAX_BYTES) throw new FormatError(`the file is larger than ${US_YAML_MAX_BYTES / 2 ** 20} MiB`);
  return { format: 'us-legislators-yaml', roles: new Map([['list', single]]) };
}

function detect(source: OfficialSource, files: readonly OfficialFile[]): { format: ListFormat; roles: Map<FileRole, OfficialFile> } {
  if (SOURCE_INFO[source].listKind === 'pep') return detectPep(source, files);
  const single = files.length === 1 ? files[0] : undefined;
  if (source === 'uk_sanctions') {
    // One file (ConList or FCDO, CSV/XLSX/ODS), or both: importUk orders them by their dates.
    const [a, b] = files;
    if (!a || files.length > 2) throw new FormatError('give one UK file, or an older OFSI ConList and a newer FCDO file');
    return { format: 'uk-sanctions', roles: new Map(b ? [['older', a], ['list', b]] : [['list', a]]) };
  }
  if (source === 'au_dfat') {
    if (!single) throw new FormatError(`give exactly one file for ${source}`);
    return { format: 'dfat-xlsx', roles: new Map([['list', single]]) };
  }
  if (source === 'us_csl' || source === 'un_sc') {
    if (!single) throw new FormatError(`give exactly one file for ${source}`);
    return { format: source === 'us_csl' ? 'csl-csv' : 'un-xml', roles: new Map([['list', single]]) };
  }
  if (single && (isZip(single.bytes) || looksLikeXml(single.bytes))) {
    return { format: 'ofac-enhanced-xml', roles: new Map([['list', single]]) };
  }
  const roles = new Map<FileRole, OfficialFile>();
  for (const f of files) {
    const role = CSV_ROLES.find(([re]) => re.test(f.name))?.[1] ?? (files.length === 1 ? 'primary' : undefined);
    if (!role) throw new FormatError('unrecognised file name: expected sdn.csv, alt.csv, add.csv, sdn_comments.csv (or cons_*.csv)');
    if (roles.has(role)) throw new FormatError(`two files for the ${role} part`);
    roles.set(role, f);
  }
  if (!roles.has('primary')) throw new FormatError('the primary file (sdn.csv or cons_prim.csv) is missing');
  return { format: 'ofac-csv', roles };
}

/**
 * Reads a newer official file (or OFAC's CSV set) for `source`. A file that is not a known format
 * of that source is an expected outcome ({ ok: false, reason }), not an exception.
 */
export function importOfficialFile(
  source: OfficialSource,
  input: Uint8Array | readonly OfficialFile[],
  options: ReadOptions = {},
): OfficialImportOutcome {
  const files = input instanceof Uint8Array ? [{ name: '', bytes: input }] : input;
  try {
    const { format, roles } = detect(source, files);
    const byRole: Partial<Record<FileRole, Uint8Array>> = {};
    for (const [role, f] of roles) byRole[role] = f.bytes;
    const imp = runImporter(source, format, byRole, options);
    return {
      ok: true,
      source,
      format,
      import: imp,
      files: [...roles].map(([role, f]) => ({ name: f.name, role, sha256: sha256Hex(f.bytes), bytes: f.bytes.length })),
    };
  } catch (e) {
    if (e instanceof FormatError) return { ok: false, reason: e.message };
    throw e;
  }
}
