// The build's snapshot of the shipped lists: restoring it must screen exactly as a fresh load
// does, an organisation's own lists extend it as if everything had been indexed together, and
// a snapshot from another build or another manifest is never used.
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildIndex, extendIndex, screen, type ScreeningIndex } from './engine';
import { loadShippedLists, type LoadedLists } from './lists/load';
import { importUserList } from './lists/user-csv';
import { runSnapshot } from './service';
import {
  manifestHash, readSnapshot, RUN_SNAPSHOT_ENV, RUN_SNAPSHOT_ID, RUN_SNAPSHOT_ID_ENV, RUN_SNAPSHOT_MANIFEST_ENV, snapshotIdOf, writeSnapshot,
} from './snapshot';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const watchlists = path.join(root, 'resources', 'watchlists');
const dir = mkdtempSync(path.join(tmpdir(), 'cc-snapshot-'));
const file = path.join(dir, 'screening-index.bin');

let lists: LoadedLists;
let fresh: ScreeningIndex;

const SUBJECTS = [
  { first_name: 'Vladimir', last_name: 'Putin' },
  { first_name: 'ウラジーミル', last_name: 'プーチン' },
  { first_name: 'Ramzan', last_name: 'Kadyrov', date_of_birth: '1976-10-05' },
  { first_name: 'Jane', last_name: 'Nobody' },
  { first_name: 'Kim', last_name: 'Jong Un' },
];
const results = (index: ScreeningIndex) =>
  SUBJECTS.map((s) => screen(index, s, { lists: ['sanctions', 'pep'] }).matches.map((m) => [m.entity_id, m.score, m.explanation.matched_name]));

// Parsing and indexing every shipped list: ~10 s beside the rest of the suite, past 20 s under load.
beforeAll(() => {
  lists = loadShippedLists(watchlists);
  fresh = buildIndex(lists.entities);
  writeSnapshot(file, 'build-a', watchlists, lists, fresh);
}, 120_000);

describe('screening snapshot', () => {
  it('restores lists and index that screen exactly like a fresh load', () => {
    const r = readSnapshot(file, 'build-a', watchlists);
    if (!r.ok) throw new Error(r.reason);
    expect(r.index.entities.length).toBe(lists.entities.length);
    expect(r.index.entities.at(lists.entities.length - 1)).toEqual(lists.entities.at(-1));
    expect(r.lists.versions).toEqual(lists.versions);
    expect(r.index.stats.names).toBe(fresh.stats.names);
    expect(results(r.index)).toEqual(results(fresh));
    expect(results(fresh)[0]!.map((m) => m[0])).toContain('us_ofac_sdn:35096');
  });

  it('is refused when made by another build, from another manifest, or unreadable', () => {
    expect(readSnapshot(file, 'build-b', watchlists)).toEqual({ ok: false, reason: 'other_build' });
    expect(readSnapshot(file, null, watchlists)).toEqual({ ok: false, reason: 'absent' });
    expect(readSnapshot(path.join(dir, 'missing.bin'), 'build-a', watchlists)).toEqual({ ok: false, reason: 'absent' });
    const other = mkdtempSync(path.join(tmpdir(), 'cc-manifest-'));
    const manifest = JSON.parse(readFileSync(path.join(watchlists, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(path.join(other, 'manifest.json'), JSON.stringify({ ...manifest, note: 'newer lists' }));
    expect(readSnapshot(file, 'build-a', other)).toEqual({ ok: false, reason: 'manifest_changed' });
    const broken = path.join(dir, 'broken.bin');
    copyFileSync(path.join(watchlists, 'manifest.json'), broken);
    expect(readSnapshot(broken, 'build-a', watchlists)).toEqual({ ok: false, reason: 'unreadable' });
  });

  it('extended with an organisation\'s own list, screens as one index built over everything', () => {
    const own = importUserList('kind,name,dob,country\npep,Maria Testperson,1970-01-01,DE\nwanted,Vladimir Putinsky,,\n', { listName: 'Own PEP' }).import.entities;
    const restored = readSnapshot(file, 'build-a', watchlists);
    if (!restored.ok) throw new Error(restored.reason);
    const extended = extendIndex(restored.index, own);
    const whole = buildIndex([...lists.entities, ...own]);
    const probe = (index: ScreeningIndex) =>
      [...SUBJECTS, { first_name: 'Maria', last_name: 'Testperson' }, { first_name: 'Vladimir', last_name: 'Putinsky' }].map((s) =>
        screen(index, s, { lists: ['sanctions', 'pep', 'wanted'] }).matches.map((m) => [m.entity_id, m.score]));
    expect(probe(extended)).toEqual(probe(whole));
    expect(probe(extended)[5]!.map((m) => m[0])).toContain(own[0]!.id);
  });

  it('a test run\'s snapshot stands in for indexing the shipped lists, running from source, only when it is this run\'s and of these lists', () => {
    const runFile = path.join(dir, 'run.bin');
    writeSnapshot(runFile, RUN_SNAPSHOT_ID, watchlists, lists, fresh);
    const saved = { file: process.env[RUN_SNAPSHOT_ENV], id: process.env[RUN_SNAPSHOT_ID_ENV], manifest: process.env[RUN_SNAPSHOT_MANIFEST_ENV] };
    const manifest = manifestHash(watchlists);
    try {
      process.env[RUN_SNAPSHOT_ENV] = runFile;
      process.env[RUN_SNAPSHOT_ID_ENV] = RUN_SNAPSHOT_ID;
      process.env[RUN_SNAPSHOT_MANIFEST_ENV] = manifest;
      expect(snapshotIdOf(runFile)).toBe(RUN_SNAPSHOT_ID);
      const run = runSnapshot(watchlists, manifest);
      if (!run) throw new Error('the run snapshot was not used');
      expect(results(run.index)).toEqual(results(fresh));
      expect(run.lists.versions).toEqual(lists.versions);
      expect(run.lists.entities.map((e) => e.id)).toEqual(lists.entities.map((e) => e.id));
      // Another lists folder, or a snapshot named for other lists, is not read.
      expect(runSnapshot(watchlists, 'f'.repeat(64))).toBeNull();
      process.env[RUN_SNAPSHOT_MANIFEST_ENV] = 'f'.repeat(64);
      expect(runSnapshot(watchlists, manifest)).toBeNull();
      // A snapshot written with another id than the one named is not read; named with its own, it is
      // (a current build's, whose id the run reads from the file).
      process.env[RUN_SNAPSHOT_ENV] = file;
      process.env[RUN_SNAPSHOT_MANIFEST_ENV] = manifest;
      expect(runSnapshot(watchlists, manifest)).toBeNull();
      process.env[RUN_SNAPSHOT_ID_ENV] = snapshotIdOf(file)!;
      expect(results(runSnapshot(watchlists, manifest)!.index)).toEqual(results(fresh));
      delete process.env[RUN_SNAPSHOT_ENV];
      expect(runSnapshot(watchlists, manifest)).toBeNull();
    } finally {
      for (const [k, v] of [[RUN_SNAPSHOT_ENV, saved.file], [RUN_SNAPSHOT_ID_ENV, saved.id], [RUN_SNAPSHOT_MANIFEST_ENV, saved.manifest]] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });
});
