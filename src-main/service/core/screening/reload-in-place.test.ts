// A change of the lists made over the index in use (issue 38: importing a 30 MB official file
// loaded a second index of every list beside the first): a newer official file is spliced into
// the official part held, an own list is added on top of it again, and what cannot be made so is
// left to a load from scratch. The result is the index such a load makes, on the shipped lists.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ofacCsv, RESOURCES_DIR } from './lists/test-support';
import { storeOfficial, storeUserList } from './lists/store';
import { loadIndexNow, persistedIndexPath, reloadIndex, runScreening, type LoadedIndex } from './service';

const UN = readFileSync(join(RESOURCES_DIR, 'un_sc', '2026-02-27', 'consolidated.xml'), 'utf8');
const NOW = new Date('2026-03-02T10:00:00Z');
/** A newer UN edition: another list date, one listed person fewer, one more. */
const newerUn = () => new TextEncoder().encode(UN
  .replace(/dateGenerated="2026-02-27/, 'dateGenerated="2026-03-01')
  .replace(/<INDIVIDUAL>(?:(?!<\/INDIVIDUAL>)[\s\S])*?<FIRST_NAME>ERIC<\/FIRST_NAME>[\s\S]*?<\/INDIVIDUAL>/, '')
  .replace('<INDIVIDUALS>', '<INDIVIDUALS><INDIVIDUAL><DATAID>99000001</DATAID><FIRST_NAME>QUILLAN</FIRST_NAME><SECOND_NAME>MARROWBY</SECOND_NAME><UN_LIST_TYPE>DRC</UN_LIST_TYPE><REFERENCE_NUMBER>CDi.999</REFERENCE_NUMBER><LISTED_ON>2026-03-01</LISTED_ON></INDIVIDUAL>'));

const made: string[] = [];
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'cc-reload-'));
  made.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

const screened = (l: LoadedIndex, first_name: string, last_name: string) => {
  const r = runScreening(l, { id: 'scr_1', created: NOW.getTime(), livemode: false, subject: { type: 'individual', first_name, last_name } });
  return r.matches.map((m) => [m.source, m.name, m.score]);
};

describe('a change of the lists made over the index in use', () => {
  it('a newer official file is spliced in: the index a load from scratch makes, written to the data directory', () => {
    const dir = dataDir();
    const current = loadIndexNow(RESOURCES_DIR, dir);
    expect(screened(current, 'Eric', 'Badege').length).toBeGreaterThan(0);
    expect(storeOfficial(dir, 'un_sc', [{ name: 'consolidated.xml', bytes: newerUn() }], NOW).ok).toBe(true);

    const next = reloadIndex(current, RESOURCES_DIR, dir, 'now')!;
    expect(next.timings.snapshot).toBe('spliced in place');
    expect(next.stamp).not.toBe(current.stamp);
    // The same import in another data directory, loaded from scratch (spliced into the shipped lists).
    const other = dataDir();
    expect(storeOfficial(other, 'un_sc', [{ name: 'consolidated.xml', bytes: newerUn() }], NOW).ok).toBe(true);
    const scratch = loadIndexNow(RESOURCES_DIR, other);
    expect(next.stats).toMatchObject({ entities: scratch.stats.entities, names: scratch.stats.names, keys: scratch.stats.keys });
    expect(next.catalog).toEqual(scratch.catalog);
    for (const [first, last] of [['Quillan', 'Marrowby'], ['Eric', 'Badege'], ['Vladimir', 'Putin'], ['Kim', 'Jong Un']] as const) {
      expect(screened(next, first, last), `${first} ${last}`).toEqual(screened(scratch, first, last));
    }
    expect(screened(next, 'Quillan', 'Marrowby')[0]?.[0]).toBe('un_sc');
    expect(screened(next, 'Eric', 'Badege').filter(([source]) => source === 'un_sc')).toEqual([]);
    // The index in use is untouched: a batch still screening with it sees the lists it started with.
    expect(screened(current, 'Eric', 'Badege').length).toBeGreaterThan(0);
    expect(screened(current, 'Quillan', 'Marrowby')).toEqual([]);
    // Written for the next start, which restores it.
    expect(existsSync(persistedIndexPath(dir))).toBe(true);
    expect(loadIndexNow(RESOURCES_DIR, dir).timings.snapshot).toBe('persisted');
  });

  it('an own list is added on top of the official part in use, which is not made again', () => {
    const dir = dataDir();
    const current = loadIndexNow(RESOURCES_DIR, dir);
    expect(storeUserList(dir, 'Acme PEP', new TextEncoder().encode('kind,name\npep,Quentin Abernathy-Vole\n'), NOW).ok).toBe(true);
    const next = reloadIndex(current, RESOURCES_DIR, dir)!;
    expect(next.official!.index).toBe(current.official!.index);
    expect(next.catalog.map((c) => c.source)).toContain('user:acme-pep');
    expect(screened(next, 'Quentin', 'Abernathy-Vole')[0]?.[0]).toBe('user:acme-pep');
    expect(reloadIndex(next, RESOURCES_DIR, dir)).toBe(next);
  });

  it('an OFAC list is not spliced (the CSL is de-duplicated against it): left to a load from scratch', () => {
    const dir = dataDir();
    const current = loadIndexNow(RESOURCES_DIR, dir);
    const sdn = ofacCsv([`7513,"MNANGAGWA, Emmerson Dambudzo","individual","GLOMAG",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"DOB 15 Sep 1946."`]);
    expect(storeOfficial(dir, 'us_ofac_sdn', [{ name: 'sdn.csv', bytes: sdn }], NOW).ok).toBe(true);
    expect(reloadIndex(current, RESOURCES_DIR, dir)).toBeNull();
  });
});
