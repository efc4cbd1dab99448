// Calendar dates, in one place: the API's YYYY-MM-DD (requests, report ranges) and MM/DD/YYYY
// (document answers), dates a client claims, dates an analyst types in the console, day-first dates in a customer's file, the rule for a
// date of birth, the MRZ's YYMMDD, dates as documents print them, whole years of age, days counted
// for report ranges and list freshness, and how a date is shown to a reader. Every date rule of the
// service and the console is here; the zod schemas of the contract wrap these rules (contracts/dates.ts).
// A date here is a day (no time, no zone). Two-digit years are resolved against the verification's
// own date, passed in as `now` (never the machine clock), by what the date is (docs/documents.md):
//   birth, issue   the latest such date that is not after `now` (nobody is born in the future);
//   expiry         the year within (now − 50, now + 50]: an expiry reads forward, yet a document that
//                  expired years ago is still read as expired, not as valid for another century.
// Pure, with no zod: imported by the service, the console, the hosted page and the widget alike.
import { asDigits, lettersOnly } from './misreadings';

export interface CalendarDate {
  y: number;
  /** 1-12 */
  m: number;
  /** 1-31 */
  d: number;
}

/** What a date is, which decides the century of a two-digit year. */
export type DateRole = 'birth' | 'issue' | 'expiry';

/** A two-digit expiry year is read within this many years after the verification's year (and 49 before). */
export const EXPIRY_YEARS_AHEAD = 50;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const daysIn = (y: number, m: number) => (m === 2 && isLeap(y) ? 29 : DAYS_IN_MONTH[m - 1]!);

/** The date, when it is a real one (31 April and 29 February of a common year are not). */
export function calendarDate(y: number, m: number, d: number): CalendarDate | null {
  if (![y, m, d].every(Number.isInteger) || y < 1 || y > 9999 || m < 1 || m > 12 || d < 1 || d > daysIn(y, m)) return null;
  return { y, m, d };
}

/** Negative when a is before b, 0 on the same day, positive after. */
export function compareDates(a: CalendarDate, b: CalendarDate): number {
  return a.y - b.y || a.m - b.m || a.d - b.d;
}

export const sameDate = (a: CalendarDate, b: CalendarDate) => compareDates(a, b) === 0;

/** The day an instant falls on, in UTC (the service's calendar). */
export function dayOf(now: Date | number): CalendarDate {
  const t = new Date(now);
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() };
}

const asDay = (now: Date | number | CalendarDate): CalendarDate => (typeof now === 'object' && !(now instanceof Date) ? now : dayOf(now));

/**
 * A two-digit year as a full date, by the role's rule (see the head of this file); null when the
 * day does not exist in the year the rule gives.
 */
export function withTwoDigitYear(yy: number, m: number, d: number, role: DateRole, now: Date | number | CalendarDate): CalendarDate | null {
  if (!Number.isInteger(yy) || yy < 0 || yy > 99) return null;
  const today = asDay(now);
  const base = today.y - (today.y % 100) + yy;
  if (role === 'expiry') {
    const y = [base - 100, base, base + 100].find((c) => c > today.y - EXPIRY_YEARS_AHEAD && c <= today.y + EXPIRY_YEARS_AHEAD)!;
    return calendarDate(y, m, d);
  }
  // Latest first: this century's date unless it is still to come (or does not exist, such as
  // 29 February 2100), then the century before.
  for (const y of [base, base - 100]) {
    const date = calendarDate(y, m, d);
    if (date && compareDates(date, today) <= 0) return date;
  }
  return null;
}

/** An MRZ date (YYMMDD), by its role; null when it is not six digits or no such day. */
export function parseYymmdd(s: string, role: DateRole, now: Date | number | CalendarDate): CalendarDate | null {
  if (!/^\d{6}$/.test(s)) return null;
  return withTwoDigitYear(Number(s.slice(0, 2)), Number(s.slice(2, 4)), Number(s.slice(4, 6)), role, now);
}

// ---------------------------------------------------------------------------------------------
// The API's forms

/**
 * The form of the API's dates, YYYY-MM-DD: the contract's pattern (the OpenAPI document prints it).
 * The form alone says nothing of the day: see isIsoDate.
 */
