// The thin file-reading edge of the list importers: reads the shipped files named in
// resources/watchlists/manifest.json, checks their hashes, runs the importers, removes the CSL's
// copies of OFAC records, and reports each list's version for screening responses.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ListEntity, ListImport } from '../types';
import { countEntities, sha256Hex, type Counts } from './common';
import { cslDuplicateCheck, dedupeImports, OFAC_SOURCES } from './dedupe';
import { readManifest, type ManifestSource } from './manifest';
import type { ListFormat, OfficialSource } from './sources';
import { runImporter, type FileRole, type ImportOptions, type ReadOptions } from './official';

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

/** Reads and imports one shipped source, verifying each file against the manifest. */
export function importShippedSource(resourcesDir: string, entry: ManifestSource, options: ReadOptions = {}): ListImport {
  const byRole: Partial<Record<FileRole, Uint8Array>> = {};
  for (const f of entry.files) {
    const data = readFileSync(join(resourcesDir, f.path));
    if (sha256Hex(data) !== f.sha256) throw new ListIntegrityError(`${f.path} does not match its SHA-256 in the manifest`);
    byRole[f.role] = data;
  }
  // Made once per process from the same files (runImporter).
  return runImporter(entry.source, entry.format, byRole, options);
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

/** Each newer official file read as its list (in its source's place); null when an OFAC list or the CSL is among them (see loadListsOver). */
export function readNewerOfficial(official: NonNullable<OwnLists['official']>, options: ReadOptions = {}): Map<string, Omit<LoadedLists, 'timings_ms'>> | null {
  const replaced = Object.keys(official) as OfficialSource[];
  if (replaced.some((s) => s === 'us_csl' || (OFAC_SOURCES as readonly string[]).includes(s))) return null;
  return new Map(replaced.map((source) => {
    const own = official[source]!;
    return [source as string, combineLists([{ import: runImporter(source, own.format, own.files, options), title: own.title, kind: own.kind, retrievalDate: own.retrievalDate }])];
  }));
}

/** The versions and skip counts of the shipped lists with `newer` in their sources' places. */
export function versionsOver(
  shipped: Pick<LoadedLists, 'versions' | 'skipped'>, newer: ReadonlyMap<string, Pick<LoadedLists, 'versions' | 'skipped'>>,
): Pick<LoadedLists, 'versions' | 'skipped'> {
  const versions: ListVersion[] = [];
  const skipped: LoadedLists['skipped'] = {};
  for (const v of shipped.versions) {
    const mine = newer.get(v.source);
    versions.push(...(mine?.versions ?? [v]));
    skipped[v.source] = mine?.skipped[v.source] ?? shipped.skipped[v.source] ?? {};
  }
  return { versions, skipped };
}

/**
 * What loadLists gives for `official`'s newer files, made from the shipped lists already read (the
 * build's snapshot, or the shipped lists loaded once in this process): only the newer files are
 * parsed, each in its source's place, in the same order. The UK and Australian spreadsheets took
 * ~2.5 s of every reload after an import. Null when an OFAC list or the CSL is among them: the CSL
 * is de-duplicated against the OFAC lists, so those need every list read again (loadLists).
 */
export function loadListsOver(
  shippedLists: () => Omit<LoadedLists, 'timings_ms'>, official: NonNullable<OwnLists['official']>,
): LoadedLists | null {
  const started = performance.now();
  const newer = readNewerOfficial(official);
  if (newer === null) return null;
  const shipped = shippedLists();
  const bySource = new Map<string, ListEntity[]>();
  for (const e of shipped.entities) {
    if (newer.has(e.source)) continue;
    const list = bySource.get(e.source);
    if (list) list.push(e);
    else bySource.set(e.source, [e]);
  }
  const entities: ListEntity[] = [];
  for (const v of shipped.versions) for (const e of newer.get(v.source)?.entities ?? bySource.get(v.source) ?? []) entities.push(e);
  return { entities, ...versionsOver(shipped, newer), timings_ms: { total: Math.round(performance.now() - started) } };
}

/** The shipped lists alone. */
export function loadShippedLists(resourcesDir: string, options: ImportOptions = {}): LoadedLists {
  return loadLists(resourcesDir, {}, options);
}
