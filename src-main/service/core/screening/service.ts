// The screening service the routes and the CLI use: owns the loaded lists and their index,
// loads them once per process (shared by every app in the process, e.g. tests), and turns a
// validated request into the spec's response. Nothing here writes anywhere.
//
// Memory: the process keeps one index per resources/data directory, the one of the lists as
// they are now. When the lists change, the cache and each service drop the old index; a batch
// that started on it keeps its own reference until it ends (batch.ts), then it is collected.
import { DEFAULT_STALE_DAYS, type ListFreshnessSettings } from '../../../../src-shared/contracts/organization';
import type {
  ListKind, ListVersion, PreviousResultSummary, ScreeningResponse, Subject,
} from '../../../../src-shared/contracts/screening';
import { DAY_MS } from '../../../../src-shared/dates';
import { join } from 'node:path';
import { AppError } from '../../../../src-shared/errors';
import { LIST_KINDS } from '../../../../src-shared/contracts/screening';
import { buildIndex, createScreenScratch, extendIndex, indexData, lazyEntityTable, restoreIndex, screen, warmScreening, type IndexData, type ScreeningIndex, type ScreenScratch } from './engine';
import { spliceIndex, type Replacement, type Spliced } from './splice';
import { combineLists, loadLists, loadListsOver, loadShippedLists, readNewerOfficial, versionsOver, type LoadedLists, type OwnLists } from './lists/load';
import { listsDir, listsStamp, readOwnLists } from './lists/store';
import { dropHandedOver } from './lists/official';
import {
  bundleBuildId, manifestHash, officialInputsDigest, officialSourceDigests, readPersistedIndex, readSnapshot, RUN_SNAPSHOT_ENV, RUN_SNAPSHOT_ID_ENV, RUN_SNAPSHOT_MANIFEST_ENV, SNAPSHOT_PATH,
  writePersistedData, writePersistedIndex, type PersistedKey, type SnapshotLists,
} from './snapshot';
import { MATCHER_VERSION } from './match/version';
import type { ListEntity } from './types';
import { assessRisk, riskChange } from './risk';
import { withFreshness, type BaseListVersion } from './lists/freshness';
import { collectGarbage, collectWhenGrown } from '../workers/collect';

/** What is known of an index without holding it: enough for every answer but a screening. */
export interface IndexMeta {
  /** Without published_at/stale: those depend on the organisation and the time (lists/freshness.ts). */
  versions: BaseListVersion[];
  /** Each loaded list with its title and record counts, for the console. */
  catalog: LoadedLists['versions'];
  loadedKinds: ListKind[];
  /** The data directory's list stamp (lists/store.ts) this index was loaded at. */
  stamp: string;
  /**
   * How the official lists' index came to be: 'used' = restored from the build's snapshot,
   * 'persisted' = from the data directory's (official lists imported), 'built: <why>' = from the
   * files, with why neither could be used; else why the build's snapshot was not used.
   */
  timings: { load_ms: number; index_ms: number; snapshot: string };
  stats: ScreeningIndex['stats'];
}

export interface LoadedIndex extends IndexMeta {
  /** The index itself. Where a worker screens, it is built in this thread only if needed here. */
  readonly index: ScreeningIndex;
  /** Working memory of screen() over this index (this thread's; screening is synchronous). */
  readonly scratch: ScreenScratch;
  /** The official lists' part of the index, which the next change of the lists is made over (reloadIndex); absent where it is not held. */
  readonly official?: OfficialPart;
}

/** An index's records as JSON and its flat form: what a newer official file is spliced into (splice.ts). */
type Raw = { entities: string[]; index: IndexData };

/**
 * The official lists' index before an organisation's own lists are added, and its flat form (as
 * restored; made when first asked for where the index was built).
 */
type Base = { lists: SnapshotLists; index: ScreeningIndex; raw: () => Raw };

/** A loaded index's official part: its index, its flat form and the inputs it was made from. */
export interface OfficialPart extends Base {
  /** manifestHash of the shipped lists. */
  manifest: string;
  /** officialSourceDigests of the imported official files. */
  sources: Record<string, string>;
}

/** Everything screening with `l` works out on first use, worked out now (engine.warmScreening). */
export function warmIndex(l: LoadedIndex): void {
  warmScreening(l.index, l.scratch);
}

