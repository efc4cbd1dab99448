// The lists folder shared by the instances on one PostgreSQL (shared.ts), through its interface:
// two data directories, each its own instance's, on one database. A change on one reaches the
// other's folder on its pull (or at once, when it follows the notifications); a change that fails
// shares nothing and the folder is brought back; a folder with lists nothing shared yet seeds the
// store; paths the database names outside the folder are never written; on SQLite nothing is shared.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../db/engine';
import { POSTGRES, testEngines } from '../../../test/engines';
import { PEP_CSV, UN } from '../../../test/list-files';
import { sha256Hex } from './common';
import { BLOB_PART_BYTES, sharedListsRepo } from './shared-repo';
import { createSharedLists } from './shared';
import { listsDir, removeUserList, storedLists, storeOfficial, storeUserList } from './store';

const engines = testEngines();
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const dataDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'cc-shared-lists-'));
  dirs.push(d);
  return d;
};
const NOW = () => new Date('2026-12-04T10:00:00Z');
const OTHER_CSV = PEP_CSV.replaceAll('Abernathy-Vole', 'Quillfeather');

/** Every file of a lists folder with its bytes, but the instance's own (its marker). */
function folder(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const e of readdirSync(join(listsDir(dir), rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(path);
      else if (path !== 'shared.json') out[path] = readFileSync(join(listsDir(dir), path), 'utf8');
    }
  };
  if (existsSync(listsDir(dir))) walk('');
  return out;
}

describe('on SQLite', () => {
  it('shares nothing: a change is simply made, a pull finds nothing', async () => {
    const t = await engines.open('sqlite');
    const dir = dataDir();
    const lists = createSharedLists(t.engine, dir, NOW);
    expect(lists.shared).toBe(false);
    expect((await lists.change(() => storeUserList(dir, 'Own', Buffer.from(PEP_CSV), NOW()))).ok).toBe(true);
    expect(await lists.pull()).toBe(false);
    expect(await t.engine.q.selectFrom('list_store').selectAll().execute()).toEqual([]);
    expect(await t.engine.q.selectFrom('list_blob_parts').select('sha256').execute()).toEqual([]);
  });
});

/** Two instances' shared lists on a new database, each with its own data directory (`ea`, `eb`: their engines). */
async function instances() {
  const t = await engines.open('postgres');
  const [ea, eb] = engines.instances(t, 2) as [Engine, Engine];
  const [da, db] = [dataDir(), dataDir()];
  return { t, ea, eb, da, db, a: createSharedLists(ea, da, NOW), b: createSharedLists(eb, db, NOW) };
}

