// Lists shared by the instances on one PostgreSQL (issue 40). Each instance keeps its lists in its
// own data directory's lists folder (store.ts), where screening reads them. The database holds the
// shared version of that folder (shared-repo.ts: each file's SHA-256, and the bytes once each):
//   - a change (an import, a held import confirmed or discarded, an own list removed) runs under
//     the store's lock, with the folder first brought to the shared version; what it changed is
//     written as the next version, and the other instances are notified (LISTEN/NOTIFY);
//   - an instance that hears of a version, or finds one on its poll (a notification its dropped
//     connection missed) or when it starts, brings its folder to it, and its index is reloaded:
//     an import reaches every instance within a second, without a restart.
// An instance whose folder has lists the database has never seen (an installation moved from its
// SQLite file, `db copy`) shares them as the first version. On SQLite, one process serves the data
// directory: its folder is all there is, and nothing here runs.
//
// What is shared is public list data and the organisation's own lists, as the folder holds them;
// never a subject screened. The index an instance builds from them is its own (not shared).
import { createHash } from 'node:crypto';
import { appendFileSync, closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import type { Engine, Q } from '../../../db/engine';
import { privateDir, writePrivateFile } from '../../../paths';
import { listsDir } from './store';
import { BLOB_PART_BYTES, sharedListsRepo as repo, type FileShas, type SharedVersion } from './shared-repo';

/** The notification's channel, and the advisory lock a change takes (any fixed number). */
const CHANNEL = 'console_lists';
const LISTS_LOCK = 4_310_029;
/** How often an instance looks for a version it was not told of (a notification lost with its connection). */
export const POLL_MS = 30_000;
/** The version this folder was last brought to, in the folder (not shared). */
const MARKER = 'shared.json';
/** What of the folder is shared: its two index files and three folders of list files. */
const TOP_FILES = ['held.json', 'index.json'] as const;
const FOLDERS = ['official', 'held', 'user'] as const;
/** A shared path, as this module writes them: never outside the folder, whatever the database says. */
const SHARED_PATH = /^(?:held\.json|index\.json|(?:official|held|user)(?:\/[A-Za-z0-9_][A-Za-z0-9._-]*)+)$/;

export interface SharedLists {
  /** Whether the lists are shared with other instances (PostgreSQL). */
  readonly shared: boolean;
  /** Brings the folder to the shared version; true when its files changed. */
  pull(): Promise<boolean>;
  /** Runs `work`, a change to the folder (synchronous), on the shared version under the lock, and shares what it changed. */
  change<T>(work: () => T): Promise<T>;
  /** Follows the other instances' changes, calling `changed` after each that changed the folder; answers the stop. */
  follow(changed: () => void): Promise<() => Promise<void>>;
}

/** A log line: its name and counts (never a list's name or contents). */
type Log = (msg: string, fields: Record<string, number>) => void;

export function createSharedLists(engine: Engine, dataDir: string, now: () => Date, log: Log = () => {}): SharedLists {
  if (engine.dialect === 'sqlite') {
    return { shared: false, pull: async () => false, change: async (work) => work(), follow: async () => async () => {} };
  }
  const dir = listsDir(dataDir);
  // One change or pull at a time in this process (the lock orders them across instances).
  let turn: Promise<unknown> = Promise.resolve();
  const serial = <T>(f: () => Promise<T>): Promise<T> => {
    const next = turn.then(f, f);
    turn = next.catch(() => {});
    return next;
  };

  const readMarker = (): SharedVersion | null => {
    try {
      return JSON.parse(readFileSync(join(dir, MARKER), 'utf8')) as SharedVersion;
    } catch {
      return null;
    }
  };
  const writeMarker = (v: SharedVersion | null): void => {
    privateDir(dir);
    writeAtomically(join(dir, MARKER), JSON.stringify(v ?? { version: 0, files: {} }));
  };

  /** The shared files of the folder as they are now. */
  const scan = (): FileShas => {
    const out: FileShas = {};
    for (const f of TOP_FILES) if (existsSync(join(dir, f))) out[f] = fileSha256(join(dir, f));
    const walk = (rel: string): void => {
      for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
        const path = posix.join(rel, e.name);
        if (e.isDirectory()) walk(path);
        else if (e.isFile() && !e.name.endsWith('.tmp')) out[path] = fileSha256(join(dir, path));
      }
    };
    for (const f of FOLDERS) if (existsSync(join(dir, f))) walk(f);
    return out;
  };

  /**
   * Writes the files of `head` the folder lacks or has otherwise and removes those it no longer
   * has; the index files last, so the reload their change starts finds the list files in place.
   */
  const bringTo = async (q: Q, head: SharedVersion, local: FileShas): Promise<boolean> => {
    const paths = Object.keys(head.files).filter((p) => SHARED_PATH.test(p));
    const last = (p: string) => (TOP_FILES as readonly string[]).includes(p);
    let changed = false;
    for (const path of [...paths.filter((p) => !last(p)), ...TOP_FILES.filter((p) => paths.includes(p))]) {
      const sha = head.files[path]!;
      if (local[path] === sha) continue;
      privateDir(dirname(join(dir, path)));
      if (!(await writePartsAtomically(join(dir, path), repo.blobParts(q, sha)))) throw new Error(`shared lists: the bytes of ${path} are missing`);
      changed = true;
    }
    for (const path of Object.keys(local)) {
      if (Object.hasOwn(head.files, path)) continue;
      rmSync(join(dir, path), { force: true });
      changed = true;
    }
    return changed;
  };

  /** The folder shared as the next version (when it differs from `head`), under the lock `tx` holds. */
  const publish = async (tx: Q, head: SharedVersion | null): Promise<SharedVersion | null> => {
    const files = scan();
    if (head && sameFiles(files, head.files)) return head;
    if (!head && Object.keys(files).length === 0) return null;
    const shas = [...new Set(Object.values(files))];
    const stored = await repo.stored(tx, shas);
    for (const [path, sha] of Object.entries(files)) {
      if (stored.has(sha)) continue;
      await repo.putBlob(tx, sha, fileParts(join(dir, path)));
      stored.add(sha);
    }
    const next = { version: (head?.version ?? 0) + 1, files };
    await repo.put(tx, next, now().toISOString());
    await repo.dropUnused(tx, shas);
    await engine.notify(tx, CHANNEL, String(next.version));
    return next;
  };

  const change = <T>(work: () => T): Promise<T> => serial(async () => {
    let done: SharedVersion | null = null;
    const out = await engine.transaction(async (tx) => {
      await engine.exclusive(tx, LISTS_LOCK);
      const head = await repo.head(tx);
      if (head && readMarker()?.version !== head.version) await bringTo(tx, head, scan());
      // Until the new version is committed, the folder is ahead of it: a failure leaves it to be
      // brought back to the shared version by the next pull.
      writeMarker(null);
      const result = work();
      done = await publish(tx, head);
      return result;
    });
    writeMarker(done);
    return out;
  });

  const pull = (): Promise<boolean> => serial(async () => {
    const head = await repo.head(engine.q);
    const marker = readMarker();
    if (head === null) {
      // Nothing shared yet: lists this folder holds (an installation moved here) become the first version.
      if (marker === null && Object.keys(scan()).length > 0) {
        const first = await engine.transaction(async (tx) => {
          await engine.exclusive(tx, LISTS_LOCK);
          const raced = await repo.head(tx);
          if (raced) return { version: raced, changed: await bringTo(tx, raced, scan()) };
          return { version: await publish(tx, null), changed: false };
        });
        writeMarker(first.version);
        return first.changed;
      }
      return false;
    }
    if (marker?.version === head.version) return false;
    const local = scan();
    if (marker === null) {
      // A folder joining a store already shared (its lists never were) takes the shared version:
      // lists only it held are replaced, and the operator is told how many (docs/scale.md).
      const lost = Object.keys(local).filter((p) => head.files[p] !== local[p]);
      if (lost.length > 0) log('lists_replaced_by_shared', { files: lost.length, own_lists: lost.filter((p) => p.startsWith('user/')).length, version: head.version });
    }
    // One snapshot for the version and its bytes: a change committed meanwhile cannot take them away.
    const pulled = await engine.snapshot(async (tx) => {
      const h = (await repo.head(tx)) ?? head;
      return { version: h, changed: await bringTo(tx, h, local) };
    });
    writeMarker(pulled.version);
    return pulled.changed;
  });

  return {
    shared: true,
    pull,
    change,
    async follow(changed) {
      const check = () => {
        pull().then((c) => c && changed(), () => {});
      };
      const stopListening = await engine.listen(CHANNEL, check);
      const poll = setInterval(check, POLL_MS);
      poll.unref();
      // What changed while this instance was down, or before it listened.
      check();
      return async () => {
        clearInterval(poll);
        await stopListening();
      };
    },
  };
}

