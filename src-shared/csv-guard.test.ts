// The formula guard every CSV writer uses, and the import's way back (issue 25: full-width and
// leading-space variants ran as formulas).
import { describe, expect, it } from 'vitest';
import { guardCell, unguardCell } from './csv-guard';

const FORMULAS = [
  '=1+1', '+1', '-1+2', '@SUM(A1)', '\tTabbed', '\rReturn',
  '＝HYPERLINK("https://evil.example")', '＋cmd', '－2', '＠SUM(A1)',
  ' =1+1', '   +1', '\u00a0=1', '\u3000＝1', '  ＠x',
];
const PLAIN = ['Jane Roe', "O'Brien", "'t Hooft", 'A=B', 'a-b', 'x@example.com', '', ' ', '1-2', 'Ａlice'];

describe('guardCell / unguardCell', () => {
  it('guards every formula start, full-width and after leading spaces too', () => {
    for (const f of FORMULAS) expect(guardCell(f), JSON.stringify(f)).toBe(`'${f}`);
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
