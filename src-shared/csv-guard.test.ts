// The formula guard every CSV writer uses, and the import's way back (issue 25: full-width and
// leading-space variants ran as formulas).
import { describe, expect, it } from 'vitest';
import { guardCell, unguardCell } from './csv-guard';

// Every character a spreadsheet reads as the start of a formula (issue 38), ASCII and full-width...
const STARTS = ['=', '+', '-', '@', ';', '|', '\t', '\r', '＝', '＋', '－', '＠', '；', '｜'];
// ... and what it skips before it: spaces of every kind, zero-width and format characters, controls.
const SKIPPED = ['', ' ', '   ', '\u00a0', '\u3000', '\u2003', '\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u202e', '\u0001', '\u001f', '\u007f', '\n', ' \u200b '];
const FORMULAS = [
  '=1+1', '+1', '-1+2', '@SUM(A1)', '\tTabbed', '\rReturn', ';=cmd|\' /C calc\'!A0', '|cmd', '\u200b=1+1',
  '＝HYPERLINK("https://evil.example")', '＋cmd', '－2', '＠SUM(A1)', '；x', '｜x',
  ' =1+1', '   +1', '\u00a0=1', '\u3000＝1', '  ＠x',
];
const PLAIN = ['Jane Roe', "O'Brien", "'t Hooft", 'A=B', 'a-b', 'x@example.com', '', ' ', '1-2', 'Ａlice', '\u200bAlice', 'a;b', 'a|b', ' Jane'];

describe('guardCell / unguardCell', () => {
  it('guards every formula start, full-width and after leading spaces too', () => {
    for (const f of FORMULAS) expect(guardCell(f), JSON.stringify(f)).toBe(`'${f}`);
  });

  it('guards each formula start after each kind of character a spreadsheet skips', () => {
    for (const start of STARTS) {
      for (const skipped of SKIPPED) {
        const cell = `${skipped}${start}1`;
        expect(guardCell(cell), JSON.stringify(cell)).toBe(`'${cell}`);
        expect(unguardCell(guardCell(cell)), JSON.stringify(cell)).toBe(cell);
      }
    }
  });

  it('leaves everything else as it is', () => {
    for (const p of PLAIN) expect(guardCell(p), JSON.stringify(p)).toBe(p);
  });

  it('takes the guard off what it guarded, and nothing else', () => {
    for (const v of [...FORMULAS, ...PLAIN]) expect(unguardCell(guardCell(v)), JSON.stringify(v)).toBe(v);
    expect(unguardCell("'t Hooft")).toBe("'t Hooft");
    expect(unguardCell("'")).toBe("'");
  });
});
