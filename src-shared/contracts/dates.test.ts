// The contract's three date fields, as a request meets them: the screening subject's date of birth
// (a real day, 1900 to today in UTC), the age routes' date (a real day; the route judges the age)
// and the hosted page's (the form only; its route reads the day).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fieldIssues } from '../validation';
import { AgeStep1Request } from './age';
import { AgeGateRequest } from './age-gate';
import { HostedCompleteRequest } from './hosted';
import { ScreenRequest } from './screening';

const screen = (date_of_birth: string) =>
  ScreenRequest.safeParse({ subject: { type: 'individual', first_name: 'Ada', last_name: 'Lovelace', date_of_birth } });
const ageStep1 = (date_of_birth: string) => AgeStep1Request.safeParse({ date_of_birth });
const ageGate = (date_of_birth: string) => AgeGateRequest.safeParse({ store_id: 'ag_test_abcdefgh', date_of_birth });
const hosted = (date_of_birth: string) => HostedCompleteRequest.safeParse({ date_of_birth });

describe('date fields of the contract', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-15T23:30:00Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('takes a screening subject\'s date of birth from 1900-01-01 to today (UTC), 29 February only in a leap year', () => {
    for (const s of ['1900-01-01', '1964-08-12', '2024-02-29', '2026-01-15']) expect(screen(s).success, s).toBe(true);
    for (const s of ['1899-12-31', '2026-01-16', '2023-02-29', '1900-02-29', '2026-13-01', '1964-08-00', '12/08/1964', '1964-8-12']) {
      expect(screen(s).success, s).toBe(false);
    }
  });

  it('names the field, never the value, when a date of birth is refused', () => {
    const r = screen('2026-01-16');
    expect(r.success).toBe(false);
    if (!r.success) expect(fieldIssues(r.error)).toEqual([{ field: 'subject.date_of_birth', issue: 'invalid' }]);
    const form = screen('12/08/1964');
    if (!form.success) expect(fieldIssues(form.error)[0]).toEqual({ field: 'subject.date_of_birth', issue: 'invalid format' });
  });

  it('takes any real day for the age routes (a date still to come is the route\'s out_of_range, not the contract\'s)', () => {
    for (const parse of [ageStep1, ageGate]) {
      for (const s of ['2024-02-29', '1850-06-01', '2030-01-01']) expect(parse(s).success, s).toBe(true);
      for (const s of ['2023-02-29', '2026-04-31', '2026-00-01', '0000-01-01', '2026-1-01']) expect(parse(s).success, s).toBe(false);
    }
  });

  it('a value not of the YYYY-MM-DD form is one issue on the field, not two', () => {
    for (const s of ['2001', '+010000-01', '15/01/2026']) {
      const r = AgeStep1Request.safeParse({ date_of_birth: s, use_case: 'adult' });
      expect(r.success).toBe(false);
      expect(r.error?.issues.filter((i) => i.path[0] === 'date_of_birth'), s).toHaveLength(1);
    }
  });

  it('takes the form alone on the hosted page: its route reads the day', () => {
    expect(hosted('2026-02-30').success).toBe(true);
    expect(hosted('2026-01-15').success).toBe(true);
    expect(hosted('15/01/2026').success).toBe(false);
    expect(hosted('2026-1-15').success).toBe(false);
  });
});
