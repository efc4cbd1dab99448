// Lists an organisation adds to its data directory: a newer official file (public data, same
// formats as shipped) replacing a shipped source, and its own PEP/RCA/wanted/internal lists as
// user CSVs. Files live under <data-dir>/lists with an index.json; loading combines them with
// the shipped lists (the newer official file wins for its source). Folders are created 0700 and
// files 0600 (paths.ts): a user list is the organisation's data about people.
import { readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ListChanges, OfficialImport } from '../../../../../src-shared/contracts/lists';
import { DATA_FOLDERS, privateDir, writePrivateFile } from '../../../paths';
import type { ListEntity, ListImport } from '../types';
import { holdReason, unreadRecords, listChanges } from './changes';
import { sha256Hex } from './common';
import { importShippedSource, type LoadableList, type OwnLists } from './load';
import { readManifest } from './manifest';
import { dropHandedOver, importOfficialFile, runImporter, type FileRole, type OfficialFile, type ReadOptions } from './official';
import { SOURCE_INFO, type ListFormat, type OfficialSource } from './sources';
import { importUserList, userListSlug, type UserListIssue } from './user-csv';

/** One file of an official list as read; stored, it also has its path. */
interface OfficialFileEntry {
  name: string;
  role: FileRole;
  sha256: string;
  bytes: number;
}

interface StoredOfficial {
  source: OfficialSource;
  format: ListFormat;
  files: (OfficialFileEntry & { path: string })[];
  imported_at: string;
}

interface StoredUser {
  slug: string;
  name: string;
  path: string;
  sha256: string;
  imported_at: string;
  rows: number;
}

interface StoreIndex {
  official: Partial<Record<OfficialSource, StoredOfficial>>;
  user: Record<string, StoredUser>;
}

const INDEX = 'index.json';

export function listsDir(dataDir: string): string {
  return join(dataDir, DATA_FOLDERS.lists);
}

/** A JSON file of the lists folder, or `empty` when there is none (or it cannot be read). */
function readJson<T>(dataDir: string, name: string, empty: T): T {
  try {
    return JSON.parse(readFileSync(join(listsDir(dataDir), name), 'utf8')) as T;
  } catch {
    return empty;
  }
}

/** Replaces a JSON file of the lists folder at once (written aside, then renamed). */
function writeJson(dataDir: string, name: string, value: unknown): void {
  const dir = privateDir(listsDir(dataDir));
  const tmp = join(dir, `${name}.tmp`);
  writePrivateFile(tmp, JSON.stringify(value, null, 2));
  renameSync(tmp, join(dir, name));
}

const readIndex = (dataDir: string): StoreIndex => readJson<StoreIndex>(dataDir, INDEX, { official: {}, user: {} });
const writeIndex = (dataDir: string, index: StoreIndex): void => writeJson(dataDir, INDEX, index);

/** The bytes of a stored file set, by role. */
function readFileSet(dataDir: string, files: readonly { role: FileRole; path: string }[]): Partial<Record<FileRole, Uint8Array>> {
  const out: Partial<Record<FileRole, Uint8Array>> = {};
  for (const f of files) out[f.role] = readFileSync(join(listsDir(dataDir), f.path));
  return out;
}

/**
 * Writes a checked file set into `<folder>/<source>/` of the lists folder (replacing what was
 * there) and answers its entries with their paths.
 */
function writeFileSet(
  dataDir: string, folder: 'official' | 'held', source: OfficialSource, files: readonly OfficialFile[], check: Extract<OfficialCheck, { ok: true }>,
): (OfficialFileEntry & { path: string })[] {
  const dir = join(listsDir(dataDir), folder, source);
  rmSync(dir, { recursive: true, force: true });
  privateDir(dir);
  return check.files.map((f) => {
    // By name and size; hashing again (megabytes, on the HTTP loop) only when that is ambiguous.
    const alike = files.filter((x) => x.name === f.name && x.bytes.length === f.bytes);
    const given = alike.length === 1 ? alike[0]! : files.find((x) => sha256Hex(x.bytes) === f.sha256)!;
    const path = join(folder, source, `${f.role}${suffix(f.name, check.format)}`);
    writePrivateFile(join(listsDir(dataDir), path), given.bytes);
    return { ...f, path };
  });
}

/** Changes whenever an import or removal happened: the service reloads its index on a change. */
export function listsStamp(dataDir: string | undefined): string {
  if (!dataDir) return 'none';
  const st = statSync(join(listsDir(dataDir), INDEX), { throwIfNoEntry: false });
  return st ? String(st.mtimeMs) : 'none';
}

export type OfficialStoreOutcome = OfficialImport | { ok: false; reason: string };

/**
 * What reading an official file set found: enough to store it and to answer the import, and no
 * records. Reading is the costly part (a sanctions file is megabytes), so the service runs it in
 * its screening worker (ScreenPool.check) and storing is left with the writes.
 */
