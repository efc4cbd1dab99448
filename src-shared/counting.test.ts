// The counting definition's pure parts: what a screening's decision events leave in effect, the
// median, the time-to-decision label and the names every report prints.
import { describe, expect, it } from 'vitest';
import { durationLabel, median, operationLabel, passRate, PRODUCT_LABEL, standingDecision, type DecisionEvent } from './counting';

const at = (h: number) => new Date(Date.UTC(2026, 2, 5, 10) + h * 3_600_000).toISOString();

describe('standingDecision', () => {
  it('the last disposition stands; the time is when the first one took effect', () => {
    const events: DecisionEvent[] = [
      { action: 'disposition.set', disposition: 'needs_info', at: at(2) },
      { action: 'disposition.set', disposition: 'cleared_false_positive', at: at(5) },
    ];
    expect(standingDecision(events)).toEqual({ disposition: 'cleared_false_positive', awaiting: false, firstDecidedAt: at(2) });
  });

  it('a clearing waits for approval with no disposition in effect, and takes effect when approved', () => {
    const requested: DecisionEvent = { action: 'clearance.requested', disposition: 'cleared_false_positive', at: at(1) };
    expect(standingDecision([requested])).toEqual({ disposition: null, awaiting: true, firstDecidedAt: null });
    expect(standingDecision([requested, { action: 'clearance.approved', disposition: 'cleared_false_positive', at: at(3) }]))
      .toEqual({ disposition: 'cleared_false_positive', awaiting: false, firstDecidedAt: at(3) });
    // A new decision withdraws the waiting clearing (recorded just before the decision).
    expect(standingDecision([requested, { action: 'clearance.withdrawn', disposition: null, at: at(4) }, { action: 'disposition.set', disposition: 'escalated', at: at(4) }]))
      .toEqual({ disposition: 'escalated', awaiting: false, firstDecidedAt: at(4) });
  });

  it('a clearing sent back to its analyst no longer waits, and leaves no disposition in effect (issue 36)', () => {
    const requested: DecisionEvent = { action: 'clearance.requested', disposition: 'cleared_false_positive', at: at(1) };
    expect(standingDecision([requested, { action: 'clearance.sent_back', disposition: 'cleared_false_positive', at: at(2) }]))
      .toEqual({ disposition: null, awaiting: false, firstDecidedAt: null });
  });

  it('a removed disposition leaves none in effect', () => {
    expect(standingDecision([{ action: 'disposition.set', disposition: 'escalated', at: at(1) }, { action: 'disposition.removed', disposition: null, at: at(2) }]).disposition).toBeNull();
  });
});

describe('figures and names', () => {
  it('median: the middle value or the mean of the middle pair; null for none', () => {
    expect(median([])).toBeNull();
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('pass rate is passed among decided checks', () => {
    expect(passRate(7, 3)).toBe(70);
    expect(passRate(0, 0)).toBe(0);
  });

  it('durations as people read them', () => {
    expect(durationLabel(null)).toBe('—');
    expect(durationLabel(45_000)).toBe('45 s');
    expect(durationLabel(12 * 60_000)).toBe('12 min');
    expect(durationLabel(2 * 3_600_000)).toBe('2 h 0 min');
    expect(durationLabel(76 * 3_600_000)).toBe('3 d 4 h');
  });

  it('liveness is "Liveness" and KYC plus is "KYC plus"; an unknown code stays as it is', () => {
    expect(PRODUCT_LABEL.human).toBe('Liveness');
    expect(operationLabel('compliance')).toBe('KYC plus');
    expect(operationLabel('total')).toBe('total');
  });
});
