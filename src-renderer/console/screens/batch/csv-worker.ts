// Reads and checks a batch CSV off the main thread. The whole file's bytes are read first: their
// encoding is detected (src-shared/csv-text.ts: a mark, UTF-16's zero bytes, strict UTF-8, else
// Windows-1252) or taken from the analyst's choice, and decoded at once, so no letter is cut in
// two at a chunk's edge. papaparse then reads the text in 1 MB chunks, each row is checked
// (validate-row.ts), and every chunk goes back as one message, so a 100,000 row file never blocks
// the console. The file's cells stay in this worker and the rows it sends.
import Papa from 'papaparse';
import type { DateEvidence, ImportedRow, ParseOptions, RowIssue } from '../../stores/batch';
import { INPUT_NAMES, OUTPUT_NAMES, REQUIRED_COLUMNS } from '../../components/batch/csv-columns';
import { headerDelimiter, readTextFile, workbookFormat, type EncodingGuess, type TextEncodingName } from '../../../../src-shared/csv-text';
import { fileDateOrder, type DateOrderCounts } from '../../../../src-shared/dates';
import { checkRow, normaliseHeader, type RawRow } from './validate-row';

export interface ParseRequest {
  file: File;
  /** YYYY-MM-DD, the day dates of birth may not be after. */
  today: string;
  options: ParseOptions;
}

export type ParseMessage =
  | { type: 'text'; encoding: TextEncodingName; detected: EncodingGuess }
  | { type: 'header'; ignored: string[]; fromResults: boolean }
  | { type: 'chunk'; rows: ImportedRow[]; issues: RowIssue[]; invalidRows: number; rowsRead: number; bytesRead: number }
  | { type: 'done'; rowsRead: number; invalidRows: number; dates: DateEvidence }
  | { type: 'failed'; message: string };

/** Issues kept for the report; a file with more than this is wrong as a whole anyway. */
const MAX_ISSUES = 100_000;
const KNOWN = new Set([...INPUT_NAMES, ...OUTPUT_NAMES]);

/** papaparse streams a string in chunks (chunkSize, chunk) as it streams a File; its types give `chunk` to files only. */
const parseText = Papa.parse as (text: string, config: Papa.ParseLocalConfig<RawRow, undefined>) => void;

function post(message: ParseMessage): void {
  self.postMessage(message);
}

async function parse({ file, today, options }: ParseRequest): Promise<void> {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await file.arrayBuffer());
  } catch {
    post({ type: 'failed', message: 'The file could not be read. Is it still where it was chosen from?' });
    return;
  }
  const workbook = workbookFormat(bytes);
  if (workbook) {
    post({
      type: 'failed',
      message: `This is an Excel workbook (.${workbook}), not a CSV file. In Excel, choose Save As and “CSV UTF-8 (Comma delimited)”, then import that file.`,
    });
    return;
  }
  const { text, encoding, detected } = readTextFile(bytes, options.encoding);
  post({ type: 'text', encoding, detected });

  let index = 0;
  let rowsRead = 0;
  let invalidRows = 0;
  let issuesKept = 0;
  let headerChecked = false;
  let failed = false;
  const counts: DateOrderCounts = { dayFirst: 0, monthFirst: 0, either: 0 };
  const evidence = { dayFirstRow: null as number | null, monthFirstRow: null as number | null };

  parseText(text, {
    header: true,
    // From the header line: comma, semicolon (Excel where the decimal separator is a comma) or tab (Excel's "Unicode Text").
    delimiter: headerDelimiter(text),
    skipEmptyLines: false,
    chunkSize: 1024 * 1024,
    transformHeader: normaliseHeader,
    chunk: (results, parser) => {
      if (failed) return;
      if (!headerChecked) {
        headerChecked = true;
        const fields = results.meta.fields ?? [];
        const missing = REQUIRED_COLUMNS.filter((c) => !fields.includes(c));
        if (missing.length > 0) {
          failed = true;
          parser.abort();
          post({
            type: 'failed',
            message: `The file has no ${missing.join(' or ')} column. The first line must name the columns; download the template to see them.`,
          });
          return;
        }
        post({
          type: 'header',
          ignored: fields.filter((f) => f && !KNOWN.has(f)),
          fromResults: fields.includes('risk_score') && fields.includes('screening_id'),
        });
      }
      // Quote errors make a row unreadable; too few or too many cells are read as they are.
      const broken = new Set<number>();
      for (const e of results.errors) {
        if (e.type === 'Quotes' && typeof e.row === 'number') broken.add(e.row);
      }
      const rows: ImportedRow[] = [];
      const issues: RowIssue[] = [];
      results.data.forEach((raw, i) => {
        const rowNo = index + i + 2;
        if (Object.values(raw).every((v) => v === undefined || v === null || (typeof v === 'string' && v.trim() === ''))) return;
        rowsRead++;
        if (broken.has(i)) {
          invalidRows++;
          if (issuesKept++ < MAX_ISSUES) issues.push({ row: rowNo, column: '(row)', reason: 'a quoted cell is not closed' });
          return;
        }
        const check = checkRow(raw, rowNo, today, options);
        if (check.dobOrder === 'day_first') {
          counts.dayFirst++;
          evidence.dayFirstRow ??= rowNo;
        } else if (check.dobOrder === 'month_first') {
          counts.monthFirst++;
          evidence.monthFirstRow ??= rowNo;
        } else if (check.dobOrder === 'either') counts.either++;
        if (check.value) rows.push(check.value);
        else {
          invalidRows++;
          for (const issue of check.issues) if (issuesKept++ < MAX_ISSUES) issues.push(issue);
        }
      });
      index += results.data.length;
      // The cursor counts characters of the text: progress is told in the file's bytes.
      const bytesRead = text.length > 0 ? Math.round((Math.min(text.length, results.meta.cursor) / text.length) * file.size) : file.size;
      post({ type: 'chunk', rows, issues, invalidRows, rowsRead, bytesRead });
    },
    complete: () => {
      if (failed) return;
      if (!headerChecked) {
        post({ type: 'failed', message: 'The file is empty.' });
        return;
      }
      post({ type: 'done', rowsRead, invalidRows, dates: { order: fileDateOrder(counts), ...evidence } });
    },
    error: (e) => {
      if (failed) return;
      failed = true;
      post({ type: 'failed', message: `The file could not be read: ${e.message}` });
    },
  });
}

self.addEventListener('message', (e: MessageEvent<ParseRequest>) => void parse(e.data));
