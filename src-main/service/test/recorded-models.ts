// Recorded model outputs for route tests whose subject is not the model (the flows, billing,
// rules and answers around a face or document reading). Each face analysis and document reading
// is looked up by a hash of exactly what the model was given; a recorded answer is replayed, and
// anything else runs the real model. The models themselves are tested on real inputs by their
// own files (faces.test.ts, face-match.test.ts, documents-photos.test.ts, reader.test.ts, …).
//
// A recording holds the release it was made by: a hash of the code that runs the models and of the
// installed packages it uses (the lockfile's entries of every package that code names, and of their
// dependencies, not the whole lockfile: a database driver added to the app changes no model's
// answer). Any change there and every lookup misses, so a stale recording can slow the suite down
// but never answer for code it did not see.
// `RECORD_MODELS=1 npx vitest run FILE` runs the real models and rewrites that file's recording.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { DocumentReader } from '../core/documents/pool';
import type { FacePool } from '../core/faces/pool';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const DIR = join(import.meta.dirname, 'fixtures', 'recorded-models');
/** The code that decides a model's output besides its input. */
const RELEASE_INPUTS = [
  'src-main/service/core/faces', 'src-main/service/core/documents', 'src-main/service/core/media', 'src-main/service/workers', 'src-shared/dates.ts', 'src-shared/misreadings.ts',
];

function sourcesOf(path: string, out: string[] = []): string[] {
  const st = statSync(path, { throwIfNoEntry: false });
  if (!st) return out;
  if (st.isDirectory()) {
    for (const e of readdirSync(path).sort()) if (!e.endsWith('.test.ts')) sourcesOf(join(path, e), out);
  } else out.push(path);
  return out;
}

interface LockEntry {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

/**
 * The lockfile's entries (every copy, nested ones too) of the packages the model code names in a
 * string (an import, a require, a resolved path) and of everything they depend on.
 */
export function modelPackages(sources: readonly string[], lock: { packages: Record<string, LockEntry> }): [string, LockEntry][] {
  const byName = new Map<string, [string, LockEntry][]>();
  for (const [path, entry] of Object.entries(lock.packages)) {
    const at = path.lastIndexOf('node_modules/');
    if (at < 0) continue;
    const name = path.slice(at + 'node_modules/'.length);
    byName.set(name, [...(byName.get(name) ?? []), [path, entry]]);
  }
  const named = new Set<string>();
  for (const text of sources) {
    for (const m of text.matchAll(/['"`]((?:@[a-z0-9._-]+\/)?[a-z0-9._-]+)(?=['"`/])/g)) if (byName.has(m[1]!)) named.add(m[1]!);
  }
  const todo = [...named];
  while (todo.length) {
    for (const [, entry] of byName.get(todo.pop()!) ?? []) {
      for (const dep of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies, ...entry.peerDependencies })) {
        if (named.has(dep)) continue;
        named.add(dep);
        todo.push(dep);
      }
    }
  }
  return [...named].sort().flatMap((n) => byName.get(n) ?? []);
}

let release: string | undefined;
function currentRelease(): string {
  if (release) return release;
  const h = createHash('sha256');
  const files = RELEASE_INPUTS.flatMap((p) => sourcesOf(join(ROOT, p)));
  const bytes = files.map((f) => readFileSync(f));
  files.forEach((f, i) => h.update(f.slice(ROOT.length)).update('\0').update(bytes[i]!).update('\0'));
  const texts = bytes.map((b) => b.toString('utf8'));
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  h.update(JSON.stringify(modelPackages(texts, lock)));
  release = h.digest('hex');
  return release;
}

interface RecordingFile {
  release: string;
  answers: Map<string, Uint8Array>;
}

function keyOf(kind: string, rgb: Uint8Array, fields: Record<string, unknown>): string {
  return createHash('sha256').update(kind).update(JSON.stringify(fields)).update(rgb).digest('hex');
}

export interface RecordedModels {
  faces: (pool: FacePool) => FacePool;
  documents: (reader: DocumentReader) => DocumentReader;
  /** Answers replayed and models really run, so far (the suite's own check that replay happens). */
  counts: () => { replayed: number; ran: number };
  /** While true, every call runs the real model (a test about the model process itself: a crash, a queue). */
  live: boolean;
}

/** A recording file as written by `save`. */
function readRecording(file: string): RecordingFile {
  return deserialize(gunzipSync(readFileSync(file))) as RecordingFile;
}

/**
 * The recordings in `dir` made by another release than this one (by file name). The suite fails on
 * any (recorded-models.test.ts): a stale recording answers nothing, so its route tests quietly run
 * the real models, and a dependency bump once doubled the suite's time that way unnoticed.
 */
export function staleRecordings(dir = DIR): string[] {
  const rel = currentRelease();
  return readdirSync(dir)
    .filter((f) => f.endsWith('.bin'))
    .filter((f) => readRecording(join(dir, f)).release !== rel)
    .sort();
}

/**
 * The recording named `name` (one per test file), wrapping a service's models. `dir` and
 * `record` are for this module's own test.
 */
export function recordedModels(name: string, o: { dir?: string; record?: boolean } = {}): RecordedModels {
  const dir = o.dir ?? DIR;
  const file = join(dir, `${name}.bin`);
  const recording = o.record ?? process.env.RECORD_MODELS === '1';
  const rel = currentRelease();
  let stored: RecordingFile = { release: rel, answers: new Map() };
  if (existsSync(file)) {
    // Recording adds to a recording of this release (files that share one are recorded one after
    // the other); another release's is replaced.
    const read = readRecording(file);
    if (read.release === rel) stored = read;
    else if (!recording) console.warn(`recorded model outputs "${name}" were made by other model code: the real models run. Refresh them: RECORD_MODELS=1 npx vitest run <its test file>`);
  }
  const counts = { replayed: 0, ran: 0 };
  const save = () => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, gzipSync(serialize(stored), { level: 9 }));
  };

  /** The recorded answer for this key, else the model's (recorded when recording). */
  async function replay<T>(key: string, run: () => Promise<T>): Promise<T> {
    const hit = self.live ? undefined : stored.answers.get(key);
    if (hit) {
      counts.replayed++;
      return deserialize(hit) as T;
    }
    counts.ran++;
    const answer = await run();
    if (recording && !self.live) {
      stored.answers.set(key, serialize(answer));
      save();
    }
    return answer;
  }

  const self: RecordedModels = {
    live: false,
    counts: () => ({ ...counts }),
    faces: (pool) => ({
      ...pool,
      analyze: (job) => replay(
        keyOf('face', job.rgb, { w: job.width, h: job.height, d: job.describe !== false, m: job.match === true, p: job.portrait === true }),
        () => pool.analyze(job),
      ),
    }),
    documents: (reader) => ({
      ...reader,
      read: (job) => replay(keyOf('document', job.rgb, { w: job.width, h: job.height }), () => reader.read(job)),
    }),
  };
  return self;
}
