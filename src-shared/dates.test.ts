// The one date module: MRZ dates, printed dates, claimed dates, the API's format, dates of birth and
// ages (two-digit years resolved against the verification's own date), days counted for report
// ranges and list freshness, and dates as a reader sees them.
import { describe, expect, it } from 'vitest';
import {
  addDays, ageOn, birthDateProblem, claimedAgeOn, calendarDate, centuriesApart, daysBetween, daysInclusive, fileDateOrder, formatDayMonth, formatIsoDate,
  formatLongDate, formatTypedDate, formatUsDate, parseTypedDate, isIsoDate, numericDateOrder, parseDayFirstDate, isoDateText, isoDayLabel, isoDayMs, isoDayOf, mondayOf, parseClaimedDate,
  parseIsoDate, parsePrintedDates, parseUsDate, parseYymmdd, partialDateLabel, periodLabel, readPrintedDate, todayUtc, usDateLabel,
  utcDayStartOf, utcInstantText, wholeDaysSince, withTwoDigitYear,
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

  it('refuses month 00 and 13 and day 00 and 32 in every role', () => {
    for (const role of ['birth', 'issue', 'expiry'] as const) {
      for (const s of ['740015', '741315', '740800', '740832', '740431']) expect(parseYymmdd(s, role, NOW), `${s} ${role}`).toBeNull();
    }
  });

  it('never reads a birth or issue date as one still to come, whatever the two digits', () => {
    for (let yy = 0; yy <= 99; yy++) {
      const s = `${String(yy).padStart(2, '0')}0116`;
      for (const role of ['birth', 'issue'] as const) {
        const date = parseYymmdd(s, role, NOW)!;
        expect(formatIsoDate(date) <= '2026-01-15', `${s} ${role}`).toBe(true);
        expect(formatIsoDate(date) > '1926-01-15', `${s} ${role}`).toBe(true);
      }
    }
  });

  it('reads a 29 February birth only in a leap year of either century, 2000 being one and 1900 not', () => {
    // Neither 2025 nor 1925 was a leap year.
    expect(parseYymmdd('250229', 'birth', NOW)).toBeNull();
    expect(parseYymmdd('240229', 'birth', NOW)).toEqual(ymd(2024, 2, 29));
    // 1900 was not a leap year and 2000 was: 000229 read in 2026 is 2000, and read in 2099 still 2000.
    expect(parseYymmdd('000229', 'birth', NOW)).toEqual(ymd(2000, 2, 29));
    expect(parseYymmdd('000229', 'birth', new Date(Date.UTC(2099, 0, 1)))).toEqual(ymd(2000, 2, 29));
    // Read in 1999, 00 is 1900 or 1800, and neither was a leap year.
    expect(parseYymmdd('000229', 'birth', new Date(Date.UTC(1999, 5, 1)))).toBeNull();
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

  it('reads a month\'s name with a letter read as the digit it resembles (AG0, N0V, A6O, 0CT), and only a month\'s name', () => {
    expect(readPrintedDate('17 AG0 1983')).toEqual([{ y: 1983, twoDigitYear: false, m: 8, d: 17 }]);
    expect(readPrintedDate('17 A601983')).toEqual([{ y: 1983, twoDigitYear: false, m: 8, d: 17 }]);
    expect(readPrintedDate('01 N0V 85')).toEqual([{ y: 85, twoDigitYear: true, m: 11, d: 1 }]);
    expect(readPrintedDate('3 0CT 2001')).toEqual([{ y: 2001, twoDigitYear: false, m: 10, d: 3 }]);
    // The month's name is not allowed to take the year's digits.
    expect(readPrintedDate('21AGO1941')).toEqual([{ y: 1941, twoDigitYear: false, m: 8, d: 21 }]);
    expect(readPrintedDate('12 A01 1974')).toEqual([]);
    expect(readPrintedDate('12 808 1974')).toEqual([]);
    // Nor the year's first digit when its last was lost (glare): no date, not 12 DEC 95.
    expect(readPrintedDate('12DEC195')).toEqual([]);
    expect(readPrintedDate('12DEC1959')).toEqual([{ y: 1959, twoDigitYear: false, m: 12, d: 12 }]);
    expect(readPrintedDate('12DEC59')).toEqual([{ y: 59, twoDigitYear: true, m: 12, d: 12 }]);
  });

  it('reads dates whose dots are followed by a space (12. 08. 1974, 1974. 08. 12., 12. AUG 1974), numeric ones with both readings of day and month', () => {
    expect(readPrintedDate('12. 08. 1974')).toEqual([{ y: 1974, twoDigitYear: false, m: 8, d: 12 }, { y: 1974, twoDigitYear: false, m: 12, d: 8 }]);
    expect(readPrintedDate('1974. 08. 12.')).toEqual([{ y: 1974, twoDigitYear: false, m: 8, d: 12 }]);
    expect(readPrintedDate('31. 12. 36')).toEqual([{ y: 36, twoDigitYear: true, m: 12, d: 31 }]);
    // A day ending in a dot before a month's name.
    expect(readPrintedDate('12. AUG 1974')).toEqual([{ y: 1974, twoDigitYear: false, m: 8, d: 12 }]);
    expect(readPrintedDate('3. SEPTEMBER 1990')).toEqual([{ y: 1990, twoDigitYear: false, m: 9, d: 3 }]);
    // A comma is not a date's separator.
    expect(readPrintedDate('12, 08, 1974')).toEqual([]);
  });

  it('reads a month in a language it does not know, or in another script, by the English, French or Spanish name ICAO prints after it', () => {
    expect(readPrintedDate('12 SRP/AUG 74')).toEqual([{ y: 74, twoDigitYear: true, m: 8, d: 12 }]);
    expect(readPrintedDate('05 ΑΥΓ/AUG 1974')).toEqual([{ y: 1974, twoDigitYear: false, m: 8, d: 5 }]);
    expect(readPrintedDate('05 ΔΕΚ /DEC 1974')).toEqual([{ y: 1974, twoDigitYear: false, m: 12, d: 5 }]);
    expect(parsePrintedDates('28 KES/JUIN 1990', 'birth', NOW)).toEqual([ymd(1990, 6, 28)]);
    expect(parsePrintedDates('03 ŞUB FEB 1985', 'birth', NOW)).toEqual([ymd(1985, 2, 3)]);
    // After a slash the ICAO name is the reading (LIS is November in Polish, October in Croatian).
    expect(readPrintedDate('09 LIS/OCT 1981')).toEqual([{ y: 1981, twoDigitYear: false, m: 10, d: 9 }]);
    expect(readPrintedDate('09 LIS 1981')).toEqual([{ y: 1981, twoDigitYear: false, m: 11, d: 9 }]);
    // Neither name a month: no date.
    expect(readPrintedDate('12 SRP/XYZ 74')).toEqual([]);
  });

  it('reads a bilingual month whose slash was lost (08MARMAR84, 12 AGO AUG 1974) and a month written out, by the first name', () => {
    expect(readPrintedDate('08MARMAR84')).toEqual([{ y: 84, twoDigitYear: true, m: 3, d: 8 }]);
    expect(readPrintedDate('12 AGO AUG 1974')).toEqual([{ y: 1974, twoDigitYear: false, m: 8, d: 12 }]);
    expect(readPrintedDate('12 AGO/AUG 1974')).toEqual([{ y: 1974, twoDigitYear: false, m: 8, d: 12 }]);
    expect(readPrintedDate('3 SEPTEMBER 1990')).toEqual([{ y: 1990, twoDigitYear: false, m: 9, d: 3 }]);
    // Still a month's name first, and digits on both sides.
    expect(readPrintedDate('08XYZMAR84')).toEqual([]);
    expect(readPrintedDate('MARMAR84')).toEqual([]);
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

  it('counts a birth still to come as a negative age, so the age routes refuse it', () => {
    expect(ageOn(ymd(2026, 1, 16), NOW)).toBe(-1);
    expect(ageOn(ymd(2030, 1, 1), NOW)).toBe(-4);
    expect(ageOn(ymd(2026, 1, 15), NOW)).toBe(0);
  });

  it('knows a real date', () => {
    expect(calendarDate(2024, 2, 29)).toEqual(ymd(2024, 2, 29));
    expect(calendarDate(2023, 2, 29)).toBeNull();
    expect(calendarDate(2000, 2, 29)).not.toBeNull();
    expect(calendarDate(1900, 2, 29)).toBeNull();
    expect(calendarDate(2026, 4, 31)).toBeNull();
  });
});

describe('the API\'s YYYY-MM-DD', () => {
  it('is a real day in exactly that form, 29 February only in a leap year', () => {
    for (const s of ['2024-02-29', '2000-02-29', '1964-08-12', '0001-01-01', '9999-12-31', '2026-04-30']) expect(isIsoDate(s), s).toBe(true);
    for (const s of ['2023-02-29', '1900-02-29', '2100-02-29', '2026-04-31', '2026-00-10', '2026-13-01', '2026-01-00', '2026-01-32', '0000-01-01']) {
      expect(isIsoDate(s), s).toBe(false);
    }
    for (const s of ['2026-1-05', '26-01-05', '2026/01/05', ' 2026-01-05', '2026-01-05T00:00:00Z', '2026-01', '2026', '']) expect(isIsoDate(s), s).toBe(false);
    // parseIsoDate lets spaces around a claimed date go; the contract's form does not.
    expect(parseIsoDate(' 2026-01-05 ')).toEqual(ymd(2026, 1, 5));
  });
});

describe('a date of birth', () => {
  const TODAY = '2026-01-15';
  it('is a real day from 1900-01-01 to today', () => {
    for (const s of ['1900-01-01', '1964-08-12', '2024-02-29', TODAY]) expect(birthDateProblem(s, TODAY), s).toBeNull();
  });

  it('names what is wrong: the form, the day, before 1900, in the future', () => {
    expect(birthDateProblem('12/08/1964', TODAY)).toBe('format');
    expect(birthDateProblem('1964-8-12', TODAY)).toBe('format');
    expect(birthDateProblem('2023-02-29', TODAY)).toBe('not_a_date');
    expect(birthDateProblem('1964-13-01', TODAY)).toBe('not_a_date');
    expect(birthDateProblem('1899-12-31', TODAY)).toBe('before_1900');
    expect(birthDateProblem('0000-01-01', TODAY)).toBe('not_a_date');
    expect(birthDateProblem('2026-01-16', TODAY)).toBe('in_the_future');
    expect(birthDateProblem('2030-01-01', ymd(2026, 1, 15))).toBe('in_the_future');
    expect(birthDateProblem('2026-01-15', ymd(2026, 1, 15))).toBeNull();
  });
});

describe('day-first dates in a customer\'s file', () => {
  it('reads DD/MM/YYYY, DD.MM.YYYY and DD-MM-YYYY, one or two digits for day and month', () => {
    expect(parseDayFirstDate('31/12/1990')).toEqual(ymd(1990, 12, 31));
    expect(parseDayFirstDate('31.12.1990')).toEqual(ymd(1990, 12, 31));
    expect(parseDayFirstDate('31-12-1990')).toEqual(ymd(1990, 12, 31));
    expect(parseDayFirstDate('5/3/1979')).toEqual(ymd(1979, 3, 5));
    expect(parseDayFirstDate(' 05.03.1979 ')).toEqual(ymd(1979, 3, 5));
    expect(parseDayFirstDate('29/02/2024')).toEqual(ymd(2024, 2, 29));
  });

  it('reads nothing else: no day, two-digit years, separators that differ, the ISO form, month names', () => {
    for (const s of ['29/02/2023', '31/04/1990', '12/31/1990', '00/01/1990', '31/12/90', '31/12-1990', '31 12 1990', '1990-12-31', '31 Dec 1990', '131/12/1990', '']) {
      expect(parseDayFirstDate(s), s).toBeNull();
    }
  });

  it('tells which order a date allows from which number can be a month', () => {
    expect(numericDateOrder('31/12/1990')).toBe('day_first');
    expect(numericDateOrder('13.01.1990')).toBe('day_first');
    expect(numericDateOrder('12/31/1990')).toBe('month_first');
    expect(numericDateOrder('03/04/1990')).toBe('either');
    expect(numericDateOrder('12-12-1990')).toBe('either');
    expect(numericDateOrder('31/31/1990')).toBe('neither');
    expect(numericDateOrder('00/00/1990')).toBe('neither');
    expect(numericDateOrder('00/05/1990')).toBe('neither');
    expect(numericDateOrder('32/05/1990')).toBe('neither');
    expect(numericDateOrder('05/32/1990')).toBe('neither');
    // The form only: 31/02 can only be day first, even though no such day exists.
    expect(numericDateOrder('31/02/1990')).toBe('day_first');
    for (const s of ['1990-12-31', '31/12/90', '31 Dec 1990', 'unknown', '']) expect(numericDateOrder(s), s).toBeNull();
  });

  it('judges a file: one date that can only be day first makes it day first; evidence both ways is mixed', () => {
    expect(fileDateOrder({ dayFirst: 0, monthFirst: 0, either: 0 })).toBe('none');
    expect(fileDateOrder({ dayFirst: 1, monthFirst: 0, either: 500 })).toBe('day_first');
    expect(fileDateOrder({ dayFirst: 0, monthFirst: 2, either: 9 })).toBe('month_first');
    expect(fileDateOrder({ dayFirst: 40, monthFirst: 1, either: 0 })).toBe('mixed');
    expect(fileDateOrder({ dayFirst: 0, monthFirst: 0, either: 3 })).toBe('either');
  });
});

describe('days for report ranges and list freshness (UTC)', () => {
  it('adds days across month, leap-day and year ends', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2024-02-28', 2)).toBe('2024-03-01');
    expect(addDays('2023-02-28', 1)).toBe('2023-03-01');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
    expect(addDays('2026-03-31', -89)).toBe('2026-01-01');
    expect(addDays('0050-01-01', 1)).toBe('0050-01-02');
  });

  it('counts both ends of a range, a leap February one day longer', () => {
    expect(daysInclusive('2026-01-15', '2026-01-15')).toBe(1);
    expect(daysInclusive('2024-02-01', '2024-03-01')).toBe(30);
    expect(daysInclusive('2023-02-01', '2023-03-01')).toBe(29);
    expect(daysInclusive('2026-01-01', '2026-03-31')).toBe(90);
    expect(daysInclusive('2025-12-31', '2026-01-02')).toBe(3);
  });

  it('knows the midnight of a day, also before the year 100, and no midnight of a day that does not exist', () => {
    expect(isoDayMs('2026-01-15')).toBe(Date.UTC(2026, 0, 15));
    expect(isoDayMs('0050-01-01')).toBe(Date.parse('0050-01-01T00:00:00Z'));
    expect(isoDayMs('2026-02-30')).toBeNull();
    expect(isoDayOf(Date.UTC(2026, 0, 15, 23, 59, 59))).toBe('2026-01-15');
    expect(todayUtc(new Date('2026-01-15T23:59:59Z'))).toBe('2026-01-15');
    expect(todayUtc(Date.UTC(2026, 0, 16))).toBe('2026-01-16');
  });

  it('starts ISO weeks on Monday', () => {
    expect(mondayOf('2026-01-01')).toBe('2025-12-29'); // a Thursday
    expect(mondayOf('2026-01-05')).toBe('2026-01-05'); // a Monday
    expect(mondayOf('2026-01-11')).toBe('2026-01-05'); // a Sunday
    expect(mondayOf('2024-03-03')).toBe('2024-02-26'); // across a leap day
  });

  it('reads a list date, month or year as the midnight of its first day, and counts whole days since', () => {
    expect(utcDayStartOf('2025-05-20')).toBe(Date.UTC(2025, 4, 20));
    expect(utcDayStartOf('2025-05')).toBe(Date.UTC(2025, 4, 1));
    expect(utcDayStartOf('2025')).toBe(Date.UTC(2025, 0, 1));
    expect(utcDayStartOf('2025-05-20T18:30:00Z')).toBe(Date.UTC(2025, 4, 20));
    expect(utcDayStartOf('no date')).toBeNull();
    const day = Date.UTC(2025, 4, 20);
    expect(wholeDaysSince(day, Date.UTC(2025, 4, 20, 23))).toBe(0);
    expect(wholeDaysSince(day, Date.UTC(2025, 4, 21, 0, 0, 1))).toBe(1);
    expect(wholeDaysSince(day, Date.UTC(2026, 4, 20))).toBe(365);
    expect(daysBetween('2025-01-03', '2025-02-02')).toBe(30);
    expect(daysBetween('2025-01-03', '2025-01-01')).toBe(-2);
  });
});

describe('dates as a reader sees them', () => {
  it('prints days with a month name, the same in every time zone', () => {
    expect(isoDayLabel('2026-11-03')).toBe('3 Nov 2026');
    expect(isoDayLabel('2026-02-30')).toBe('2026-02-30');
    expect(formatDayMonth(ymd(2026, 11, 3))).toBe('3 Nov');
    expect(usDateLabel('08/12/1964')).toBe('12 Aug 1964');
    expect(usDateLabel('08/02/1964')).toBe('2 Aug 1964');
    expect(usDateLabel('13/02/1964')).toBe('13/02/1964');
    expect(usDateLabel('')).toBe('');
  });

  it('prints a list date as precise as the list states it', () => {
    expect(partialDateLabel('2026-02-27')).toBe('27 Feb 2026');
    expect(partialDateLabel('2025-05')).toBe('May 2025');
    expect(partialDateLabel('2025')).toBe('2025');
    expect(partialDateLabel('2025-13')).toBe('2025-13');
    expect(partialDateLabel('2026-02-31')).toBe('2026-02-31');
    expect(partialDateLabel('spring 2025')).toBe('spring 2025');
  });

  it('names a report\'s period with both days, as YYYY-MM-DD like every PDF date, and its length', () => {
    expect(periodLabel('2026-02-01', '2026-02-01')).toBe('2026-02-01 \u2013 2026-02-01 (1 day)');
    expect(periodLabel('2025-12-31', '2026-01-02')).toBe('2025-12-31 \u2013 2026-01-02 (3 days)');
    expect(periodLabel('2024-02-01', '2024-02-29')).toBe('2024-02-01 \u2013 2024-02-29 (29 days)');
  });

  it('reads a date typed in the preference\'s order, and YYYY-MM-DD in every order (issue 26)', () => {
    const jan15 = { y: 2026, m: 1, d: 15 };
    expect(parseTypedDate('15/01/2026', 'dmy')).toEqual(jan15);
    expect(parseTypedDate('15.1.2026', 'dmy')).toEqual(jan15);
    expect(parseTypedDate('15. 01. 2026', 'dmy')).toEqual(jan15);
    expect(parseTypedDate('01/15/2026', 'mdy')).toEqual(jan15);
    expect(parseTypedDate('1-15-2026', 'mdy')).toEqual(jan15);
    expect(parseTypedDate('2026/01/15', 'ymd')).toEqual(jan15);
    expect(parseTypedDate('2026. 1. 15.', 'ymd')).toEqual(jan15);
    for (const order of ['dmy', 'mdy', 'ymd'] as const) expect(parseTypedDate(' 2026-01-15 ', order)).toEqual(jan15);
    // The same digits are another day in the other order, and no day at all where a month would be 15.
    expect(parseTypedDate('01/02/2026', 'dmy')).toEqual({ y: 2026, m: 2, d: 1 });
    expect(parseTypedDate('01/02/2026', 'mdy')).toEqual({ y: 2026, m: 1, d: 2 });
    expect(parseTypedDate('15/01/2026', 'mdy')).toBeNull();
    expect(parseTypedDate('01/15/2026', 'dmy')).toBeNull();
    // Only real days, four-digit years, one separator.
    for (const s of ['31/04/2026', '29/02/2026', '15/01/26', '15/01-2026', '15 01 2026', '2026-1-15x', '', 'today', '2026-02-30']) {
      expect(parseTypedDate(s, 'dmy'), s).toBeNull();
    }
    expect(parseTypedDate('29/02/2024', 'dmy')).toEqual({ y: 2024, m: 2, d: 29 });
    expect(parseTypedDate('15/01/2026', 'ymd')).toBeNull();
  });

  it('writes a date in the preference\'s order with the locale\'s separator', () => {
    const d = { y: 2026, m: 1, d: 5 };
    expect(formatTypedDate(d, 'dmy', '/')).toBe('05/01/2026');
    expect(formatTypedDate(d, 'mdy', '/')).toBe('01/05/2026');
    expect(formatTypedDate(d, 'dmy', '.')).toBe('05.01.2026');
    expect(formatTypedDate(d, 'ymd', '-')).toBe('2026-01-05');
    for (const order of ['dmy', 'mdy', 'ymd'] as const) expect(parseTypedDate(formatTypedDate(d, order, '.'), order)).toEqual(d);
  });

  it('prints the KYC report\'s dates as YYYY-MM-DD whatever form they came in', () => {
    expect(isoDateText('1980-04-12')).toBe('1980-04-12');
    expect(isoDateText('04/12/1980')).toBe('1980-04-12');
    expect(isoDateText('2026-11-20T14:02:11.000Z')).toBe('2026-11-20');
    expect(isoDateText('12 Apr 1980')).toBe('12 Apr 1980');
  });

  it('prints an instant in UTC to the second, with its zone', () => {
    expect(utcInstantText('2026-11-20T14:02:11.000Z')).toBe('2026-11-20 14:02:11 UTC');
    expect(utcInstantText('2026-11-20T15:02:11+01:00')).toBe('2026-11-20 14:02:11 UTC');
    expect(utcInstantText('not a time')).toBe('not a time');
  });

  it('tells a date of birth read a century apart from another date', () => {
    expect(centuriesApart(ymd(1917, 3, 29), ymd(2017, 3, 29))).toBe(true);
    expect(centuriesApart(ymd(1817, 3, 29), ymd(2017, 3, 29))).toBe(true);
    expect(centuriesApart(ymd(2017, 3, 29), ymd(2017, 3, 29))).toBe(false);
    expect(centuriesApart(ymd(1967, 3, 29), ymd(2017, 3, 29))).toBe(false);
    expect(centuriesApart(ymd(1917, 3, 28), ymd(2017, 3, 29))).toBe(false);
  });
});

describe('claimedAgeOn: the age a claimed date of birth gives', () => {
  it('whole years on the day; null for no date, a date in the future, or an age no person has', () => {
    const day = ymd(2026, 11, 27);
    expect(claimedAgeOn('2008-11-27', day)).toBe(18);
    expect(claimedAgeOn('2008-11-28', day)).toBe(17);
    expect(claimedAgeOn('2026-11-27', day)).toBe(0);
    expect(claimedAgeOn('2026-11-28', day)).toBeNull();
    expect(claimedAgeOn('1876-11-27', day)).toBe(150);
    expect(claimedAgeOn('1875-11-28', day)).toBe(150);
    expect(claimedAgeOn('1875-11-27', day)).toBeNull();
    expect(claimedAgeOn('2001-02-29', day)).toBeNull();
    expect(claimedAgeOn('27/11/2008', day)).toBeNull();
  });
});
