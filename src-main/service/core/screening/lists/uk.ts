// The UK's sanctions, one source (uk_sanctions) from two files:
// - HM Treasury OFSI's Consolidated List (ConList, 2022 format; XLSX, CSV or ODS): row 1 "Last
//   Updated,dd/mm/yyyy", a 36-column header in row 2, then one row per name or alias, grouped by
//   Group ID; Name 6 is the surname; DOB dd/mm/yyyy with 00 for an unknown part;
// - the FCDO UK Sanctions List, which replaced ConList in January 2026, in two shapes:
//   - the full file (CSV, XLSX or ODS): a "Report Date: 24-Jun-2026" line, a ~58-column header
//     (Last Updated, Unique ID, OFSI Group ID, UN Reference Number, Name 6, Name 1…5, Name type,
//     Alias strength, …, Regime Name, Designation Type, …, Date Designated, D.O.B,
//     Nationality(/ies), …), then one row per name (and repeated per date of birth) of each
//     designation; Name 6 is the surname or an entity's whole name; D.O.B dd/mm/yyyy with dd or
//     mm for an unknown part;
//   - the short export (Unique ID, OFSI Group ID, Name, Regime Name, Type, Designation source,
//     Date Designated, Sanctions Imposed; one row a designation, primary names only), usable
//     only as an update of a complete file.
//   Read by header, so further columns are ignored.
// Two files are merged by OFSI Group ID, the newer file winning (docs/decisions.md): a group in
// both takes the newer file's record (from the short export: its primary name, regime, type and
// date, keeping the older file's aliases, dates of birth and countries); a group only in the
// newer file is added; a group only in the older file is taken as delisted and left out
// (counted in `skipped`).
import type { EntityName, EntitySchema, ListEntity, ListImport } from '../types';
import { addSkip, clean, countEntities, finishEntity, FormatError, parseGender, parseOneDate, sha256Hex } from './common';
import { toCountryCode } from './countries';
import { SOURCE_INFO } from './sources';
import { findHeader, headerKey, readTable, type SheetRow } from './spreadsheet';

export const UK_SOURCE = 'uk_sanctions';

/** One designation as either file gives it, before the merge. */
export interface UkDesignation extends Pick<ListEntity, 'schema' | 'names' | 'dobs' | 'countries' | 'gender' | 'ids'> {
  /** OFSI Group ID, else (FCDO rows without one) the UK Sanctions List reference. */
  key: string;
  regimes: string[];
  /** YYYY-MM-DD, the UK designation date where given. */
  designated?: string;
}

export interface UkFile {
  kind: 'conlist' | 'fcdo' | 'fcdo_short';
  /** Whether the file holds whole records (aliases, dates of birth, nationalities), not only primary names. */
  complete: boolean;
  /** The date the file states (ConList's "Last Updated"; FCDO: the latest Date Designated). */
  date: string | null;
  designations: Map<string, UkDesignation>;
  skipped: Record<string, number>;
}

const CONLIST_REQUIRED = ['Name 6', 'Name 1', 'Group Type', 'Alias Type', 'Regime', 'Group ID'];
const FCDO_REQUIRED = ['Unique ID', 'Name 6', 'Name type', 'Regime Name'];
const FCDO_SHORT_REQUIRED = ['Unique ID', 'OFSI Group ID', 'Name', 'Regime Name', 'Type'];

function schemaOf(type: string): EntitySchema {
  const t = type.trim().toLowerCase();
  if (t === 'individual') return 'person';
  if (t === 'entity') return 'organization';
  if (t === 'ship' || t === 'vessel') return 'vessel';
  return 'unknown';
}

/** dd/mm/yyyy or dd-mm-yyyy, 00 (or dd, mm) for an unknown day or month; a bare year. */
export function ukDate(text: string): string | undefined {
  const t = clean(text).replace(/^dd(?=[/-])/i, '00').replace(/(?<=^\d\d[/-])mm(?=[/-])/i, '00');
  if (/^\d{4}$/.test(t)) return t === '0000' ? undefined : t;
  const m = /^(\d{2})[/-](\d{2})[/-](\d{4})$/.exec(t);
  if (!m) return undefined;
  const [d, mo, y] = [m[1] ?? '', m[2] ?? '', m[3] ?? ''];
  // parseOneDate reads 00 parts as unknown and checks the calendar; a month past 12 is no date.
  return y === '0000' || Number(mo) > 12 ? undefined : parseOneDate(`${y}-${mo}-${d}`);
}