export const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** YYYY-MM-DD (the API's request dates; spaces around it are let go); null when it is not a real date in that form. */
export function parseIsoDate(s: string): CalendarDate | null {
  const t = s.trim();
  return ISO_DATE.test(t) ? calendarDate(Number(t.slice(0, 4)), Number(t.slice(5, 7)), Number(t.slice(8, 10))) : null;
}

/** Exactly YYYY-MM-DD naming a real day (year 0001 to 9999): the contract's `IsoDate`, report range ends. */
export function isIsoDate(s: string): boolean {
  return ISO_DATE.test(s) && parseIsoDate(s) !== null;
}

/** MM/DD/YYYY (the API's answer dates); null when it is not a real date in that form. */
export function parseUsDate(s: string): CalendarDate | null {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(s.trim());
  return m ? calendarDate(Number(m[3]), Number(m[1]), Number(m[2])) : null;
}

/** A date a client claims: YYYY-MM-DD or MM/DD/YYYY, nothing else (12.08.1964 is ambiguous). */
export function parseClaimedDate(s: string): CalendarDate | null {
  return parseIsoDate(s) ?? parseUsDate(s);
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
/** MM/DD/YYYY, as the API answers document dates. */
export const formatUsDate = (d: CalendarDate) => `${pad(d.m)}/${pad(d.d)}/${pad(d.y, 4)}`;
/** YYYY-MM-DD. */
export const formatIsoDate = (d: CalendarDate) => `${pad(d.y, 4)}-${pad(d.m)}-${pad(d.d)}`;

// ---------------------------------------------------------------------------------------------
// Dates an analyst types into the console's date fields: in the order their preference shows
// (YYYY-MM-DD, or their locale's order of day, month and year), always with a four-digit year.

/** The order of a numeric date's parts: day first (15/01/2026), month first (01/15/2026), year first (2026/01/15). */
export type DayOrder = 'dmy' | 'mdy' | 'ymd';

const TYPED_DATE = /^(\d{1,4})\s*([/.-])\s*(\d{1,2})\s*\2\s*(\d{1,4})\.?$/;

/**
 * A date typed in `order`: day and month of one or two digits, a four-digit year, one separator
 * (/, . or -) used twice, spaces around it let go ("15. 01. 2026"). YYYY-MM-DD is read in every
 * order, since nobody takes it for anything else. Null when it is not that form or no such day.
 */
export function parseTypedDate(s: string, order: DayOrder): CalendarDate | null {
  const t = s.trim();
  if (ISO_DATE.test(t)) return parseIsoDate(t);
  const m = TYPED_DATE.exec(t);
  if (!m) return null;
  const [a, b, c] = [m[1]!, m[3]!, m[4]!];
  if (order === 'ymd') return a.length === 4 && c.length <= 2 ? calendarDate(Number(a), Number(b), Number(c)) : null;
  if (a.length > 2 || c.length !== 4) return null;
  return order === 'dmy' ? calendarDate(Number(c), Number(b), Number(a)) : calendarDate(Number(c), Number(a), Number(b));
}

/** A date in `order` with `separator` between its parts, day and month of two digits: 15/01/2026, 01/15/2026, 2026.01.15. */
export function formatTypedDate(d: CalendarDate, order: DayOrder, separator: string): string {
  const parts = { d: pad(d.d), m: pad(d.m), y: pad(d.y, 4) };
  return order.split('').map((k) => parts[k as keyof typeof parts]).join(separator);
}

// ---------------------------------------------------------------------------------------------
// Numeric dates in a customer's file (31/12/1990, 31.12.1990, 31-12-1990), as spreadsheets in most
// of the world write them. Day and month cannot be told apart by their form, so they are read day
// first only when the analyst says the file is; a file's own dates are the evidence offered to them.

const NUMERIC_DATE = /^(\d{1,2})([/.-])(\d{1,2})\2(\d{4})$/;

/** How a numeric date's first two numbers can be read: only one way, either way, or neither. */
export type NumericDateOrder = 'day_first' | 'month_first' | 'either' | 'neither';

/**
 * The orders a date of numbers with a four-digit year allows: 31/12/1990 only day first (its first
 * number is over 12, its second 12 at most), 12/31/1990 only month first, 03/04/1990 either,
 * 31/31/1990 and 00/05/1990 neither; null for any other form (1990-12-31, 31/12/90). Only the
 * numbers' ranges are looked at: 31/02/1990 is day first, and no day.
 */
export function numericDateOrder(s: string): NumericDateOrder | null {
  const m = NUMERIC_DATE.exec(s.trim());
  if (!m) return null;
  const [a, b] = [Number(m[1]), Number(m[3])];
  const month = (n: number) => n >= 1 && n <= 12;
  const dayOnly = (n: number) => n > 12 && n <= 31;
  if (month(a) && month(b)) return 'either';
  if (dayOnly(a) && month(b)) return 'day_first';
  return month(a) && dayOnly(b) ? 'month_first' : 'neither';
}

/** DD/MM/YYYY, DD.MM.YYYY or DD-MM-YYYY (day and month of one or two digits); null when not that form or no such day. */
export function parseDayFirstDate(s: string): CalendarDate | null {
  const m = NUMERIC_DATE.exec(s.trim());
  return m ? calendarDate(Number(m[4]), Number(m[3]), Number(m[1])) : null;
}

/** What a whole file's numeric dates say of their order (counts of numericDateOrder's answers). */
export interface DateOrderCounts {
  dayFirst: number;
  monthFirst: number;
  either: number;
}

/**
 * A file's verdict: `none` (no numeric dates), `day_first` (some can only be day first, none only
 * month first), `month_first` (the other way round), `mixed` (both: no reading fits every row, so
 * none is guessed), `either` (every one reads both ways: only the person who wrote them knows).
 */
export type FileDateOrder = 'none' | 'day_first' | 'month_first' | 'mixed' | 'either';

export function fileDateOrder(c: DateOrderCounts): FileDateOrder {
  if (c.dayFirst > 0) return c.monthFirst > 0 ? 'mixed' : 'day_first';
  if (c.monthFirst > 0) return 'month_first';
  return c.either > 0 ? 'either' : 'none';
}

// ---------------------------------------------------------------------------------------------
// Dates of birth and ages

/** The earliest date of birth a screening subject may have (the console's date pickers start here). */
export const EARLIEST_BIRTH_DATE = '1900-01-01';

/** Why a YYYY-MM-DD text is not a date of birth; each caller words it for its reader. */
export type BirthDateProblem = 'format' | 'not_a_date' | 'before_1900' | 'in_the_future';

/**
 * A screening subject's date of birth: YYYY-MM-DD, a real day, from 1900-01-01 to `today` (the
 * service's today is the UTC day; the console passes the analyst's own day). Null when it is one.
 */
export function birthDateProblem(s: string, today: CalendarDate | string): BirthDateProblem | null {
  if (!ISO_DATE.test(s)) return 'format';
  const date = parseIsoDate(s);
  if (!date) return 'not_a_date';
  if (formatIsoDate(date) < EARLIEST_BIRTH_DATE) return 'before_1900';
  const last = typeof today === 'string' ? today : formatIsoDate(today);
  return formatIsoDate(date) > last ? 'in_the_future' : null;
}

/**
 * Whole years from birth to a day. Someone born on 29 February has their birthday on 1 March in a
 * common year (the later of the two customs, so an age limit is never met a day early).
 */
export function ageOn(birth: CalendarDate, now: Date | number | CalendarDate): number {
  const today = asDay(now);
  return today.y - birth.y - (today.m < birth.m || (today.m === birth.m && today.d < birth.d) ? 1 : 0);
}

/** The oldest age a claimed date of birth may give (the age product's step 1, hosted page and age gate). */
export const MAX_CLAIMED_AGE = 150;

/**
 * The age a claimed YYYY-MM-DD date of birth gives on a day, or null when it is no date or no
 * person could have it (in the future, or over MAX_CLAIMED_AGE years ago).
 */
export function claimedAgeOn(dob: string, now: Date | number | CalendarDate): number | null {
  const birth = parseIsoDate(dob);
  const age = birth ? ageOn(birth, now) : null;
  return age === null || age < 0 || age > MAX_CLAIMED_AGE ? null : age;
}

/**
 * Two readings of one date of birth a whole number of centuries apart (a printed 1917 and an MRZ's
 * 17 read as 2017): the two-digit year cannot tell them apart.
 */
export function centuriesApart(a: CalendarDate, b: CalendarDate): boolean {
  return a.y !== b.y && (a.y - b.y) % 100 === 0 && a.m === b.m && a.d === b.d;
}

// ---------------------------------------------------------------------------------------------
// Days as YYYY-MM-DD text, counted in UTC: report ranges (both ends included; ledger timestamps
// are UTC), list freshness, "today" for the service and the console

export const DAY_MS = 86_400_000;

/** Midnight UTC of a day, in milliseconds (years before 100 too: Date.UTC would read 50 as 1950). */
export function dayStartMs(d: CalendarDate): number {
  const t = new Date(0);
  t.setUTCFullYear(d.y, d.m - 1, d.d);
  return t.getTime();
}

/** Midnight UTC of a YYYY-MM-DD day, or null when it is no real day. */
export function isoDayMs(s: string): number | null {
  const d = isIsoDate(s) ? parseIsoDate(s) : null;
  return d ? dayStartMs(d) : null;
}

/** The UTC day of an instant as YYYY-MM-DD. */
export function isoDayOf(now: Date | number): string {
  return formatIsoDate(dayOf(now));
}

/** Today's UTC date, YYYY-MM-DD: the day the service's reports and its date-of-birth rule count in. */
export function todayUtc(now: Date | number = Date.now()): string {
  return isoDayOf(now);
}

/** The day an instant falls on in this machine's time zone (the console's and the visitor's own day). */
export function localDay(now: Date = new Date()): CalendarDate {
  return { y: now.getFullYear(), m: now.getMonth() + 1, d: now.getDate() };
}

/** This machine's date, YYYY-MM-DD: what "today" is on a date picker. */
export function localToday(now: Date = new Date()): string {
  return formatIsoDate(localDay(now));
}

/** The instant a local calendar day starts (`days` later), as ISO 8601: a filter over local days sent as instants. */
export function localDayStart(day: string, days = 0): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y!, m! - 1, d! + days).toISOString();
}

