import { describe, expect, it } from 'vitest';
import type { ListEntity, ListImport } from '../types';
import { countEntities, finishEntity } from './common';
import { cslDuplicateCheck, dedupeImports } from './dedupe';

function imp(source: string, ids: readonly string[], sourceList = 'X'): ListImport {
  const entities: ListEntity[] = ids.map((sourceId) =>
    finishEntity({ source, sourceId, sourceList, kind: 'sanctions', schema: 'organization', names: [{ name: `N ${sourceId}`, kind: 'primary', quality: 'strong' }] }),
  );
  return { source, publisher: 'p', listDate: null, sha256: 'h', entities, counts: countEntities(entities), skipped: {} };
}

describe('dedupeImports', () => {
  const sdn = imp('us_ofac_sdn', ['36', '306', '15268']);
  const cons = imp('us_ofac_cons', ['17013', '15268']);
  const csl = imp('us_csl', ['SDN:36', 'SDN:99999', 'SSI:17013', 'CAP:306', 'SSI:15268', 'DPL:deb7a1d5', 'ISN:42']);
  const un = imp('un_sc', ['QDi.001']);

  it("drops the CSL's copies of OFAC records, looking first in the list's own OFAC source", () => {
    const out = dedupeImports([sdn, cons, csl, un]);
    expect(out.map((d) => d.import.source)).toEqual(['us_ofac_sdn', 'us_ofac_cons', 'us_csl', 'un_sc']);
    const c = out[2];
    expect(c?.entities.map((e) => e.id)).toEqual(['us_csl:SDN:99999', 'us_csl:DPL:deb7a1d5', 'us_csl:ISN:42']);
    expect(c?.skipped).toEqual({
      duplicate_SDN_in_us_ofac_sdn: 1,
      duplicate_SSI_in_us_ofac_cons: 2,
      duplicate_CAP_in_us_ofac_sdn: 1,
    });
    expect(out[0]?.entities).toHaveLength(3);
    expect(out[3]?.skipped).toEqual({});
  });

  it('keeps the whole CSL when no OFAC file is loaded, and refuses two versions of one source', () => {
    expect(dedupeImports([csl, un])[0]?.entities).toHaveLength(7);
    expect(() => dedupeImports([sdn, sdn])).toThrow(/two imports/);
  });

  it('offers the same rule as a check for the CSL importer', () => {
    const check = cslDuplicateCheck([sdn, cons]);
    expect(check?.('SDN', '36')).toBe('us_ofac_sdn');
    expect(check?.('SSI', '15268')).toBe('us_ofac_cons');
    expect(check?.('SDN', '15268')).toBe('us_ofac_sdn');
    expect(check?.('DPL', '36')).toBeUndefined();
    expect(cslDuplicateCheck([un])).toBeUndefined();
  });
});
