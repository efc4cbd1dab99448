// OFAC's legacy CSV files: sdn.csv + alt.csv + add.csv [+ sdn_comments.csv] for the SDN list,
// and the same layout as cons_prim/cons_alt/cons_add/cons_comments for the non-SDN lists.
// No header (one shipped alt.csv has one; it is recognised), "-0-" means null, the files end
// with a DOS EOF byte (0x1A), and Remarks hold DOB/nationality/IDs/weak aliases (ofac-remarks.ts).
import type { EntityName, EntitySchema, ListEntity, ListImport } from '../types';
import { addSkip, countEntities, decodeText, finishEntity, sha256Hex } from './common';
import { toCountryCode } from './countries';
import { csvRecords, OFFICIAL_CSV_LIMITS } from './csv-reader';
import { parseRemarks } from './ofac-remarks';
import { SOURCE_INFO } from './sources';

export interface OfacCsvFiles {
  /** sdn.csv or cons_prim.csv */
  primary: Uint8Array;
  /** alt.csv or cons_alt.csv */
  alt?: Uint8Array;
  /** add.csv or cons_add.csv */
  add?: Uint8Array;
  /** sdn_comments.csv or cons_comments.csv */
  comments?: Uint8Array;
}

export interface OfacCsvOptions {
  /** Which list the files are: decides the source key and the sub-list names. */
  list: 'sdn' | 'cons';
  /** A date stated next to the files (OFAC's CSVs carry none themselves). */
  listDate?: string | null;
}

/** OFAC writes the remarks of sdn.csv in at most this many characters; the rest goes to comments. */
const REMARKS_CAP = 1000;

/** Non-SDN programme -> the list that carries it (cons_prim.csv has no list column). */
const CONS_PROGRAM_LIST: Record<string, string> = {
  'UKRAINE-EO13662': 'SSI',
  'NS-PLC': 'NS-PLC',
  'CMIC-EO13959': 'CMIC',
  '561-RELATED': 'CAPTA',
  'FSE-IR': 'FSE',
  'FSE-SY': 'FSE',
  'FSE-WMD': 'FSE',
  'FSE-SDGT': 'FSE',
};

function nul(value: string | undefined): string {
  const v = (value ?? '').trim();
  return v === '-0-' ? '' : v;
}

function rows(bytes: Uint8Array): string[][] {
  const out: string[][] = [];
  for (const r of csvRecords(decodeText(bytes), ',', OFFICIAL_CSV_LIMITS)) {
    // Rows of empty fields are dropped too (",,,," after the 0x1A in one circulating alt.csv).
    if (r.cells.some((c) => c.trim() !== '')) out.push(r.cells);
  }
  // That alt.csv was saved by a spreadsheet with a header row: skip it.
  if (out[0]?.[0]?.trim().toLowerCase() === 'ent_num') out.shift();
  return out;
}

function schemaOf(type: string): EntitySchema {
  switch (type.toLowerCase()) {
    case 'individual':
      return 'person';
    case 'vessel':
      return 'vessel';
    case 'aircraft':
      return 'aircraft';
    case '':
      return 'organization';
    default:
      return 'unknown';
  }
}

/** "SDGT] [IRGC" -> ["SDGT", "IRGC"]. */
export function splitPrograms(field: string): string[] {
  if (!field.includes(']')) return field === '' ? [] : [field];
  return field
    .split(/\]\s*\[/)
    .map((p) => p.replace(/^\[|\]$/g, '').trim())
    .filter((p) => p !== '');
}

function consList(programs: readonly string[]): string {
  const lists = new Set<string>();
  for (const p of programs) {
    const l = CONS_PROGRAM_LIST[p.toUpperCase()];
    if (l) lists.add(l);
  }
  return lists.size > 0 ? [...lists].sort().join('/') : 'Non-SDN';
}

