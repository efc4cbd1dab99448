// Build step, not part of the running service: electron.vite.config.ts runs this bundle right
// after writing out/main, and it writes the snapshot of the shipped lists and their index that
// this same build's service restores at start (see core/screening/snapshot.ts).
import { join } from 'node:path';
import { buildIndex } from './core/screening/engine';
import { loadShippedLists } from './core/screening/lists/load';
import { bundleBuildId, SNAPSHOT_PATH, writeSnapshot } from './core/screening/snapshot';
import { defaultResourcesDir } from './paths';

const id = bundleBuildId();
if (id === null) throw new Error('snapshot-build runs from the bundle only (it needs the build id)');
const watchlists = join(defaultResourcesDir(), 'watchlists');
const started = performance.now();
const lists = loadShippedLists(watchlists);
const index = buildIndex(lists.entities);
const bytes = writeSnapshot(SNAPSHOT_PATH, id, watchlists, lists, index);
process.stdout.write(
  `screening snapshot: ${lists.entities.length} records, ${index.stats.names} names, ${(bytes / 1e6).toFixed(1)} MB in ${Math.round(performance.now() - started)} ms\n`,
);