/**
 * A file's bytes, a part at a time (an official file is tens of megabytes: never held whole to be
 * hashed or stored). Each part is read into the same buffer: a part is used before the next is
 * asked for (hashed, or written to the database and awaited), and the HTTP thread makes no
 * megabytes of garbage per file.
 */
function* fileParts(path: string): Generator<Uint8Array> {
  const fd = openSync(path, 'r');
  const part = Buffer.allocUnsafe(BLOB_PART_BYTES);
  try {
    for (;;) {
      const n = readSync(fd, part);
      if (n <= 0) return;
      yield part.subarray(0, n);
    }
  } finally {
    closeSync(fd);
  }
}

function fileSha256(path: string): string {
  const hash = createHash('sha256');
  for (const part of fileParts(path)) hash.update(part);
  return hash.digest('hex');
}

function sameFiles(a: FileShas, b: FileShas): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => b[k] === a[k]);
}

/** Written aside and renamed into place: a reader never sees half a file. */
function writeAtomically(path: string, data: string | Uint8Array): void {
  const tmp = `${path}.tmp`;
  writePrivateFile(tmp, data);
  renameSync(tmp, path);
}

/** writeAtomically of a file given a part at a time (an official file is never held whole); false when no part came. */
async function writePartsAtomically(path: string, parts: AsyncIterable<Uint8Array>): Promise<boolean> {
  const tmp = `${path}.tmp`;
  writePrivateFile(tmp, '');
  let any = false;
  try {
    for await (const part of parts) {
      appendFileSync(tmp, part);
      any = true;
    }
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
  if (any) renameSync(tmp, path);
  else rmSync(tmp, { force: true });
  return any;
}
