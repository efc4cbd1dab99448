import { describe, expect, it } from 'vitest';
import { decodeText, finishEntity, parseDob, recordHash } from './common';

describe('parseDob', () => {
  it('reads the forms the lists use', () => {
    expect(parseDob('10 Dec 1948')).toEqual(['1948-12-10']);
    expect(parseDob('Dec 1948')).toEqual(['1948-12']);
    expect(parseDob('1962')).toEqual(['1962']);
    expect(parseDob('1948-12-10')).toEqual(['1948-12-10']);
    expect(parseDob(' 1948-12-10')).toEqual(['1948-12-10']);
  });

  it('keeps the year of a circa date and expands ranges to their years', () => {
    expect(parseDob('circa 1951')).toEqual(['1951']);
    expect(parseDob('1960 to 1962')).toEqual(['1960', '1961', '1962']);
    expect(parseDob('01 Jan 1960 to 31 Dec 1962')).toEqual(['1960', '1961', '1962']);
    expect(parseDob('circa 1979-1982')).toEqual(['1979', '1980', '1981', '1982']);
    expect(parseDob('Between Aug. and Sep. 1960')).toEqual(['1960']);
  });

  it('gives nothing for what it cannot read or for impossible dates', () => {
    expect(parseDob('31 Feb 1960')).toEqual([]);
    expect(parseDob('55-58 years old')).toEqual([]);
    expect(parseDob('')).toEqual([]);
  });
});

describe('decodeText', () => {
  it("drops OFAC's trailing 0x1A and a BOM", () => {
    expect(decodeText(new Uint8Array([0xef, 0xbb, 0xbf, 0x61, 0x0d, 0x0a, 0x1a]))).toBe('a\r\n');
  });
});

describe('finishEntity', () => {
  const draft = {
    source: 'test', sourceId: '1', sourceList: 'T', kind: 'sanctions' as const, schema: 'person' as const,
    names: [
      { name: 'DOE,  John', kind: 'primary' as const, quality: 'strong' as const },
      { name: 'Johnny', kind: 'aka' as const, quality: 'weak' as const },
      { name: 'johnny', kind: 'aka' as const, quality: 'strong' as const },
      { name: ' ', kind: 'aka' as const, quality: 'strong' as const },
    ],
    dobs: ['1960', '1950', '1960'],
    countries: ['IR', 'AE', 'IR'],
    ids: [{ type: 'Passport', number: 'A1' }, { type: 'Passport', number: 'A1' }],
    programs: ['SDGT', 'SDGT'],
  };

  it('makes the stable id, drops repeats and keeps the strongest quality of a repeated name', () => {
    const e = finishEntity(draft);
    expect(e.id).toBe('test:1');
    expect(e.names).toEqual([
      { name: 'DOE, John', kind: 'primary', quality: 'strong' },
      { name: 'Johnny', kind: 'aka', quality: 'strong' },
    ]);
    expect(e.dobs).toEqual(['1950', '1960']);
    expect(e.countries).toEqual(['IR', 'AE']);
    expect(e.ids).toHaveLength(1);
    expect(e.programs).toEqual(['SDGT']);
    expect(e.recordHash).toMatch(/^[0-9a-f]{16}$/);
  });

  it('hashes what matters for a match and nothing else', () => {
    const a = finishEntity(draft);
    expect(finishEntity({ ...draft, sourceList: 'other list', sourceId: '2' }).recordHash).toBe(a.recordHash);
    expect(finishEntity({ ...draft, countries: ['AE', 'IR'] }).recordHash).toBe(a.recordHash);
    expect(finishEntity({ ...draft, dobs: ['1961'] }).recordHash).not.toBe(a.recordHash);
    expect(finishEntity({ ...draft, schema: 'organization' }).recordHash).not.toBe(a.recordHash);
    expect(recordHash(a)).toBe(a.recordHash);
  });
});
