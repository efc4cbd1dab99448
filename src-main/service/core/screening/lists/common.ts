// What every importer shares: building a ListEntity (de-duplicated names, sorted countries, the
// record hash), counting, date parsing and the input hash.
import { createHash, hash } from 'node:crypto';
import { calendarDate, ISO_DATE } from '../../../../../src-shared/dates';
import type { EntityId, EntityName, EntitySchema, ListEntity, ListImport, ListKind } from '../types';

export type Counts = ListImport['counts'];

/** An input that is not the format it was given as. A user's mistake, reported, not a fault. */
export class FormatError extends Error {
  override name = 'FormatError';
}

export function emptyCounts(): Counts {
  return { total: 0, person: 0, organization: 0, vessel: 0, aircraft: 0, unknown: 0 };
}

export function countEntities(entities: readonly ListEntity[]): Counts {
  const c = emptyCounts();
  for (const e of entities) {
    c.total++;
    c[e.schema]++;
  }
  return c;
}

export function sha256Hex(...parts: readonly Uint8Array[]): string {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest('hex');
}

/** Text of an official file: UTF-8, BOM dropped, OFAC's DOS end-of-file byte (0x1A) dropped. */
export function decodeText(bytes: Uint8Array): string {
  let text = new TextDecoder('utf-8').decode(bytes);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return text.replace(/\u001a/g, '');
}

/** Collapses runs of whitespace (the UN XML wraps long values over several indented lines). */
export function clean(value: string | null | undefined): string {
  const v = value ?? '';
  return NEEDS_CLEAN.test(v) ? v.replace(/\s+/g, ' ').trim() : v;
}

const NEEDS_CLEAN = /^\s|\s$|\s\s|[\t\n\r\f\v\u00a0]/;

/**
 * A copy of `s` that does not point into the file it was cut from. V8 represents substrings of
 * 13+ characters as slices of their parent, so a single kept name would otherwise keep the whole
 * multi-megabyte file text alive for the life of the process (measured: ~25 MB of 53 MB).
 */
export function detach(s: string): string {
  return s.length < 13 ? s : (' ' + s).slice(1);
}

export function addSkip(skipped: Record<string, number>, reason: string, n = 1): void {
  skipped[reason] = (skipped[reason] ?? 0) + n;
}

export interface EntityDraft {
  source: string;
  sourceId: string;
  sourceList: string;
  kind: ListKind;
  schema: EntitySchema;
  names: EntityName[];
  dobs?: string[];
  countries?: string[];
  gender?: 'male' | 'female' | undefined;
  ids?: EntityId[];
  programs?: string[];
  /** The listing or designation date, where the source gives one as a full date ('YYYY-MM-DD'). */
  listedOn?: string | undefined;
}

const NAME_RANK = { primary: 0, aka: 1, fka: 2, nka: 3 } as const;

/**
 * Final shape of a record: empty values and repeated names/ids dropped (a repeated name keeps its
 * strongest quality), stable ordering, and the record hash.
 */
export function finishEntity(d: EntityDraft): ListEntity {
  // Linear scans, not Maps: records have a handful of names and ids, and start-up builds ~20k.
  const names: EntityName[] = [];
  const nameKeys: string[] = [];
  for (const n of d.names) {
    const name = clean(n.name);
    if (name === '') continue;
    const k = name.toLowerCase();
    const at = nameKeys.indexOf(k);
    const seen = at < 0 ? undefined : names[at];
    if (seen) {
      if (n.quality === 'strong') seen.quality = 'strong';
      if (NAME_RANK[n.kind] < NAME_RANK[seen.kind]) seen.kind = n.kind;
      continue;
    }
    names.push({ name: detach(name), kind: n.kind, quality: n.quality });
    nameKeys.push(k);
  }
  const ids: EntityId[] = [];
  const idKeys: string[] = [];
  for (const id of d.ids ?? []) {
    const number = clean(id.number);
    const type = clean(id.type);
    if (number === '') continue;
    const k = `${type.toLowerCase()}|${number.toLowerCase()}|${id.country ?? ''}`;
    if (idKeys.includes(k)) continue;
    idKeys.push(k);
    const kept: EntityId = { type: detach(type), number: detach(number) };
    if (id.country) kept.country = id.country;
    ids.push(kept);
  }
  const dobs = uniq(d.dobs ?? []).sort();
  // Order is kept for countries: nationality first, then addresses (the engine may weigh the first).
  const countries = uniq(d.countries ?? []);
  const programs = uniq((d.programs ?? []).map((p) => detach(clean(p))).filter((p) => p !== ''));
  const entity: ListEntity = {
    id: detach(`${d.source}:${d.sourceId}`),
    source: d.source,
    sourceList: detach(d.sourceList),
    kind: d.kind,
    schema: d.schema,
    names,
    dobs,
    countries,
    ids,
    programs,
    recordHash: '',
  };
  if (d.gender) entity.gender = d.gender;
  entity.recordHash = recordHash(entity);
  // After the hash: a corrected listing date does not reopen a cleared match.
  if (d.listedOn !== undefined && ISO_DATE.test(d.listedOn)) entity.listedOn = d.listedOn;
  return entity;
}

/**
 * SHA-256 (first 16 hex) of the fields that make a match: a cleared match stays cleared until one
 * of them changes. Names keep their order (the primary comes first); the rest is sorted so a
 * reshuffled source file does not reopen cleared matches.
 */