export function metaOf(l: LoadedIndex): IndexMeta {
  return { versions: l.versions, catalog: l.catalog, loadedKinds: l.loadedKinds, stamp: l.stamp, timings: l.timings, stats: l.stats };
}

/**
 * An index a worker holds, known here by its meta. Should this thread ever have to screen with
 * it (the worker died), it is built from the lists on disk, which must still be the ones of its
 * stamp: screening a batch with other lists than it reports would be wrong, so that is refused.
 */
export function remoteIndex(meta: IndexMeta, resourcesDir: string, dataDir: string | undefined): LoadedIndex {
  let here: LoadedIndex | undefined;
  const build = (): LoadedIndex => {
    if (here) return here;
    if (listsStamp(dataDir) !== meta.stamp) throw new AppError('provider_unavailable');
    return (here = loadIndexNow(resourcesDir, dataDir));
  };
  return {
    ...meta,
    get index() {
      return build().index;
    },
    get scratch() {
      return build().scratch;
    },
  };
}

/** Per resources and data directory: the index of its lists at one stamp (older ones are dropped). */
const cache = new Map<string, { stamp: string; index: Promise<LoadedIndex> }>();

function versionsOf(catalog: LoadedLists['versions']): BaseListVersion[] {
  return catalog.map((v) => ({
    source: v.source, kind: v.kind as ListKind, list_date: v.list_date, retrieval_date: v.retrieval_date, sha256: v.sha256,
  }));
}

/**
 * Loads and indexes the shipped lists (plus a data directory's own lists) once per process,
 * resources folder and data directory, and again when the data directory's lists changed: the
 * cache then forgets the previous index, so only those still screening with it keep it alive.
 */
export function loadIndex(resourcesDir: string, dataDir?: string): Promise<LoadedIndex> {
  const key = `${resourcesDir}|${dataDir ?? ''}`;
  const stamp = listsStamp(dataDir);
  const hit = cache.get(key);
  if (hit?.stamp === stamp) return hit.index;
  const p = new Promise<LoadedIndex>((resolve, reject) => {
    // Off the current tick, so a caller that just started listening answers first.
    setImmediate(() => {
      try {
        resolve(loadIndexNow(resourcesDir, dataDir, stamp));
      } catch (e) {
        reject(e);
      }
    });
  });
  cache.set(key, { stamp, index: p });
  return p;
}

/**
 * The shipped lists and their index, built at most once per process and manifest: what the
 * snapshot holds, for a process that has none (from source: the tests, the CLI). Indexing them
 * takes 3–5 s; each service's load extends this index with its own lists instead.
 */
type Shipped = { lists: Omit<LoadedLists, 'timings_ms'>; index: ScreeningIndex; raw: () => Raw };
const shipped = new Map<string, Shipped>();
function shippedOnce(resourcesDir: string): Shipped {
  const manifest = manifestHash(resourcesDir);
  const key = `${resourcesDir}|${manifest}`;
  let hit = shipped.get(key);
  if (!hit) {
    hit = runSnapshot(resourcesDir, manifest) ?? (() => {
      const lists = loadShippedLists(resourcesDir);
      const index = buildIndex(lists.entities);
      return { lists: { entities: lists.entities, versions: lists.versions, skipped: lists.skipped }, index, raw: () => flatten(lists.entities, index) };
    })();
    shipped.set(key, hit);
  }
  return hit;
}

/** A test run's snapshot of these shipped lists (snapshot.ts, RUN_SNAPSHOT_ENV), when running from source and one is named. */
export function runSnapshot(resourcesDir: string, manifest: string): Shipped | null {
  const file = process.env[RUN_SNAPSHOT_ENV];
  if (!file || bundleBuildId() !== null || process.env[RUN_SNAPSHOT_MANIFEST_ENV] !== manifest) return null;
  const id = process.env[RUN_SNAPSHOT_ID_ENV];
  if (!id) return null;
  const snap = readSnapshot(file, id, resourcesDir);
  if (!snap.ok) return null;
  let entities: ListEntity[] | undefined;
  return {
    // The records as objects only for what needs them (a newer official file loaded over them).
    lists: { versions: snap.lists.versions, skipped: snap.lists.skipped, get entities() { return (entities ??= recordsOf(snap.index)); } },
    index: snap.index,
    raw: () => snap.raw,
  };
}

