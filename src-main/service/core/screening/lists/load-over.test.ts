// loadListsOver: after an import, the lists are made from the shipped lists already read plus the
// newer file, and must be exactly what reading every list again (loadLists) gives.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadLists, loadListsOver, loadShippedLists, type OwnLists } from './load';
import { RESOURCES_DIR } from './test-support';

const shipped = loadShippedLists(RESOURCES_DIR);
const un = readFileSync(join(RESOURCES_DIR, 'un_sc', '2026-02-27', 'consolidated.xml'), 'utf8');
// A newer UN file: one person delisted, one new, another date.
const first = /<INDIVIDUAL>[\s\S]*?<\/INDIVIDUAL>/.exec(un)![0];
const newer = un
  .replace('dateGenerated="2026-02-27', 'dateGenerated="2026-03-02')
  .replace(first, first.replace(/<DATAID>\d+<\/DATAID>/, '<DATAID>99999901</DATAID>').replace(/<REFERENCE_NUMBER>[^<]*</, '<REFERENCE_NUMBER>QDi.999<'));
const own = (source: 'un_sc' | 'us_csl', bytes: string): NonNullable<OwnLists['official']> => ({
  [source]: { format: source === 'un_sc' ? 'un-xml' : 'csl-csv', files: { list: new TextEncoder().encode(bytes) }, title: 'Newer', kind: 'sanctions', retrievalDate: '2026-03-03' },
});

describe('loadListsOver', () => {
  it('gives what loadLists gives: the same records in the same order, versions and skip counts', () => {
    const official = own('un_sc', newer);
    const over = loadListsOver(() => shipped, official)!;
    const again = loadLists(RESOURCES_DIR, { official });
    expect(over.entities.map((e) => e.id)).toEqual(again.entities.map((e) => e.id));
    expect(over.entities).toEqual(again.entities);
    expect(over.versions).toEqual(again.versions);
    expect(over.skipped).toEqual(again.skipped);
    // The newer file is in use: its record in, the one it replaced out, its version in the UN's place.
    const ids = new Set(over.entities.map((e) => e.id));
    expect([...ids].some((id) => id.includes('QDi.999') || id.includes('99999901'))).toBe(true);
    expect(over.versions.map((v) => v.source)).toEqual(shipped.versions.map((v) => v.source));
    expect(over.versions.find((v) => v.source === 'un_sc')).toMatchObject({ title: 'Newer', list_date: '2026-03-02', retrieval_date: '2026-03-03' });
  });

  it('reads nothing when the CSL or an OFAC list is replaced (the CSL is de-duplicated against OFAC): null', () => {
    let read = false;
    expect(loadListsOver(() => ((read = true), shipped), own('us_csl', 'x'))).toBeNull();
    expect(read).toBe(false);
  });
});
