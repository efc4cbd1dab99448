// The CSV export: one column set, the raw data points, and no cell a spreadsheet would run as a
// formula, whatever an API key or a failure reason is called.
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { fixtureBundle } from '../../test/fixtures/report-bundle';
import { CSV_COLUMNS, renderCsv } from './csv';

const HOSTILE = [
  '=HYPERLINK("https://evil.example","x")', '+cmd|\' /C calc\'!A0', '-2+3', '@SUM(A1:A9)', '\tTabbed', '\rReturn', '=1\n+2',
  // Full-width and after leading spaces (issue 25): spreadsheets read them as the ASCII forms.
  '＝HYPERLINK("https://evil.example")', '＋1', '－1', '＠SUM(A1)', ' =1+1', '  +1',
  // Issue 38: the separators, and any zero-width or control character before the start.
  ';=1+1', '|cmd', '；=1', '｜cmd', '\u200b=1+1', '\ufeff+1', '\u0001@x', '\u2003\u200d-1+2',
];

function rows(csv: string): string[][] {
  return Papa.parse<string[]>(csv, { skipEmptyLines: true }).data;
}

describe('renderCsv', () => {
  it('has the documented header and one row per data point', () => {
    const r = rows(renderCsv(fixtureBundle({ days: 30 })));
    expect(r[0]).toEqual([...CSV_COLUMNS]);
    expect(r.filter((x) => x[0] === 'volume')).toHaveLength(30 * 3);
    expect(r).toContainEqual(['volume', 'all', '', '2026-03-31', 'total', expect.stringMatching(/^\d+$/)]);
    expect(r).toContainEqual(['health_check', 'credits', '', '', 'status', 'critical']);
    expect(r).toContainEqual(['usage_by_api_key', 'Checkout widget', 'key_00000000000000000000', '', 'count', expect.any(String)]);
  });

  it('escapes text cells starting with = + - @ (full-width too, also after spaces), tab or CR with a leading apostrophe', () => {
    const csv = renderCsv(fixtureBundle({ days: 3, keyNames: HOSTILE, reasons: HOSTILE }));
    const r = rows(csv);
    const names = new Set(r.filter((x) => ['usage_by_api_key', 'widget', 'failure_reason', 'widget_risk'].includes(x[0]!)).map((x) => x[1]!));
    expect(names).toEqual(new Set(HOSTILE.map((h) => `'${h}`)));
    // Every cell but a number (-1.4 is a value, not a formula).
    for (const row of r) for (const cell of row) if (!/^-?\d+(\.\d+)?$/.test(cell)) expect(cell, JSON.stringify(row)).not.toMatch(/^(?:[\p{White_Space}\p{Cc}\p{Cf}]*[=+\-@;|＝＋－＠；｜\t\r])/u);
  });

  it('writes numbers as numbers: a negative delta is not escaped', () => {
    const r = rows(renderCsv(fixtureBundle({ days: 3 })));
    expect(r).toContainEqual(['period_comparison', 'all', '', '', 'pass_rate_delta', '-1.4']);
  });

  it('leaves out the credits rows when the maker may not see credits', () => {
    expect(rows(renderCsv(fixtureBundle({ days: 3, credits: false }))).some((x) => x[0] === 'credits')).toBe(false);
    expect(rows(renderCsv(fixtureBundle({ days: 3 }))).some((x) => x[0] === 'credits')).toBe(true);
  });
});
