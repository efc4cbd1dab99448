// One CSV row → the row the service gets, or the reasons it cannot be sent. Runs in the CSV
// worker. The limits mirror the service's contract (src-shared/contracts/screening.ts), so a row
// that passes here is a row the service accepts; the service checks again anyway.
// Reasons never quote the cell: the error report must not become a copy of the file.
import type { ClearedMatch } from '../../../../src-shared/contracts/screening';
import { birthDateProblem, formatIsoDate, numericDateOrder, parseDayFirstDate, type BirthDateProblem, type NumericDateOrder } from '../../../../src-shared/dates';
import { unguardCell } from '../../../../src-shared/csv-guard';
import { hasLostLetter } from '../../../../src-shared/csv-text';
import type { EarlierDisposition, ImportedRow, ParseOptions, RowIssue } from '../../stores/batch';

export type RawRow = Record<string, string | undefined>;

const LEVELS = ['low', 'medium', 'high'] as const;
type Level = (typeof LEVELS)[number];
const DISPOSITION_VALUES: readonly string[] = ['cleared_false_positive', 'escalated', 'needs_info', 'awaiting_approval'] satisfies EarlierDisposition[];
const DISPOSITION_WORDS = 'cleared_false_positive, escalated, needs_info or awaiting_approval';
const MAX_FLAGS = 50;
const MAX_CLEARED = 200;

/** Header cells as written by people: "First Name" and "first_name" are the same column. */
export function normaliseHeader(h: string): string {
  return h.replace(/^\uFEFF/, '').trim().toLowerCase().replace(/[\s-]+/g, '_');
}

/** Undo the guard saved results put before cells a spreadsheet would run as a formula. */
function cell(raw: RawRow, column: string): string {
  return unguardCell((raw[column] ?? '').trim()).trim();
}

function list(value: string): string[] {
  return value.split(';').map((s) => s.trim()).filter(Boolean);
}

/** The service's date-of-birth rule (src-shared/dates.ts), said for the error report. */
const DOB_PROBLEM: Record<BirthDateProblem, string> = {
  format: 'use the format YYYY-MM-DD', not_a_date: 'not a calendar date', before_1900: 'before 1900', in_the_future: 'in the future',
};

/** The date of birth to screen (YYYY-MM-DD), or why the cell is not one. */
function readBirthDate(s: string, order: NumericDateOrder | null, today: string, dayFirst: boolean): { iso: string } | { problem: string } {
  let iso = s;
  if (dayFirst && order) {
    const date = parseDayFirstDate(s);
    if (!date) return { problem: 'not a calendar date (read as day/month/year)' };
    iso = formatIsoDate(date);
  }
  const problem = birthDateProblem(iso, today);
  return problem ? { problem: DOB_PROBLEM[problem] } : { iso };
}

/** Said of a name with U+FFFD or the "?" a code page writes for a letter it lacks (src-shared/csv-text.ts). */
export const LOST_LETTER = 'a letter could not be read (shown as \uFFFD or ?): check how the file is read, or save it from Excel as CSV UTF-8';

function parseCleared(value: string, column: string, issue: (column: string, reason: string) => void): ClearedMatch[] {
  const out: ClearedMatch[] = [];
  for (const item of list(value)) {
    const at = item.lastIndexOf('@');
    const entity = at > 0 ? item.slice(0, at).trim() : '';
    const hash = at > 0 ? item.slice(at + 1).trim() : '';
    if (!entity || !hash) {
      issue(column, 'use entity_id@record_hash, separated by ;');
      return out;
    }
    if (entity.length > 200 || hash.length > 64) {
      issue(column, 'an entity id or record hash is too long');
      return out;
    }
    out.push({ entity_id: entity, record_hash: hash });
  }
  return out;
}

export interface RowCheck {
  value: ImportedRow | null;
  issues: RowIssue[];
  /** The orders the date of birth may be read in, when it is written as numbers (the file's evidence). */
  dobOrder: NumericDateOrder | null;
}

/**
 * `today` is YYYY-MM-DD (UTC), passed in so a whole file is checked against one day. A name that
 * lost a letter to the file's encoding is a problem: it is never screened as it is.
 */
