// A prebuilt snapshot of the shipped lists and their index, made at build time next to the
// service bundle (out/main/screening-index.bin), so a start does not parse the official files
// and normalise ~22,000 names again: restoring takes ~0.15 s instead of ~1.7 s. The records travel
// as JSON strings, parsed when a search first reaches one (engine.ts, lazyEntityTable).
//
// Trust: the snapshot is used only by the very build that wrote it (the build id is compiled
// into the bundle) and only while resources/watchlists/manifest.json is byte for byte the one
// it was made from; anything else falls back to loading the files. It holds public list data
// only, never a subject.
//
// The same parts, in the data directory (<data-dir>/lists/screening-index.bin, written in
// pieces: writePersistedData), stand in for the build's snapshot once an official list has been
// imported there (issue 36): they hold the official lists (shipped and imported, all public data;
// never an organisation's own lists, which are indexed on top at every start) and are used only
// when their matcher version, build and the digest of every input (the shipped manifest, each
// imported file's bytes, format and date) are the current ones. Anything else, or a file that
// cannot be read, is rebuilt and rewritten.
import { randomBytes } from 'node:crypto';
import { appendFileSync, closeSync, existsSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { crc32 } from 'node:zlib';
import { APP_ROOT, privateDir, writePrivateFile } from '../../paths';
import { indexData, lazyEntityTable, restoreIndex, type IndexData, type ScreeningIndex } from './engine';
import { sha256Hex } from './lists/common';
import type { LoadedLists, OwnLists } from './lists/load';

declare const __SCREENING_BUILD_ID__: string | undefined;

export const SNAPSHOT_FILE = 'screening-index.bin';
/** Where the build writes it: beside the service bundle. */
export const SNAPSHOT_PATH = join(APP_ROOT, 'out', 'main', SNAPSHOT_FILE);
// 3: the index carries each record's person (people.ts). 4: not compressed, a CRC-32 first.
const FORMAT = 4;

/** The build id compiled into the bundle; null when running from source (no snapshot then). */
export function bundleBuildId(): string | null {
  return typeof __SCREENING_BUILD_ID__ === 'string' ? __SCREENING_BUILD_ID__ : null;
}

/**
 * Running from source, the snapshot of the shipped lists a whole test run uses (the current
 * build's, else one made for the run: test/shipped-index-setup.ts), named by this variable: each
 * test worker restores it instead of indexing the lists again (4 workers spent about 60 s of the
 * unit phase doing so). Never read by a build, which restores its own.
 */
export const RUN_SNAPSHOT_ENV = 'CONSOLE_RUN_SNAPSHOT';
/** The id a run's snapshot is written with; the variable below names the id to read it with (a current build's own). */
export const RUN_SNAPSHOT_ID = 'source-run';
export const RUN_SNAPSHOT_ID_ENV = `${RUN_SNAPSHOT_ENV}_ID`;
/** The SHA-256 of the manifest the run's snapshot was made from: other lists' folders do not read the file. */
export const RUN_SNAPSHOT_MANIFEST_ENV = `${RUN_SNAPSHOT_ENV}_MANIFEST`;

type ShippedLists = Omit<LoadedLists, 'timings_ms'>;
/** What a restore gives besides the index: the lists' versions and what loading them skipped. */
export type SnapshotLists = Pick<LoadedLists, 'versions' | 'skipped'>;

interface SnapshotFile {
  format: number;
  buildId: string;
  manifestSha256: string;
  lists: SnapshotLists;
  /** Each record as JSON, in index order. */
  entities: string[];
  index: IndexData;
}

/** The SHA-256 of a lists folder's manifest.json: what a snapshot of its lists is tied to. */
export function manifestHash(watchlistsDir: string): string {
  return sha256Hex(readFileSync(join(watchlistsDir, 'manifest.json')));
}

/** Writes the snapshot of the shipped lists (loaded from `watchlistsDir`) and their index. */
export function writeSnapshot(file: string, buildId: string, watchlistsDir: string, lists: ShippedLists, index: ScreeningIndex): number {
  const body: SnapshotFile = {
    format: FORMAT, buildId, manifestSha256: manifestHash(watchlistsDir),
    lists: { versions: lists.versions, skipped: lists.skipped },
    entities: lists.entities.map((e) => JSON.stringify(e)),
    index: indexData(index),
  };
  // Not compressed: gunzipping it was ~0.55 s of every start (issue 38); an installer compresses
  // what it ships anyway. A CRC-32 of the body comes first, as in the data directory's.
  const payload = serialize(body);
  writeFileSync(`${file}.tmp`, crcOf(crc32(payload)));
  appendFileSync(`${file}.tmp`, payload);
  renameSync(`${file}.tmp`, file);
  return payload.length + 4;
}

/** A CRC-32 as the 4 bytes before a body, little-endian: written apart from the body, which is tens of MB, instead of copying it behind them. */
function crcOf(crc: number): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32LE(crc >>> 0, 0);
  return head;
}