function groupBy(rowsIn: readonly string[][], minFields: number, skipped: Record<string, number>, label: string): Map<string, string[][]> {
  const map = new Map<string, string[][]>();
  for (const r of rowsIn) {
    const ent = (r[0] ?? '').trim();
    if (r.length < minFields || !/^\d+$/.test(ent)) {
      addSkip(skipped, `${label}_malformed`);
      continue;
    }
    const list = map.get(ent);
    if (list) list.push(r);
    else map.set(ent, [r]);
  }
  return map;
}

export function importOfacCsv(files: OfacCsvFiles, options: OfacCsvOptions): ListImport {
  const source = options.list === 'sdn' ? 'us_ofac_sdn' : 'us_ofac_cons';
  const skipped: Record<string, number> = {};
  const alt = groupBy(files.alt ? rows(files.alt) : [], 4, skipped, 'alt');
  const add = groupBy(files.add ? rows(files.add) : [], 5, skipped, 'add');
  const comments = groupBy(files.comments ? rows(files.comments) : [], 2, skipped, 'comments');

  const seen = new Set<string>();
  const entities: ListEntity[] = [];
  for (const r of rows(files.primary)) {
    const ent = (r[0] ?? '').trim();
    if (r.length < 12 || !/^\d+$/.test(ent)) {
      addSkip(skipped, 'primary_malformed');
      continue;
    }
    if (seen.has(ent)) {
      addSkip(skipped, 'primary_duplicate');
      continue;
    }
    seen.add(ent);
    const programs = splitPrograms(nul(r[3]));
    // Untrimmed: a remark cut at the cap may end in a space that the continuation needs.
    let remarks = nul(r[11]) === '' ? '' : (r[11] ?? '');
    const extra = comments.get(ent);
    if (extra) {
      // The comments file continues remarks that hit the cap. A comment for remarks under the
      // cap belongs to another edition of the list (the shipped set mixes dates): not joined.
      if (remarks.length >= REMARKS_CAP) remarks += extra.map((c) => c[1] ?? '').join('');
      else addSkip(skipped, 'comments_not_continuation', extra.length);
    }
    const facts = parseRemarks(remarks);
    const names: EntityName[] = [{ name: nul(r[1]), kind: 'primary', quality: 'strong' }];
    for (const a of alt.get(ent) ?? []) {
      const type = nul(a[2]).toLowerCase();
      names.push({ name: nul(a[3]), kind: type === 'fka' ? 'fka' : type === 'nka' ? 'nka' : 'aka', quality: 'strong' });
    }
    names.push(...facts.aliases);
    const countries = [...facts.countries];
    const flag = toCountryCode(nul(r[9]));
    if (flag) countries.push(flag);
    for (const a of add.get(ent) ?? []) {
      const c = toCountryCode(nul(a[4]));
      if (c) countries.push(c);
    }
    const ids = [...facts.ids];
    const callSign = nul(r[5]);
    if (callSign) ids.push({ type: 'Call Sign', number: callSign });
    entities.push(
      finishEntity({
        source,
        sourceId: ent,
        sourceList: options.list === 'sdn' ? 'SDN' : consList(programs),
        kind: 'sanctions',
        schema: schemaOf(nul(r[2])),
        names,
        dobs: facts.dobs,
        countries,
        gender: facts.gender,
        ids,
        programs,
      }),
    );
  }
  // Rows for entries the primary file does not have: the shipped set joins files of different
  // dates, and an entry listed after (or removed before) the primary file's date has no record.
  for (const [label, map] of [['alt', alt], ['add', add], ['comments', comments]] as const) {
    let orphans = 0;
    for (const [ent, list] of map) if (!seen.has(ent)) orphans += list.length;
    if (orphans > 0) addSkip(skipped, `${label}_orphan`, orphans);
  }

  const parts = [files.primary, files.alt, files.add, files.comments].filter((p): p is Uint8Array => p !== undefined);
  return {
    source,
    publisher: SOURCE_INFO[source].publisher,
    listDate: options.listDate ?? null,
    sha256: sha256Hex(...parts),
    entities,
    counts: countEntities(entities),
    skipped,
  };
}
