// The saved batch results say what each row was screened against and as of when: each list's
// source, publication date, checksum prefix and stale flag, and the run's start.
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import type { ListVersion } from '../../../../src-shared/contracts/screening';
import type { BatchEntry, ImportedRow } from '../../stores/batch';
import { checkRow } from '../../screens/batch/validate-row';
import { resultsCsv } from './results-csv';

const row = (n: number): ImportedRow => ({
  row: n, client_reference_id: `cust-${n}`, first_name: 'Maren', middle_name: '', last_name: 'Holloway', date_of_birth: '', gender: '', country: '',
  previous_screening_id: '', previous: null, cleared: [], previous_disposition: '',
});
const SDN: ListVersion = {
  source: 'us_ofac_sdn', kind: 'sanctions', list_date: null, retrieval_date: '2024-05-03', sha256: '551994af81b90ff76f24e3b5643135c726b675ca59a40ba685117b99e3c51b1c',
  published_at: '2024-05-03', stale: true,
};
const UN: ListVersion = { ...SDN, source: 'un_sc', list_date: '2026-01-10', published_at: '2026-01-10', stale: false, sha256: 'f'.repeat(64) };

describe('batch results CSV: lists screened against', () => {
  it('each screened row names every list with its date, checksum prefix and stale flag, and when the run started', () => {
    const entries: BatchEntry[] = [
      {
        input: row(2), error: null,
        result: {
          row: 2, id: 'scr_1', client_reference_id: 'cust-2', previous_screening_id: null,
          risk: { score: 0, level: 'low', decision: 'clear', reasons: [] }, flags: [], risk_change: 'unknown_without_prior_result', matches: [], review_token: 't',
        },
      },
      { input: row(3), result: null, error: 'subject.last_name: required' },
    ];
    const csv = resultsCsv([row(2), row(3)], entries, new Map(), { versions: [SDN, UN], asOf: '2026-01-15T12:00:00.000Z' });
    const parsed = Papa.parse<Record<string, string>>(csv.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true });
    const [screened, failed] = parsed.data;
    expect(screened!.lists_screened).toBe('us_ofac_sdn published 2024-05-03 sha256:551994af81b9 stale;un_sc published 2026-01-10 sha256:ffffffffffff');
    expect(screened!.lists_as_of).toBe('2026-01-15T12:00:00.000Z');
    expect(screened!.row_error).toBe('');
    // A row the service did not screen was screened against nothing.
    expect(failed!.lists_screened).toBe('');
    expect(failed!.row_error).toBe('subject.last_name: required');
  });
});

describe('batch results CSV: no cell runs as a formula (issue 25)', () => {
  it('guards names starting with a formula sign, full-width and after spaces too, and the import takes the guard off again', () => {
    const names = ['=HYPERLINK("x")', '＝HYPERLINK("x")', '＋1', ' =1+1', '@SUM(A1)'];
    const rows = names.map((last, i) => ({ ...row(i + 2), last_name: last }));
    const entries: BatchEntry[] = rows.map((r) => ({ input: r, result: null, error: 'not screened' }));
    const csv = resultsCsv(rows, entries, new Map());
    const parsed = Papa.parse<Record<string, string>>(csv.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true }).data;
    expect(parsed.map((r) => r.last_name)).toEqual(names.map((n) => `'${n}`));
    // Imported back (the next rescreen), each name is the one written.
    expect(parsed.map((r, i) => checkRow(r, i + 2, '2026-11-27').value?.last_name)).toEqual(names.map((n) => n.trim()));
  });
});