/** An index built here in its flat form, its records as JSON. */
function flatten(entities: readonly ListEntity[], index: ScreeningIndex): Raw {
  return { entities: entities.map((e) => JSON.stringify(e)), index: indexData(index) };
}

/** A restored index's records as objects, in index order. */
function recordsOf(index: ScreeningIndex): ListEntity[] {
  const table = index.entities;
  return Array.from({ length: table.length }, (_, i) => table.at(i));
}

/** The shipped lists as read: from the build's snapshot, else loaded once in this process. */
function shippedLists(resourcesDir: string): Omit<LoadedLists, 'timings_ms'> {
  const snap = readSnapshot(SNAPSHOT_PATH, bundleBuildId(), resourcesDir);
  if (!snap.ok) return shippedOnce(resourcesDir).lists;
  return { versions: snap.lists.versions, skipped: snap.lists.skipped, entities: recordsOf(snap.index) };
}

/** Where a data directory keeps the index of its official lists (see snapshot.ts). */
export function persistedIndexPath(dataDir: string): string {
  return join(listsDir(dataDir), 'screening-index.bin');
}

/** The key a data directory's persisted index is read and written under, for official inputs `sources`. */
function persistedKey(resourcesDir: string, sources: Record<string, string>): PersistedKey {
  return { matcherVersion: MATCHER_VERSION, buildId: bundleBuildId() ?? 'source', inputs: officialInputsDigest(resourcesDir, sources) };
}

/**
 * The official lists' index when the data directory replaces a shipped list: its persisted
 * index when that was made from these very inputs, with this matcher and build; else built from
 * the files, with `save` to write it there. Own lists are never part of it.
 */
function officialBase(
  resourcesDir: string, dataDir: string, own: Required<OwnLists>, sources: Record<string, string>,
): { base: Base; how: string; save: (() => void) | null; indexMs: number } {
  const file = persistedIndexPath(dataDir);
  const key = persistedKey(resourcesDir, sources);
  const saved = readPersistedIndex(file, key);
  if (saved.ok) return { base: { lists: saved.lists, index: saved.index, raw: () => saved.raw }, how: 'persisted', save: null, indexMs: 0 };
  const spliced = splicedOfficial(resourcesDir, own.official);
  if (spliced) {
    const { lists, entities, index, ms } = spliced;
    return {
      base: { lists, index: restoreIndex(lazyEntityTable(entities), index), raw: () => ({ entities, index }) }, how: `built: ${saved.reason}`, indexMs: ms,
      save: () => writePersistedData(file, key, lists, entities, index),
    };
  }
  const lists = loadListsOver(() => shippedLists(resourcesDir), own.official) ?? loadLists(resourcesDir, { official: own.official });
  const t = performance.now();
  // Lean: its names are normalised again when first compared, as after a restore from the file.
  const index = buildIndex(lists.entities, { lean: true });
  return { base: { lists, index, raw: () => flatten(lists.entities, index) }, how: `built: ${saved.reason}`, save: () => writePersistedIndex(file, key, lists, index), indexMs: performance.now() - t };
}

/**
 * Newer official files read as lists, and the same records as JSON (splice.ts, Replacement); null
 * when one cannot be spliced (readNewerOfficial). The records as objects are not remembered: the
 * index holds them as JSON.
 */
function replacementsOf(official: Required<OwnLists>['official']): { replacements: Replacement[]; newer: Map<string, SnapshotLists> } | null {
  const read = readNewerOfficial(official, { remember: false });
  if (read === null) return null;
  // The newer records as JSON before anything else is read (splice.ts, Replacement).
  const replacements = [...read].map(([source, l]) => ({ source, entities: l.entities.map((e) => JSON.stringify(e)) }));
  const newer = new Map([...read].map(([source, l]) => [source, { versions: l.versions, skipped: l.skipped }]));
  read.clear();
  return { replacements, newer };
}

/**
 * The official lists' index with newer files of lists other than OFAC's and the CSL, spliced
 * into the shipped lists' index (splice.ts): from the build's snapshot (or the shipped index of
 * this process), without reading or indexing the other lists again. Null when it cannot be.
 */