export function checkRow(raw: RawRow, row: number, today: string, options: Pick<ParseOptions, 'dayFirst'> = { dayFirst: false }): RowCheck {
  const issues: RowIssue[] = [];
  const issue = (column: string, reason: string) => issues.push({ row, column, reason });

  const name = (column: string, required: boolean): string => {
    const v = cell(raw, column);
    if (required && !v) issue(column, 'required');
    else if (v.length > 200) issue(column, 'longer than 200 characters');
    else if (hasLostLetter(v)) issue(column, LOST_LETTER);
    return v;
  };
  const first = name('first_name', true);
  const middle = name('middle_name', false);
  const last = name('last_name', true);

  const dobText = cell(raw, 'date_of_birth');
  const dobOrder = dobText ? numericDateOrder(dobText) : null;
  let dob = '';
  if (dobText) {
    const read = readBirthDate(dobText, dobOrder, today, options.dayFirst);
    if ('problem' in read) issue('date_of_birth', read.problem);
    else dob = read.iso;
  }
  const gender = cell(raw, 'gender');
  if (gender.length > 32) issue('gender', 'longer than 32 characters');
  const country = cell(raw, 'country').toUpperCase();
  if (country && !/^[A-Z]{2}$/.test(country)) issue('country', 'use a two-letter country code, e.g. DE');
  const reference = cell(raw, 'client_reference_id');
  if (reference.length > 200) issue('client_reference_id', 'longer than 200 characters');

  // A saved result's own output is the newest result: it wins over its previous_* columns.
  const fromOutput = cell(raw, 'risk_score') !== '' || cell(raw, 'risk_level') !== '';
  const col = fromOutput
    ? { id: 'screening_id', score: 'risk_score', level: 'risk_level', flags: 'flags' }
    : { id: 'previous_screening_id', score: 'previous_risk_score', level: 'previous_risk_level', flags: 'previous_flags' };
  const previousId = cell(raw, 'screening_id') || cell(raw, 'previous_screening_id');
  if (previousId.length > 100) issue(col.id, 'longer than 100 characters');

  const scoreText = cell(raw, col.score);
  const levelText = cell(raw, col.level).toLowerCase();
  let score: number | null = null;
  let level: Level | null = null;
  if (scoreText) {
    if (!/^\d{1,3}$/.test(scoreText) || Number(scoreText) > 100) issue(col.score, 'a whole number from 0 to 100');
    else score = Number(scoreText);
  }
  if (levelText) {
    if (!(LEVELS as readonly string[]).includes(levelText)) issue(col.level, 'low, medium or high');
    else level = levelText as Level;
  }
  if (scoreText && !levelText) issue(col.level, `needed with ${col.score}`);
  if (levelText && !scoreText) issue(col.score, `needed with ${col.level}`);
  const flags = list(cell(raw, col.flags));
  if (flags.length > MAX_FLAGS) issue(col.flags, `more than ${MAX_FLAGS} flags`);
  else if (flags.some((f) => f.length > 64)) issue(col.flags, 'a flag is longer than 64 characters');

  const cleared = new Map<string, ClearedMatch>();
  for (const c of parseCleared(cell(raw, 'cleared_entities'), 'cleared_entities', issue)) cleared.set(c.entity_id, c);
  const disposition = cell(raw, 'disposition').toLowerCase();
  if (disposition && !DISPOSITION_VALUES.includes(disposition)) issue('disposition', DISPOSITION_WORDS);
  const earlier = cell(raw, 'previous_disposition').toLowerCase();
  if (earlier && !DISPOSITION_VALUES.includes(earlier)) issue('previous_disposition', DISPOSITION_WORDS);
  if (disposition === 'cleared_false_positive') {
    // The analyst cleared these last time: from now on they are cleared at this record version.
    for (const c of parseCleared(cell(raw, 'disposition_entities'), 'disposition_entities', issue)) cleared.set(c.entity_id, c);
  }
  if (cleared.size > MAX_CLEARED) issue('cleared_entities', `more than ${MAX_CLEARED} entities`);
  if (cleared.size > 0 && !scoreText && !levelText) issue('cleared_entities', `needs ${col.score} and ${col.level}`);

  if (issues.length > 0) return { value: null, issues, dobOrder };
  return {
    dobOrder,
    value: {
      row,
      client_reference_id: reference,
      first_name: first,
      middle_name: middle,
      last_name: last,
      date_of_birth: dob,
      gender,
      country,
      previous_screening_id: previousId,
      previous: score !== null && level !== null ? { risk_score: score, risk_level: level, flags } : null,
      cleared: [...cleared.values()],
      previous_disposition: (disposition || earlier) as EarlierDisposition | '',
    },
    issues,
  };
}
