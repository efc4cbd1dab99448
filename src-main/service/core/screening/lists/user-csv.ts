// An organisation's own list (PEP, RCA, wanted, internal blocklist) as CSV with a header row.
// The format is documented in docs/watchlists.md. Rows that fail validation are left out and
// reported by row and column, never by value: the report is shown in the console and may be
// logged, and the values are the organisation's data about people.
import { LIST_KINDS, type EntityId, type EntityName, type EntitySchema, type ListEntity, type ListImport, type ListKind } from '../types';
import { countEntities, finishEntity, FormatError, parseOneDate, sha256Hex, yearsBetween } from './common';
import { toCountryCode } from './countries';
import { csvRecords } from './csv-reader';
import { LIST_ISSUES_REPORTED, listSlug } from '../../../../../src-shared/contracts/lists';
import { hasLostLetter, readTextFile, type EncodingGuess } from '../../../../../src-shared/csv-text';

export const USER_LIST_COLUMNS = [
  'kind', 'name', 'aliases', 'weak_aliases', 'dob', 'country', 'id', 'id_type', 'gender', 'program', 'schema', 'ref', 'notes',
] as const;
type Column = (typeof USER_LIST_COLUMNS)[number];
const REQUIRED: readonly Column[] = ['kind', 'name'];

/**
 * A cell holds at most 50 aliases of 300 characters (~15,000): 16 KiB fits any valid cell; the
 * header row and the number of columns are bounded before anything else is read.
 */
export const USER_LIST_LIMITS = {
  rows: 200_000, nameLength: 300, values: 50, refLength: 64, cellLength: 16_384, headerLength: 65_536, columns: 256,
} as const;

export interface UserListIssue {
  /** Spreadsheet row: the header is row 1, the first record row 2. */
  row: number;
  column: string;
  reason: string;
}

export interface UserListResult {
  import: ListImport;
  /** The first LIST_ISSUES_REPORTED problems of each kind; the totals count them all. */
  errors: UserListIssue[];
  warnings: UserListIssue[];
  errorsTotal: number;
  warningsTotal: number;
  rows: { total: number; imported: number; rejected: number };
}

export interface UserListOptions {
  /** Shown as the sub-list; also names the source: `user:<slug>`. */
  listName: string;
  publisher?: string;
}

const SCHEMAS: Record<string, EntitySchema> = {
  person: 'person', individual: 'person',
  organization: 'organization', organisation: 'organization', company: 'organization', entity: 'organization',
  vessel: 'vessel', aircraft: 'aircraft',
};

/** "Acme PEP list 2026" -> "acme-pep-list-2026" (the console derives it the same way: one rule). */
export { listSlug as userListSlug };

function values(cell: string | undefined): string[] {
  return (cell ?? '').split(';').map((v) => v.trim()).filter((v) => v !== '');
}

/** A user-written date of birth: YYYY, YYYY-MM, YYYY-MM-DD, or a year range YYYY..YYYY. */
function parseUserDob(v: string): string[] | undefined {
  const range = /^(\d{4})\s*\.\.\s*(\d{4})$/.exec(v);
  if (range) {
    const [from, to] = [Number(range[1]), Number(range[2])];
    return to >= from && to - from <= 30 ? yearsBetween(from, to) : undefined;
  }
  if (!/^\d{4}(?:-\d{2}(?:-\d{2})?)?$/.test(v)) return undefined;
  const d = parseOneDate(v);
  // parseOneDate is lenient with official "00" placeholders; a user file must be exact.
  return d === v ? [d] : undefined;
}

/** Said of a name that lost a letter to the file's encoding (U+FFFD, or the "?" a code page writes). */
const LOST_LETTER = 'a letter could not be read (shown as \uFFFD or ?): save the file as UTF-8';

/** The file was not known to be UTF-8 (or UTF-16 by its mark): how it was read. The console says it before uploading. */
function encodingNote(detected: EncodingGuess): string | null {
  if (!detected.guessed) return null;
  return detected.evidence === 'not_utf8'
    ? 'the file is not UTF-8: read as Windows-1252, as Excel saves "CSV (Comma delimited)"'
    : 'the file has no byte order mark: read as UTF-16 by the pattern of its bytes';
}

/** Problems kept for the report (a person reads it); the rest are only counted. */
class Issues {
  readonly kept: UserListIssue[] = [];
  total = 0;
  add(row: number, column: string, reason: string): void {
    this.total++;
    if (this.kept.length < LIST_ISSUES_REPORTED) this.kept.push({ row, column, reason });
  }
}

