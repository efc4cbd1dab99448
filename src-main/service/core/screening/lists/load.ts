// The thin file-reading edge of the list importers: reads the shipped files named in
// resources/watchlists/manifest.json, checks their hashes, runs the importers, removes the CSL's
// copies of OFAC records, and reports each list's version for screening responses.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ListEntity, ListImport } from '../types';
import { countEntities, sha256Hex, type Counts } from './common';
import { cslDuplicateCheck, dedupeImports } from './dedupe';
import { readManifest, type ManifestSource } from './manifest';
import type { ListFormat, OfficialSource } from './sources';
import { runImporter, type FileRole, type ImportOptions } from './official';

export { importOfficialFile, type OfficialFile, type OfficialImportOutcome } from './official';
export { importUserList, type UserListIssue, type UserListResult } from './user-csv';

/** One loaded list's version; returned (snake_case, as in the API) with every screening response. */
export interface ListVersion {
  source: string;
  title: string;
  kind: string;
  /** The publication date stated in the file, YYYY-MM-DD; null when the format states none. */
  list_date: string | null;
  /** When the file was obtained (shipped files: the folder date), when list_date is null too. */
  retrieval_date: string | null;
  /** SHA-256 of the imported bytes (see ListImport.sha256). */
  sha256: string;
  /** Records screened against, after de-duplication. */
  counts: Counts;
}

export interface LoadedLists {
  entities: ListEntity[];
  versions: ListVersion[];
  /** Per source: rows the importer skipped and records de-duplication removed, by reason. */
  skipped: Record<string, Record<string, number>>;
  /** Wall time per source import and for the whole load, in ms (logged at start-up). */
  timings_ms: Record<string, number>;
}

/** A list ready to combine: an import plus where its version label comes from. */
export interface LoadableList {
  import: ListImport;
  title: string;
  kind: string;
  retrievalDate: string | null;
}

export class ListIntegrityError extends Error {
  override name = 'ListIntegrityError';
}

/**
 * Combines imported lists (one per source: shipped, a newer official file, user lists) into the
 * entity set the index is built from, and their versions.
 */
export function combineLists(lists: readonly LoadableList[]): Omit<LoadedLists, 'timings_ms'> {
  const deduped = dedupeImports(lists.map((l) => l.import));
  const entities: ListEntity[] = [];
  const versions: ListVersion[] = [];
  const skipped: Record<string, Record<string, number>> = {};
  deduped.forEach((d, i) => {
    const l = lists[i] as LoadableList;
    for (const e of d.entities) entities.push(e);
    versions.push({
      source: d.import.source,
      title: l.title,
      kind: l.kind,
      list_date: d.import.listDate,
      retrieval_date: l.retrievalDate,
      sha256: d.import.sha256,
      counts: countEntities(d.entities),
    });
    skipped[d.import.source] = { ...d.import.skipped, ...d.skipped };
  });
  return { entities, versions, skipped };
}

/**
 * Imports of shipped files already made in this process, by source, format and file hashes: the
 * service reloads its lists whenever an own list changes, and the UK and Australian spreadsheets
 * take seconds to parse. Public list data only; the bytes are still read and hashed every time.
 */
const shippedMemo = new Map<string, ListImport>();

/** Reads and imports one shipped source, verifying each file against the manifest. */
export function importShippedSource(resourcesDir: string, entry: ManifestSource, options: ImportOptions = {}): ListImport {
  const byRole: Partial<Record<FileRole, Uint8Array>> = {};
  for (const f of entry.files) {
    const data = readFileSync(join(resourcesDir, f.path));
    if (sha256Hex(data) !== f.sha256) throw new ListIntegrityError(`${f.path} does not match its SHA-256 in the manifest`);
    byRole[f.role] = data;
  }
  // Only imports that depend on nothing but the files (the CSL's depends on the OFAC imports).
  const memoKey = Object.keys(options).length === 0 ? `${entry.source} ${entry.format} ${entry.files.map((f) => f.sha256).join(' ')}` : undefined;
  const known = memoKey ? shippedMemo.get(memoKey) : undefined;
  if (known) return known;
  const imp = runImporter(entry.source, entry.format, byRole, options);
  if (memoKey) shippedMemo.set(memoKey, imp);
  return imp;
}

/** A newer official file the organisation imported, used in place of its shipped source. */
export interface OwnOfficialList {
  format: ListFormat;
  files: Partial<Record<FileRole, Uint8Array>>;
  title: string;
  kind: string;
  retrievalDate: string | null;
}

/** Lists from outside the shipped set: newer official files, and the organisation's own lists. */
export interface OwnLists {
  official?: Partial<Record<OfficialSource, OwnOfficialList>>;
  user?: readonly LoadableList[];
}

/**
 * Loads every official list shipped under `resourcesDir` (resources/watchlists), a newer own
 * file taking its source's place, then the organisation's own lists. A shipped file that does
 * not match the manifest is a broken install: ListIntegrityError, not a partial load.
 */
export function loadLists(resourcesDir: string, own: OwnLists = {}, options: ImportOptions = {}): LoadedLists {
  const started = performance.now();
  const timings: Record<string, number> = {};
  const manifest = readManifest(resourcesDir);
  const imports = new Map<string, LoadableList>();
  const load = (entry: ManifestSource, extra: ImportOptions): void => {
    const t = performance.now();
    const mine = own.official?.[entry.source];
    imports.set(entry.source, mine
      ? { import: runImporter(entry.source, mine.format, mine.files, { ...options, ...extra }), title: mine.title, kind: mine.kind, retrievalDate: mine.retrievalDate }
      : { import: importShippedSource(resourcesDir, entry, { ...options, ...extra }), title: entry.title, kind: entry.list_kind, retrievalDate: entry.retrieval_date });
    timings[entry.source] = Math.round(performance.now() - t);
  };
  // OFAC first, so the CSL importer can skip its copies of OFAC records instead of building them.
  for (const entry of manifest.sources) if (entry.source !== 'us_csl') load(entry, {});
  const cslDuplicateOf = cslDuplicateCheck([...imports.values()].map((l) => l.import));
  for (const entry of manifest.sources) if (entry.source === 'us_csl') load(entry, { cslDuplicateOf });
  const lists = [...manifest.sources.map((entry) => imports.get(entry.source) as LoadableList), ...(own.user ?? [])];
  const combined = combineLists(lists);
  timings.total = Math.round(performance.now() - started);
  return { ...combined, timings_ms: timings };
}

/** The shipped lists alone. */
export function loadShippedLists(resourcesDir: string, options: ImportOptions = {}): LoadedLists {
  return loadLists(resourcesDir, {}, options);
}
