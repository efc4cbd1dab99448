// The screening pool from source: the lists load in a worker (the worker program in this thread,
// behind the same worker pool as the built worker threads), screens go to the worker of their
// lists, a worker that dies has its jobs screened here from the same lists (or refused when the
// lists changed since), a change of the lists is made in the worker holding them, and lists no
// longer current stay until their batch ends (in their worker, or a worker of their own when the
// change could not be made over them).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from './lists/common';
import { storeOfficial, storeUserList } from './lists/store';
import { runImporter } from './lists/official';
import { ofacCsv } from './lists/test-support';
import { createScreenPool } from './pool';
import type { LoadedIndex, ScreenCall } from './service';

/** A resources folder with one small official list, shaped like resources/. */
function resources(): string {
  const root = mkdtempSync(join(tmpdir(), 'cc-screen-pool-'));
  const sdn = ofacCsv([`7513,"MNANGAGWA, Emmerson Dambudzo","individual","GLOMAG",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"DOB 15 Sep 1946; nationality Zimbabwe."`]);
  const dir = join(root, 'watchlists');
  mkdirSync(join(dir, 'us_ofac_sdn'), { recursive: true });
  writeFileSync(join(dir, 'us_ofac_sdn', 'sdn.csv'), sdn);
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({
    manifest_version: 1,
    sources: [{
      source: 'us_ofac_sdn', title: 'SDN (fixture)', publisher: 'test', list_kind: 'sanctions', format: 'ofac-csv',
      list_date: null, retrieval_date: '2026-01-01', date_note: '', terms: '', sha256: sha256Hex(sdn),
      files: [{ role: 'primary', path: 'us_ofac_sdn/sdn.csv', sha256: sha256Hex(sdn), bytes: sdn.length }],
    }],
  }));
  return root;
}

const call = (id: string): ScreenCall => ({
  id, created: Date.UTC(2026, 0, 2), livemode: false, subject: { type: 'individual', first_name: 'Emmerson', last_name: 'Mnangagwa' },
});

function setup() {
  const dataDir = mkdtempSync(join(tmpdir(), 'cc-screen-pool-data-'));
  const logged: string[] = [];
  const pool = createScreenPool(resources(), dataDir, (m, f) => logged.push(`${m} ${JSON.stringify(f ?? {})}`));
  const changeLists = (v: number) => storeUserList(dataDir, 'Own people', new TextEncoder().encode(`kind,name\npep,Person${v} Own\n`), new Date(Date.UTC(2026, 0, v)));
  // A newer SDN file: the OFAC lists are not spliced (the CSL is de-duplicated against them), so their index is made anew.
  const newerSdn = () => storeOfficial(dataDir, 'us_ofac_sdn', [{ name: 'sdn.csv', bytes: ofacCsv([
    `7513,"MNANGAGWA, Emmerson Dambudzo","individual","GLOMAG",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"DOB 15 Sep 1946; nationality Zimbabwe."`,
    `7514,"OWN, Person1","individual","GLOMAG",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- `,
  ]) }], new Date(Date.UTC(2026, 0, 2)));
  return { pool, dataDir, logged, changeLists, newerSdn };
}