/** "(1) Germany. (2) Morocco", "Russia", "Russia, Israel" -> codes. */
function countriesOf(text: string): string[] {
  const out: string[] = [];
  for (const part of clean(text).split(/\(\d+\)|;|,(?![^(]*\))/)) {
    const c = toCountryCode(part.replace(/\.\s*$/, '').trim());
    if (c) out.push(c);
  }
  return out;
}

function later(a: string | undefined, b: string | undefined): string | undefined {
  if (!a) return b;
  if (!b) return a;
  return a > b ? a : b;
}

function cell(row: SheetRow, col: Map<string, number>, name: string): string {
  const i = col.get(headerKey(name));
  return i === undefined ? '' : clean(row[i]);
}

/** The group's designation, made on its first row. */
function designationOf(designations: Map<string, UkDesignation>, key: string, type: string): UkDesignation {
  let d = designations.get(key);
  if (!d) {
    d = { key, schema: schemaOf(type), names: [], dobs: [], countries: [], ids: [], regimes: [] };
    designations.set(key, d);
  }
  return d;
}

/** A name row's name (the primary one leads the record) and its non-Latin spelling. */
function addNames(d: UkDesignation, entry: EntityName, script: string): void {
  if (entry.name !== '') {
    if (entry.kind === 'primary') d.names.unshift(entry);
    else d.names.push(entry);
  }
  if (script !== '') d.names.push({ name: script, kind: 'aka', quality: 'strong' });
}

function readConList(rows: SheetRow[], at: number, col: Map<string, number>): UkFile {
  let date: string | null = null;
  for (let r = 0; r < at; r++) {
    const row = rows[r] ?? [];
    if (headerKey(row[0] ?? '') === 'lastupdated') date = ukDate(row[1] ?? '') ?? null;
  }
  const designations = new Map<string, UkDesignation>();
  const skipped: Record<string, number> = {};
  let latest: string | undefined;
  for (let r = at + 1; r < rows.length; r++) {
    const row = rows[r] ?? [];
    const group = cell(row, col, 'Group ID');
    if (group === '') {
      if (row.some((c) => clean(c) !== '')) addSkip(skipped, 'without_group_id');
      continue;
    }
    const d = designationOf(designations, group, cell(row, col, 'Group Type'));
    const surname = cell(row, col, 'Name 6');
    const given = ['Name 1', 'Name 2', 'Name 3', 'Name 4', 'Name 5'].map((n) => cell(row, col, n)).filter((n) => n !== '');
    const name = [...given, surname].filter((n) => n !== '').join(' ');
    const aliasType = cell(row, col, 'Alias Type').toLowerCase();
    const quality = cell(row, col, 'Alias Quality').toLowerCase().startsWith('low') ? 'weak' : 'strong';
    const kind = aliasType === 'primary name' ? 'primary' : aliasType === 'fka' ? 'fka' : 'aka';
    addNames(d, { name, kind, quality }, cell(row, col, 'Name Non-Latin Script'));
    const dob = ukDate(cell(row, col, 'DOB'));
    if (dob) d.dobs.push(dob);
    d.countries.push(...countriesOf(cell(row, col, 'Nationality')), ...countriesOf(cell(row, col, 'Country')));
    const passport = cell(row, col, 'Passport Number');
    if (passport) d.ids.push({ type: 'Passport', number: passport });
    const national = cell(row, col, 'National Identification Number');
    if (national) d.ids.push({ type: 'National identification number', number: national });
    const other = cell(row, col, 'Other Information');
    const ref = /\(UK Sanctions List Ref\):\s*([A-Z]{2,4}\d{3,5})/.exec(other)?.[1];
    if (ref) d.ids.push({ type: 'UK Sanctions List Ref', number: ref });
    d.gender ??= parseGender(/\(Gender\):\s*(\w+)/.exec(other)?.[1]);
    const regime = cell(row, col, 'Regime');
    if (regime) d.regimes.push(regime);
    const designated = ukDate(cell(row, col, 'UK Sanctions List Date Designated')) ?? ukDate(cell(row, col, 'Listed On'));
    if (designated && designated.length === 10) d.designated ??= designated;
    latest = later(latest, ukDate(cell(row, col, 'Last Updated')));
  }
  return { kind: 'conlist', complete: true, date: date ?? latest ?? null, designations, skipped };
}

/** FCDO writes individuals "SURNAME Given Names": the surname is the leading upper-case words. */
function fcdoName(name: string, schema: EntitySchema): EntityName[] {
  const out: EntityName[] = [{ name, kind: 'primary', quality: 'strong' }];
  if (schema !== 'person') return out;
  const words = name.split(' ');
  const upper = words.findIndex((w) => w !== w.toUpperCase());
  if (upper > 0) out.push({ name: [...words.slice(upper), ...words.slice(0, upper)].join(' '), kind: 'aka', quality: 'strong' });
  return out;
}