function splicedOfficial(resourcesDir: string, official: Required<OwnLists>['official']): (Spliced & { lists: SnapshotLists; ms: number }) | null {
  const newer = replacementsOf(official);
  if (newer === null) return null;
  const t = performance.now();
  const snap = readSnapshot(SNAPSHOT_PATH, bundleBuildId(), resourcesDir);
  const shipped = snap.ok ? { lists: snap.lists, raw: snap.raw } : (() => {
    const once = shippedOnce(resourcesDir);
    return { lists: once.lists, raw: once.raw() };
  })();
  const spliced = spliceIndex(shipped.raw.entities, shipped.raw.index, newer.replacements);
  if (spliced === null) return null;
  return { ...spliced, lists: versionsOver(shipped.lists, newer.newer), ms: performance.now() - t };
}

/** Runs `write` now or once this thread is free again; a failed write costs the next start its speed, never this load. */
function persist(write: () => void, when: 'now' | 'soon'): void {
  const attempt = () => {
    try {
      write();
    } catch {
      /* the next load builds it again */
    }
  };
  if (when === 'now') attempt();
  else setImmediate(attempt);
}

/** The loaded index: the official part with the organisation's own lists on top. */
function withOwnLists(
  part: OfficialPart, user: Required<OwnLists>['user'], stamp: string, t0: number, indexMs: number, how: string,
): LoadedIndex {
  const mine = combineLists(user);
  const catalog: LoadedLists['versions'] = [...part.lists.versions, ...mine.versions];
  const t1 = performance.now();
  const index = extendIndex(part.index, mine.entities);
  const kinds = LIST_KINDS.filter((k) => index.kinds.has(k));
  return {
    index, scratch: createScreenScratch(), versions: versionsOf(catalog), catalog, loadedKinds: kinds, stamp, stats: index.stats, official: part,
    // An official index built here counts as indexing, not loading, as a build over everything did.
    timings: { load_ms: Math.round(t1 - t0 - indexMs), index_ms: Math.round(performance.now() - t1 + indexMs), snapshot: how },
  };
}

/**
 * Loads and indexes the lists now, in this thread (uncached). An index of the official lists
 * built here is written to the data directory: `save: 'soon'` once this thread is free again
 * (the answer comes first), `'now'` before returning (the CLI, which exits after).
 */
export function loadIndexNow(resourcesDir: string, dataDir?: string, stamp = listsStamp(dataDir), save: 'now' | 'soon' = 'soon'): LoadedIndex {
  const t0 = performance.now();
  const own = readOwnLists(dataDir);
  const imported = dataDir !== undefined && Object.keys(own.official).length > 0;
  const sources = officialSourceDigests(own.official);
  // The build's snapshot stands in for the shipped lists unless a newer official file
  // replaces one of them (the CSL is de-duplicated against the OFAC lists it holds): then the
  // data directory's own snapshot of its official lists does.
  const snap = imported ? null : readSnapshot(SNAPSHOT_PATH, bundleBuildId(), resourcesDir);
  // Without the build's snapshot (running from source), the shipped lists indexed once in this
  // process stand in for it: each load then extends them, as a start from the snapshot does.
  const official = imported ? officialBase(resourcesDir, dataDir, own, sources) : null;
  const base: Base = official?.base ?? (snap?.ok ? { lists: snap.lists, index: snap.index, raw: () => snap.raw } : shippedOnce(resourcesDir));
  if (official?.save) persist(official.save, save);
  const part: OfficialPart = { lists: base.lists, index: base.index, raw: base.raw, manifest: manifestHash(resourcesDir), sources };
  return withOwnLists(part, own.user, stamp, t0, official?.indexMs ?? 0, official?.how ?? (snap?.ok ? 'used' : (snap?.reason ?? 'absent')));
}

/**
 * The lists as the data directory has them now, made over `current` in this thread instead of
 * loaded again beside it (issue 38: a second index of every list, made while the first still
 * screened, cost ~400 MB during a 30 MB import): a change of the own lists adds them to the
 * official part again; a newer official file is spliced into it, its index written to the data
 * directory as loadIndexNow does. `current` itself when nothing changed; null when it cannot be
 * made so (the shipped lists changed, an import was removed, an OFAC list or the CSL changed, or
 * the official part is not held here): then the lists are loaded anew. The
 * process's cache (loadIndex) then holds the new index, never the one it replaced.
 */
export function reloadIndex(current: LoadedIndex, resourcesDir: string, dataDir: string | undefined, save: 'now' | 'soon' = 'soon'): LoadedIndex | null {
  const stamp = listsStamp(dataDir);
  if (stamp === current.stamp) return current;
  const next = reloadOver(current, resourcesDir, dataDir, stamp, save);
  if (next !== null) cache.set(`${resourcesDir}|${dataDir ?? ''}`, { stamp, index: Promise.resolve(next) });
  return next;
}