/** The body after its CRC-32, or null when the CRC does not fit (a file cut short or changed by a byte). */
function checkedBody(bytes: Buffer): Buffer | null {
  return bytes.length >= 4 && bytes.readUInt32LE(0) === crc32(bytes.subarray(4)) >>> 0 ? bytes.subarray(4) : null;
}

export type SnapshotRead =
  | { ok: true; lists: SnapshotLists; index: ScreeningIndex; raw: { entities: string[]; index: IndexData } }
  | { ok: false; reason: 'absent' | 'other_build' | 'manifest_changed' | 'unreadable' };

/** A file's body after its CRC-32, as v8 wrote it; null when it is cut short, changed by a byte or not a v8 value. */
function readBody<T>(file: string): T | null {
  try {
    const checked = checkedBody(readFileSync(file));
    return checked === null ? null : (deserialize(checked) as T);
  } catch {
    return null;
  }
}

/** The id of the build that wrote a snapshot; null when there is none or it cannot be read. */
export function snapshotIdOf(file: string): string | null {
  const body = existsSync(file) ? readBody<SnapshotFile>(file) : null;
  return body?.format === FORMAT && typeof body.buildId === 'string' ? body.buildId : null;
}

/** The snapshot, when it was made by build `buildId` from the manifest now in `watchlistsDir`. */
export function readSnapshot(file: string, buildId: string | null, watchlistsDir: string): SnapshotRead {
  if (buildId === null || !existsSync(file)) return { ok: false, reason: 'absent' };
  const body = readBody<SnapshotFile>(file);
  if (body === null) return { ok: false, reason: 'unreadable' };
  if (body.format !== FORMAT || body.buildId !== buildId) return { ok: false, reason: 'other_build' };
  if (body.manifestSha256 !== manifestHash(watchlistsDir)) return { ok: false, reason: 'manifest_changed' };
  return { ok: true, lists: body.lists, index: restoreIndex(lazyEntityTable(body.entities), body.index), raw: { entities: body.entities, index: body.index } };
}

/** What a persisted index was made from; all of it must be the current one for it to be used. */
export interface PersistedKey {
  /** MATCHER_VERSION: the normalisation and keys the index holds come from the matcher. */
  matcherVersion: string;
  /** The bundle's build id ('source' when running from source): importers and engine code. */
  buildId: string;
  /** officialInputsDigest: the shipped manifest and every imported official file. */
  inputs: string;
}

// 2: written and read in pieces (the whole file as one v8 value was tens of MB more to write).
// 3: the flat index a field per piece (as one piece, ~25 MB more to write it).
const PERSISTED_FORMAT = 3;

/** What a persisted index's first piece says: what it was made from, and how many records follow. */
interface PersistedHead extends PersistedKey {
  format: number;
  kind: 'data-dir-index';
  lists: SnapshotLists;
  records: number;
  /** The flat index's fields, each a piece of its own after the records. */
  fields: (keyof IndexData)[];
}

interface PersistedFile extends PersistedHead {
  entities: string[];
  index: IndexData;
}

/** Records per piece of a persisted index's file. */
const PIECE_RECORDS = 5000;

/**
 * Per imported source, a digest of what its part of the official lists' index is made from: its
 * format, title, kind, retrieval date and every file's bytes. Hashing the bytes read, not
 * index.json's record of them, so a file changed on disk is never screened with an index of its
 * former content.
 */
export function officialSourceDigests(official: NonNullable<OwnLists['official']>): Record<string, string> {
  return Object.fromEntries(Object.entries(official).map(([source, own]) => [source, sha256Hex(new TextEncoder().encode(JSON.stringify({
    format: own!.format, title: own!.title, kind: own!.kind, retrievalDate: own!.retrievalDate,
    files: Object.entries(own!.files).sort(([a], [b]) => a.localeCompare(b)).map(([role, bytes]) => [role, bytes ? sha256Hex(bytes) : null]),
  })))]));
}

/** A digest of what the official lists' index is made from: the shipped manifest and each imported source's digest. */
export function officialInputsDigest(watchlistsDir: string, sources: Record<string, string>): string {
  const ordered = Object.entries(sources).sort(([a], [b]) => a.localeCompare(b));
  return sha256Hex(new TextEncoder().encode(JSON.stringify({ manifest: manifestHash(watchlistsDir), sources: ordered })));
}

/**
 * Writes the official lists and their index under `key`, atomically (0600, folder 0700); its
 * size. Not compressed, like the build's snapshot: gunzipping its 35 MB took 0.25 s of every
 * start here, the disk it saves (28 MB) is the data directory's. A CRC-32 of the body comes first.
 */
