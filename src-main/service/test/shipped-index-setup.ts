// Vitest's global setup: the shipped lists indexed once for the whole run, as a snapshot that
// every test worker (and every service a test starts from source) restores instead of indexing
// the lists again (core/screening/snapshot.ts, RUN_SNAPSHOT_ENV). Each worker of the shared and
// PostgreSQL projects built it itself before: 12–20 s apiece beside the other files.
// When the build is current (`npm test` builds first), its own snapshot is that index; otherwise
// one is made for this run, so it is never older than the code or the lists it was made from.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isBuildCurrent } from '../../../scripts/build.mjs';
import { buildIndex } from '../core/screening/engine';
import { loadShippedLists } from '../core/screening/lists/load';
import {
  manifestHash, RUN_SNAPSHOT_ENV, RUN_SNAPSHOT_ID, RUN_SNAPSHOT_ID_ENV, RUN_SNAPSHOT_MANIFEST_ENV, SNAPSHOT_PATH, snapshotIdOf, writeSnapshot,
} from '../core/screening/snapshot';
import { APP_ROOT } from '../paths';

const OWNER = `${RUN_SNAPSHOT_ENV}_RUN`;

export default function setup(): () => void {
  // Both projects name this setup; the first one run names the snapshot, the other finds it
  // (a name left in the environment by anything but this run is not trusted).
  const named = process.env[RUN_SNAPSHOT_ENV];
  if (named && process.env[OWNER] === String(process.pid) && existsSync(named)) return () => undefined;
  const watchlists = join(APP_ROOT, 'resources', 'watchlists');
  const name = (file: string, id: string) => {
    process.env[RUN_SNAPSHOT_ENV] = file;
    process.env[RUN_SNAPSHOT_ID_ENV] = id;
    process.env[RUN_SNAPSHOT_MANIFEST_ENV] = manifestHash(watchlists);
    process.env[OWNER] = String(process.pid);
  };
  const built = isBuildCurrent() ? snapshotIdOf(SNAPSHOT_PATH) : null;
  if (built !== null) {
    name(SNAPSHOT_PATH, built);
    return () => undefined;
  }
  const dir = mkdtempSync(join(tmpdir(), 'cc-run-snapshot-'));
  const file = join(dir, 'shipped-index.bin');
  const lists = loadShippedLists(watchlists);
  writeSnapshot(file, RUN_SNAPSHOT_ID, watchlists, lists, buildIndex(lists.entities));
  name(file, RUN_SNAPSHOT_ID);
  return () => rmSync(dir, { recursive: true, force: true });
}
