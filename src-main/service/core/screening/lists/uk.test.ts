import * as XLSX from '@e965/xlsx';
import { strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { FormatError } from './common';
import { dfatListedOn, importDfat } from './dfat';
import { importUk, ukDate } from './uk';

const CONLIST_HEADER = 'Name 6,Name 1,Name 2,Name 3,Name 4,Name 5,Title,Name Non-Latin Script,Non-Latin Script Type,Non-Latin Script Language,DOB,Town of Birth,Country of Birth,Nationality,Passport Number,Passport Details,National Identification Number,National Identification Details,Position,Address 1,Address 2,Address 3,Address 4,Address 5,Address 6,Post/Zip Code,Country,Other Information,Group Type,Alias Type,Alias Quality,Regime,Listed On,UK Sanctions List Date Designated,Last Updated,Group ID';

/** A ConList row from the few columns a test cares about. */
function conRow(v: { surname: string; given?: string; dob?: string; nat?: string; type?: string; alias?: string; quality?: string; regime?: string; group: string; other?: string }): string {
  const cells = CONLIST_HEADER.split(',').map(() => '');
  const set = (col: string, value: string | undefined) => { cells[CONLIST_HEADER.split(',').indexOf(col)] = value ?? ''; };
  set('Name 6', v.surname); set('Name 1', v.given); set('DOB', v.dob); set('Nationality', v.nat);
  set('Group Type', v.type ?? 'Individual'); set('Alias Type', v.alias ?? 'Primary name'); set('Alias Quality', v.quality);
  set('Regime', v.regime ?? 'Russia'); set('Group ID', v.group); set('Other Information', v.other);
  set('UK Sanctions List Date Designated', '15/03/2022'); set('Last Updated', '15/03/2022');
  return cells.map((c) => `"${c}"`).join(',');
}

const CONLIST = strToU8([
  'Last Updated,14/04/2025',
  CONLIST_HEADER,
  conRow({ surname: 'ABRAMOVICH', given: 'Roman', dob: '24/10/1966', nat: '(1) Russia. (2) Israel. (3) Portugal', group: '14195', other: '(UK Sanctions List Ref):RUS0244. (Gender):Male' }),
  conRow({ surname: 'ABRAMOVICH', given: 'Roman Arkadyevich', alias: 'Primary name variation', group: '14195' }),
  conRow({ surname: 'ABRAMOVICH', given: 'R.', alias: 'AKA', quality: 'Low quality', group: '14195' }),
  conRow({ surname: 'GONE', given: 'Delisted', dob: '00/00/1960', group: '99999' }),
  conRow({ surname: 'SHIPCO', type: 'Ship', group: '777' }),
].join('\n'));

const FCDO = strToU8([
  'Unique ID,OFSI Group ID,Name,Regime Name,Type,Designation source,Date Designated,Sanctions Imposed,Some Later Column',
  'RUS0244,14195,ABRAMOVICH Roman Arkadievich,Russia,Individual,UK,10-03-2022,"Asset freeze, Travel Ban",x',
  'RUS0244,14195,ABRAMOVICH Roman Arkadievich,Global Anti-Corruption,Individual,UK,10-03-2022,Asset freeze,x',
  'RUS9999,,NEWCO LLC,Russia,Entity,UK,23-07-2025,Trade sanctions,x',
  'SHP0001,777,SHIPCO,Russia,Ship,UK,01-01-2023,Ship sanctions,x',
].join('\n'));

describe('UK: OFSI ConList merged with the newer FCDO list by group id', () => {
  it('a group in both takes the newer primary name and regimes and keeps the older aliases, DOB, nationalities', () => {
    const imp = importUk([CONLIST, FCDO]);
    expect(imp.listDate).toBe('2025-07-23');
    const e = imp.entities.find((x) => x.id === 'uk_sanctions:14195');
    expect(e?.names[0]).toEqual({ name: 'ABRAMOVICH Roman Arkadievich', kind: 'primary', quality: 'strong' });
    expect(e?.names).toContainEqual({ name: 'Roman ABRAMOVICH', kind: 'aka', quality: 'strong' });
    expect(e?.names).toContainEqual({ name: 'R. ABRAMOVICH', kind: 'aka', quality: 'weak' });
    expect(e?.dobs).toEqual(['1966-10-24']);
    expect(e?.countries).toEqual(['RU', 'IL', 'PT']);
    expect(e?.gender).toBe('male');
    expect(e?.programs).toEqual(['Russia', 'Global Anti-Corruption']);
    expect(e?.listedOn).toBe('2022-03-10');
  });

  it('the designation date is the listing date, and it is not part of the record hash', () => {
    const one = importUk([CONLIST]).entities.find((x) => x.id === 'uk_sanctions:14195');
    expect(one?.listedOn).toBe('2022-03-15');
    const redated = strToU8(new TextDecoder().decode(CONLIST).replaceAll('15/03/2022', '16/03/2022'));
    const other = importUk([redated]).entities.find((x) => x.id === 'uk_sanctions:14195');
    expect(other?.listedOn).toBe('2022-03-16');
    expect(other?.recordHash).toBe(one?.recordHash);
  });

  it('the file order does not matter: the newer date wins', () => {
    expect(importUk([FCDO, CONLIST]).entities.map((e) => e.recordHash)).toEqual(importUk([CONLIST, FCDO]).entities.map((e) => e.recordHash));
  });

  it('a group only in the newer file is added; only in the older file it is delisted', () => {
    const imp = importUk([CONLIST, FCDO]);
    expect(imp.entities.map((e) => e.id).sort()).toEqual(['uk_sanctions:14195', 'uk_sanctions:777', 'uk_sanctions:RUS9999']);
    expect(imp.entities.find((e) => e.id === 'uk_sanctions:777')?.schema).toBe('vessel');
    expect(imp.skipped).toMatchObject({ delisted_not_in_newer_file: 1, added_by_newer_file: 1, fcdo_second_regime_of_group: 1 });
  });

  it('one ConList on its own: every group, its Last Updated as the date, 00 parts of a DOB dropped', () => {
    const imp = importUk([CONLIST]);
    expect(imp.listDate).toBe('2025-04-14');
    expect(imp.entities.find((e) => e.id === 'uk_sanctions:99999')?.dobs).toEqual(['1960']);
  });

  it('reads dates as the UK lists write them', () => {
    expect([ukDate('24/10/1966'), ukDate('00/10/1966'), ukDate('00/00/1966'), ukDate('10-03-2022'), ukDate('31/02/1966'), ukDate('x')]).toEqual(['1966-10-24', '1966-10', '1966', '2022-03-10', undefined, undefined]);
  });

  it('refuses a file with neither header', () => {
    expect(() => importUk([strToU8('a,b,c\n1,2,3\n')])).toThrow(FormatError);
  });
});

describe('Australia: DFAT Consolidated List', () => {
  it("groups 6678 and 6678a, normalises Name Type and Type, reads Excel serial dates", () => {
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([
      ['Reference', 'Name of Individual or Entity', 'Type', 'Name Type', 'Date of Birth', 'Place of Birth', 'Citizenship', 'Address', 'Additional Information', 'Listing Information', 'Committees', 'Control Date'],
      [6678, 'Ivan PETROV', 'individual ', 'Primary name ', 24108, '', 'Russian and Ukrainian', '', 'Male; General', 'Autonomous (Russia) Sanctions (Designated Persons) Instrument on 24 Feb. 2022 (amended on 1 Mar 2023)', 'Autonomous (Russia)', 45607],
      ['6678a', 'Иван Петров', 'Individual', 'original Script', '', '', '', '', '', '', 'Autonomous (Russia)', 45607],
      ['6678b', 'I. Petrov', 'Individual', 'Aka ', 'a) Approximately 1955- 1957 b) 12/05/1965', '', '', '', '', '', '', 45600],
    ]), 'Sheet1');
    const imp = importDfat(new Uint8Array(XLSX.write(wb, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer));
    expect(imp.listDate).toBe('2024-11-11');
    expect(imp.entities).toHaveLength(1);
    const e = imp.entities[0];
    expect(e).toMatchObject({ id: 'au_dfat:6678', schema: 'person', gender: 'male', countries: ['RU', 'UA'], programs: ['Autonomous (Russia)'] });
    expect(e?.names.map((n) => [n.name, n.kind])).toEqual([['Ivan PETROV', 'primary'], ['Иван Петров', 'aka'], ['I. Petrov', 'aka']]);
    expect(e?.dobs).toEqual(['1955', '1956', '1957', '1965-05-12', '1966-01-01']);
    expect(e?.listedOn).toBe('2022-02-24');
  });

  it('reads the first whole date of Listing Information as the listing date, and nothing else', () => {
    expect(dfatListedOn('Listed by UN 1267 Committee on 25 January 2001 (amended on 20 December 2005)')).toBe('2001-01-25');
    expect(dfatListedOn('Listed on 29 Nov. 2011')).toBe('2011-11-29');
    expect(dfatListedOn('Instrument of first listing: Charter of the United Nations (Anti terrorism) List 2001.')).toBeUndefined();
    expect(dfatListedOn('Listed on 31 Feb 2011')).toBeUndefined();
    expect(dfatListedOn('')).toBeUndefined();
  });

  it('refuses a CSV or a workbook without its header', () => {
    expect(() => importDfat(strToU8('Reference,Name\n1,x\n'))).toThrow(/not an XLSX or ODS/);
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['a', 'b']]), 'S');
    expect(() => importDfat(new Uint8Array(XLSX.write(wb, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer))).toThrow(/not the DFAT/);
  });
});
