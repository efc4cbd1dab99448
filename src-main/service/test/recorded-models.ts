// Recorded model outputs for route tests whose subject is not the model (the flows, billing,
// rules and answers around a face or document reading). Each face analysis and document reading
// is looked up by a hash of exactly what the model was given; a recorded answer is replayed, and
// anything else runs the real model. The models themselves are tested on real inputs by their
// own files (faces.test.ts, face-match.test.ts, documents-photos.test.ts, reader.test.ts, …).
//
// A recording holds the release it was made by: a hash of the model packages (package-lock.json)
// and of the code that runs the models. Any change there and every lookup misses, so a stale
// recording can slow the suite down but never answer for code it did not see.
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
/** What decides a model's output besides its input. */
const RELEASE_INPUTS = [
  'package-lock.json', 'src-main/service/core/faces', 'src-main/service/core/documents', 'src-main/service/core/media',
  'src-main/service/workers', 'src-shared/dates.ts',
];

function addTree(h: ReturnType<typeof createHash>, path: string): void {
  const st = statSync(path, { throwIfNoEntry: false });
  if (!st) return;
  if (st.isDirectory()) {
    for (const e of readdirSync(path).sort()) if (!e.endsWith('.test.ts')) addTree(h, join(path, e));
    return;
  }
  h.update(path.slice(ROOT.length)).update('\0').update(readFileSync(path)).update('\0');
}

let release: string | undefined;
function currentRelease(): string {
  if (release) return release;
  const h = createHash('sha256');
  for (const p of RELEASE_INPUTS) addTree(h, join(ROOT, p));
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
  if (!recording && existsSync(file)) {
    const read = readRecording(file);
    if (read.release === rel) stored = read;
    else console.warn(`recorded model outputs "${name}" were made by other model code: the real models run. Refresh them: RECORD_MODELS=1 npx vitest run <its test file>`);
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