function reloadOver(current: LoadedIndex, resourcesDir: string, dataDir: string | undefined, stamp: string, save: 'now' | 'soon'): LoadedIndex | null {
  const part = current.official;
  if (!part || manifestHash(resourcesDir) !== part.manifest) return null;
  const t0 = performance.now();
  const changes = changesOver(part, dataDir);
  // A check's records not read by now are not the lists' (ReadOptions.handOver).
  dropHandedOver();
  if (changes === null) return null;
  const { sources, user, newer } = changes;
  if (newer === null || dataDir === undefined) return withOwnLists(part, user, stamp, t0, 0, current.timings.snapshot);
  // Each phase's garbage (the files and their parse, the splice's working memory, the index
  // written) is collected before the next: the index in use is still held beside it.
  collectGarbage();
  const t = performance.now();
  const flat = part.raw();
  const spliced = spliceIndex(flat.entities, flat.index, newer.replacements, () => collectWhenGrown(24));
  if (spliced === null) return null;
  const lists = versionsOver(part.lists, newer.newer);
  const raw = { entities: spliced.entities, index: spliced.index };
  const next: OfficialPart = { lists, index: restoreIndex(lazyEntityTable(raw.entities), raw.index), raw: () => raw, manifest: part.manifest, sources };
  const indexMs = performance.now() - t;
  collectGarbage();
  persist(() => {
    writePersistedData(persistedIndexPath(dataDir), persistedKey(resourcesDir, sources), lists, raw.entities, raw.index);
    collectGarbage();
  }, save);
  return withOwnLists(next, user, stamp, t0, indexMs, 'spliced in place');
}

/**
 * What changed in the data directory's lists since `part` was made: the imported official files'
 * digests, the own lists, and the changed official files read (null when none changed); null when
 * the change cannot be made over `part`. The files' bytes are let go of when this returns.
 */
function changesOver(
  part: OfficialPart, dataDir: string | undefined,
): { sources: Record<string, string>; user: Required<OwnLists>['user']; newer: ReturnType<typeof replacementsOf> } | null {
  const own = readOwnLists(dataDir);
  const sources = officialSourceDigests(own.official);
  if (Object.keys(part.sources).some((source) => !(source in sources))) return null;
  const changed = Object.keys(sources).filter((source) => sources[source] !== part.sources[source]) as (keyof typeof own.official)[];
  if (changed.length === 0) return { sources, user: own.user, newer: null };
  const newer = replacementsOf(Object.fromEntries(changed.map((source) => [source, own.official[source]])));
  return newer === null ? null : { sources, user: own.user, newer };
}

/**
 * Builds the data directory's index now and writes it there, so the next start restores it
 * (the CLI after an official list import); how it came to be, and how long it took.
 */
export function prepareIndex(resourcesDir: string, dataDir: string): { snapshot: string; ms: number } {
  const t0 = performance.now();
  const l = loadIndexNow(resourcesDir, dataDir, listsStamp(dataDir), 'now');
  return { snapshot: l.timings.snapshot, ms: Math.round(performance.now() - t0) };
}

export const DATA_RETENTION = {
  input_payload_stored: false,
  result_payload_stored: false,
  raw_provider_response_stored: false,
  biometric_media_stored: false,
  retention_model: 'ephemeral_processing_only',
} as const;

/** Metadata keys and values that look like personal data are dropped, not echoed. */
const PERSONAL_KEY = /name|birth|dob|email|e_mail|phone|mobile|address|street|postcode|zip|passport|ssn|social|national|tax|iban|account|card|document|id_number|idnumber|gender|nationality/i;
const PERSONAL_VALUE = [
  /[^\s@]+@[^\s@]+\.[^\s@]+/, // e-mail
  /\+?\d[\d\s().-]{7,}\d/, // phone-like digit runs
  /\b(19|20)\d{2}-\d{2}-\d{2}\b/, // dates
  /\b\d{2}[/.]\d{2}[/.](19|20)\d{2}\b/,
];

export function scrubMetadata(m: Record<string, string | number | boolean | null> | undefined): Record<string, string | number | boolean | null> {
  const out: Record<string, string | number | boolean | null> = {};
  for (const [k, v] of Object.entries(m ?? {})) {
    if (PERSONAL_KEY.test(k)) continue;
    if (typeof v === 'string' && PERSONAL_VALUE.some((re) => re.test(v))) continue;
    out[k] = v;
  }
  return out;
}