describe.skipIf(!POSTGRES.url)(`on PostgreSQL${POSTGRES.url ? '' : ` (skipped: ${POSTGRES.why})`}`, () => {
  it('a change on one instance reaches the other on its pull: files written, files removed, bytes kept once', async () => {
    const { t, a, b, da, db } = await instances();
    expect(await b.pull()).toBe(false);
    await a.change(() => storeUserList(da, 'Own', Buffer.from(PEP_CSV), NOW()));
    await a.change(() => storeOfficial(da, 'un_sc', [{ name: 'consolidated.xml', bytes: Buffer.from(UN) }], NOW()));
    expect((await sharedListsRepo.head(t.engine.q))?.version).toBe(2);
    expect(await b.pull()).toBe(true);
    expect(folder(db)).toEqual(folder(da));
    expect(Object.keys(storedLists(db).user)).toEqual(['own']);
    expect(await b.pull()).toBe(false);
    // Removed on B: gone from A's folder, and its bytes from the database.
    expect(await b.change(() => removeUserList(db, 'own'))).toBe(true);
    expect(await a.pull()).toBe(true);
    expect(folder(da)).toEqual(folder(db));
    expect(storedLists(da).user).toEqual({});
    const head = (await sharedListsRepo.head(t.engine.q))!;
    expect(head.version).toBe(3);
    const blobs = (await t.engine.q.selectFrom('list_blob_parts').select('sha256').distinct().execute()).map((r) => r.sha256).sort();
    expect(blobs).toEqual([...new Set(Object.values(head.files))].sort());
  });

  it('a file larger than a part is stored a part at a time and reaches the other instance whole', async () => {
    const { t, a, b, da, db } = await instances();
    // The UN list with a comment after its records: 4.5 MB, five parts.
    const large = Buffer.from(UN.replace('</CONSOLIDATED_LIST>', `<!--${'x'.repeat(2.5e6)}--></CONSOLIDATED_LIST>`));
    expect((await a.change(() => storeOfficial(da, 'un_sc', [{ name: 'consolidated.xml', bytes: large }], NOW()))).ok).toBe(true);
    const parts = await t.engine.q.selectFrom('list_blob_parts').select(['part', 'content']).where('sha256', '=', sha256Hex(large)).orderBy('part').execute();
    expect(parts.map((p) => [p.part, p.content.length])).toEqual([0, 1, 2, 3, 4].map((i) => [i, Math.min(BLOB_PART_BYTES, large.length - i * BLOB_PART_BYTES)]));
    expect(await b.pull()).toBe(true);
    expect(folder(db)).toEqual(folder(da));
  });

  it('a version whose bytes are missing is not brought in: the pull fails and writes no file, whole or half', async () => {
    const { t, a, b, da, db } = await instances();
    await a.change(() => storeUserList(da, 'Own', Buffer.from(PEP_CSV), NOW()));
    await t.engine.q.deleteFrom('list_blob_parts').execute();
    await expect(b.pull()).rejects.toThrow(/bytes of .* are missing/);
    expect(folder(db)).toEqual({});
  });

  it('a change made on an instance behind the shared version is made on that version: neither is lost', async () => {
    const { a, b, da, db } = await instances();
    await a.change(() => storeUserList(da, 'First', Buffer.from(PEP_CSV), NOW()));
    // B never pulled: its change starts from A's version.
    await b.change(() => storeUserList(db, 'Second', Buffer.from(OTHER_CSV), NOW()));
    await a.pull();
    expect(Object.keys(storedLists(da).user).sort()).toEqual(['first', 'second']);
    expect(folder(da)).toEqual(folder(db));
  });

  it('a change that fails shares nothing, and the next pull brings the folder back to the shared version', async () => {
    const { t, a, da } = await instances();
    await a.change(() => storeUserList(da, 'Kept', Buffer.from(PEP_CSV), NOW()));
    const before = folder(da);
    await expect(a.change(() => {
      storeUserList(da, 'Half done', Buffer.from(OTHER_CSV), NOW());
      throw new Error('the disk filled up');
    })).rejects.toThrow('the disk filled up');
    expect((await sharedListsRepo.head(t.engine.q))?.version).toBe(1);
    expect(await a.pull()).toBe(true);
    expect(folder(da)).toEqual(before);
  });

  it('a folder with lists the database has never seen becomes the first version; an empty one waits for it', async () => {
    const { t, ea, eb, da, db } = await instances();
    // Lists imported while the installation ran on its SQLite file.
    storeUserList(da, 'Moved', Buffer.from(PEP_CSV), NOW());
    const b = createSharedLists(eb, db, NOW);
    expect(await b.pull()).toBe(false);
    expect(await createSharedLists(ea, da, NOW).pull()).toBe(false);
    expect((await sharedListsRepo.head(t.engine.q))?.version).toBe(1);
    expect(await b.pull()).toBe(true);
    expect(Object.keys(storedLists(db).user)).toEqual(['moved']);
  });

  it('a folder that joins a store already shared takes its version, and says how many files only it held were replaced', async () => {
    const { ea, eb, da, db } = await instances();
    await createSharedLists(ea, da, NOW).change(() => storeUserList(da, 'Shared', Buffer.from(PEP_CSV), NOW()));
    // B's data directory had an own list of its own before it joined (never shared).
    storeUserList(db, 'Only here', Buffer.from(OTHER_CSV), NOW());
    const said: [string, Record<string, number>][] = [];
    const b = createSharedLists(eb, db, NOW, (m, f) => said.push([m, f]));
    expect(await b.pull()).toBe(true);
    expect(Object.keys(storedLists(db).user)).toEqual(['shared']);
    // Its own list's file and the index that named it.
    expect(said).toEqual([['lists_replaced_by_shared', { files: 2, own_lists: 1, version: 1 }]]);
    // Once it follows the store, a change from the others is no loss: nothing more is said.
    await createSharedLists(ea, da, NOW).change(() => removeUserList(da, 'shared'));
    expect(await b.pull()).toBe(true);
    expect(said).toHaveLength(1);
  });

  it('a following instance brings a change in as soon as it is notified', async () => {
    const { a, b, da, db } = await instances();
    let heard!: () => void;
    const changed = new Promise<void>((r) => (heard = r));
    const stop = await b.follow(() => heard());
    try {
      const sent = Date.now();
      await a.change(() => storeUserList(da, 'Own', Buffer.from(PEP_CSV), NOW()));
      await changed;
      // Far sooner than the poll: the notification brought it.
      expect(Date.now() - sent).toBeLessThan(5_000);
      expect(Object.keys(storedLists(db).user)).toEqual(['own']);
    } finally {
      await stop();
    }
  });

  it('never writes a path the database names outside the lists folder', async () => {
    const { t, ea, a, da } = await instances();
    await a.change(() => storeUserList(da, 'Own', Buffer.from(PEP_CSV), NOW()));
    const head = (await sharedListsRepo.head(t.engine.q))!;
    const sha = head.files['index.json']!;
    const other = dataDir();
    await sharedListsRepo.put(t.engine.q, { version: 2, files: { ...head.files, '../escaped.json': sha, 'user/../../escaped2.json': sha, '/tmp/escaped3.json': sha } }, NOW().toISOString());
    expect(await createSharedLists(ea, other, NOW).pull()).toBe(true);
    expect(existsSync(join(other, 'escaped.json'))).toBe(false);
    expect(existsSync(join(other, '..', 'escaped2.json'))).toBe(false);
    expect(Object.keys(storedLists(other).user)).toEqual(['own']);
  });
});