describe('screening pool (from source: the worker runs in this thread)', () => {
  it('loads the lists in a worker and screens there; this thread gets the meta', async () => {
    const { pool, logged, changeLists } = setup();
    const loaded = await pool.load();
    expect(loaded).not.toBeNull();
    expect(loaded!.versions.map((v) => v.source)).toEqual(['us_ofac_sdn']);
    expect(pool.workers()).toBe(1);
    // The lists on disk change: this thread could no longer screen with the loaded ones (it would
    // refuse), the worker holding them still does.
    expect(changeLists(1).ok).toBe(true);
    const r = await pool.screenOne(loaded!, call('scr_1'));
    expect(r.matches[0]).toMatchObject({ source: 'us_ofac_sdn' });
    expect(pool.mode()).toBe('in-process');
    expect(logged.join('\n')).toMatch(/screen_worker_ready[\s\S]*screening_runs \{"job":"screen","in":"in-process"\}/);
    await pool.stop();
    expect(pool.workers()).toBe(0);
  });

  it('a worker that dies: the screening it held is done here from the same lists, and so are later ones', async () => {
    const { pool, logged } = setup();
    const loaded = (await pool.load())!;
    const inWorker = await pool.screenOne(loaded, call('scr_1'));
    const held = pool.screenOne(loaded, call('scr_2'));
    expect(pool.crashOne()).toBe(true);
    const here = await held;
    expect(here.matches).toEqual(inWorker.matches);
    expect(logged.join('\n')).toContain('screen_worker_exited');
    expect(pool.workers()).toBe(0);
    expect((await pool.screenOne(loaded, call('scr_3'))).matches).toEqual(inWorker.matches);
  });

  it('a worker that dies after the lists changed: its screening is refused (503 provider_unavailable), not done with other lists', async () => {
    const { pool, changeLists } = setup();
    const loaded = (await pool.load())!;
    expect(changeLists(1).ok).toBe(true);
    const held = pool.screenOne(loaded, call('scr_1'));
    pool.crashOne();
    await expect(held).rejects.toMatchObject({ code: 'provider_unavailable' });
  });

  it('a screening that took lists since replaced is screened with the lists in use, which its answer names; the old worker is stopped at once', async () => {
    const { pool, changeLists } = setup();
    const first = (await pool.load())!;
    expect(changeLists(1).ok).toBe(true);
    const second = (await pool.load())!;
    expect(pool.workers()).toBe(1);
    // Its billing took a while (PostgreSQL), and the lists were reloaded meanwhile (another instance's import).
    const sources = async (loaded: typeof first, id: string) => (await pool.screenOne(loaded, call(id))).screening.list_versions.map((v) => v.source);
    expect(await sources(first, 'scr_1')).toEqual(['us_ofac_sdn', 'user:own-people']);
    expect(await sources(second, 'scr_2')).toEqual(['us_ofac_sdn', 'user:own-people']);
    await pool.stop();
  });

  const row = JSON.stringify({ row: 1, subject: { type: 'individual', first_name: 'Person1', last_name: 'Own' } });
  const job = { lines: [row], lists: undefined, reason: 'periodic_rescreen' as const, livemode: false, now: Date.UTC(2026, 0, 3), review: { batchId: 'b1', key: '00'.repeat(32) } };
  /** A batch row of the own list's person, screened with `loaded`'s lists: its matches. */
  const matchesOf = async (pool: ReturnType<typeof createScreenPool>, loaded: LoadedIndex) => (JSON.parse((await pool.screen(loaded, job))[0]!.line) as { matches: unknown[] }).matches;

  it('a list change is made in the worker holding the lists; their index stays there while a batch screens with it, and goes when the batch ends', async () => {
    const { pool, changeLists } = setup();
    const first = (await pool.load())!;
    pool.retain(first.stamp);
    expect(changeLists(1).ok).toBe(true);
    const second = (await pool.load())!;
    expect(second.stamp).not.toBe(first.stamp);
    expect([pool.workers(), pool.indexes()]).toEqual([1, 2]);
    // The batch's rows are still screened with its own lists: the own list's person is unknown
    // there and found with the new lists.
    expect(await matchesOf(pool, first)).toEqual([]);
    expect((await matchesOf(pool, second)).length).toBeGreaterThan(0);
    pool.release(first.stamp);
    expect([pool.workers(), pool.indexes()]).toEqual([1, 1]);
    // A screening that took the released lists is screened with the lists in use.
    expect((await pool.screenOne(first, call('scr_1'))).screening.list_versions.map((v) => v.source)).toEqual(['us_ofac_sdn', 'user:own-people']);
    await pool.stop();
  });

  it('a change that cannot be made over the lists in use loads them in a new worker; the old one stays while a batch screens with its lists, and stops when the batch ends', async () => {
    const { pool, newerSdn } = setup();
    const first = (await pool.load())!;
    pool.retain(first.stamp);
    expect(newerSdn().ok).toBe(true);
    const second = (await pool.load())!;
    expect(second.stamp).not.toBe(first.stamp);
    expect([pool.workers(), pool.indexes()]).toEqual([2, 2]);
    expect(await matchesOf(pool, first)).toEqual([]);
    expect((await matchesOf(pool, second)).length).toBeGreaterThan(0);
    pool.release(first.stamp);
    expect([pool.workers(), pool.indexes()]).toEqual([1, 1]);
    await pool.stop();
  });

  const newerSdnFile = () => ({ name: 'sdn.csv', bytes: ofacCsv([`7513,"MNANGAGWA, Emmerson Dambudzo","individual","GLOMAG",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- `]) });

  it('an official file is checked in the worker: moved there and back with its check, never copied', async () => {
    const { pool } = setup();
    await pool.load();
    const file = newerSdnFile();
    const sent = Uint8Array.from(file.bytes);
    const checked = await pool.checks.official('us_ofac_sdn', [file]);
    expect(checked.check).toMatchObject({ ok: true, records: 1 });
    expect(checked.files.map((f) => [f.name, Buffer.from(f.bytes).equals(sent)])).toEqual([['sdn.csv', true]]);
    // The caller's buffer went to the worker.
    expect(file.bytes.byteLength).toBe(0);
    await pool.stop();
  });

  /** Nothing is handed over for these bytes when two reads give the one import remembered (official.ts). */
  const nothingHanded = (bytes: Uint8Array) => runImporter('us_ofac_sdn', 'ofac-csv', { primary: bytes }) === runImporter('us_ofac_sdn', 'ofac-csv', { primary: bytes });

  it('the worker that checks a file keeps its records for the next reload, which lets go of them whether it reads them or not', async () => {
    const { pool, dataDir, changeLists } = setup();
    await pool.load();
    // The listed person, and people added one by one (none removed: nothing is held).
    const sdn = (n: number) => ofacCsv([7513, ...Array.from({ length: n }, (_, i) => i + 1)].map((id) => `${id},"PERSON, Number${id}","individual","GLOMAG",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- `));
    const checked = (bytes: Uint8Array) => pool.checks.official('us_ofac_sdn', [{ name: 'sdn.csv', bytes: Uint8Array.from(bytes) }]);
    // Checked: the next read of the file is the check's.
    const a = sdn(1);
    expect((await checked(a)).check).toMatchObject({ ok: true, hold: null });
    expect(nothingHanded(a)).toBe(false);
    // Checked and stored: the reload reads it.
    const b = sdn(2);
    const { check, files } = await checked(b);
    if (!check.ok) throw new Error('not checked');
    expect(storeOfficial(dataDir, 'us_ofac_sdn', files, new Date(), check).ok).toBe(true);
    await pool.load();
    expect(nothingHanded(b)).toBe(true);
    // Checked and never stored (another change reloads the lists): let go of.
    const c = sdn(3);
    expect((await checked(c)).check).toMatchObject({ ok: true, hold: null });
    changeLists(5);
    await pool.load();
    expect(nothingHanded(c)).toBe(true);
    await pool.stop();
  });

  it('a file moved to a worker that ends before checking it is not imported: the caller is asked to send it again', async () => {
    const { pool } = setup();
    await pool.load();
    const file = newerSdnFile();
    const answer = pool.checks.official('us_ofac_sdn', [file]);
    expect(pool.crashOne()).toBe(true);
    expect(await answer).toEqual({ check: { ok: false, reason: expect.stringMatching(/send it again/) }, files: [] });
    await pool.stop();
  });
});