/** A YYYY-MM-DD day `n` days later (earlier when negative). */
export function addDays(day: string, n: number): string {
  return isoDayOf(isoDayMs(day)! + n * DAY_MS);
}

/** Days in a range of YYYY-MM-DD days, both ends included (a one-day range is 1). */
export function daysInclusive(from: string, to: string): number {
  return Math.round((isoDayMs(to)! - isoDayMs(from)!) / DAY_MS) + 1;
}

/** The Monday of a day's ISO week, YYYY-MM-DD. */
export function mondayOf(day: string): string {
  const weekday = new Date(isoDayMs(day)!).getUTCDay();
  return addDays(day, -((weekday + 6) % 7));
}

/** Days from one date or instant to another (ISO 8601 text; a fraction when the times of day differ). */
export function daysBetween(from: string, to: string): number {
  return (Date.parse(to) - Date.parse(from)) / DAY_MS;
}

/**
 * Midnight UTC of the day a date or instant falls on: YYYY-MM-DD, a month (YYYY-MM) or year as
 * its first day, or an ISO 8601 instant; null when it is none of these.
 */
export function utcDayStartOf(value: string): number | null {
  const t = Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value);
  return Number.isNaN(t) ? null : Math.floor(t / DAY_MS) * DAY_MS;
}

/** Whole days from the UTC day starting at `dayStart` to the UTC day of `nowMs` (0 on the same day). */
export function wholeDaysSince(dayStart: number, nowMs: number): number {
  return Math.floor((Math.floor(nowMs / DAY_MS) * DAY_MS - dayStart) / DAY_MS);
}

