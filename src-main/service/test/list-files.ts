// List files the import tests send: an own PEP list (two good rows, one without a name) and the
// shipped UN list cut short, as a file that would remove most of the list in use.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..', '..');

export const PEP_CSV = [
  'kind,name,aliases,dob,country,id,id_type,gender,program,schema,ref,notes',
  'pep,Quentin Abernathy-Vole,Q. Abernathy Vole,1961-04-12,GB,,,male,Member of Parliament,,pep-1,',
  'rca,Rosalind Abernathy-Vole,,1963,GB,,,female,Spouse of pep-1,,rca-1,',
  'pep,,missing name,1961-04-12,GB,,,,,,pep-2,',
].join('\n');

/** The shipped UN list (1,003 records). */
export const UN_PATH = join(ROOT, 'resources', 'watchlists', 'un_sc', '2026-02-27', 'consolidated.xml');
export const UN = readFileSync(UN_PATH, 'utf8');

/** The UN list with only its first `keep` individuals (and no entities): a file cut short. */
export function truncatedUn(keep: number): string {
  const people = UN.match(/<INDIVIDUAL>[\s\S]*?<\/INDIVIDUAL>/g)!.slice(0, keep);
  return `${UN.slice(0, UN.indexOf('<INDIVIDUALS>'))}<INDIVIDUALS>\n${people.join('\n')}\n</INDIVIDUALS>\n<ENTITIES/>\n</CONSOLIDATED_LIST>\n`;
}