export function writePersistedIndex(file: string, key: PersistedKey, lists: SnapshotLists & { entities: LoadedLists['entities'] }, index: ScreeningIndex): number {
  return writePersistedData(file, key, lists, lists.entities.map((e) => JSON.stringify(e)), indexData(index));
}

/**
 * writePersistedIndex of an index already flat, its records already JSON (splice.ts). The file is
 * a CRC-32 of the rest, then pieces, each its length and a v8 value: the head (PersistedHead), the
 * records a few thousand at a time, the flat index's fields one by one; written a piece at a
 * time, so writing it takes memory for one piece, not for the whole file beside the index it holds.
 */
export function writePersistedData(file: string, key: PersistedKey, lists: SnapshotLists, entities: string[], index: IndexData): number {
  const head: PersistedHead = {
    format: PERSISTED_FORMAT, kind: 'data-dir-index', ...key, lists: { versions: lists.versions, skipped: lists.skipped }, records: entities.length,
    fields: Object.keys(index) as (keyof IndexData)[],
  };
  privateDir(dirname(file));
  // Own name per writer: two threads (an old and a new screening worker) may write at once.
  const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  writePrivateFile(tmp, Buffer.alloc(4));
  let crc = 0;
  let size = 4;
  const put = (value: unknown) => {
    const body = serialize(value);
    const length = Buffer.alloc(4);
    length.writeUInt32LE(body.length, 0);
    crc = crc32(body, crc32(length, crc));
    appendFileSync(tmp, length);
    appendFileSync(tmp, body);
    size += 4 + body.length;
  };
  put(head);
  for (let i = 0; i < entities.length; i += PIECE_RECORDS) put(entities.slice(i, i + PIECE_RECORDS));
  for (const field of head.fields) put(index[field]);
  const fd = openSync(tmp, 'r+');
  try {
    writeSync(fd, crcOf(crc), 0, 4, 0);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
  return size;
}

/** A persisted index's file read back whole; null when its CRC-32 does not fit or its pieces cannot be read. */
function readPersistedFile(file: string): PersistedFile | null {
  try {
    const body = checkedBody(readFileSync(file));
    if (body === null) return null;
    const pieces: unknown[] = [];
    for (let at = 0; at < body.length;) {
      const length = at + 4 <= body.length ? body.readUInt32LE(at) : -1;
      if (length < 0 || at + 4 + length > body.length) return null;
      pieces.push(deserialize(body.subarray(at + 4, at + 4 + length)));
      at += 4 + length;
    }
    const [head, ...rest] = pieces as [PersistedHead, ...unknown[]];
    const fields = Array.isArray(head.fields) ? head.fields : [];
    const values = rest.splice(rest.length - fields.length);
    const index = Object.fromEntries(fields.map((field, i) => [field, values[i]])) as unknown as IndexData;
    const entities = (rest as string[][]).flat();
    return head.records === entities.length ? { ...head, entities, index } : null;
  } catch {
    return null;
  }
}

export type PersistedRead =
  | { ok: true; lists: SnapshotLists; index: ScreeningIndex; raw: { entities: string[]; index: IndexData } }
  | { ok: false; reason: 'absent' | 'unreadable' | 'other_matcher' | 'other_build' | 'inputs_changed' };

/** The persisted index, when it was made under `key`; else why it cannot be used. */
export function readPersistedIndex(file: string, key: PersistedKey): PersistedRead {
  if (!existsSync(file)) return { ok: false, reason: 'absent' };
  // A file cut short or changed by a byte is not restored: its CRC-32 no longer fits.
  const body = readPersistedFile(file);
  if (body === null) return { ok: false, reason: 'unreadable' };
  try {
    if (body.format !== PERSISTED_FORMAT || body.kind !== 'data-dir-index') return { ok: false, reason: 'unreadable' };
    if (body.matcherVersion !== key.matcherVersion) return { ok: false, reason: 'other_matcher' };
    if (body.buildId !== key.buildId) return { ok: false, reason: 'other_build' };
    if (body.inputs !== key.inputs) return { ok: false, reason: 'inputs_changed' };
    // Parts that do not fit together (written by something else) are not restored.
    const d = body.index;
    const fits = Array.isArray(body.entities) && Array.isArray(body.lists.versions) && d.offsets.length === d.keys.length + 1
      && d.nameText.length === d.nameEntity.length && d.dfTokens.length === d.dfCounts.length && d.offsets[d.keys.length] === d.data.length;
    if (!fits) return { ok: false, reason: 'unreadable' };
    return { ok: true, lists: body.lists, index: restoreIndex(lazyEntityTable(body.entities), d), raw: { entities: body.entities, index: d } };
  } catch {
    // Not this shape.
    return { ok: false, reason: 'unreadable' };
  }
}
