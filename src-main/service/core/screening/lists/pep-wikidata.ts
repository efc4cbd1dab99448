// Heads of state and government from Wikidata (CC0), as the query results
// leaders_current.csv and leaders_history.csv: `iso3,country,role,person,person_qid,start,end,
// party,end_cause`. Country labels are Portuguese, so the ISO alpha-3 code is what is read. One
// record per person (person_qid) with every office found in either file.
//
// Current: with the current file at hand, an office is current when the current file lists the
// person in that role for that country (history rows without an end can be stale: a successor
// took over but Wikidata never got the end date). A history file alone: current when no end.
import type { EntityName, EntityPosition, ListEntity, ListImport } from '../types';
import { addSkip, clean, countEntities, decodeText, finishEntity, FormatError, parseOneDate, sha256Hex } from './common';
import { countryName } from './countries';
import { csvRecords, OFFICIAL_CSV_LIMITS } from './csv-reader';
import { alpha3ToAlpha2 } from './iso3';
import { SOURCE_INFO } from './sources';

const SOURCE = 'pep_wikidata_leaders';
const COLUMNS = ['iso3', 'country', 'role', 'person', 'person_qid', 'start', 'end'] as const;
const ROLES: Record<string, string> = { head_of_state: 'Head of state', head_of_government: 'Head of government' };

/** True when the bytes start with this format's header (how an uploaded file is recognised). */
export function looksLikeWikidataLeaders(bytes: Uint8Array): boolean {
  const head = decodeText(bytes.subarray(0, 256)).split(/\r?\n/, 1)[0] ?? '';
  return head.startsWith(COLUMNS.join(','));
}

interface Row {
  qid: string;
  name: string;
  iso3: string;
  role: string;
  start?: string;
  end?: string;
  /** An end is given but is no date (a corrupt date, or Wikidata's "unknown value"). */
  ended: boolean;
}

/** A Wikidata time ("2025-03-28T00:00:00Z") as YYYY-MM-DD; undefined when it is no real date. */
function wikidataDate(value: string): string | undefined {
  const m = /^(\d{4}-\d{2}-\d{2})T/.exec(value);
  return m ? parseOneDate(m[1] ?? '') : undefined;
}

function readRows(bytes: Uint8Array, skipped: Record<string, number>): Row[] {
  const rows: Row[] = [];
  let header: string[] | undefined;
  const at: Partial<Record<(typeof COLUMNS)[number], number>> = {};
  for (const rec of csvRecords(decodeText(bytes), ',', OFFICIAL_CSV_LIMITS)) {
    if (!header) {
      header = rec.cells.map((c) => c.trim().toLowerCase());
      for (const c of COLUMNS) {
        const i = header.indexOf(c);
        if (i < 0) throw new FormatError(`not a Wikidata leaders file: the header has no "${c}" column (expected ${COLUMNS.join(',')},...)`);
        at[c] = i;
      }
      continue;
    }
    const cell = (c: (typeof COLUMNS)[number]) => clean(rec.cells[at[c]!] ?? '');
    if (rec.quote) {
      addSkip(skipped, 'malformed_row');
      continue;
    }
    const qid = cell('person_qid');
    if (!/^Q\d+$/.test(qid)) {
      addSkip(skipped, 'without_person_qid');
      continue;
    }
    const role = cell('role');
    if (!ROLES[role]) {
      addSkip(skipped, 'unknown_role');
      continue;
    }
    const row: Row = { qid, name: cell('person'), iso3: cell('iso3'), role, ended: false };
    const start = cell('start');
    if (start) {
      const d = wikidataDate(start);
      // A corrupt date (one row has "20254-04-01") is dropped; the office itself is kept.
      if (d) row.start = d;
      else addSkip(skipped, 'unreadable_date_dropped');
    }
    const end = cell('end');
    if (end) {
      const d = wikidataDate(end);
      if (d) row.end = d;
      else {
        row.ended = true;
        addSkip(skipped, 'unreadable_date_dropped');
      }
    }
    rows.push(row);
  }
  if (!header) throw new FormatError('the file is empty');
  return rows;
}

/**
 * Imports the history file (role 'list') and/or the current file. Version: the latest office
 * start date in the files.
 */
export function importWikidataLeaders(files: { history?: Uint8Array; current?: Uint8Array }): ListImport {
  const skipped: Record<string, number> = {};
  const history = files.history ? readRows(files.history, skipped) : [];
  const current = files.current ? readRows(files.current, skipped) : [];
  if (history.length + current.length === 0) throw new FormatError('no office holders found in the file');
  const currentKeys = new Set(current.map((r) => `${r.qid}|${r.iso3}|${r.role}`));
  let latest = '';
  const people = new Map<string, { names: string[]; offices: Map<string, EntityPosition> }>();
  for (const r of [...current, ...history]) {
    if (r.start && r.start > latest) latest = r.start;
    let p = people.get(r.qid);
    if (!p) {
      p = { names: [], offices: new Map() };
      people.set(r.qid, p);
    }
    // Without an English or Portuguese label the query gives the QID itself: no name to match.
    if (r.name && r.name !== r.qid && !p.names.includes(r.name)) p.names.push(r.name);
    const country = alpha3ToAlpha2(r.iso3);
    if (!country) addSkip(skipped, 'unknown_country_code');
    const key = `${r.iso3}|${r.role}|${r.start ?? ''}`;
    const isCurrent = files.current ? currentKeys.has(`${r.qid}|${r.iso3}|${r.role}`) && !r.end && !r.ended : !r.end && !r.ended;
    const known = p.offices.get(key);
    if (known) {
      // The same office in both files: an end in either means it has ended.
      if (!known.end && r.end) known.end = r.end;
      if (r.end || r.ended) known.current = false;
      continue;
    }
    const where = country ? countryName(country) : undefined;
    const office: EntityPosition = { role: `${ROLES[r.role]}${where ? ` of ${where}` : ''}`, current: isCurrent };
    if (country) office.country = country;
    if (r.start) office.start = r.start;
    if (r.end) office.end = r.end;
    p.offices.set(key, office);
  }
  const entities: ListEntity[] = [];
  for (const [qid, p] of people) {
    if (p.names.length === 0) {
      addSkip(skipped, 'without_name');
      continue;
    }
    const offices = [...p.offices.values()].sort((a, b) => Number(b.current) - Number(a.current) || (b.start ?? '').localeCompare(a.start ?? ''));
    const names: EntityName[] = p.names.map((name, i) => ({ name, kind: i === 0 ? 'primary' : 'aka', quality: 'strong' }));
    const e = finishEntity({
      source: SOURCE, sourceId: qid, sourceList: 'Heads of state and government', kind: 'pep', schema: 'person', names,
      countries: offices.flatMap((o) => (o.country ? [o.country] : [])), ids: [{ type: 'Wikidata', number: qid }],
      programs: offices.map((o) => o.role),
    });
    e.positions = offices;
    entities.push(e);
  }
  const bytes = [files.history, files.current].filter((b): b is Uint8Array => b !== undefined);
  return {
    source: SOURCE, publisher: SOURCE_INFO[SOURCE].publisher, listDate: latest || null, sha256: sha256Hex(...bytes),
    entities, counts: countEntities(entities), skipped,
  };
}
