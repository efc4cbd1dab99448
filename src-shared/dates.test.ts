// The one date module: MRZ dates, printed dates, claimed dates, the API's format and ages, with
// two-digit years resolved against the verification's own date.
import { describe, expect, it } from 'vitest';
import {
  ageOn, calendarDate, formatIsoDate, formatLongDate, formatUsDate, parseClaimedDate, parseIsoDate, parsePrintedDates, parseUsDate, parseYymmdd,
  readPrintedDate, withTwoDigitYear,
} from './dates';

const NOW = new Date(Date.UTC(2026, 0, 15, 12));
const ymd = (y: number, m: number, d: number) => ({ y, m, d });

describe('two-digit years', () => {
  it('reads a birth year in the past: 27 and 36 are 1927 and 1936, not 2027 and 2036', () => {
    expect(parseYymmdd('270301', 'birth', NOW)).toEqual(ymd(1927, 3, 1));
    expect(parseYymmdd('361231', 'birth', NOW)).toEqual(ymd(1936, 12, 31));
    expect(parseYymmdd('640812', 'birth', NOW)).toEqual(ymd(1964, 8, 12));
    expect(parseYymmdd('090318', 'birth', NOW)).toEqual(ymd(2009, 3, 18));
    // Two digits cannot tell 1917 from 2017: the latest past date is taken (a century older is for the printed page to show).
    expect(parseYymmdd('170329', 'birth', NOW)).toEqual(ymd(2017, 3, 29));
  });

  it('reads a birth this year as this year only when the day has come', () => {
    expect(parseYymmdd('260110', 'birth', NOW)).toEqual(ymd(2026, 1, 10));
    expect(parseYymmdd('260115', 'birth', NOW)).toEqual(ymd(2026, 1, 15));
    expect(parseYymmdd('260116', 'birth', NOW)).toEqual(ymd(1926, 1, 16));
  });

  it('reads an expiry year forward within 50 years, and an older one as past (a document long expired stays expired)', () => {
    expect(parseYymmdd('270415', 'expiry', NOW)).toEqual(ymd(2027, 4, 15));
    expect(parseYymmdd('360415', 'expiry', NOW)).toEqual(ymd(2036, 4, 15));
    expect(parseYymmdd('760101', 'expiry', NOW)).toEqual(ymd(2076, 1, 1));
    expect(parseYymmdd('770101', 'expiry', NOW)).toEqual(ymd(1977, 1, 1));
    expect(parseYymmdd('250131', 'expiry', NOW)).toEqual(ymd(2025, 1, 31));
  });

  it('reads an issue date in the past', () => {
    expect(parseYymmdd('270101', 'issue', NOW)).toEqual(ymd(1927, 1, 1));
    expect(parseYymmdd('210416', 'issue', NOW)).toEqual(ymd(2021, 4, 16));
  });

  it('uses the verification date it is given, not the machine clock, also near a century boundary', () => {
    const late = new Date(Date.UTC(2099, 11, 31));
    expect(parseYymmdd('991231', 'birth', late)).toEqual(ymd(2099, 12, 31));
    expect(parseYymmdd('050101', 'expiry', late)).toEqual(ymd(2105, 1, 1));
    expect(parseYymmdd('450101', 'expiry', late)).toEqual(ymd(2145, 1, 1));
    expect(parseYymmdd('500101', 'expiry', late)).toEqual(ymd(2050, 1, 1));
    const early = new Date(Date.UTC(2100, 0, 1));
    expect(parseYymmdd('991231', 'birth', early)).toEqual(ymd(2099, 12, 31));
    expect(parseYymmdd('000101', 'birth', early)).toEqual(ymd(2100, 1, 1));
    expect(parseYymmdd('000102', 'birth', early)).toEqual(ymd(2000, 1, 2));
    expect(parseYymmdd('270301', 'birth', new Date(Date.UTC(1990, 5, 1)))).toEqual(ymd(1927, 3, 1));
  });

  it('takes 29 February only in a leap year: 2100 is not one, so a birth on 000229 read in 2100 is 2000', () => {
    expect(parseYymmdd('880229', 'birth', NOW)).toEqual(ymd(1988, 2, 29));
    expect(parseYymmdd('280229', 'birth', NOW)).toEqual(ymd(1928, 2, 29));
    expect(parseYymmdd('280229', 'expiry', NOW)).toEqual(ymd(2028, 2, 29));
    expect(parseYymmdd('270229', 'birth', NOW)).toBeNull();
    expect(parseYymmdd('000229', 'birth', new Date(Date.UTC(2100, 5, 1)))).toEqual(ymd(2000, 2, 29));
    expect(withTwoDigitYear(0, 2, 29, 'expiry', new Date(Date.UTC(2090, 0, 1)))).toBeNull();
  });

  it('refuses what is not a date', () => {
    for (const s of ['741312', '740230', '7408I2', '74081', '<<<<<<']) expect(parseYymmdd(s, 'birth', NOW)).toBeNull();
  });
});