// ---------------------------------------------------------------------------------------------
// Dates as a reader sees them: day, month name and year, the same in every time zone and locale
// (the console); the PDFs print YYYY-MM-DD and UTC instants (isoDateText, utcInstantText)

/** Month names as printed: English abbreviations, which no reader takes for a number. */
export const MONTH_ABBR = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** "12 Aug 1964": a date no reader takes for 8 December. */
export const formatLongDate = (d: CalendarDate) => `${d.d} ${MONTH_ABBR[d.m - 1]} ${d.y}`;

/** "3 Nov": a chart's day label, its year given elsewhere. */
export const formatDayMonth = (d: CalendarDate) => `${d.d} ${MONTH_ABBR[d.m - 1]}`;

/** A YYYY-MM-DD day as "3 Nov 2026"; anything else as given. */
export function isoDayLabel(day: string): string {
  const d = isIsoDate(day) ? parseIsoDate(day) : null;
  return d ? formatLongDate(d) : day;
}

/** An MM/DD/YYYY document date (as the API answers it) as "12 Aug 1964"; anything else as given. */
export function usDateLabel(usDate: string): string {
  const d = parseUsDate(usDate);
  return d ? formatLongDate(d) : usDate;
}

/**
 * A list's date as published: "27 Feb 2026", "May 2025" for a month-only date, "2025" for a year;
 * anything else as given. A list date is a day, not an instant, so no time zone may move it.
 */
