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
    expect(imp.skipped).toMatchObject({ delisted_not_in_newer_file: 1, added_by_newer_file: 1, fcdo_short_second_regime_of_group: 1 });
  });

  it('one ConList on its own: every group, its Last Updated as the date, 00 parts of a DOB dropped', () => {
    const imp = importUk([CONLIST]);
    expect(imp.listDate).toBe('2025-04-14');
    expect(imp.entities.find((e) => e.id === 'uk_sanctions:99999')?.dobs).toEqual(['1960']);
  });

  it('reads dates as the UK lists write them', () => {
    expect([ukDate('24/10/1966'), ukDate('00/10/1966'), ukDate('00/00/1966'), ukDate('10-03-2022'), ukDate('31/02/1966'), ukDate('x')]).toEqual(['1966-10-24', '1966-10', '1966', '2022-03-10', undefined, undefined]);
    expect([ukDate('dd/mm/1984'), ukDate('dd/05/1984'), ukDate('mm/dd/1984')]).toEqual(['1984', '1984-05', undefined]);
  });

  it('refuses a file with neither header', () => {
    expect(() => importUk([strToU8('a,b,c\n1,2,3\n')])).toThrow(FormatError);
  });
});

// The full FCDO UK Sanctions List, as published since OFSI's ConList was retired (January 2026).
const FULL_HEADER = [
  'Last Updated', 'Unique ID', 'OFSI Group ID', 'UN Reference Number', 'Name 6', 'Name 1', 'Name 2', 'Name 3', 'Name 4', 'Name 5', 'Name type',
  'Alias strength', 'Title', 'Name non-latin script', 'Non-latin script type', 'Non-latin script language', 'Regime Name', 'Designation Type',
  'Designation source', 'Sanctions Imposed', 'Other Information', 'UK Statement of Reasons', 'Address Line 1', 'Address Line 2', 'Address Line 3',
  'Address Line 4', 'Address Line 5', 'Address Line 6', 'Address Postal Code', 'Address Country', 'Phone number', 'Website', 'Email address',
  'Date Designated', 'D.O.B', 'Nationality(/ies)', 'National Identifier number', 'National Identifier additional information', 'Passport number',
  'Passport additional information', 'Position', 'Gender', 'Town of birth', 'Country of birth', 'Type of entity', 'Subsidiaries', 'Parent company',
  'Business registration number (s)', 'IMO number', 'Current owner/operator (s)', 'Previous owner/operator (s)', 'Current believed flag of ship',
  'Previous flags', 'Type of ship', 'Tonnage of ship', 'Length of ship', 'Year Built', 'Hull identification number (HIN)',
];

function fullRow(v: Partial<Record<(typeof FULL_HEADER)[number], string>>): string[] {
  return FULL_HEADER.map((h) => v[h] ?? '');
}

const FULL_ROWS: string[][] = [
  ['Report Date: 24-Jun-2026'],
  FULL_HEADER,
  fullRow({ 'Last Updated': '16/04/2026', 'Unique ID': 'RUS0244', 'OFSI Group ID': '14195', 'Name 6': 'ABRAMOVICH', 'Name 1': 'Roman', 'Name 2': 'Arkadyevich', 'Name type': 'Primary Name', 'Regime Name': 'Russia', 'Designation Type': 'Individual', 'Date Designated': '10/03/2022', 'D.O.B': '24/10/1966', 'Nationality(/ies)': '(1) Russia (2) Israel', 'Passport number': '(1) 12345 (2) 67890', Gender: 'Male', 'Name non-latin script': 'Роман Абрамович' }),
  fullRow({ 'Unique ID': 'RUS0244', 'OFSI Group ID': '14195', 'Name 6': 'ABRAMOVICH', 'Name 1': 'Roman', 'Name type': 'Alias', 'Alias strength': 'Good quality', 'Regime Name': 'Russia', 'Designation Type': 'Individual', 'D.O.B': '24/10/1966' }),
  fullRow({ 'Unique ID': 'RUS0244', 'OFSI Group ID': '14195', 'Name 6': 'ABRAMOVICH', 'Name 1': 'R.', 'Name type': 'Alias', 'Alias strength': 'Low quality', 'Regime Name': 'Russia', 'Designation Type': 'Individual', 'D.O.B': 'dd/mm/1967' }),
  fullRow({ 'Unique ID': 'GAC0001', 'OFSI Group ID': '14195', 'Name 6': 'ABRAMOVICH', 'Name 1': 'Roman', 'Name 2': 'Arkadievich', 'Name type': 'Primary Name', 'Regime Name': 'Global Anti-Corruption', 'Designation Type': 'Individual', 'Date Designated': '01/02/2024' }),
  fullRow({ 'Unique ID': 'RUS9999', 'Name 6': 'NEWCO LLC', 'Name type': 'Primary Name', 'Regime Name': 'Russia', 'Designation Type': 'Entity', 'Date Designated': '23/05/2026', 'Address Country': 'Russia' }),
  fullRow({ 'Unique ID': 'SHP0001', 'OFSI Group ID': '777', 'Name 6': 'SHIPCO', 'Name type': 'Primary Name', 'Regime Name': 'Russia', 'Designation Type': 'Ship', 'Date Designated': '01/01/2023' }),
  fullRow({ 'Unique ID': 'BAD0001', 'OFSI Group ID': '888' }),
];

