// Reads and checks a batch CSV off the main thread: papaparse streams the file in 1 MB chunks,
// each row is checked (validate-row.ts), and every chunk goes back as one message, so a 100,000
// row file never blocks the console. The file's cells stay in this worker and the rows it sends.
import Papa from 'papaparse';
import type { ImportedRow, RowIssue } from '../../stores/batch';
import { INPUT_NAMES, OUTPUT_NAMES, REQUIRED_COLUMNS } from '../../components/batch/csv-columns';
import { checkRow, normaliseHeader, type RawRow } from './validate-row';

export interface ParseRequest {
  file: File;
  /** YYYY-MM-DD, the day dates of birth may not be after. */
  today: string;
}

export type ParseMessage =
  | { type: 'header'; ignored: string[]; fromResults: boolean }
  | { type: 'chunk'; rows: ImportedRow[]; issues: RowIssue[]; invalidRows: number; rowsRead: number; bytesRead: number }
  | { type: 'done'; rowsRead: number; invalidRows: number }
  | { type: 'failed'; message: string };

/** Issues kept for the report; a file with more than this is wrong as a whole anyway. */
const MAX_ISSUES = 100_000;
const KNOWN = new Set([...INPUT_NAMES, ...OUTPUT_NAMES]);

function post(message: ParseMessage): void {
  self.postMessage(message);
}

function parse({ file, today }: ParseRequest): void {
  let index = 0;
  let rowsRead = 0;
  let invalidRows = 0;
  let issuesKept = 0;
  let headerChecked = false;
  let failed = false;

  Papa.parse<RawRow>(file, {
    header: true,
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
        const check = checkRow(raw, rowNo, today);
        if (check.value) rows.push(check.value);
        else {
          invalidRows++;
          for (const issue of check.issues) if (issuesKept++ < MAX_ISSUES) issues.push(issue);
        }
      });
      index += results.data.length;
      post({ type: 'chunk', rows, issues, invalidRows, rowsRead, bytesRead: Math.min(file.size, results.meta.cursor) });
    },
    complete: () => {
      if (failed) return;
      if (!headerChecked) {
        post({ type: 'failed', message: 'The file is empty.' });
        return;
      }
      post({ type: 'done', rowsRead, invalidRows });
    },
    error: (e) => {
      if (failed) return;
      failed = true;
      post({ type: 'failed', message: `The file could not be read: ${e.message}` });
    },
  });
}

self.addEventListener('message', (e: MessageEvent<ParseRequest>) => parse(e.data));
