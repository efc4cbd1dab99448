// Reading the first sheet of an official spreadsheet (XLSX or ODS, the UK and Australian lists),
// or the same table as CSV, with bounded memory and no surprises:
// - before SheetJS sees a byte, fflate reads the ZIP directory: entry count, each entry's and the
//   total unpacked size and the packing ratio are capped, and archives inside the archive,
//   external links and XML DOCTYPE/ENTITY declarations are refused;
// - the entries are then unpacked by fflate into buffers of their stated sizes (a stream that
//   lies about its size cannot grow past them) and stored again unpacked, so SheetJS inflates
//   nothing itself;
// - SheetJS reads values only (no formulas kept or evaluated, no HTML, no styles), at most
//   `rows` rows (sheetRows), and the cells are counted and capped.
// SheetJS's XML reading is regex based, not a recursive DOM, so deep nesting costs it no stack.
import { createRequire } from 'node:module';
import type * as XLSX from '@e965/xlsx';
import { unzipSync, zipSync, type Unzipped } from 'fflate';
import { decodeText, FormatError } from './common';
import { csvRecords, OFFICIAL_CSV_LIMITS } from './csv-reader';

export interface SheetLimits {
  /** Entries in the ZIP. XLSX/ODS workbooks have a dozen or two. */
  entries: number;
  /** Unpacked bytes of one entry, and of all of them. */
  entryBytes: number;
  totalBytes: number;
  /** Unpacked / packed bytes of one entry; XML packs at 5-30x, a bomb at 1,000x or more. */
  ratio: number;
  /** Rows read (the rest of the sheet is not parsed) and cells kept in them. */
  rows: number;
  cells: number;
}

/** ConList.xlsx: 18,800 rows x 36 columns, 24 MB unpacked; the FCDO ODS 7.4 MB unpacked. */
export const OFFICIAL_SHEET_LIMITS: SheetLimits = {
  entries: 256,
  entryBytes: 128 * 2 ** 20,
  totalBytes: 160 * 2 ** 20,
  ratio: 200,
  rows: 200_000,
  cells: 4_000_000,
};

/** A cell as text: numbers as written by String() (an Excel date stays its serial number). */
export type SheetRow = string[];

export interface SheetTable {
  kind: 'xlsx' | 'ods' | 'csv';
  rows: SheetRow[];
}

const NESTED_ARCHIVE = /\.(?:zip|jar|xlsx|xlsm|xlsb|xls|ods|odt|docx|pptx|gz|7z|rar)$/i;
const EXTERNAL_LINK = /(?:^|\/)externalLinks\//i;
const DTD = /<!(?:DOCTYPE|ENTITY)/i;

export function isZip(b: Uint8Array): boolean {
  return b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04;
}

/** Checks the directory and unpacks, within the limits. */
function unpackBounded(bytes: Uint8Array, limits: SheetLimits): Unzipped {
  let count = 0;
  let total = 0;
  let problem: string | undefined;
  const check = (f: { name: string; size: number; originalSize: number }): boolean => {
    if (problem) return false;
    count++;
    total += f.originalSize;
    if (count > limits.entries) problem = `the spreadsheet has more than ${limits.entries} parts`;
    else if (f.originalSize > limits.entryBytes || total > limits.totalBytes) problem = `the spreadsheet unpacks to more than ${Math.round(limits.totalBytes / 2 ** 20)} MiB`;
    else if (f.originalSize > 4096 && f.originalSize > limits.ratio * Math.max(f.size, 1)) problem = 'the spreadsheet is packed beyond any real workbook (a ZIP bomb?)';
    else if (NESTED_ARCHIVE.test(f.name)) problem = 'the spreadsheet holds another archive';
    else if (EXTERNAL_LINK.test(f.name)) problem = 'the spreadsheet links to other workbooks';
    return false;
  };
  try {
    // First pass: the directory only (the filter refuses every entry, nothing is inflated).
    unzipSync(bytes, { filter: check });
  } catch {
    throw new FormatError('the spreadsheet (ZIP) cannot be read');
  }
  if (problem) throw new FormatError(problem);
  let files: Unzipped;
  try {
    files = unzipSync(bytes);
  } catch {
    throw new FormatError('the spreadsheet (ZIP) cannot be read');
  }
  for (const [name, data] of Object.entries(files)) {
    // By content too: a ZIP, gzip or OLE (embedded object) part, whatever its name.
    if (isZip(data) || (data[0] === 0x1f && data[1] === 0x8b) || (data[0] === 0xd0 && data[1] === 0xcf && data[2] === 0x11 && data[3] === 0xe0)) {
      throw new FormatError('the spreadsheet holds another archive');
    }
    if (/\.(?:xml|rels)$/i.test(name) && DTD.test(new TextDecoder().decode(data.subarray(0, 4096)))) {
      throw new FormatError('the spreadsheet declares a DOCTYPE or entities');
    }
  }
  return files;
}

