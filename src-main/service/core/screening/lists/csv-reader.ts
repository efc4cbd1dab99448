// A CSV reader whose memory stays bounded whatever the file holds: one record at a time, cells
// cut at a width and rows at a number of columns, quoting problems flagged on the record (never
// as a message quoting the text). Papa (used before) kept every row, an array entry per cell and
// an error object per malformed quote: a 20 MB line of commas took 3 GB.
// RFC 4180 quoting: a cell that starts with '"' runs to the next lone '"', '""' is a quote;
// records end at '\n' (a '\r' before it is dropped); a trailing newline adds no record.

export interface CsvLimits {
  /** Characters kept per cell; a longer cell is given as '' and its index listed in `wide`. */
  cell: number;
  /** Cells kept per record; further cells are counted in `columns`, not kept. */
  columns: number;
}

export interface CsvRecord {
  /** At most `limits.columns` cells. */
  cells: string[];
  /** How many cells the record has, kept or not. */
  columns: number;
  /** Indexes (into `cells`) of cells longer than `limits.cell`. */
  wide: number[];
  /** A quote never closed (the cell ran to the end of the file), or text after a closing quote. */
  quote?: 'unclosed' | 'stray';
}

/** The official CSVs: OFAC's remarks are cut at 1,000 characters, the CSL has 28 columns. */
export const OFFICIAL_CSV_LIMITS: CsvLimits = { cell: 65_536, columns: 256 };

const QUOTE = 0x22;
const NEWLINE = 0x0a;
const CR = 0x0d;

function isBlank(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== CR) return false;
  }
  return true;
}

/** `delimiter` is one character (',' or '\t'). */
export function* csvRecords(text: string, delimiter: string, limits: CsvLimits): Generator<CsvRecord> {
  const n = text.length;
  // Next delimiter and newline at or after `pos`, searched again only once passed: a line with
  // no delimiter does not cost a scan of the rest of the file per cell.
  let nextDelim = -1;
  let nextLine = -1;
  const found = (i: number): number => (i < 0 ? n : i);
  const boundary = (pos: number): number => {
    if (nextDelim < pos) nextDelim = found(text.indexOf(delimiter, pos));
    if (nextLine < pos) nextLine = found(text.indexOf('\n', pos));
    return Math.min(nextDelim, nextLine);
  };
  let pos = 0;
  while (pos < n) {
    const record: CsvRecord = { cells: [], columns: 0, wide: [] };
    for (;;) {
      let value = '';
      let width = 0;
      let end: number;
      if (text.charCodeAt(pos) === QUOTE) {
        let from = pos + 1;
        for (;;) {
          const q = text.indexOf('"', from);
          const stop = q < 0 ? n : q;
          width += stop - from;
          if (width <= limits.cell) value += text.slice(from, stop);
          if (q < 0) {
            record.quote = 'unclosed';
            pos = n;
            break;
          }
          if (text.charCodeAt(q + 1) !== QUOTE) {
            pos = q + 1;
            break;
          }
          width++;
          if (width <= limits.cell) value += '"';
          from = q + 2;
        }
        end = boundary(pos);
        // Spaces before the delimiter are tolerated; anything else is kept, and flagged.
        if (!isBlank(text, pos, end)) {
          record.quote ??= 'stray';
          width += end - pos;
          if (width <= limits.cell) value += text.slice(pos, end);
        }
      } else {
        end = boundary(pos);
        const lineEnd = end >= n || text.charCodeAt(end) === NEWLINE;
        const to = lineEnd && end > pos && text.charCodeAt(end - 1) === CR ? end - 1 : end;
        width = to - pos;
        if (width <= limits.cell) value = text.slice(pos, to);
      }
      record.columns++;
      if (record.columns <= limits.columns) {
        if (width > limits.cell) record.wide.push(record.cells.length);
        record.cells.push(width > limits.cell ? '' : value);
      }
      pos = end + 1;
      if (end >= n || text.charCodeAt(end) === NEWLINE) break;
    }
    yield record;
  }
}
