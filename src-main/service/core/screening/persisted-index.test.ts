// The index of a data directory's official lists is kept there (issue 36): an official import's
// index is built once and restored at the next start; one made by another matcher, from other
// inputs, or that cannot be read is rebuilt, never used. A small resources folder (the UN list
// alone) keeps each build short; the rules are the same for all the shipped lists.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { crc32 } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { RESOURCES_DIR } from './lists/test-support';
import { storeOfficial, storeUserList } from './lists/store';
import { MATCHER_VERSION } from './match/version';
import { loadIndexNow, persistedIndexPath, runScreening, type LoadedIndex } from './service';

const UN = readFileSync(join(RESOURCES_DIR, 'un_sc', '2026-02-27', 'consolidated.xml'));
const NOW = new Date('2026-03-02T10:00:00Z');

/** Every folder a test made: an index is tens of MB. */
const made: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** resources/watchlists with the UN list alone, as shipped (same file, same manifest entry). */
function unOnlyWatchlists(): string {
  const dir = tempDir('cc-persist-res-');
  const manifest = JSON.parse(readFileSync(join(RESOURCES_DIR, 'manifest.json'), 'utf8')) as { sources: { source: string }[] };
  manifest.sources = manifest.sources.filter((s) => s.source === 'un_sc');
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
  mkdirSync(join(dir, 'un_sc', '2026-02-27'), { recursive: true });
  copyFileSync(join(RESOURCES_DIR, 'un_sc', '2026-02-27', 'consolidated.xml'), join(dir, 'un_sc', '2026-02-27', 'consolidated.xml'));
  return dir;
}

