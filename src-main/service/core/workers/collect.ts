// Collecting garbage at the end of a phase that made a lot of it and is done with it: an official
// list import parses a file of tens of MB and splices its records into the index in use (a worker
// holding hundreds of MB). V8 collects the old generation only when it has grown well past what
// is live, so without this the resident memory of such a phase is the sum of every phase's
// garbage (issue 38: ~370 MB for a 30 MB file). The flag exposes `gc` to contexts made after it;
// nothing else changes. In a worker thread unless asked for `here`: a full collection on a
// process's main thread (the HTTP loop; the tests and the CLI, where the worker program runs in
// this thread) stops everything else for as long. The HTTP thread asks once an official file is
// stored: the upload it let go of (30 MB) would otherwise stay until its heap grows enough for a
// collection of its own, beside the reload's peak.
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { isMainThread } from 'node:worker_threads';

let gc: (() => void) | null | undefined;
/** The heap in use after the last collection made here. */
let after = 0;

/** A full collection now (synchronous: ~0.05 s for a few hundred MB), in a worker thread or `here`; nothing elsewhere or where it cannot be had. */
export function collectGarbage(where: 'worker' | 'here' = 'worker'): void {
  if (isMainThread && where === 'worker') return;
  if (gc === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      gc = runInNewContext('gc') as () => void;
    } catch {
      gc = null;
    }
  }
  gc?.();
  after = getHeapStatistics().used_heap_size;
}

/**
 * A full collection when the heap has grown by `mb` since the last one made here: for a long
 * phase that keeps little of what it makes (indexing a file's records a batch at a time), so its
 * garbage never adds up to more than that.
 */
export function collectWhenGrown(mb = 48): void {
  if (getHeapStatistics().used_heap_size - after >= mb * 2 ** 20) collectGarbage();
}
