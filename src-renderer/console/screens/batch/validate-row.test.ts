// "Stays cleared at the next rescreen" (issue 23): a saved result carries its cleared matches to
// the next run only when the clearing counts; a clearance still waiting for its second person
// (every overridden clearing reason waits) is saved as awaiting_approval and carries nothing.
import { describe, expect, it } from 'vitest';
import { checkRow } from './validate-row';

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