export interface ScreenCall {
  id: string;
  created: number;
  livemode: boolean;
  subject: Subject;
  lists?: ListKind[] | undefined;
  clientReferenceId?: string | undefined;
  metadata?: Record<string, string | number | boolean | null> | undefined;
  /** The caller's organisation's list-freshness windows (defaults when absent, e.g. the CLI); `stale` is judged at `created`. */
  staleWindows?: ListFreshnessSettings | undefined;
  rescreen?: {
    previous_screening_id: string;
    reason: NonNullable<ScreeningResponse['rescreen']>['reason'];
    summary?: PreviousResultSummary | undefined;
  };
}

/** The requested kinds that are actually loaded; the spec's lists_checked. */
export function listsToCheck(loaded: readonly ListKind[], requested: readonly ListKind[] | undefined): ListKind[] {
  const want = requested ?? LIST_KINDS;
  return LIST_KINDS.filter((k) => want.includes(k) && loaded.includes(k));
}

/**
 * A sanctions match before a PEP match of the same name: what carries the most risk comes first;
 * within a risk level the engine's order (strength, score) stands (the sort is stable).
 */
function highRiskFirst(matches: ScreeningResponse['matches']): ScreeningResponse['matches'] {
  const rank = (m: ScreeningResponse['matches'][number]) => (m.risk_level === 'high' ? 0 : 1);
  return [...matches].sort((a, b) => rank(a) - rank(b));
}

/**
 * The list versions an answer names, with freshness on the answer's UTC day. Freshness changes
 * only from one day to the next, so a run of screens on one index shares one computed array
 * (the answer is serialised, never changed) instead of re-reading every list's dates per screen.
 */
const VERSIONS_SHOWN = new WeakMap<LoadedIndex, { key: string; versions: ListVersion[] }>();
function versionsShown(loaded: LoadedIndex, lists: readonly ListKind[], windows: ScreenCall['staleWindows'], now: number): ListVersion[] {
  const w = windows ?? DEFAULT_STALE_DAYS;
  const key = `${lists.join(',')}|${w.sanctions_stale_days}|${w.pep_stale_days}|${Math.floor(now / DAY_MS)}`;
  const hit = VERSIONS_SHOWN.get(loaded);
  if (hit?.key === key) return hit.versions;
  const versions = withFreshness(loaded.versions.filter((v) => lists.includes(v.kind)), w, now);
  VERSIONS_SHOWN.set(loaded, { key, versions });
  return versions;
}

export function runScreening(loaded: LoadedIndex, call: ScreenCall): ScreeningResponse {
  const lists = listsToCheck(loaded.loadedKinds, call.lists);
  const result = screen(loaded.index, call.subject, { lists, cleared: call.rescreen?.summary?.cleared_matches ?? [] }, loaded.scratch);
  const risk = assessRisk(
    result.matches.map((m) => ({ kind: m.list, score: m.score, strength: m.strength, cleared: m.cleared })),
    result.flags,
  );
  const response: ScreeningResponse = {
    id: call.id,
    object: 'compliance.screening',
    livemode: call.livemode,
    created: Math.floor(call.created / 1000),
    status: 'completed',
    client_reference_id: call.clientReferenceId ?? null,
    subject_type: 'individual',
    provider: { normalized: true, raw_response_included: false },
    screening: {
      lists_checked: lists,
      screened_at: new Date(call.created).toISOString(),
      search_mode: 'standard',
      provider_reference_id: null,
      list_versions: versionsShown(loaded, lists, call.staleWindows, call.created),
      matcher_version: MATCHER_VERSION,
    },
    risk: { score: risk.score, level: risk.level, decision: risk.decision, reasons: risk.reasons },
    matches: highRiskFirst(result.matches),
    flags: risk.flags,
    data_retention: DATA_RETENTION,
    metadata: scrubMetadata(call.metadata),
  };
  if (call.rescreen) {
    // The previous result names the matcher that made it: say whether this one is another, so
    // a risk change from new matching rules is not read as one from new lists.
    const before = call.rescreen.summary?.matcher_version;
    response.rescreen = {
      previous_screening_id: call.rescreen.previous_screening_id,
      reason: call.rescreen.reason,
      risk_change: riskChange(risk, call.rescreen.summary),
      ...(before !== undefined ? { matcher_changed: before !== MATCHER_VERSION } : {}),
    };
  }
  return response;
}

