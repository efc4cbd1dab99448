// The user-list CSV: its columns (docs/watchlists.md, "User-supplied lists") for the help text,
// and the template offered for download, made from the same column list.
import { saveFile } from '../../../api/shell';

export interface ListColumn {
  name: string;
  required?: boolean;
  help: string;
}

export const LIST_COLUMNS: readonly ListColumn[] = [
  { name: 'kind', required: true, help: 'sanctions, pep, rca or wanted.' },
  { name: 'name', required: true, help: 'The primary name as written.' },
  { name: 'aliases', help: 'Other names.' },
  { name: 'dob', help: 'YYYY, YYYY-MM, YYYY-MM-DD or a range of years YYYY..YYYY.' },
  { name: 'country', help: 'Two-letter codes or English country names.' },
  { name: 'id', help: 'ID numbers.' },
  { name: 'id_type', help: 'One type for all ids (Passport), or one per id.' },
  { name: 'gender', help: 'male, female, m, f or empty.' },
  { name: 'program', help: 'Why the person is listed, e.g. Member of Parliament.' },
  { name: 'schema', help: 'person (default), organization, vessel or aircraft.' },
  { name: 'ref', help: 'Your own stable id for the row (no spaces or colons).' },
  { name: 'notes', help: 'Kept in your file, never loaded.' },
];

const EXAMPLE_ROWS = [
  'pep,Jane Q. Example,J. Example;Jane Exemplar,1961-04-12,GB,123456789,Passport,female,Member of Parliament,,pep-0001,since 2019',
  'rca,John Example,,1960..1962,United Kingdom,,,male,Spouse of pep-0001,,rca-0001,',
];

export function listTemplateCsv(): string {
  return [LIST_COLUMNS.map((c) => c.name).join(','), ...EXAMPLE_ROWS].join('\r\n') + '\r\n';
}

export function saveListTemplate() {
  return saveFile({ defaultName: 'watchlist-template.csv', content: listTemplateCsv(), filters: [{ name: 'CSV', extensions: ['csv'] }] });
}
