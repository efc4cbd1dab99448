import { describe, expect, it } from 'vitest';
import { addDays, daysInclusive, isIsoDate, todayUtc } from '../../../../src-shared/dates';
import { defaultRange, presetOf, presetRange, presetRefusal, rangeProblem } from './range';

describe('report ranges', () => {
  it('counts whole UTC days with both ends included', () => {
    expect(todayUtc(new Date('2026-01-15T23:59:59Z'))).toBe('2026-01-15');
    expect(daysInclusive('2026-01-15', '2026-01-15')).toBe(1);
    expect(daysInclusive('2026-02-22', '2026-03-01')).toBe(8);
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(isIsoDate('2026-02-30')).toBe(false);
    expect(isIsoDate('2026-2-3')).toBe(false);
  });

  it('makes presets that end today and span exactly their days', () => {
    const r = presetRange(7, '2026-01-15');
    expect(r).toEqual({ from: '2026-01-09', to: '2026-01-15' });
    expect(daysInclusive(r.from, r.to)).toBe(7);
    expect(presetOf(r, '2026-01-15')).toBe(7);
    expect(presetOf(presetRange(90, '2026-01-15'), '2026-01-15')).toBe(90);
    expect(presetOf({ from: '2026-01-10', to: '2026-01-15' }, '2026-01-15')).toBeNull();
    expect(presetOf(r, '2026-01-16')).toBeNull();
  });

  it('refuses presets beyond the plan with the reason', () => {
    expect(presetRefusal(7, 'free', 7)).toBeNull();
    expect(presetRefusal(30, 'free', 7)).toBe('Your Free plan covers up to 7 days.');
    expect(presetRefusal(90, 'starter', 30)).toBe('Your Starter plan covers up to 30 days.');
    expect(presetRefusal(90, 'growth', 90)).toBeNull();
  });

  it('opens on the last 30 days, or the whole of a shorter plan limit', () => {
    expect(daysInclusive(...Object.values(defaultRange(90, '2026-01-15')) as [string, string])).toBe(30);
    expect(defaultRange(7, '2026-01-15')).toEqual({ from: '2026-01-09', to: '2026-01-15' });
  });

  it('says what is wrong with a custom range', () => {
    expect(rangeProblem({ from: '', to: '2026-01-15' }, 'growth', 90)).toBe('Choose a start date.');
    expect(rangeProblem({ from: '2026-01-15', to: '' }, 'growth', 90)).toBe('Choose an end date.');
    expect(rangeProblem({ from: '2026-01-16', to: '2026-01-15' }, 'growth', 90)).toBe('The start date is after the end date.');
    expect(rangeProblem({ from: '2026-01-01', to: '2026-01-08' }, 'free', 7)).toBe(
      'That is 8 days. Your Free plan covers up to 7 days; choose a shorter range.',
    );
    expect(rangeProblem({ from: '2026-01-02', to: '2026-01-08' }, 'free', 7)).toBeNull();
  });
});
