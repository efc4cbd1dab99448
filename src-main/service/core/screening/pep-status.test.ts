import { describe, expect, it } from 'vitest';
import { pepStatus } from './pep-status';

describe('PEP status qualifiers', () => {
  it('a former office holder: former_pep with the office that ended last and its end date, no score effect', () => {
    expect(pepStatus({
      kind: 'pep',
      positions: [
        { role: 'Head of government of Japan', country: 'JP', start: '2006-09-26', end: '2007-09-26', current: false },
        { role: 'Head of government of Japan', country: 'JP', start: '2012-12-26', end: '2020-09-16', current: false },
      ],
    })).toEqual([{ factor: 'former_pep', effect: 0, detail: 'former Head of government of Japan until 2020-09-16' }]);
  });

  it('a current holder: current_pep with the office held now', () => {
    expect(pepStatus({
      kind: 'pep',
      positions: [
        { role: 'President of the United States', country: 'US', start: '2017-01-20', end: '2021-01-20', current: false },
        { role: 'President of the United States', country: 'US', start: '2025-01-20', end: '2029-01-20', current: true },
      ],
    })).toEqual([{ factor: 'current_pep', effect: 0, detail: 'current President of the United States (since 2025-01-20)' }]);
  });

  it('a former holder without an end date says so; records without offices or not PEP get nothing', () => {
    expect(pepStatus({ kind: 'pep', positions: [{ role: 'Head of government of Aruba', start: '2017-11-17', current: false }] })).toEqual([
      { factor: 'former_pep', effect: 0, detail: 'former Head of government of Aruba from 2017-11-17 (end date not given)' },
    ]);
    expect(pepStatus({ kind: 'pep' })).toEqual([]);
    expect(pepStatus({ kind: 'sanctions', positions: [{ role: 'x', current: true }] })).toEqual([]);
  });
});
