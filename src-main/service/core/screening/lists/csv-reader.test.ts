import { describe, expect, it } from 'vitest';
import { csvRecords, type CsvLimits } from './csv-reader';

const read = (text: string, limits: CsvLimits = { cell: 100, columns: 10 }, delimiter = ',') => [...csvRecords(text, delimiter, limits)];
const cells = (text: string, delimiter = ',') => read(text, undefined, delimiter).map((r) => r.cells);

describe('csvRecords', () => {
  it('reads quoted cells, doubled quotes, line breaks in quotes, CRLF and empty lines as RFC 4180 says', () => {
    expect(cells('a,b\n"c,d",e\r\n"x""y",z\n')).toEqual([['a', 'b'], ['c,d', 'e'], ['x"y', 'z']]);
    expect(cells('a,"b\nc",d\n\n,\nq')).toEqual([['a', 'b\nc', 'd'], [''], ['', ''], ['q']]);
    expect(cells('"a" ,b,')).toEqual([['a', 'b', '']]);
    expect(cells('a\tb,c\n', '\t')).toEqual([['a', 'b,c']]);
    expect(cells('')).toEqual([]);
  });

  it('flags a quote never closed and text after a closing quote', () => {
    expect(read('a,"open\nb,c\n').map((r) => [r.cells, r.quote])).toEqual([[['a', 'open\nb,c\n'], 'unclosed']]);
    expect(read('"a"b,c\nd\n').map((r) => [r.cells, r.quote])).toEqual([[['ab', 'c'], 'stray'], [['d'], undefined]]);
  });

  it('keeps cells up to the width and records up to the column count, counting the rest', () => {
    const [wide, many] = read(`${'x'.repeat(11)},"${'y'.repeat(9)}""",ok\n${'a,'.repeat(1_000)}a\n`, { cell: 10, columns: 3 });
    expect(wide).toEqual({ cells: ['', 'yyyyyyyyy"', 'ok'], columns: 3, wide: [0] });
    expect(many).toEqual({ cells: ['a', 'a', 'a'], columns: 1_001, wide: [] });
  });

  it('reads a 20 MB line of commas without keeping it', () => {
    const [row] = read(','.repeat(20 * 2 ** 20), { cell: 10, columns: 5 });
    expect(row?.cells).toHaveLength(5);
    expect(row?.columns).toBe(20 * 2 ** 20 + 1);
  });
});