/** The UN file as a newer edition would come: another list date. */
const unDated = (day: string) => new TextEncoder().encode(UN.toString('utf8').replace(/dateGenerated="2026-02-27/, `dateGenerated="${day}`));

function dataDirWithImport(day = '2026-03-01'): string {
  const dataDir = tempDir('cc-persist-data-');
  const r = storeOfficial(dataDir, 'un_sc', [{ name: 'consolidated.xml', bytes: unDated(day) }], NOW);
  expect(r.ok).toBe(true);
  return dataDir;
}

/** A listed person's primary name, screened: what an index answers for it. */
function screenListed(l: LoadedIndex) {
  const r = runScreening(l, { id: 'scr_1', created: NOW.getTime(), livemode: false, subject: { type: 'individual', first_name: 'Eric', last_name: 'Badege' } });
  return { matches: r.matches, versions: r.screening.list_versions.map((v) => [v.source, v.list_date]) };
}

// The file: a CRC-32 (little-endian) of the rest, then pieces, each its length and a v8 value:
// the head, the records a few thousand at a time, the flat index's fields (the head's `fields`).
type Body = Record<string, unknown>;
const readBody = (file: string): Body => {
  const bytes = readFileSync(file);
  const pieces: unknown[] = [];
  for (let at = 4; at < bytes.length; at += 4 + bytes.readUInt32LE(at)) pieces.push(deserialize(bytes.subarray(at + 4, at + 4 + bytes.readUInt32LE(at))));
  const [head, ...rest] = pieces as [Body & { fields: string[] }, ...unknown[]];
  const values = rest.splice(rest.length - head.fields.length);
  return { ...head, entities: (rest as string[][]).flat(), index: Object.fromEntries(head.fields.map((f, i) => [f, values[i]])) };
};
const envelope = ({ entities, index, ...head }: Body) => framed([head, entities, ...(head.fields as string[]).map((f) => (index as Body)[f])]);
const framed = (values: unknown[]) => {
  const payload = Buffer.concat(values.map((value) => {
    const body = serialize(value);
    const length = Buffer.alloc(4);
    length.writeUInt32LE(body.length, 0);
    return Buffer.concat([length, body]);
  }));
  const crc = Buffer.alloc(4);
  crc.writeUInt32LE(crc32(payload) >>> 0, 0);
  return Buffer.concat([crc, payload]);
};
const writeBody = (file: string, body: Body) => writeFileSync(file, envelope(body));

describe('the persisted index of a data directory\'s official lists', () => {
  const watchlists = unOnlyWatchlists();

  it('is built at the first load after an official import, written 0600 to the data directory, and restored by the next load', () => {
    const dataDir = dataDirWithImport();
    const file = persistedIndexPath(dataDir);
    const first = loadIndexNow(watchlists, dataDir, undefined, 'now');
    expect(first.timings.snapshot).toBe('built: absent');
    expect(existsSync(file)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readBody(file)).toMatchObject({ matcherVersion: MATCHER_VERSION, buildId: 'source' });

    const again = loadIndexNow(watchlists, dataDir);
    expect(again.timings.snapshot).toBe('persisted');
    expect(again.stats).toMatchObject({ entities: first.stats.entities, names: first.stats.names, keys: first.stats.keys });
    expect(again.catalog).toEqual(first.catalog);
    const screened = screenListed(again);
    expect(screened.matches.length).toBeGreaterThan(0);
    expect(screened).toEqual(screenListed(first));
    expect(screened.versions).toEqual([['un_sc', '2026-03-01']]);
  });

  it('is written once the load has answered, by default (the worker says it is ready first)', async () => {
    const dataDir = dataDirWithImport();
    expect(loadIndexNow(watchlists, dataDir).timings.snapshot).toBe('built: absent');
    expect(existsSync(persistedIndexPath(dataDir))).toBe(false);
    await new Promise((r) => setImmediate(r));
    expect(existsSync(persistedIndexPath(dataDir))).toBe(true);
    expect(loadIndexNow(watchlists, dataDir).timings.snapshot).toBe('persisted');
  });

  it('made by another matcher version: rebuilt and rewritten, not used', () => {
    const dataDir = dataDirWithImport();
    const file = persistedIndexPath(dataDir);
    loadIndexNow(watchlists, dataDir, undefined, 'now');
    writeBody(file, { ...readBody(file), matcherVersion: '0.9.0+000000000000' });
    const l = loadIndexNow(watchlists, dataDir, undefined, 'now');
    expect(l.timings.snapshot).toBe('built: other_matcher');
    expect(screenListed(l).matches.length).toBeGreaterThan(0);
    expect(readBody(file)).toMatchObject({ matcherVersion: MATCHER_VERSION });
    expect(loadIndexNow(watchlists, dataDir).timings.snapshot).toBe('persisted');
  });

  it('made by another build: rebuilt, not used', () => {
    const dataDir = dataDirWithImport();
    const file = persistedIndexPath(dataDir);
    loadIndexNow(watchlists, dataDir, undefined, 'now');
    writeBody(file, { ...readBody(file), buildId: 'another-build' });
    expect(loadIndexNow(watchlists, dataDir, undefined, 'now').timings.snapshot).toBe('built: other_build');
  });

  it('made from other inputs (a newer file imported for the source): rebuilt with the new file, not used', () => {
    const dataDir = dataDirWithImport('2026-03-01');
    loadIndexNow(watchlists, dataDir, undefined, 'now');
    expect(storeOfficial(dataDir, 'un_sc', [{ name: 'consolidated.xml', bytes: unDated('2026-03-09') }], NOW).ok).toBe(true);
    const l = loadIndexNow(watchlists, dataDir, undefined, 'now');
    expect(l.timings.snapshot).toBe('built: inputs_changed');
    expect(screenListed(l).versions).toEqual([['un_sc', '2026-03-09']]);
    expect(loadIndexNow(watchlists, dataDir).timings.snapshot).toBe('persisted');
  });

  it('a file changed on disk behind index.json is another input too', () => {
    const dataDir = dataDirWithImport('2026-03-01');
    loadIndexNow(watchlists, dataDir, undefined, 'now');
    const stored = join(dataDir, 'lists', 'official', 'un_sc', 'list.xml');
    expect(existsSync(stored)).toBe(true);
    writeFileSync(stored, unDated('2026-03-05'));
    const l = loadIndexNow(watchlists, dataDir, undefined, 'now');
    expect(l.timings.snapshot).toBe('built: inputs_changed');
    expect(screenListed(l).versions).toEqual([['un_sc', '2026-03-05']]);
  });

  it('corrupted (cut short, a byte changed, not an index, or another shape): ignored, rebuilt and rewritten', () => {
    const dataDir = dataDirWithImport();
    const file = persistedIndexPath(dataDir);
    const first = loadIndexNow(watchlists, dataDir, undefined, 'now');
    const good = readFileSync(file);
    const flipped = Buffer.from(good);
    flipped.writeUInt8(flipped.readUInt8(flipped.length >> 1) ^ 0xff, flipped.length >> 1);
    const broken: [string, Uint8Array][] = [
      ['cut short', good.subarray(0, good.length >> 1)],
      ['a byte changed', flipped],
      ['not an index', new TextEncoder().encode('not an index')],
      ['another shape', envelope({ ...readBody(file), index: { keys: ['t:x'], offsets: new Int32Array(1), data: new Int32Array(0) } })],
      ['records missing', envelope({ ...readBody(file), entities: [] })],
      ['the index in one piece, as format 2 wrote it', (() => {
        const { entities, index, fields: _, ...head } = readBody(file);
        return framed([{ ...head, format: 2 }, entities, index]);
      })()],
      ['written whole, as before pieces', (() => {
        const payload = serialize({ ...readBody(file), format: 1 });
        const crc = Buffer.alloc(4);
        crc.writeUInt32LE(crc32(payload) >>> 0, 0);
        return Buffer.concat([crc, payload]);
      })()],
    ];
    for (const [why, bytes] of broken) {
      writeFileSync(file, bytes);
      const l = loadIndexNow(watchlists, dataDir, undefined, 'now');
      expect(l.timings.snapshot, why).toBe('built: unreadable');
      expect(screenListed(l), why).toEqual(screenListed(first));
      expect(loadIndexNow(watchlists, dataDir).timings.snapshot, why).toBe('persisted');
    }
  });

  it('holds the official lists only: an own list is indexed on top at each load, never written into it', () => {
    const dataDir = dataDirWithImport();
    loadIndexNow(watchlists, dataDir, undefined, 'now');
    const csv = new TextEncoder().encode('kind,name,dob\npep,Quentin Abernathy-Vole,1961-04-12\n');
    expect(storeUserList(dataDir, 'Acme PEP', csv, NOW).ok).toBe(true);
    const l = loadIndexNow(watchlists, dataDir, undefined, 'now');
    expect(l.timings.snapshot).toBe('persisted');
    expect(l.catalog.map((c) => c.source)).toEqual(['un_sc', 'user:acme-pep']);
    const r = runScreening(l, { id: 'scr_2', created: NOW.getTime(), livemode: false, subject: { type: 'individual', first_name: 'Quentin', last_name: 'Abernathy-Vole' } });
    expect(r.matches[0]).toMatchObject({ source: 'user:acme-pep' });
    expect(readFileSync(persistedIndexPath(dataDir)).includes('Abernathy')).toBe(false);
  });

  it('is not written for a data directory without official imports (the build\'s snapshot or the shipped lists serve)', () => {
    const dataDir = tempDir('cc-persist-data-');
    loadIndexNow(watchlists, dataDir, undefined, 'now');
    expect(existsSync(persistedIndexPath(dataDir))).toBe(false);
  });
});
