// A prebuilt snapshot of the shipped lists and their index, made at build time next to the
// service bundle (out/main/screening-index.bin), so a start does not parse the official files
// and normalise ~22,000 names again: restoring takes ~0.15 s instead of ~1.7 s. The records travel
// as JSON strings, parsed when a search first reaches one (engine.ts, lazyEntityTable).
//
// Trust: the snapshot is used only by the very build that wrote it (the build id is compiled
// into the bundle) and only while resources/watchlists/manifest.json is byte for byte the one
// it was made from; anything else falls back to loading the files. It holds public list data
// only, never a subject.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { gunzipSync, gzipSync } from 'node:zlib';
import { APP_ROOT } from '../../paths';
import { indexData, lazyEntityTable, restoreIndex, type IndexData, type ScreeningIndex } from './engine';
import { sha256Hex } from './lists/common';
import type { LoadedLists } from './lists/load';

declare const __SCREENING_BUILD_ID__: string | undefined;

export const SNAPSHOT_FILE = 'screening-index.bin';
/** Where the build writes it: beside the service bundle. */
export const SNAPSHOT_PATH = join(APP_ROOT, 'out', 'main', SNAPSHOT_FILE);
// 3: the index carries each record's person (people.ts).
const FORMAT = 3;

/** The build id compiled into the bundle; null when running from source (no snapshot then). */
export function bundleBuildId(): string | null {
  return typeof __SCREENING_BUILD_ID__ === 'string' ? __SCREENING_BUILD_ID__ : null;
}

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

function manifestHash(watchlistsDir: string): string {
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
  const bytes = gzipSync(serialize(body), { level: 6 });
  writeFileSync(`${file}.tmp`, bytes);
  renameSync(`${file}.tmp`, file);
  return bytes.length;
}

export type SnapshotRead =
  | { ok: true; lists: SnapshotLists; index: ScreeningIndex }
  | { ok: false; reason: 'absent' | 'other_build' | 'manifest_changed' | 'unreadable' };

/** The snapshot, when it was made by build `buildId` from the manifest now in `watchlistsDir`. */
export function readSnapshot(file: string, buildId: string | null, watchlistsDir: string): SnapshotRead {
  if (buildId === null || !existsSync(file)) return { ok: false, reason: 'absent' };
  let body: SnapshotFile;
  try {
    body = deserialize(gunzipSync(readFileSync(file))) as SnapshotFile;
  } catch {
    return { ok: false, reason: 'unreadable' };
  }
  if (body.format !== FORMAT || body.buildId !== buildId) return { ok: false, reason: 'other_build' };
  if (body.manifestSha256 !== manifestHash(watchlistsDir)) return { ok: false, reason: 'manifest_changed' };
  return { ok: true, lists: body.lists, index: restoreIndex(lazyEntityTable(body.entities), body.index) };
}
