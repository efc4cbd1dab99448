// "Stays cleared at the next rescreen" (issue 23): a saved result carries its cleared matches to
// the next run only when the clearing counts; a clearance still waiting for its second person
// (every overridden clearing reason waits) is saved as awaiting_approval and carries nothing.
import { describe, expect, it } from 'vitest';
import { checkRow, LOST_LETTER } from './validate-row';

const saved = (disposition: string) => ({
  first_name: 'Vladimir', last_name: 'Putin', date_of_birth: '1952-10-07', country: 'RU',
  screening_id: 'scr_aaaaaaaaaaaaaaaaaaaaaaaa', risk_score: '95', risk_level: 'high', flags: '',
  disposition, disposition_reason: 'different_dob', disposition_entities: 'ofac-123@0a1b2c3d4e5f6789',
});

describe('checkRow: cleared matches carried to the next rescreen', () => {
  it('an approved or recorded clearing carries its matches at their record version', () => {
    const r = checkRow(saved('cleared_false_positive'), 2, '2026-11-26');
    expect(r.issues).toEqual([]);
    expect(r.value!.cleared).toEqual([{ entity_id: 'ofac-123', record_hash: '0a1b2c3d4e5f6789' }]);
  });

  it('a clearing awaiting approval (an override not yet approved) carries nothing', () => {
    const r = checkRow(saved('awaiting_approval'), 2, '2026-11-26');
    expect(r.issues).toEqual([]);
    expect(r.value!.cleared).toEqual([]);
    expect(r.value!.previous_disposition).toBe('awaiting_approval');
  });
});

describe('checkRow: a file from Excel (issue 26)', () => {
  const TODAY = '2026-11-26';
  const person = (date_of_birth: string, first_name = 'Maëlle', last_name = 'D’Arcy') => ({ first_name, last_name, date_of_birth });

  it('leaves a day-first date out unless the analyst reads the file day first, and tells the evidence either way', () => {
    const off = checkRow(person('31/12/1984'), 2, TODAY);
    expect(off.value).toBeNull();
    expect(off.issues).toEqual([{ row: 2, column: 'date_of_birth', reason: 'use the format YYYY-MM-DD' }]);
    expect(off.dobOrder).toBe('day_first');
    expect(checkRow(person('05/03/1979'), 3, TODAY).dobOrder).toBe('either');
    expect(checkRow(person('12/31/1984'), 4, TODAY).dobOrder).toBe('month_first');
    expect(checkRow(person('1984-12-31'), 5, TODAY).dobOrder).toBeNull();
  });

  it('read day first, DD/MM/YYYY, DD.MM.YYYY and DD-MM-YYYY are screened as YYYY-MM-DD; YYYY-MM-DD stays as it is', () => {
    const dayFirst = { dayFirst: true };
    expect(checkRow(person('31/12/1984'), 2, TODAY, dayFirst).value?.date_of_birth).toBe('1984-12-31');
    expect(checkRow(person('05.03.1979'), 2, TODAY, dayFirst).value?.date_of_birth).toBe('1979-03-05');
    expect(checkRow(person('1-2-1990'), 2, TODAY, dayFirst).value?.date_of_birth).toBe('1990-02-01');
    expect(checkRow(person('1990-02-01'), 2, TODAY, dayFirst).value?.date_of_birth).toBe('1990-02-01');
    expect(checkRow(person(''), 2, TODAY, dayFirst).value?.date_of_birth).toBe('');
    // The service's rule still holds for the date read.
    expect(checkRow(person('12/31/1984'), 2, TODAY, dayFirst).issues[0]?.reason).toBe('not a calendar date (read as day/month/year)');
    expect(checkRow(person('27/11/2026'), 2, TODAY, dayFirst).issues[0]?.reason).toBe('in the future');
    expect(checkRow(person('31/12/1899'), 2, TODAY, dayFirst).issues[0]?.reason).toBe('before 1900');
  });

  it('never screens a name that lost a letter: U+FFFD, or the ? a code page writes for a letter it lacks', () => {
    expect(checkRow(person('', 'Ma\uFFFDlle'), 2, TODAY).issues).toEqual([{ row: 2, column: 'first_name', reason: LOST_LETTER }]);
    expect(checkRow(person('', 'Jan', '?ukaszewicz'), 2, TODAY).issues).toEqual([{ row: 2, column: 'last_name', reason: LOST_LETTER }]);
    const fine = checkRow({ first_name: 'Łukasz', middle_name: 'Ștefan', last_name: 'Søreng-Straße', date_of_birth: '' }, 2, TODAY);
    expect(fine.issues).toEqual([]);
    expect(fine.value).toMatchObject({ first_name: 'Łukasz', middle_name: 'Ștefan', last_name: 'Søreng-Straße' });
  });
});
