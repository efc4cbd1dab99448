import { describe, expect, it } from 'vitest';
import { isoDayLabel } from '../../../../src-shared/dates';
import { count, delta, depletion, millis, percent, reasonLabel, score } from './figures';

describe('report figures', () => {
  it('writes rates, scores and times, with a dash for nothing', () => {
    expect(count(12400)).toBe('12,400');
    expect(percent(87.25)).toBe('87.3%');
    expect(percent(null)).toBe('—');
    expect(score(91)).toBe('91.0');
    expect(millis(412.4)).toBe('412 ms');
    expect(millis(null)).toBe('—');
    expect(isoDayLabel('2026-11-03')).toBe('3 Nov 2026');
    expect(reasonLabel('no_face_detected')).toBe('No face detected');
  });

  it('writes period changes with their direction, in words too', () => {
    expect(delta(12, 'count')).toEqual({ direction: 'up', text: '+12', spoken: 'up 12' });
    expect(delta(-1500, 'count')).toEqual({ direction: 'down', text: '−1,500', spoken: 'down 1,500' });
    expect(delta(-3.44, 'points')).toEqual({ direction: 'down', text: '−3.4 pts', spoken: 'down 3.4 points' });
    expect(delta(0.04, 'points')).toEqual({ direction: 'flat', text: 'no change', spoken: 'no change' });
    expect(delta(0, 'count')?.direction).toBe('flat');
    expect(delta(null, 'points')).toBeNull();
  });

  it('says when credits run out', () => {
    expect(depletion(null)).toBe('Not running out at the current rate');
    expect(depletion(1.6)).toBe('1 day');
    expect(depletion(42.9)).toBe('42 days');
  });
});
