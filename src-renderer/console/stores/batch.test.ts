// The batch store never changes a row in place: the console's grids (react-table) memoise on the
// rows array and cache each row's values, so a change they are not handed as a new array and a new
// row object never reaches the screen (a disposition undone stayed "escalated" once).
import { beforeEach, describe, expect, it } from 'vitest';
import { useBatch, type BatchEntry, type DecisionRecord, type ImportedRow } from './batch';

function entry(row: number): BatchEntry {
  const input: ImportedRow = {
    row, client_reference_id: `ref-${row}`, first_name: 'Ada', middle_name: '', last_name: `Row${row}`, date_of_birth: '', gender: '',
    country: '', previous_screening_id: '', previous: null, cleared: [], previous_disposition: '',
  };
  return { input, result: null, error: 'not screened here' };
}

const escalated: DecisionRecord = { disposition: 'escalated', reason: null, note: '', decidedBy: 'a@b.test', decidedAt: '2025-01-01T00:00:00.000Z', approval: null };
const pending: DecisionRecord = {
  disposition: 'cleared_false_positive', reason: 'different_dob', note: '', decidedBy: 'a@b.test', decidedAt: '2025-01-01T00:00:00.000Z',
  approval: { clearanceId: 'clr_1', state: 'pending', by: null, at: null },
};

describe('batch store rows', () => {
  let runId = 0;
  beforeEach(() => {
    useBatch.getState().discard();
    runId = useBatch.getState().runId;
    useBatch.getState().addEntries(runId, [entry(2), entry(3), entry(4)]);
  });

  it('answers join as a new array, keeping the entries already there', () => {
    const before = useBatch.getState().entries;
    useBatch.getState().addEntries(runId, [entry(5)]);
    const after = useBatch.getState().entries;
    expect(after).not.toBe(before);
    expect(before).toHaveLength(3);
    expect(after.slice(0, 3)).toEqual(before);
    after.slice(0, 3).forEach((e, i) => expect(e).toBe(before[i]));
  });

  it("answers of a run that was discarded are dropped", () => {
    useBatch.getState().discard();
    useBatch.getState().addEntries(runId, [entry(9)]);
    expect(useBatch.getState().entries).toHaveLength(0);
  });

  it('a decision and its undo each give a new entry in a new array; the rest and the arrays handed out before stay as they were', () => {
    const start = useBatch.getState().entries;
    useBatch.getState().decide(3, escalated, true);
    const decided = useBatch.getState().entries;
    expect(decided).not.toBe(start);
    expect(decided[1]).not.toBe(start[1]);
    expect(decided[1]!.decision).toEqual(escalated);
    expect(start[1]!.decision).toBeUndefined();
    expect(decided[0]).toBe(start[0]);
    expect(decided[2]).toBe(start[2]);
    expect(useBatch.getState().dispositions.get(3)).toEqual(escalated);

    const step = useBatch.getState().popUndo();
    expect(step).toEqual({ row: 3, before: undefined });
    useBatch.getState().decide(3, step!.before, false);
    const undone = useBatch.getState().entries;
    expect(undone).not.toBe(decided);
    expect(undone[1]).not.toBe(decided[1]);
    expect(undone[1]!.decision).toBeUndefined();
    expect(decided[1]!.decision).toEqual(escalated);
    expect(useBatch.getState().dispositions.has(3)).toBe(false);
  });

  it('an approval gives the row a new entry with the approved decision', () => {
    useBatch.getState().decide(4, pending, true);
    const before = useBatch.getState().entries;
    useBatch.getState().approved(4, 'clr_1', 'admin@b.test', '2025-01-02T00:00:00.000Z');
    const after = useBatch.getState().entries;
    expect(after[2]).not.toBe(before[2]);
    expect(after[2]!.decision?.approval).toEqual({ clearanceId: 'clr_1', state: 'approved', by: 'admin@b.test', at: '2025-01-02T00:00:00.000Z' });
    expect(before[2]!.decision?.approval?.state).toBe('pending');
  });
});