export type OfficialCheck =
  | {
    ok: true; format: ListFormat; files: OfficialFileEntry[]; records: number; list_date: string | null; sha256: string;
    /** Against the edition in use (changes.ts); `hold` says why it must be confirmed first, or null. */
    changes: ListChanges; hold: string | null;
  }
  | { ok: false; reason: string };

/**
 * Reads a newer file set of an official source and compares it with `current`, the records of the
 * edition in use (currentOfficialRecords; null when none can be read: everything is new).
 */
export function checkOfficial(
  source: OfficialSource, files: readonly OfficialFile[], current: () => readonly ListEntity[] | null = () => null, options: ReadOptions = {},
): OfficialCheck {
  const outcome = importOfficialFile(source, files, options);
  if (!outcome.ok) return outcome;
  const changes = listChanges(current(), outcome.import.entities);
  const hold = holdReason(changes, unreadRecords(outcome.import.skipped));
  // A file held for confirmation is read again when applied: its records are not kept meanwhile.
  if (hold !== null) dropHandedOver();
  return {
    ok: true, format: outcome.format, files: outcome.files, records: outcome.import.entities.length,
    list_date: outcome.import.listDate, sha256: outcome.import.sha256, changes, hold,
  };
}

/**
 * The records of the edition of `source` in use: the newer file imported into `dataDir`, else the
 * shipped one. As read from the files alone (before the CSL is de-duplicated against the OFAC
 * lists), the same way a newer file is read, so the two compare like with like.
 */
export function currentOfficialRecords(
  resourcesDir: string, dataDir: string | undefined, source: OfficialSource, options: ReadOptions = {},
): readonly ListEntity[] | null {
  const own = dataDir ? readIndex(dataDir).official[source] : undefined;
  if (own && dataDir) return runImporter(source, own.format, readFileSet(dataDir, own.files), options).entities;
  const entry = readManifest(resourcesDir).sources.find((m) => m.source === source);
  return entry ? importShippedSource(resourcesDir, entry, options).entities : null;
}

export function storeOfficial(
  dataDir: string, source: OfficialSource, files: readonly OfficialFile[], now: Date, outcome: OfficialCheck = checkOfficial(source, files),
): OfficialStoreOutcome {
  if (!outcome.ok) return outcome;
  const stored = writeFileSet(dataDir, 'official', source, files, outcome);
  const index = readIndex(dataDir);
  index.official[source] = { source, format: outcome.format, files: stored, imported_at: now.toISOString() };
  writeIndex(dataDir, index);
  discardHeldOfficial(dataDir, source);
  return answerOf(source, outcome, null);
}

function answerOf(source: OfficialSource, c: Extract<OfficialCheck, { ok: true }>, heldAt: string | null): OfficialImport {
  return {
    ok: true, source, format: c.format, records: c.records, list_date: c.list_date, sha256: c.sha256, changes: c.changes,
    held: heldAt !== null, reason: heldAt !== null ? c.hold : null, held_at: heldAt,
  };
}

// ---- Held imports: a file that would remove much of a list waits for an owner's or admin's
// confirmation in <data-dir>/lists/held/<source>/, with its check in held.json (not index.json,
// whose every change reloads the lists). Public list data only.

interface HeldOfficial {
  source: OfficialSource;
  check: Extract<OfficialCheck, { ok: true }>;
  files: (OfficialFileEntry & { path: string })[];
  held_at: string;
}

const HELD = 'held.json';

type HeldIndex = Partial<Record<OfficialSource, HeldOfficial>>;
const readHeld = (dataDir: string): HeldIndex => readJson<HeldIndex>(dataDir, HELD, {});
const writeHeld = (dataDir: string, held: HeldIndex): void => writeJson(dataDir, HELD, held);

/** Keeps a checked file set aside until it is applied or discarded; a newer upload replaces it. */
export function holdOfficial(dataDir: string, source: OfficialSource, files: readonly OfficialFile[], now: Date, check: Extract<OfficialCheck, { ok: true }>): OfficialImport {
  const stored = writeFileSet(dataDir, 'held', source, files, check);
  const held = readHeld(dataDir);
  held[source] = { source, check, files: stored, held_at: now.toISOString() };
  writeHeld(dataDir, held);
  return answerOf(source, check, held[source].held_at);
}

/** The imports held for confirmation, as the import answered them. */
export function heldOfficials(dataDir: string): OfficialImport[] {
  return Object.values(readHeld(dataDir)).filter((h) => h !== undefined).map((h) => answerOf(h.source, h.check, h.held_at));
}