export function partialDateLabel(value: string): string {
  if (/^\d{4}$/.test(value)) return value;
  const month = /^(\d{4})-(\d{2})$/.exec(value);
  if (month) {
    const name = MONTH_ABBR[Number(month[2]) - 1];
    return name ? `${name} ${month[1]}` : value;
  }
  return isoDayLabel(value);
}

/** An ISO instant as "2026-11-20 14:03:05 UTC" (the PDFs' times); anything unparseable as given. */
export function utcInstantText(iso: string): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  return `${new Date(t).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/**
 * A date as YYYY-MM-DD, the one date style of every PDF (the KYC report and the report exports):
 * YYYY-MM-DD (or the day of an ISO instant) as it is, MM/DD/YYYY turned round, anything else as
 * given (a list's "2025-05" or "2025" stays so).
 */
export function isoDateText(value: string): string {
  const d = parseIsoDate(value.slice(0, 10)) ?? parseUsDate(value);
  return d ? formatIsoDate(d) : value;
}

/** A report's period as the PDFs print it (YYYY-MM-DD, like every date in them): "2026-01-01 – 2026-03-31 (90 days)". */
export function periodLabel(from: string, to: string): string {
  const days = daysInclusive(from, to);
  return `${isoDateText(from)} \u2013 ${isoDateText(to)} (${days} ${days === 1 ? 'day' : 'days'})`;
}

// ---------------------------------------------------------------------------------------------
// Dates as documents print them

/** Month names and their abbreviations in the languages of document labels, accents folded. */
const MONTHS: [RegExp, number][] = [
  [/^(JAN|GEN|STY|ENE)/, 1], [/^(FEB|FEV|LUT)/, 2], [/^(MAR|MRZ|MAA|MRT)/, 3], [/^(APR|AVR|ABR|KWI)/, 4],
  [/^(MAY|MAI|MAG|MEI|MAJ)/, 5], [/^(JUN|JUIN|GIU|CZE)/, 6], [/^(JUL|JUIL|LUG|LIP)/, 7], [/^(AUG|AOU|AGO|SIE)/, 8],
  [/^(SEP|SET|WRZ)/, 9], [/^(OCT|OKT|OTT|OUT|PAZ)/, 10], [/^(NOV|LIS)/, 11], [/^(DEC|DEZ|DIC|GRU)/, 12],
];

/** The month a name (or its abbreviation) names, in the table's languages. */
const monthNamed = (name: string) => MONTHS.find(([re]) => re.test(name))?.[1];

/** Upper case, accents folded (AOÛT is AOUT), spaces single. */
const folded = (s: string) => s.normalize('NFKD').replace(/\p{M}+/gu, '').toUpperCase().replace(/\s+/g, ' ');

/** A printed date before its century is known: `twoDigitYear` when the year was printed as two digits. */
export interface PrintedDate {
  y: number;
  twoDigitYear: boolean;
  m: number;
  d: number;
}

/** Day and month possible in some year (29 February included). */
const possible = (m: number, d: number) => m >= 1 && m <= 12 && d >= 1 && d <= (m === 2 ? 29 : DAYS_IN_MONTH[m - 1]!);

/**
 * Every reading of a printed date: 12 AUG 1974, 12 AUG/AOUT 74, 12 SRP/AUG 74, 12.08.1974, 12. 08. 1974, 12/08/74, 1974-08-12.
 * Numeric day and month are ambiguous (08/12 is 8 December or 12 August), so both are returned.
 */
export function readPrintedDate(text: string): PrintedDate[] {
  const t = folded(text);
  const out: PrintedDate[] = [];
  const add = (yText: string, m: number, d: number) => {
    const y = Number(asDigits(yText));
    const date: PrintedDate = { y, twoDigitYear: yText.length === 2, m, d };
    // A four-digit year before 1800 is a misreading, not a holder's date.
    if (!possible(m, d) || (!date.twoDigitYear && (y < 1800 || !calendarDate(y, m, d)))) return;
    if (!out.some((o) => o.y === y && o.m === m && o.d === d && o.twoDigitYear === date.twoDigitYear)) out.push(date);
  };
  // A month's name may come back with a letter read as the digit it resembles (AG0, N0V, A6O); a
  // bilingual month (MAR/MAR, AGO/AUG) with its slash lost (08MARMAR84), the first name read. ICAO
  // prints a month in the issuer's language followed, when that is not English, French or
  // Spanish, by one of theirs (SRP/AUG, ΑΥΓ/AUG, LIS/OCT): a first name this table does not know,
  // in any script, is read by the second, when a slash or a space shows where the pair divides;
  // after a slash the second name is the reading even when the first names a month too: it is the
  // one ICAO fixes (LIS/OCT is October on a Croatian page; LIS alone is November in Polish).
  // The day may end in a dot (12. AUG 1974, 12. AUGUST 1974: German and Nordic style).
  for (const x of t.matchAll(/([0-9OIL]{1,2})\.? ?([A-Z][A-Z0-9]{2,4}?|[0-9][A-Z][A-Z0-9]{1,3}?|\p{L}{2,5}?)(?:( ?\/? ?)(\p{L}{3,5}))? ?([0-9OIL]{4}|[0-9OIL]{2})\b/gu)) {
    // A month's name that ends in a digit after it already names the month has taken the year's
    // first digit (12DEC195, the year's last digit under glare, is not 12 DEC 95).
    const trailing = /[0-9]+$/.exec(x[2]!);
    if (trailing && x[2]!.length - trailing[0].length >= 3 && monthNamed(x[2]!.slice(0, -trailing[0].length))) continue;
    const first = monthNamed(lettersOnly(x[2]!));
    const second = x[3] && x[4] ? monthNamed(x[4]) : undefined;
    const month = (x[3]?.includes('/') ? second : undefined) ?? first ?? second;
    if (month) add(x[5]!, month, Number(asDigits(x[1]!)));
  }
  // Numbers apart by a dash, a slash, a space or a dot, the dot followed by a space or not (12. 08.
  // 1974 on Czech, Slovak and Hungarian cards; 1974. 08. 12. on Hungarian ones).
  for (const x of t.matchAll(/\b(\d{4})(?:\. ?|[-/ ])(\d{1,2})(?:\. ?|[-/ ])(\d{1,2})\b/g)) add(x[1]!, Number(x[2]), Number(x[3]));
  for (const x of t.matchAll(/\b(\d{1,2})(?:\. ?|[-/ ])(\d{1,2})(?:\. ?|[-/ ])(\d{4}|\d{2})\b/g)) {
    const [a, b] = [Number(x[1]), Number(x[2])];
    add(x[3]!, b, a);
    if (a !== b) add(x[3]!, a, b);
  }
  return out;
}

/** A printed date's readings as full dates, two-digit years resolved by the role's rule. */
export function parsePrintedDates(text: string, role: DateRole, now: Date | number | CalendarDate): CalendarDate[] {
  const out: CalendarDate[] = [];
  for (const p of readPrintedDate(text)) {
    const date = p.twoDigitYear ? withTwoDigitYear(p.y, p.m, p.d, role, now) : calendarDate(p.y, p.m, p.d);
    if (date && !out.some((o) => sameDate(o, date))) out.push(date);
  }
  return out;
}