/** Public-safe fields for webhook events: no subject, reference, metadata or list records. */
export function eventFields(r: ScreeningResponse): Record<string, unknown> {
  return {
    screening: {
      id: r.id, object: r.object, livemode: r.livemode, created: r.created, status: r.status,
      lists_checked: r.screening.lists_checked, list_versions: r.screening.list_versions, matcher_version: r.screening.matcher_version,
      risk: r.risk, flags: r.flags, match_count: r.matches.filter((m) => !m.cleared).length,
      ...(r.rescreen ? { rescreen: r.rescreen } : {}),
    },
  };
}

export type ListsState = 'loading' | 'ready' | 'failed';

/**
 * Retry-After (seconds) of a screening refused while the lists load. A start restores its index
 * in a second or two; a screening refused has already waited `ready`'s bound, so the load is a
 * rebuild (a new build, changed lists) and takes some seconds more.
 */
export const LOADING_RETRY_AFTER_S = 5;

/**
 * Loads the lists somewhere else (the screening worker) and answers their meta, or null when it
 * cannot (no built worker: running from source), in which case they are loaded in this thread.
 */
export type RemoteLoader = () => Promise<LoadedIndex | null>;

/**
 * Per-service handle on the process-wide index: start loading early, wait a bounded time.
 * `before` runs before each load (the lists shared with other instances brought into the data
 * directory, shared.ts); a failure of it leaves the lists as the data directory has them.
 */
export function createScreening(resourcesDir: string, dataDir?: string, remote?: RemoteLoader, before?: () => Promise<unknown>) {
  const load = async (): Promise<LoadedIndex> => {
    await before?.().catch(() => {});
    return (await remote?.()) ?? loadIndex(join(resourcesDir, 'watchlists'), dataDir);
  };
  let state: ListsState = 'loading';
  let loaded: LoadedIndex | null = null;
  let promise: Promise<LoadedIndex> | null = null;
  let stamp = listsStamp(dataDir);
  const reloaded: (() => void)[] = [];
  let refreshing: Promise<boolean> | null = null;
  function start(): Promise<LoadedIndex> {
    promise ??= load().then(
      (l) => {
        state = 'ready';
        loaded = l;
        return l;
      },
      (e: unknown) => {
        state = 'failed';
        throw e;
      },
    );
    return promise;
  }
  return {
    start,
    /**
     * Rebuilds when the data directory's lists changed; the old index serves meanwhile. Calls
     * overlap (the 5 s watch, an import through the console): a caller waits for the rebuild in
     * progress, then checks again, so an import is visible when its request answers.
     */
    async refresh(): Promise<boolean> {
      let changed = false;
      for (;;) {
        if (refreshing) {
          changed = (await refreshing) || changed;
          continue;
        }
        const now = listsStamp(dataDir);
        if (now === stamp) return changed;
        refreshing = (async () => {
          try {
            const next = await load();
            stamp = now;
            loaded = next;
            state = 'ready';
            promise = Promise.resolve(next);
            for (const f of reloaded) f();
            return true;
          } catch (e) {
            // A broken list file is not retried in a loop; the next change to the lists is.
            stamp = now;
            throw e;
          } finally {
            refreshing = null;
          }
        })();
      }
    },
    /** Called after the index was rebuilt from changed lists. */
    onReload(f: () => void): void {
      reloaded.push(f);
    },
    state: (): ListsState => state,
    /** The 503 of a screening that cannot be made now: with Retry-After while the lists load. */
    unavailable(): AppError {
      return state === 'loading' ? new AppError('provider_unavailable', { retry_after: LOADING_RETRY_AFTER_S }) : new AppError('provider_unavailable');
    },
    current: (): LoadedIndex | null => loaded,
    /** The index, or null when it failed to load or is not ready within the wait. */
    async ready(waitMs = 15_000): Promise<LoadedIndex | null> {
      if (loaded) return loaded;
      const p = start().catch(() => null);
      const timeout = new Promise<null>((r) => setTimeout(() => r(null), waitMs).unref());
      return Promise.race([p, timeout]);
    },
  };
}
export type Screening = ReturnType<typeof createScreening>;
