// An organisation's own list (PEP, RCA, wanted, internal blocklist) as CSV with a header row.
// The format is documented in docs/watchlists.md. Rows that fail validation are left out and
// reported by row and column, never by value: the report is shown in the console and may be
// logged, and the values are the organisation's data about people.
import Papa from 'papaparse';
import { LIST_KINDS, type EntityId, type EntityName, type EntitySchema, type ListEntity, type ListImport, type ListKind } from '../types';
import { countEntities, decodeText, finishEntity, FormatError, parseOneDate, sha256Hex, yearsBetween } from './common';
import { toCountryCode } from './countries';
import { listSlug } from '../../../../../src-shared/contracts/lists';

export const USER_LIST_COLUMNS = [
  'kind', 'name', 'aliases', 'weak_aliases', 'dob', 'country', 'id', 'id_type', 'gender', 'program', 'schema', 'ref', 'notes',
] as const;
type Column = (typeof USER_LIST_COLUMNS)[number];
const REQUIRED: readonly Column[] = ['kind', 'name'];

export const USER_LIST_LIMITS = { rows: 200_000, nameLength: 300, values: 50, refLength: 64 } as const;

export interface UserListIssue {
  /** Spreadsheet row: the header is row 1, the first record row 2. */
  row: number;
  column: string;
  reason: string;
}

export interface UserListResult {
  import: ListImport;
  errors: UserListIssue[];
  warnings: UserListIssue[];
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

export function importUserList(input: Uint8Array | string, options: UserListOptions): UserListResult {
  const slug = listSlug(options.listName);
  if (slug === '' || options.listName.length > 80) throw new FormatError('list name must be 1-80 characters with a letter or digit');
  const source = `user:${slug}`;
  const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input;
  const text = decodeText(bytes);
  const firstLine = text.slice(0, Math.max(0, text.indexOf('\n')) || text.length);
  // Comma or tab: a ';'-separated file would collide with the ';' between multiple values.
  const delimiter = firstLine.includes('\t') && !firstLine.includes(',') ? '\t' : ',';
  // Empty rows are kept while parsing so that row numbers match the spreadsheet, then skipped.
  const parsed = Papa.parse<string[]>(text, { header: false, delimiter, skipEmptyLines: false });

  const errors: UserListIssue[] = [];
  const warnings: UserListIssue[] = [];
  const header = (parsed.data[0] ?? []).map((h) => h.trim().toLowerCase());
  const index = new Map<Column, number>();
  header.forEach((h, i) => {
    if ((USER_LIST_COLUMNS as readonly string[]).includes(h)) {
      if (index.has(h as Column)) errors.push({ row: 1, column: h, reason: 'column appears twice' });
      else index.set(h as Column, i);
    } else if (h !== '') {
      warnings.push({ row: 1, column: `column ${i + 1}`, reason: 'unknown column, ignored' });
    }
  });
  for (const c of REQUIRED) if (!index.has(c)) errors.push({ row: 1, column: c, reason: 'required column missing' });

  // Papa's own finding (a quote never closed swallows the rest of the file into one cell): the
  // row is rejected; Papa's message is not used because it may quote the data.
  const unclosed = new Set(parsed.errors.filter((e) => e.type === 'Quotes').map((e) => (e.row ?? 0) + 1));
  const entities: ListEntity[] = [];
  const isBlank = (cells: readonly string[]): boolean => cells.every((c) => c.trim() === '');
  // [spreadsheet row, cells] of every non-blank record.
  const records = parsed.data.flatMap((cells, i): [number, string[]][] => (i === 0 || isBlank(cells) ? [] : [[i + 1, cells]]));
  let rejected = 0;
  if (errors.length === 0) {
    const seen = new Set<string>();
    records.slice(0, USER_LIST_LIMITS.rows).forEach(([row, cells]) => {
      const rowErrors: UserListIssue[] = [];
      const err = (column: string, reason: string): void => {
        rowErrors.push({ row, column, reason });
      };
      const cell = (c: Column): string => {
        const at = index.get(c);
        return at === undefined ? '' : (cells[at] ?? '').trim();
      };
      if (unclosed.has(row)) err('', 'unclosed quote');
      if (cells.length > header.length) err('', 'more fields than the header has columns');

      const kindText = cell('kind').toLowerCase();
      const kind = (LIST_KINDS as readonly string[]).includes(kindText) ? (kindText as ListKind) : undefined;
      if (!kind) err('kind', kindText === '' ? 'required' : `must be one of ${LIST_KINDS.join(', ')}`);

      const name = cell('name');
      if (name === '') err('name', 'required');
      else if (name.length > USER_LIST_LIMITS.nameLength) err('name', `longer than ${USER_LIST_LIMITS.nameLength} characters`);

      const names: EntityName[] = [{ name, kind: 'primary', quality: 'strong' }];
      for (const [column, quality] of [['aliases', 'strong'], ['weak_aliases', 'weak']] as const) {
        const list = values(cell(column));
        if (list.length > USER_LIST_LIMITS.values) err(column, `more than ${USER_LIST_LIMITS.values} values`);
        if (list.some((a) => a.length > USER_LIST_LIMITS.nameLength)) err(column, `a value is longer than ${USER_LIST_LIMITS.nameLength} characters`);
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

      if (rowErrors.length > 0 || !kind || !schema || gender === null) {
        errors.push(...rowErrors);
        rejected++;
        return;
      }
      // Without a ref the id comes from what identifies the person, so re-importing an edited
      // file keeps ids (and cleared matches) for rows whose name and dates did not change.
      const sourceId = ref !== '' ? ref : `h${sha256Hex(new TextEncoder().encode(JSON.stringify([kind, schema, name, dobs]))).slice(0, 12)}`;
      if (seen.has(sourceId)) {
        errors.push({ row, column: ref !== '' ? 'ref' : 'name', reason: ref !== '' ? 'ref repeats an earlier row' : 'repeats an earlier row (same kind, name and dob)' });
        rejected++;
        return;
      }
      seen.add(sourceId);
      entities.push(
        finishEntity({
          source, sourceId, sourceList: options.listName, kind, schema, names, dobs, countries, gender, ids,
          programs: values(cell('program')),
        }),
      );
    });
    if (records.length > USER_LIST_LIMITS.rows) {
      errors.push({ row: records[USER_LIST_LIMITS.rows]?.[0] ?? 0, column: '', reason: `only the first ${USER_LIST_LIMITS.rows} rows are read` });
      rejected += records.length - USER_LIST_LIMITS.rows;
    }
  } else {
    rejected = records.length;
  }

  return {
    import: {
      source,
      publisher: options.publisher ?? 'Organisation (user-supplied list)',
      listDate: null,
      sha256: sha256Hex(bytes),
      entities,
      counts: countEntities(entities),
      skipped: rejected > 0 ? { rejected_rows: rejected } : {},
    },
    errors,
    warnings,
    rows: { total: records.length, imported: entities.length, rejected },
  };
}