function kindOf(files: Unzipped): 'xlsx' | 'ods' | undefined {
  if (files['xl/workbook.xml']) return 'xlsx';
  const mime = files.mimetype;
  if (mime && new TextDecoder().decode(mime).trim() === 'application/vnd.oasis.opendocument.spreadsheet') return 'ods';
  return undefined;
}

let sheetJs: typeof XLSX | undefined;
/** SheetJS, loaded when a spreadsheet is first read (an import, a start without a snapshot): ~0.08 s a start saved. */
function xlsx(): typeof XLSX {
  return (sheetJs ??= createRequire(import.meta.url)('@e965/xlsx') as typeof XLSX);
}

function sheetRows(files: Unzipped, limits: SheetLimits): SheetRow[] {
  // Stored, not deflated: SheetJS copies the bytes fflate unpacked and inflates nothing.
  const stored = zipSync(files, { level: 0 });
  let wb: XLSX.WorkBook;
  try {
    wb = xlsx().read(stored, {
      type: 'array',
      dense: true,
      sheetRows: limits.rows + 1,
      sheets: 0,
      cellFormula: false,
      cellHTML: false,
      cellText: false,
      cellStyles: false,
      cellDates: false,
      bookVBA: false,
      WTF: false,
    });
  } catch {
    throw new FormatError('the spreadsheet cannot be read');
  }
  const name = wb.SheetNames[0];
  const ws = name === undefined ? undefined : wb.Sheets[name];
  if (!ws) throw new FormatError('the spreadsheet has no sheet');
  const dense = (ws as unknown as { '!data'?: (XLSX.CellObject | undefined)[][] })['!data'] ?? [];
  if (dense.length > limits.rows) throw new FormatError(`the sheet has more than ${limits.rows.toLocaleString('en')} rows`);
  const rows: SheetRow[] = [];
  let cells = 0;
  for (const row of dense) {
    const out: string[] = [];
    if (row) {
      for (let c = 0; c < row.length; c++) {
        const cell = row[c];
        if (!cell || cell.v === undefined || cell.v === null) {
          out.push('');
          continue;
        }
        if (++cells > limits.cells) throw new FormatError(`the sheet has more than ${limits.cells.toLocaleString('en')} cells`);
        out.push(typeof cell.v === 'string' ? cell.v : String(cell.v));
      }
    }
    rows.push(out);
  }
  return rows;
}

/**
 * The first sheet of an XLSX or ODS file, or the rows of a CSV when the bytes are not a ZIP
 * (`csv: false` refuses CSV). Throws FormatError for anything else or past the limits.
 */
export function readTable(bytes: Uint8Array, options: { csv?: boolean; limits?: SheetLimits } = {}): SheetTable {
  const limits = options.limits ?? OFFICIAL_SHEET_LIMITS;
  if (isZip(bytes)) {
    const files = unpackBounded(bytes, limits);
    const kind = kindOf(files);
    if (!kind) throw new FormatError('the ZIP is not an XLSX or ODS spreadsheet');
    return { kind, rows: sheetRows(files, limits) };
  }
  if (options.csv === false) throw new FormatError('not an XLSX or ODS spreadsheet');
  const text = decodeText(bytes);
  // A binary file (old .xls, PDF, image) is not a CSV.
  if (/[\u0000-\u0008\u000e-\u001f]/.test(text.slice(0, 4096))) throw new FormatError('not a CSV, XLSX or ODS file');
  const rows: SheetRow[] = [];
  let cells = 0;
  for (const r of csvRecords(text, ',', OFFICIAL_CSV_LIMITS)) {
    if (rows.length >= limits.rows) throw new FormatError(`the file has more than ${limits.rows.toLocaleString('en')} rows`);
    cells += r.cells.length;
    if (cells > limits.cells) throw new FormatError(`the file has more than ${limits.cells.toLocaleString('en')} cells`);
    rows.push(r.cells);
  }
  return { kind: 'csv', rows };
}

/** Header names as compared: case, spaces and punctuation ignored. */
export function headerKey(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, '');
}

/**
 * Finds the header row (within the first `within` rows) holding every `required` column, and
 * maps each header key to its column index.
 */
export function findHeader(rows: readonly SheetRow[], required: readonly string[], within = 5): { at: number; col: Map<string, number> } | undefined {
  const want = required.map(headerKey);
  for (let at = 0; at < Math.min(rows.length, within); at++) {
    const col = new Map<string, number>();
    (rows[at] ?? []).forEach((h, i) => {
      const k = headerKey(h);
      if (k !== '' && !col.has(k)) col.set(k, i);
    });
    if (want.every((w) => col.has(w))) return { at, col };
  }
  return undefined;
}