/** A held import's files and check, to store them (storeOfficial); null when none is held. */
export function takeHeldOfficial(dataDir: string, source: OfficialSource): { files: OfficialFile[]; check: Extract<OfficialCheck, { ok: true }> } | null {
  const h = readHeld(dataDir)[source];
  if (!h) return null;
  const files = h.files.map((f) => ({ name: f.name, bytes: readFileSync(join(listsDir(dataDir), f.path)) }));
  return { files, check: h.check };
}

/** Drops a held import; false when none was held. */
export function discardHeldOfficial(dataDir: string, source: OfficialSource): boolean {
  const held = readHeld(dataDir);
  if (!held[source]) return false;
  rmSync(join(listsDir(dataDir), 'held', source), { recursive: true, force: true });
  delete held[source];
  writeHeld(dataDir, held);
  return true;
}

function suffix(name: string, format: ListFormat): string {
  const m = /\.[A-Za-z0-9.]+$/.exec(name);
  if (m) return m[0].toLowerCase();
  if (format === 'us-legislators-yaml') return '.yaml';
  if (format === 'wikidata-leaders-csv') return '.csv';
  if (format === 'dfat-xlsx') return '.xlsx';
  if (format === 'uk-sanctions') return '.bin';
  return format === 'csl-csv' ? '.csv.gz' : format === 'ofac-csv' ? '.csv' : '.xml';
}

export interface UserStoreOutcome {
  ok: boolean;
  source: string;
  rows: { total: number; imported: number; rejected: number };
  /** The first problems of each kind (LIST_ISSUES_REPORTED); the totals count them all. */
  errors: UserListIssue[];
  warnings: UserListIssue[];
  errors_total: number;
  warnings_total: number;
}

/** What reading an own list's CSV found (counts and the first problems, no records); see OfficialCheck. */
export type UserListCheck = Omit<UserStoreOutcome, 'source'>;

export function checkUserList(listName: string, bytes: Uint8Array): UserListCheck {
  const result = importUserList(bytes, { listName });
  return {
    ok: result.rows.imported > 0, rows: result.rows, errors: result.errors, warnings: result.warnings,
    errors_total: result.errorsTotal, warnings_total: result.warningsTotal,
  };
}

/** Stores the list when at least one row could be imported; checked is what checkUserList found in these bytes. */
export function storeUserList(
  dataDir: string, listName: string, bytes: Uint8Array, now: Date, checked: UserListCheck = checkUserList(listName, bytes),
): UserStoreOutcome {
  const slug = userListSlug(listName);
  const { ok } = checked;
  if (ok) {
    const path = join('user', `${slug}.csv`);
    privateDir(join(listsDir(dataDir), 'user'));
    writePrivateFile(join(listsDir(dataDir), path), bytes);
    const index = readIndex(dataDir);
    index.user[slug] = { slug, name: listName, path, sha256: sha256Hex(bytes), imported_at: now.toISOString(), rows: checked.rows.imported };
    writeIndex(dataDir, index);
  }
  return { ...checked, source: `user:${slug}` };
}

/** What listSlug can produce: lower-case letters and digits joined by single hyphens. */
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export function removeUserList(dataDir: string, slug: string): boolean {
  // The slug comes from the URL: never a lookup of `__proto__`, `constructor`… in the index object.
  if (!SLUG.test(slug)) return false;
  const index = readIndex(dataDir);
  const entry = Object.hasOwn(index.user, slug) ? index.user[slug] : undefined;
  if (!entry) return false;
  rmSync(join(listsDir(dataDir), entry.path), { force: true });
  delete index.user[slug];
  writeIndex(dataDir, index);
  return true;
}

export function storedLists(dataDir: string): StoreIndex {
  return readIndex(dataDir);
}

function mostCommonKind(imp: ListImport): string {
  const n = new Map<string, number>();
  for (const e of imp.entities) n.set(e.kind, (n.get(e.kind) ?? 0) + 1);
  return [...n].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'sanctions';
}

/** The data directory's own lists: newer official files and the organisation's lists. */
export function readOwnLists(dataDir: string | undefined): Required<OwnLists> {
  if (!dataDir) return { official: {}, user: [] };
  const stored = readIndex(dataDir);
  const official: OwnLists['official'] = {};
  for (const own of Object.values(stored.official)) {
    if (!own) continue;
    official[own.source] = {
      format: own.format, files: readFileSet(dataDir, own.files), title: SOURCE_INFO[own.source].title, kind: SOURCE_INFO[own.source].listKind,
      retrievalDate: own.imported_at.slice(0, 10),
    };
  }
  const user = Object.values(stored.user).map((u): LoadableList => {
    const r = importUserList(readFileSync(join(listsDir(dataDir), u.path)), { listName: u.name });
    return { import: r.import, title: u.name, kind: mostCommonKind(r.import), retrievalDate: u.imported_at.slice(0, 10) };
  });
  return { official, user };
}
