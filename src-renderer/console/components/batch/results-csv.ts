// The saved results: every imported row with what the run found and what the analyst decided,
// written as a CSV the next import reads back (csv-columns.ts says how). Goes only to the save
// dialog (a download in a browser), never to the app's own storage.
import Papa from 'papaparse';
import { listVersionLabel, type ListVersion } from '../../../../src-shared/contracts/screening';
import { localToday } from '../../../../src-shared/dates';
import { FORMULA_START } from '../../../../src-shared/csv-guard';
import { saveFile } from '../../api/shell';
import { effectiveDisposition, type BatchEntry, type DecisionRecord, type ImportedRow, type RowIssue } from '../../stores/batch';
import { INPUT_NAMES, OUTPUT_NAMES } from './csv-columns';
import { explanationText, openMatches } from './labels';

const BOM = '\uFEFF';

function inputCells(r: ImportedRow): string[] {
  return [
    r.client_reference_id, r.first_name, r.middle_name, r.last_name, r.date_of_birth, r.gender, r.country,
    r.previous_screening_id,
    r.previous ? String(r.previous.risk_score) : '',
    r.previous?.risk_level ?? '',
    r.previous?.flags.join(';') ?? '',
    r.cleared.map((c) => `${c.entity_id}@${c.record_hash}`).join(';'),
    r.previous_disposition,
  ];
}

/** What the run screened against: the same cells on every screened row. */
export interface ScreenedAgainst {
  versions: readonly ListVersion[];
  asOf: string | null;
}

function outputCells(entry: BatchEntry | undefined, decision: DecisionRecord | undefined, runStopped: boolean, lists: ScreenedAgainst): string[] {
  const result = entry?.result ?? null;
  if (!result) {
    const why = entry?.error ?? (runStopped ? 'not screened: the run stopped before this row' : 'not screened');
    return [...OUTPUT_NAMES.slice(0, -1).map(() => ''), why];
  }
  const open = openMatches(result);
  const top = open[0];
  return [
    result.id,
    String(result.risk.score),
    result.risk.level,
    result.risk.decision,
    result.risk_change,
    result.flags.join(';'),
    top?.entity_id ?? '',
    top?.name ?? '',
    top?.list ?? '',
    top ? String(top.score) : '',
    top ? explanationText(top) : '',
    effectiveDisposition(decision) ?? '',
    decision ? open.map((m) => `${m.entity_id}@${m.record_hash}`).join(';') : '',
    decision?.reason ?? '',
    decision?.note ?? '',
    decision?.decidedBy ?? '',
    decision?.decidedAt ?? '',
    decision?.approval?.state === 'approved' ? decision.approval.by ?? '' : '',
    decision?.approval?.state === 'approved' ? decision.approval.at ?? '' : '',
    lists.versions.map(listVersionLabel).join(';'),
    lists.asOf ?? '',
    '',
  ];
}

export function resultsCsv(
  rows: readonly ImportedRow[], entries: readonly BatchEntry[], dispositions: ReadonlyMap<number, DecisionRecord>,
  lists: ScreenedAgainst = { versions: [], asOf: null },
): string {
  const byRow = new Map(entries.map((e) => [e.input.row, e]));
  const stopped = entries.length < rows.length;
  const data = rows.map((r) => [...inputCells(r), ...outputCells(byRow.get(r.row), dispositions.get(r.row), stopped, lists)]);
  // A name starting with = or + must not run as a formula in a spreadsheet (src-shared/csv-guard.ts);
  // the import takes the guard off again.
  return BOM + Papa.unparse({ fields: [...INPUT_NAMES, ...OUTPUT_NAMES], data }, { escapeFormulae: FORMULA_START, newline: '\r\n' });
}

function stamp(): string {
  const d = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${localToday(d)}-${pad(d.getHours())}${pad(d.getMinutes())}`;
}

/** "customers.csv" → "customers-rescreen-2026-05-01-1430.csv". */
export function resultsFileName(source: string): string {
  const base = source.replace(/\.csv$/i, '').replace(/-rescreen-\d{4}-\d{2}-\d{2}-\d{4}$/, '') || 'batch';
  return `${base}-rescreen-${stamp()}.csv`;
}

const CSV_FILTER = [{ name: 'CSV', extensions: ['csv'] }];

export async function saveResults(
  fileName: string, rows: readonly ImportedRow[], entries: readonly BatchEntry[], dispositions: ReadonlyMap<number, DecisionRecord>, lists?: ScreenedAgainst,
) {
  return saveFile({ defaultName: resultsFileName(fileName), content: resultsCsv(rows, entries, dispositions, lists), filters: CSV_FILTER });
}

/** The error report: where and why, never the cell's value. */
export async function saveIssues(fileName: string, issues: readonly RowIssue[]) {
  const content = BOM + Papa.unparse({ fields: ['row', 'column', 'reason'], data: issues.map((i) => [String(i.row), i.column, i.reason]) }, { newline: '\r\n' });
  const base = fileName.replace(/\.csv$/i, '') || 'batch';
  return saveFile({ defaultName: `${base}-errors.csv`, content, filters: CSV_FILTER });
}

export async function saveTemplate(content: string) {
  return saveFile({ defaultName: 'batch-rescreen-template.csv', content, filters: CSV_FILTER });
}