/** "Report Date: 24-Jun-2026" (or a date in the next cell) above the full file's header. */
function reportDate(rows: readonly SheetRow[], at: number): string | undefined {
  for (let r = 0; r < at; r++) {
    const text = (rows[r] ?? []).map((c) => clean(c)).join(' ');
    const m = /report\s*date\s*:?\s*(\d{1,2})[-/ ]([A-Za-z]{3,9}|\d{1,2})[-/ ](\d{4})/i.exec(text);
    if (!m) continue;
    const [, d, mo, y] = m;
    const date = /^\d+$/.test(mo ?? '') ? ukDate(`${(d ?? '').padStart(2, '0')}/${(mo ?? '').padStart(2, '0')}/${y}`) : parseOneDate(`${d} ${mo} ${y}`);
    if (date && date.length === 10) return date;
  }
  return undefined;
}

/** A cell holding one value or several numbered ones: "(1) 12/05/1965 (2) 1966". */
function numbered(text: string): string[] {
  return clean(text).split(/\(\d+\)/).map((v) => v.trim().replace(/[.;,]$/, '').trim()).filter((v) => v !== '');
}

function readFcdo(rows: SheetRow[], at: number, col: Map<string, number>): UkFile {
  const designations = new Map<string, UkDesignation>();
  const skipped: Record<string, number> = {};
  let latest: string | undefined;
  for (let r = at + 1; r < rows.length; r++) {
    const row = rows[r] ?? [];
    const uid = cell(row, col, 'Unique ID');
    const name = [...['Name 1', 'Name 2', 'Name 3', 'Name 4', 'Name 5'].map((n) => cell(row, col, n)), cell(row, col, 'Name 6')]
      .filter((n) => n !== '')
      .join(' ');
    if (uid === '' || name === '') {
      if (row.some((c) => clean(c) !== '')) addSkip(skipped, 'without_id_or_name');
      continue;
    }
    const key = cell(row, col, 'OFSI Group ID') || uid;
    // Repeated values (a row per name and per date of birth) are folded by finishEntity.
    const d = designationOf(designations, key, cell(row, col, 'Designation Type') || cell(row, col, 'Individual, Entity, Ship'));
    d.ids.push({ type: 'UK Sanctions List Ref', number: uid });
    const quality = /low|weak/i.test(cell(row, col, 'Alias strength')) ? 'weak' : 'strong';
    // One primary name leads; a second designation's primary name in the same group is an alias.
    const primary = cell(row, col, 'Name type').toLowerCase() === 'primary name' && !d.names.some((n) => n.kind === 'primary');
    addNames(d, { name, kind: primary ? 'primary' : 'aka', quality: primary ? 'strong' : quality }, cell(row, col, 'Name non-latin script'));
    for (const v of numbered(cell(row, col, 'D.O.B'))) {
      const dob = ukDate(v);
      if (dob) d.dobs.push(dob);
    }
    d.countries.push(...countriesOf(cell(row, col, 'Nationality(/ies)')), ...countriesOf(cell(row, col, 'Address Country')));
    d.gender ??= parseGender(cell(row, col, 'Gender'));
    for (const [column, type] of [['Passport number', 'Passport'], ['National Identifier number', 'National identification number']] as const) {
      for (const number of numbered(cell(row, col, column))) d.ids.push({ type, number });
    }
    const regime = cell(row, col, 'Regime Name');
    if (regime) d.regimes.push(regime);
    const designated = ukDate(cell(row, col, 'Date Designated'));
    // The group's first designation is when it was listed.
    if (designated && designated.length === 10 && (!d.designated || designated < d.designated)) d.designated = designated;
    latest = later(latest, ukDate(cell(row, col, 'Last Updated')) ?? designated);
  }
  return { kind: 'fcdo', complete: true, date: reportDate(rows, at) ?? latest ?? null, designations, skipped };
}

function readFcdoShort(rows: SheetRow[], at: number, col: Map<string, number>): UkFile {
  const designations = new Map<string, UkDesignation>();
  const skipped: Record<string, number> = {};
  let latest: string | undefined;
  for (let r = at + 1; r < rows.length; r++) {
    const row = rows[r] ?? [];
    const uid = cell(row, col, 'Unique ID');
    const name = cell(row, col, 'Name');
    if (uid === '' || name === '') {
      if (row.some((c) => clean(c) !== '')) addSkip(skipped, 'without_id_or_name');
      continue;
    }
    const key = cell(row, col, 'OFSI Group ID') || uid;
    const regime = cell(row, col, 'Regime Name') || cell(row, col, 'Regime');
    const seen = designations.get(key);
    if (seen) {
      // One group designated under two regimes: one record, both regimes.
      if (regime) seen.regimes.push(regime);
      addSkip(skipped, 'second_regime_of_group');
      continue;
    }
    const schema = schemaOf(cell(row, col, 'Type'));
    const designated = ukDate(cell(row, col, 'Date Designated'));
    latest = later(latest, designated);
    designations.set(key, {
      key,
      schema,
      names: fcdoName(name, schema),
      dobs: [],
      countries: [],
      ids: [{ type: 'UK Sanctions List Ref', number: uid }],
      regimes: regime ? [regime] : [],
      designated,
    });
  }
  return { kind: 'fcdo_short', complete: false, date: latest ?? null, designations, skipped };
}

