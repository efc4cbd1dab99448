import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FormatError } from './common';
import { importUserList, userListSlug } from './user-csv';

// The example in docs/watchlists.md, read from there so the documentation cannot drift.
const DOC = readFileSync(fileURLToPath(new URL('../../../../../docs/watchlists.md', import.meta.url)), 'utf8');
const EXAMPLE = /```csv\n([\s\S]*?)```/.exec(DOC)?.[1] ?? '';

describe('importUserList', () => {
  it('imports the documented example', () => {
    const r = importUserList(EXAMPLE, { listName: 'Acme lists' });
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([]);
    expect([r.errorsTotal, r.warningsTotal]).toEqual([0, 0]);
    expect(r.rows).toEqual({ total: 3, imported: 3, rejected: 0 });
    const [jane, john, acme] = r.import.entities;
    expect(r.import.source).toBe('user:acme-lists');
    expect(jane).toMatchObject({
      id: 'user:acme-lists:pep-0001', kind: 'pep', schema: 'person', sourceList: 'Acme lists', gender: 'female',
      names: [
        { name: 'Jane Q. Example', kind: 'primary', quality: 'strong' },
        { name: 'J. Example', kind: 'aka', quality: 'strong' },
        { name: 'Jane Exemplar', kind: 'aka', quality: 'strong' },
      ],
      dobs: ['1961-04-12'], countries: ['GB'], ids: [{ type: 'Passport', number: '123456789' }], programs: ['Member of Parliament'],
    });
    expect(john).toMatchObject({ kind: 'rca', dobs: ['1960', '1961', '1962'], countries: ['GB'] });
    expect(acme).toMatchObject({
      kind: 'wanted', schema: 'organization',
      ids: [{ type: 'Registration Number', number: 'HE123456' }, { type: 'Registration Number', number: 'HE654321' }],
    });
    expect(r.import.counts).toMatchObject({ total: 3, person: 2, organization: 1 });
  });

  it('reports bad rows by row and column, never by value, and imports the rest', () => {
    const csv = [
      'kind,name,dob,country,id,id_type,gender,ref,colour',
      'sanctionz,Secret Person One,1961-02-30,Atlantis,A1;A2,Passport;ID;Visa,x,r1,blue',
      ',,,,,,,,',
      'pep,,1961,GB,,,,r2,',
      'pep,Secret Person Two,1970,GB,,,,r3,',
      'pep,Secret Person Three,1971,GB,,,,r3,',
    ].join('\r\n');
    const r = importUserList(csv, { listName: 'checks' });
    expect(r.rows).toEqual({ total: 4, imported: 1, rejected: 3 });
    expect(r.warnings).toEqual([{ row: 1, column: 'column 9', reason: 'unknown column, ignored' }]);
    expect(r.errors.map((e) => [e.row, e.column])).toEqual([
      [2, 'kind'], [2, 'dob'], [2, 'country'], [2, 'id_type'], [2, 'gender'],
      [4, 'name'],
      [6, 'ref'],
    ]);
    const report = JSON.stringify(r.errors);
    for (const value of ['sanctionz', 'Secret', 'Atlantis', '1961-02-30', 'A1', 'Visa', 'blue']) expect(report).not.toContain(value);
  });

  it('rejects every row when a required column is missing', () => {
    const r = importUserList('name,dob\nA,1960\n', { listName: 'x' });
    expect(r.errors).toEqual([{ row: 1, column: 'kind', reason: 'required column missing' }]);
    expect(r.rows).toEqual({ total: 1, imported: 0, rejected: 1 });
  });

  it('reads tab-separated files and weak aliases', () => {
    const r = importUserList('kind\tname\tweak_aliases\nwanted\tMax Mustermann\tMaxi\n', { listName: 'x' });
    expect(r.import.entities[0]?.names).toEqual([
      { name: 'Max Mustermann', kind: 'primary', quality: 'strong' },
      { name: 'Maxi', kind: 'aka', quality: 'weak' },
    ]);
  });

  it('keeps ids without a ref stable when other columns change', () => {
    const a = importUserList('kind,name,dob,country\npep,Ann Other,1970,FR\n', { listName: 'x' }).import.entities[0];
    const b = importUserList('kind,name,dob,country\npep,Ann Other,1970,DE\n', { listName: 'x' }).import.entities[0];
    // Both rows imported (two undefineds would compare equal), one id, two record hashes.
    expect(a?.id).toMatch(/^user:/);
    expect(a?.id).toBe(b?.id);
    expect(a?.recordHash).toMatch(/^[0-9a-f]+$/);
    expect(b?.recordHash).toMatch(/^[0-9a-f]+$/);
    expect(a?.recordHash).not.toBe(b?.recordHash);
  });

  it('reports an unclosed quote by row', () => {
    const r = importUserList('kind,name\npep,"Open quote\npep,Other\n', { listName: 'x' });
    expect(r.errors).toContainEqual({ row: 2, column: '', reason: 'unclosed quote' });
    expect(r.import.entities).toHaveLength(0);
  });

  it('reads quoted names with commas and quotes, and rejects a row with text after a closing quote', () => {
    const r = importUserList('kind,name,aliases\npep,"Roe, Jane","J. ""Jay"" Roe;Jane R"\npep,"Roe"Junior,\n', { listName: 'x' });
    expect(r.import.entities[0]?.names.map((n) => n.name)).toEqual(['Roe, Jane', 'J. "Jay" Roe', 'Jane R']);
    expect(r.errors).toEqual([{ row: 3, column: '', reason: 'text after a closing quote' }]);
  });

  it('lists the first 100 problems of each kind and counts them all', () => {
    const header = `kind,name,${Array.from({ length: 150 }, (_, i) => `extra${i}`).join(',')}`;
    const rows = Array.from({ length: 1_000 }, (_, i) => `pep,Person ${i},${',x'.repeat(149)}`.replace(`Person ${i}`, i % 2 ? `Person ${i}` : ''));
    const r = importUserList([header, ...rows].join('\n'), { listName: 'x' });
    expect(r.warnings).toHaveLength(100);
    expect(r.warningsTotal).toBe(150);
    expect(r.errors).toHaveLength(100);
    expect(r.errorsTotal).toBe(500);
    expect(r.rows).toEqual({ total: 1_000, imported: 500, rejected: 500 });
  });

  it('reads a list Excel saved as "CSV" (Windows-1252) or "Unicode Text" (UTF-16 LE, tabs), and says how it read the first', () => {
    // kind,name,aliases / pep,René Dupré,“Le Duc” / rca,Søren Strauß,€ Holding (Windows-1252 bytes)
    const cp1252 = Uint8Array.from([
      ...Buffer.from('kind,name,aliases\r\npep,Ren'), 0xe9, ...Buffer.from(' Dupr'), 0xe9, 0x2c, 0x93, ...Buffer.from('Le Duc'), 0x94,
      ...Buffer.from('\r\nrca,S'), 0xf8, ...Buffer.from('ren Strau'), 0xdf, 0x2c, 0x80, ...Buffer.from(' Holding\r\n'),
    ]);
    const r = importUserList(cp1252, { listName: 'Excel list' });
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([{ row: 1, column: '', reason: 'the file is not UTF-8: read as Windows-1252, as Excel saves "CSV (Comma delimited)"' }]);
    expect(r.import.entities.map((e) => e.names.map((n) => n.name))).toEqual([['René Dupré', '“Le Duc”'], ['Søren Strauß', '€ Holding']]);

    const unicodeText = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('kind\tname\r\npep\tŁukasz Șerban\r\n', 'utf16le')]);
    const u = importUserList(new Uint8Array(unicodeText), { listName: 'Excel list' });
    expect([u.errors, u.warnings]).toEqual([[], []]);
    expect(u.import.entities[0]?.names[0]?.name).toBe('Łukasz Șerban');
  });

  it('leaves out a name that lost a letter to its encoding (U+FFFD, or ? for a letter the code page lacks)', () => {
    const r = importUserList('kind,name,aliases\npep,Ren\uFFFD Dupr\uFFFD,\npep,?ukasz Nowak,\nrca,Anna Nowak,?ukasz\npep,Jan Nowak,\n', { listName: 'Lost' });
    expect(r.errors).toEqual([
      { row: 2, column: 'name', reason: 'a letter could not be read (shown as \uFFFD or ?): save the file as UTF-8' },
      { row: 3, column: 'name', reason: 'a letter could not be read (shown as \uFFFD or ?): save the file as UTF-8' },
      { row: 4, column: 'aliases', reason: 'a letter could not be read (shown as \uFFFD or ?): save the file as UTF-8' },
    ]);
    expect(r.rows).toEqual({ total: 4, imported: 1, rejected: 3 });
  });

  it('needs a usable list name', () => {
    expect(userListSlug('Ünïcode PEP list #2')).toBe('unicode-pep-list-2');
    expect(() => importUserList('kind,name\n', { listName: '***' })).toThrow(FormatError);
  });
});