const csvOf = (rows: string[][]) => strToU8(rows.map((r) => r.map((c) => `"${c.replace(/"/g, '""')}"`).join(',')).join('\r\n'));
const sheetOf = (rows: string[][], bookType: 'xlsx' | 'ods') => {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), 'UK Sanctions List');
  return new Uint8Array(XLSX.write(wb, { type: 'array', bookType }) as ArrayBuffer);
};

describe('UK: the full FCDO UK Sanctions List', () => {
  it('reads one record per group from its name rows: aliases, non-Latin name, dates of birth, nationalities, ids, regimes', () => {
    const imp = importUk([csvOf(FULL_ROWS)]);
    expect(imp.listDate).toBe('2026-06-24');
    expect(imp.entities.map((e) => e.id).sort()).toEqual(['uk_sanctions:14195', 'uk_sanctions:777', 'uk_sanctions:RUS9999']);
    const e = imp.entities.find((x) => x.id === 'uk_sanctions:14195')!;
    expect(e.names.map((n) => [n.name, n.kind, n.quality])).toEqual([
      ['Roman Arkadyevich ABRAMOVICH', 'primary', 'strong'],
      ['Роман Абрамович', 'aka', 'strong'],
      ['Roman ABRAMOVICH', 'aka', 'strong'],
      ['R. ABRAMOVICH', 'aka', 'weak'],
      ['Roman Arkadievich ABRAMOVICH', 'aka', 'strong'],
    ]);
    expect(e.dobs).toEqual(['1966-10-24', '1967']);
    expect(e.countries).toEqual(['RU', 'IL']);
    expect(e.gender).toBe('male');
    expect(e.programs).toEqual(['Russia', 'Global Anti-Corruption']);
    expect(e.ids.map((i) => i.number)).toEqual(expect.arrayContaining(['RUS0244', 'GAC0001', '12345', '67890']));
    expect(e.listedOn).toBe('2022-03-10');
    expect(imp.entities.find((x) => x.id === 'uk_sanctions:RUS9999')).toMatchObject({ schema: 'organization', countries: ['RU'], listedOn: '2026-05-23' });
    expect(imp.entities.find((x) => x.id === 'uk_sanctions:777')?.schema).toBe('vessel');
    expect(imp.skipped).toEqual({ fcdo_without_id_or_name: 1 });
  });

  it('reads the same from XLSX and ODS, and without the Report Date line takes the latest date in the file', () => {
    const csv = importUk([csvOf(FULL_ROWS)]);
    for (const book of ['xlsx', 'ods'] as const) expect(importUk([sheetOf(FULL_ROWS, book)]).entities).toEqual(csv.entities);
    expect(importUk([csvOf(FULL_ROWS.slice(1))]).listDate).toBe('2026-05-23');
  });

  it('replaces an older ConList whole: an alias the newer file dropped is dropped, a group it lacks is delisted', () => {
    const withDropped = strToU8(`${new TextDecoder().decode(CONLIST)}\n${conRow({ surname: 'ABRAMOVICZ', given: 'Romek', alias: 'AKA', group: '14195' })}`);
    expect(importUk([withDropped]).entities.find((x) => x.id === 'uk_sanctions:14195')?.names.map((n) => n.name)).toContain('Romek ABRAMOVICZ');
    const imp = importUk([withDropped, csvOf(FULL_ROWS)]);
    expect(imp.listDate).toBe('2026-06-24');
    const e = imp.entities.find((x) => x.id === 'uk_sanctions:14195')!;
    expect(e.names.map((n) => n.name)).not.toContain('Romek ABRAMOVICZ');
    expect(e.names).toHaveLength(5);
    expect(imp.skipped).toMatchObject({ delisted_not_in_newer_file: 1, added_by_newer_file: 1 });
  });

  it('refuses the short export on its own (primary names only), naming the full file to import instead', () => {
    expect(() => importUk([FCDO])).toThrow(/primary names only.*full UK Sanctions List file/);
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