/** Reads either UK file (XLSX, ODS or CSV), telling them apart by their headers. */
export function readUkFile(bytes: Uint8Array): UkFile {
  const { rows } = readTable(bytes);
  const conlist = findHeader(rows, CONLIST_REQUIRED);
  if (conlist) return readConList(rows, conlist.at, conlist.col);
  const fcdo = findHeader(rows, FCDO_REQUIRED);
  if (fcdo) return readFcdo(rows, fcdo.at, fcdo.col);
  const short = findHeader(rows, FCDO_SHORT_REQUIRED);
  if (short) return readFcdoShort(rows, short.at, short.col);
  throw new FormatError('not an OFSI Consolidated List or FCDO UK Sanctions List file (its header was not found)');
}

function toEntity(d: UkDesignation): ListEntity {
  return finishEntity({
    source: UK_SOURCE,
    sourceId: d.key,
    sourceList: 'UK',
    kind: 'sanctions',
    schema: d.schema,
    names: d.names,
    dobs: d.dobs,
    countries: d.countries,
    gender: d.gender,
    ids: d.ids,
    programs: d.regimes,
    listedOn: d.designated,
  });
}

/**
 * The UK source from one file, or from an older and a newer one merged by group id (the newer
 * one is the one stating the later date, whichever order they come in).
 */
export function importUk(files: readonly Uint8Array[]): ListImport {
  if (files.length === 0 || files.length > 2) throw new FormatError('give one or two UK files');
  const read = files.map(readUkFile);
  const skipped: Record<string, number> = {};
  for (const f of read) for (const [k, n] of Object.entries(f.skipped)) addSkip(skipped, `${f.kind}_${k}`, n);
  const order = read.map((f, i) => ({ f, i })).sort((a, b) => (a.f.date ?? '').localeCompare(b.f.date ?? '') || a.i - b.i);
  const older = order.length === 2 ? order[0]?.f : undefined;
  const newer = order[order.length - 1]?.f;
  if (!newer) throw new FormatError('no UK file');
  if (!newer.complete && !older) {
    throw new FormatError(
      'this FCDO export lists primary names only (no aliases, dates of birth or nationalities), so on its own it would weaken screening: import the full UK Sanctions List file (CSV, XLSX or ODS) instead',
    );
  }
  const entities: ListEntity[] = [];
  for (const d of newer.designations.values()) {
    const old = older?.designations.get(d.key);
    if (!old || newer.complete) {
      // A complete newer file's record stands alone: an alias it dropped is dropped.
      entities.push(toEntity(d));
      if (older && !old) addSkip(skipped, 'added_by_newer_file');
      continue;
    }
    // Newer file: primary name, regime, type, designation date. Older file: what the newer lacks.
    const primary = d.names.filter((n) => n.kind === 'primary');
    const rest = [...d.names.filter((n) => n.kind !== 'primary'), ...old.names.map((n) => (n.kind === 'primary' ? { ...n, kind: 'aka' as const } : n))];
    entities.push(
      toEntity({
        key: d.key,
        schema: d.schema === 'unknown' ? old.schema : d.schema,
        names: [...primary, ...rest],
        dobs: d.dobs.length > 0 ? d.dobs : old.dobs,
        countries: d.countries.length > 0 ? d.countries : old.countries,
        gender: d.gender ?? old.gender,
        ids: [...d.ids, ...old.ids],
        regimes: d.regimes.length > 0 ? d.regimes : old.regimes,
        designated: d.designated ?? old.designated,
      }),
    );
  }
  if (older) {
    for (const key of older.designations.keys()) if (!newer.designations.has(key)) addSkip(skipped, 'delisted_not_in_newer_file');
  }
  return {
    source: UK_SOURCE,
    publisher: SOURCE_INFO.uk_sanctions.publisher,
    listDate: newer.date,
    sha256: sha256Hex(...files),
    entities,
    counts: countEntities(entities),
    skipped,
  };
}