export function recordHash(e: Pick<ListEntity, 'names' | 'dobs' | 'countries' | 'ids' | 'programs' | 'schema'>): string {
  const canonical = JSON.stringify({
    names: e.names.map((n) => [n.name, n.kind, n.quality]),
    dobs: [...e.dobs].sort(),
    countries: [...e.countries].sort(),
    ids: e.ids.map((i) => [i.type, i.number, i.country ?? '']).sort((a, b) => (a.join('\u0000') < b.join('\u0000') ? -1 : 1)),
    programs: [...e.programs].sort(),
    schema: e.schema,
  });
  return hash('sha256', canonical, 'hex').slice(0, 16);
}

function uniq(values: readonly string[]): string[] {
  if (values.length < 2) return values.slice();
  const out: string[] = [];
  for (const v of values) if (!out.includes(v)) out.push(v);
  return out;
}

const MONTHS: Record<string, number> = {
  jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, sept: 9, oct: 10, nov: 11, dec: 12,
  january: 1, february: 2, march: 3, april: 4, june: 6, july: 7, august: 8, september: 9, october: 10,
  november: 11, december: 12,
};

/** Ranges wider than this are not expanded: such a "DOB" says next to nothing. */
const MAX_RANGE_YEARS = 30;

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

const validYmd = (y: number, m: number, d: number): boolean => calendarDate(y, m, d) !== null;

/** One date as the lists write it: "1962", "Dec 1948", "10 Dec 1948", "1948-12-10", "1948-12". */
export function parseOneDate(text: string): string | undefined {
  const t = text.trim().replace(/\.$/, '');
  let m = /^(\d{4})$/.exec(t);
  if (m) return m[1];
  m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(t);
  if (m) {
    const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    // Some sources write an unknown day or month as 00 or 01-01; keep what is meaningful.
    if (mo === 0) return m[1];
    if (d === 0) return `${m[1]}-${m[2]}`;
    return validYmd(y, mo, d) ? `${m[1]}-${m[2]}-${m[3]}` : undefined;
  }
  m = /^(\d{4})-(\d{2})$/.exec(t);
  if (m) return Number(m[2]) >= 1 && Number(m[2]) <= 12 ? `${m[1]}-${m[2]}` : undefined;
  m = /^(\d{1,2})\s+([A-Za-z]+)\.?,?\s+(\d{4})$/.exec(t);
  if (m) {
    const mo = MONTHS[(m[2] ?? '').toLowerCase()];
    const [y, d] = [Number(m[3]), Number(m[1])];
    return mo !== undefined && validYmd(y, mo, d) ? `${m[3]}-${pad(mo)}-${pad(d)}` : undefined;
  }
  m = /^([A-Za-z]+)\.?\s+(\d{1,2}),?\s+(\d{4})$/.exec(t);
  if (m) {
    const mo = MONTHS[(m[1] ?? '').toLowerCase()];
    const [y, d] = [Number(m[3]), Number(m[2])];
    return mo !== undefined && validYmd(y, mo, d) ? `${m[3]}-${pad(mo)}-${pad(d)}` : undefined;
  }
  m = /^([A-Za-z]+)\.?,?\s+(\d{4})$/.exec(t);
  if (m) {
    const mo = MONTHS[(m[1] ?? '').toLowerCase()];
    return mo !== undefined ? `${m[2]}-${pad(mo)}` : undefined;
  }
  return undefined;
}

/**
 * A date of birth as OFAC, the CSL and the UN write it, to the record's 'YYYY' / 'YYYY-MM' /
 * 'YYYY-MM-DD' values. "circa 1951" -> 1951 (the engine allows a tolerance on years); ranges
 * ("1960 to 1962", "01 Jan 1960 to 31 Dec 1962", "circa 1979-1982", "Between Aug. and Sep.
 * 1960") -> every year they cover. Unreadable text gives [].
 */
export function parseDob(text: string): string[] {
  let t = clean(text).replace(/\.$/, '');
  t = t.replace(/^(?:circa|approximately|approx\.?|about|c\.)\s+/i, '');
  if (t === '') return [];
  const one = parseOneDate(t);
  if (one) return [one];
  let m = /^(.+?)\s+(?:to|-|–|and)\s+(.+)$/i.exec(t);
  if (!m) m = /^(\d{4})-(\d{4})$/.exec(t);
  if (m) {
    const a = parseOneDate(m[1] ?? '');
    const b = parseOneDate(m[2] ?? '');
    if (a && b) return yearsBetween(Number(a.slice(0, 4)), Number(b.slice(0, 4)));
  }
  // "Between Aug. and Sep. 1960": the year is all that is certain.
  m = /^between\s+.*?(\d{4})$/i.exec(t);
  if (m) return [m[1] ?? ''];
  return [];
}

export function yearsBetween(from: number, to: number): string[] {
  if (!Number.isInteger(from) || !Number.isInteger(to) || to < from || to - from > MAX_RANGE_YEARS) {
    return Number.isInteger(from) && from > 0 ? [String(from)] : [];
  }
  const out: string[] = [];
  for (let y = from; y <= to; y++) out.push(String(y));
  return out;
}

/** A gender word as the lists write it. */
export function parseGender(text: string | null | undefined): 'male' | 'female' | undefined {
  const t = clean(text).toLowerCase();
  if (t === 'male' || t === 'm') return 'male';
  if (t === 'female' || t === 'f') return 'female';
  return undefined;
}