describe('printed dates', () => {
  it('reads 12 AUG 1974, 12.08.1974, 12/08/74 and 1974-08-12, and both orders of an ambiguous numeric date', () => {
    expect(parsePrintedDates('12 AUG 1974', 'birth', NOW)).toEqual([ymd(1974, 8, 12)]);
    expect(parsePrintedDates('12.08.1974', 'birth', NOW)).toEqual([ymd(1974, 8, 12), ymd(1974, 12, 8)]);
    expect(parsePrintedDates('12/08/74', 'birth', NOW)).toEqual([ymd(1974, 8, 12), ymd(1974, 12, 8)]);
    expect(parsePrintedDates('1974-08-12', 'birth', NOW)).toEqual([ymd(1974, 8, 12)]);
    expect(parsePrintedDates('29.02.1988', 'birth', NOW)).toEqual([ymd(1988, 2, 29)]);
  });

  it('reads month names of several languages, accented or not, and digits read as letters', () => {
    expect(parsePrintedDates('12 AOÛT/AUG 1974', 'birth', NOW)).toEqual([ymd(1974, 8, 12)]);
    expect(parsePrintedDates('03 MÄR 1980', 'birth', NOW)).toEqual([ymd(1980, 3, 3)]);
    expect(parsePrintedDates('03 MRT 1980', 'birth', NOW)).toEqual([ymd(1980, 3, 3)]);
    expect(parsePrintedDates('21 OUT 1999', 'birth', NOW)).toEqual([ymd(1999, 10, 21)]);
    expect(parsePrintedDates('1O ENE 2001', 'birth', NOW)).toEqual([ymd(2001, 1, 10)]);
    expect(parsePrintedDates('15 WRZ 1990', 'birth', NOW)).toEqual([ymd(1990, 9, 15)]);
  });

  it('reads a printed two-digit birth year 27 or 36 as 1927 or 1936 (as the MRZ does), an expiry 27 as 2027', () => {
    expect(parsePrintedDates('01 MAR 27', 'birth', NOW)).toEqual([ymd(1927, 3, 1)]);
    expect(parsePrintedDates('31.12.36', 'birth', NOW)).toEqual([ymd(1936, 12, 31)]);
    expect(parsePrintedDates('01 MAR 27', 'birth', NOW)).toEqual([parseYymmdd('270301', 'birth', NOW)]);
    expect(parsePrintedDates('15 APR 27', 'expiry', NOW)).toEqual([ymd(2027, 4, 15)]);
  });

  it('keeps a two-digit year open until its role is known', () => {
    expect(readPrintedDate('12 AUG 74')).toEqual([{ y: 74, twoDigitYear: true, m: 8, d: 12 }]);
    expect(readPrintedDate('Surname / Nom')).toEqual([]);
    expect(readPrintedDate('31 APR 1974')).toEqual([]);
    expect(readPrintedDate('12 AUG 0974')).toEqual([]);
  });
});

describe('the API and ages', () => {
  it('parses claimed dates as YYYY-MM-DD or MM/DD/YYYY only', () => {
    expect(parseClaimedDate('1964-08-12')).toEqual(ymd(1964, 8, 12));
    expect(parseClaimedDate('08/12/1964')).toEqual(ymd(1964, 8, 12));
    expect(parseClaimedDate('2000-02-29')).toEqual(ymd(2000, 2, 29));
    for (const s of ['12.08.1964', '1964-02-30', '1900-02-29', '8/12/1964', '1964-8-12', '']) expect(parseClaimedDate(s)).toBeNull();
    expect(parseIsoDate('08/12/1964')).toBeNull();
    expect(parseUsDate('1964-08-12')).toBeNull();
  });

  it('formats MM/DD/YYYY for the API, YYYY-MM-DD and a long form', () => {
    expect(formatUsDate(ymd(1964, 8, 12))).toBe('08/12/1964');
    expect(formatIsoDate(ymd(1964, 8, 2))).toBe('1964-08-02');
    expect(formatLongDate(ymd(1964, 8, 2))).toBe('2 Aug 1964');
  });

  it('counts whole years of age on a day; a 29 February birthday comes on 1 March in a common year', () => {
    const leapling = ymd(2008, 2, 29);
    expect(ageOn(leapling, ymd(2026, 2, 28))).toBe(17);
    expect(ageOn(leapling, ymd(2026, 3, 1))).toBe(18);
    expect(ageOn(leapling, ymd(2028, 2, 29))).toBe(20);
    expect(ageOn(ymd(1964, 8, 12), ymd(2026, 8, 11))).toBe(61);
    expect(ageOn(ymd(1964, 8, 12), ymd(2026, 8, 12))).toBe(62);
    expect(ageOn(ymd(1927, 3, 1), NOW)).toBe(98);
  });

  it('knows a real date', () => {
    expect(calendarDate(2024, 2, 29)).toEqual(ymd(2024, 2, 29));
    expect(calendarDate(2023, 2, 29)).toBeNull();
    expect(calendarDate(2000, 2, 29)).not.toBeNull();
    expect(calendarDate(1900, 2, 29)).toBeNull();
    expect(calendarDate(2026, 4, 31)).toBeNull();
  });
});
