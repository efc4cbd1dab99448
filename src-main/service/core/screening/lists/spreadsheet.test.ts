import * as XLSX from '@e965/xlsx';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { FormatError } from './common';
import { OFFICIAL_SHEET_LIMITS, readTable } from './spreadsheet';
import { RESOURCES_DIR } from './test-support';

/** A workbook made by SheetJS itself (a generator, not a stored blob). */
function workbook(rows: (string | number)[][], bookType: 'xlsx' | 'ods' = 'xlsx'): Uint8Array {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), 'Sheet1');
  return new Uint8Array(XLSX.write(wb, { type: 'array', bookType }) as ArrayBuffer);
}

function refused(bytes: Uint8Array, limits = OFFICIAL_SHEET_LIMITS): string {
  try {
    readTable(bytes, { limits });
  } catch (e) {
    expect(e).toBeInstanceOf(FormatError);
    return (e as Error).message;
  }
  throw new Error('accepted');
}

describe('readTable', () => {
  it('reads the real DFAT workbook: its header and every row', () => {
    const t = readTable(readFileSync(join(RESOURCES_DIR, 'au_dfat_consolidated/2024-11-11/regulation8_consolidated.xlsx')));
    expect(t.kind).toBe('xlsx');
    expect(t.rows[0]?.slice(0, 4)).toEqual(['Reference', 'Name of Individual or Entity', 'Type', 'Name Type']);
    expect(t.rows).toHaveLength(9554);
  });

  it('reads XLSX and ODS alike, numbers as text, formulas as their stored values only', () => {
    for (const kind of ['xlsx', 'ods'] as const) {
      const t = readTable(workbook([['Name', 'Date'], ['A B', 45607]], kind));
      expect(t).toEqual({ kind, rows: [['Name', 'Date'], ['A B', '45607']] });
    }
  });

  it('reads CSV with the bounded CSV reader', () => {
    expect(readTable(strToU8('Last Updated,14/04/2025\n"Name 6","Name, 1"\n'))).toEqual({ kind: 'csv', rows: [['Last Updated', '14/04/2025'], ['Name 6', 'Name, 1']] });
  });

  it('refuses a ZIP bomb before anything is unpacked', () => {
    const bomb = zipSync({ '[Content_Types].xml': new Uint8Array(0), 'xl/workbook.xml': new Uint8Array(50 * 2 ** 20) }, { level: 9 });
    expect(bomb.length).toBeLessThan(200_000);
    expect(refused(bomb)).toMatch(/ZIP bomb/);
    expect(refused(bomb, { ...OFFICIAL_SHEET_LIMITS, ratio: 1e9, totalBytes: 10 * 2 ** 20, entryBytes: 10 * 2 ** 20 })).toMatch(/unpacks to more than 10 MiB/);
    const many = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`x/${i}.xml`, strToU8('<a/>')]));
    expect(refused(zipSync(many))).toMatch(/more than 256 parts/);
  });

  it('refuses too many rows or cells', () => {
    const rows = Array.from({ length: 20 }, (_, i) => [`n${i}`, i, i]);
    expect(refused(workbook(rows), { ...OFFICIAL_SHEET_LIMITS, cells: 50 })).toMatch(/more than 50 cells/);
    expect(refused(workbook(rows), { ...OFFICIAL_SHEET_LIMITS, rows: 10 })).toMatch(/more than 10 rows/);
    expect(refused(strToU8('a,b,c\n'.repeat(20)), { ...OFFICIAL_SHEET_LIMITS, cells: 50 })).toMatch(/more than 50 cells/);
  });

  it('refuses an archive inside, external links and DOCTYPE declarations', () => {
    const parts = unzipSync(workbook([['a']]));
    expect(refused(zipSync({ ...parts, 'xl/embeddings/inner.dat': zipSync({ 'a.txt': strToU8('a') }) }))).toMatch(/another archive/);
    expect(refused(zipSync({ ...parts, 'xl/externalLinks/externalLink1.xml': strToU8('<externalLink/>') }))).toMatch(/links to other workbooks/);
    const wb = new TextDecoder().decode(parts['xl/workbook.xml']);
    const laughs = wb.replace('<workbook', '<!DOCTYPE lol [<!ENTITY lol "lol">]><workbook');
    expect(refused(zipSync({ ...parts, 'xl/workbook.xml': strToU8(laughs) }))).toMatch(/DOCTYPE/);
  });

  it('refuses what is not a spreadsheet', () => {
    expect(refused(zipSync({ 'word/document.xml': strToU8('<w/>') }))).toMatch(/not an XLSX or ODS/);
    expect(refused(strToU8('%PDF-1.7\n\u0000\u0001binary'))).toMatch(/not a CSV, XLSX or ODS/);
    expect(() => readTable(strToU8('a,b'), { csv: false })).toThrow(/not an XLSX or ODS/);
    expect(refused(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]))).toMatch(/cannot be read/);
  });
});