/** A file refused as a whole, before any row is read. */
function refused(source: string, publisher: string, bytes: Uint8Array, reason: string): UserListResult {
  return {
    import: { source, publisher, listDate: null, sha256: sha256Hex(bytes), entities: [], counts: countEntities([]), skipped: {} },
    errors: [{ row: 1, column: '', reason }],
    warnings: [],
    errorsTotal: 1,
    warningsTotal: 0,
    rows: { total: 0, imported: 0, rejected: 0 },
  };
}

/** The list's slug; a name that cannot name a list is a FormatError, before any row is read. */
export function userListSlugOf(listName: string): string {
  const slug = listSlug(listName);
  if (slug === '' || listName.length > 80) throw new FormatError('list name must be 1-80 characters with a letter or digit');
  return slug;
}

export function importUserList(input: Uint8Array | string, options: UserListOptions): UserListResult {
  const slug = userListSlugOf(options.listName);
  const source = `user:${slug}`;
  const publisher = options.publisher ?? 'Organisation (user-supplied list)';
  const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input;
  // Read as the batch import reads a customer file (src-shared/csv-text.ts): an Excel file saved
  // as "CSV" or "Unicode Text" is read, not turned into U+FFFD. Ctrl-Z is an old end-of-file mark.
  const { text: decoded, detected } = readTextFile(bytes);
  const text = decoded.replace(/\u001a/g, '');
  // The header line is measured before anything is split: a 20 MB line of commas is refused
  // here, not turned into millions of columns.
  const eol = text.indexOf('\n');
  if ((eol < 0 ? text.length : eol) > USER_LIST_LIMITS.headerLength) {
    return refused(source, publisher, bytes, `the header row is longer than ${USER_LIST_LIMITS.headerLength} characters`);
  }
  const firstLine = text.slice(0, eol < 0 ? text.length : eol);
  // Comma or tab: a ';'-separated file would collide with the ';' between multiple values.
  const delimiter = firstLine.includes('\t') && !firstLine.includes(',') ? '\t' : ',';
  const records = csvRecords(text, delimiter, { cell: USER_LIST_LIMITS.cellLength, columns: USER_LIST_LIMITS.columns });

  const errors = new Issues();
  const warnings = new Issues();
  const first = records.next();
  const head = first.done ? { cells: [], columns: 0, wide: [] } : first.value;
  if (head.columns > USER_LIST_LIMITS.columns) {
    return refused(source, publisher, bytes, `the header row has more than ${USER_LIST_LIMITS.columns} columns`);
  }
  const header = head.cells.map((h) => h.trim().toLowerCase());
  const index = new Map<Column, number>();
  header.forEach((h, i) => {
    if ((USER_LIST_COLUMNS as readonly string[]).includes(h)) {
      if (index.has(h as Column)) errors.add(1, h, 'column appears twice');
      else index.set(h as Column, i);
    } else if (h !== '' || head.wide.includes(i)) {
      warnings.add(1, `column ${i + 1}`, 'unknown column, ignored');
    }
  });
  for (const c of REQUIRED) if (!index.has(c)) errors.add(1, c, 'required column missing');
  const note = encodingNote(detected);
  if (note) warnings.add(1, '', note);
  // Columns are named in reports by their header (a known column) or their position: never by a
  // value from the file.
  const columnName = (i: number): string => ((USER_LIST_COLUMNS as readonly string[]).includes(header[i] ?? '') ? header[i]! : `column ${i + 1}`);

  const entities: ListEntity[] = [];
  const isBlank = (cells: readonly string[]): boolean => cells.every((c) => c.trim() === '');
  const usable = errors.total === 0;
  const seen = new Set<string>();
  let total = 0;
  let rejected = 0;
  let row = 1;
  for (const record of records) {
    row++;
    const { cells } = record;
    if (record.wide.length === 0 && isBlank(cells)) continue;
    total++;
    if (!usable) {
      rejected++;
      continue;
    }
    if (total > USER_LIST_LIMITS.rows) {
      if (total === USER_LIST_LIMITS.rows + 1) errors.add(row, '', `only the first ${USER_LIST_LIMITS.rows} rows are read`);
      rejected++;
      continue;
    }
    let rowErrors = 0;
    const err = (column: string, reason: string): void => {
      rowErrors++;
      errors.add(row, column, reason);
    };
    const cell = (c: Column): string => {
      const at = index.get(c);
      return at === undefined ? '' : (cells[at] ?? '').trim();
    };
    if (record.columns > header.length) err('', 'more fields than the header has columns');
    // A broken quote or a cut cell leaves values not worth checking one by one.
    if (record.quote || record.wide.length > 0) {
      if (record.quote) err('', record.quote === 'unclosed' ? 'unclosed quote' : 'text after a closing quote');
      for (const i of record.wide) err(columnName(i), `longer than ${USER_LIST_LIMITS.cellLength} characters`);
      rejected++;
      continue;
    }

    const kindText = cell('kind').toLowerCase();
    const kind = (LIST_KINDS as readonly string[]).includes(kindText) ? (kindText as ListKind) : undefined;
    if (!kind) err('kind', kindText === '' ? 'required' : `must be one of ${LIST_KINDS.join(', ')}`);

    const name = cell('name');
    if (name === '') err('name', 'required');
    else if (name.length > USER_LIST_LIMITS.nameLength) err('name', `longer than ${USER_LIST_LIMITS.nameLength} characters`);
    else if (hasLostLetter(name)) err('name', LOST_LETTER);

    const names: EntityName[] = [{ name, kind: 'primary', quality: 'strong' }];
    for (const [column, quality] of [['aliases', 'strong'], ['weak_aliases', 'weak']] as const) {
      const list = values(cell(column));
      if (list.length > USER_LIST_LIMITS.values) err(column, `more than ${USER_LIST_LIMITS.values} values`);
      if (list.some((a) => a.length > USER_LIST_LIMITS.nameLength)) err(column, `a value is longer than ${USER_LIST_LIMITS.nameLength} characters`);
      else if (list.some(hasLostLetter)) err(column, LOST_LETTER);
      for (const a of list) names.push({ name: a, kind: 'aka', quality });
    }

    const schemaText = cell('schema').toLowerCase();
    const schema = schemaText === '' ? 'person' : SCHEMAS[schemaText];
    if (!schema) err('schema', 'must be person, organization, vessel or aircraft');

    const dobs: string[] = [];
    values(cell('dob')).forEach((v, n) => {
      const d = parseUserDob(v);
      if (d) dobs.push(...d);
      else err('dob', `value ${n + 1} is not YYYY, YYYY-MM, YYYY-MM-DD or YYYY..YYYY`);
    });

    const countries: string[] = [];
    values(cell('country')).forEach((v, n) => {
      const c = toCountryCode(v);
      if (c) countries.push(c);
      else err('country', `value ${n + 1} is not an ISO 3166 alpha-2 code or a known country name`);
    });

    const idNumbers = values(cell('id'));
    const idTypes = values(cell('id_type'));
    const ids: EntityId[] = [];
    if (idTypes.length > 1 && idTypes.length !== idNumbers.length) err('id_type', 'give one type for all ids, or one per id');
    else if (idTypes.length > 0 && idNumbers.length === 0) err('id', 'id_type is given without an id');
    else idNumbers.forEach((number, n) => ids.push({ type: idTypes[idTypes.length > 1 ? n : 0] ?? 'ID', number }));

    const genderText = cell('gender').toLowerCase();
    const gender = genderText === '' ? undefined : genderText === 'male' || genderText === 'm' ? 'male' : genderText === 'female' || genderText === 'f' ? 'female' : null;
    if (gender === null) err('gender', 'must be male, female, m, f or empty');

    const ref = cell('ref');
    if (ref.length > USER_LIST_LIMITS.refLength || /[\s:]/.test(ref)) err('ref', `at most ${USER_LIST_LIMITS.refLength} characters, no spaces or ':'`);

    if (rowErrors > 0 || !kind || !schema || gender === null) {
      rejected++;
      continue;
    }
    // Without a ref the id comes from what identifies the person, so re-importing an edited
    // file keeps ids (and cleared matches) for rows whose name and dates did not change.
    const sourceId = ref !== '' ? ref : `h${sha256Hex(new TextEncoder().encode(JSON.stringify([kind, schema, name, dobs]))).slice(0, 12)}`;
    if (seen.has(sourceId)) {
      errors.add(row, ref !== '' ? 'ref' : 'name', ref !== '' ? 'ref repeats an earlier row' : 'repeats an earlier row (same kind, name and dob)');
      rejected++;
      continue;
    }
    seen.add(sourceId);
    entities.push(
      finishEntity({
        source, sourceId, sourceList: options.listName, kind, schema, names, dobs, countries, gender, ids,
        programs: values(cell('program')),
      }),
    );
  }

  return {
    import: {
      source, publisher, listDate: null, sha256: sha256Hex(bytes), entities, counts: countEntities(entities),
      skipped: rejected > 0 ? { rejected_rows: rejected } : {},
    },
    errors: errors.kept,
    warnings: warnings.kept,
    errorsTotal: errors.total,
    warningsTotal: warnings.total,
    rows: { total, imported: entities.length, rejected },
  };
}
