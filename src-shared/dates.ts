// Calendar dates of identity documents and of the API, in one place: the MRZ's YYMMDD, dates as
// documents print them, dates a client claims, the API's MM/DD/YYYY, and whole years of age.
// A date here is a day (no time, no zone). Two-digit years are resolved against the verification's
// own date, passed in as `now` (never the machine clock), by what the date is (docs/documents.md):
//   birth, issue   the latest such date that is not after `now` (nobody is born in the future);
//   expiry         the year within (now − 50, now + 50]: an expiry reads forward, yet a document that
//                  expired years ago is still read as expired, not as valid for another century.
// Pure: imported by the service and the console alike.

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

/** YYYY-MM-DD (the API's request dates); null when it is not a real date in that form. */
export function parseIsoDate(s: string): CalendarDate | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s.trim());
  return m ? calendarDate(Number(m[1]), Number(m[2]), Number(m[3])) : null;
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

const MONTH_ABBR = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** "12 Aug 1964": a date no reader takes for 8 December. */
export const formatLongDate = (d: CalendarDate) => `${d.d} ${MONTH_ABBR[d.m - 1]} ${d.y}`;

/**
 * Whole years from birth to a day. Someone born on 29 February has their birthday on 1 March in a
 * common year (the later of the two customs, so an age limit is never met a day early).
 */
export function ageOn(birth: CalendarDate, now: Date | number | CalendarDate): number {
  const today = asDay(now);
  return today.y - birth.y - (today.m < birth.m || (today.m === birth.m && today.d < birth.d) ? 1 : 0);
}

// ---------------------------------------------------------------------------------------------
// Dates as documents print them

/** Month names and their abbreviations in the languages of document labels, accents folded. */
const MONTHS: [RegExp, number][] = [
  [/^(JAN|GEN|STY|ENE)/, 1], [/^(FEB|FEV|LUT)/, 2], [/^(MAR|MRZ|MAA|MRT)/, 3], [/^(APR|AVR|ABR|KWI)/, 4],
  [/^(MAY|MAI|MAG|MEI|MAJ)/, 5], [/^(JUN|JUIN|GIU|CZE)/, 6], [/^(JUL|JUIL|LUG|LIP)/, 7], [/^(AUG|AOU|AGO|SIE)/, 8],
  [/^(SEP|SET|WRZ)/, 9], [/^(OCT|OKT|OTT|OUT|PAZ)/, 10], [/^(NOV|LIS)/, 11], [/^(DEC|DEZ|DIC|GRU)/, 12],
];

/** Digits as a reader returns them at times in a number position (O for 0, I or L for 1). */
const asDigits = (s: string) => s.replace(/[OQD]/g, '0').replace(/[IL|]/g, '1').replace(/S/g, '5').replace(/B/g, '8').replace(/Z/g, '2');

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
 * Every reading of a printed date: 12 AUG 1974, 12 AUG/AOUT 74, 12.08.1974, 12/08/74, 1974-08-12.
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
  for (const x of t.matchAll(/([0-9OIL]{1,2}) ?([A-Z]{3,5})(?:\/[A-Z]{3,5})? ?([0-9OIL]{4}|[0-9OIL]{2})\b/g)) {
    const month = MONTHS.find(([re]) => re.test(x[2]!))?.[1];
    if (month) add(x[3]!, month, Number(asDigits(x[1]!)));
  }
  for (const x of t.matchAll(/\b(\d{4})[-./ ](\d{1,2})[-./ ](\d{1,2})\b/g)) add(x[1]!, Number(x[2]), Number(x[3]));
  for (const x of t.matchAll(/\b(\d{1,2})[-./ ](\d{1,2})[-./ ](\d{4}|\d{2})\b/g)) {
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
