// One listed person, one match: which records of the loaded lists are the same person. OFAC, the
// UK, Australia and the UN list many people each under their own record; screen() folds the
// records of one person into one match naming every listing (engine.ts). Computed once when the
// index is built, kept in the snapshot as one number per record.
//
// Conservative on purpose: records are joined only by evidence that two different people rarely
// share, and never across kinds of list (a sanctions listing and a PEP entry stay two matches).
// - the same name (the same words in any order; one record's primary name, a strong published
//   name of the other; two words or more besides bin, abu, al and the like) and an agreeing
//   date of birth: a full date both give, or a year or month one of them gives (at most two
//   dates: a span of years is not a date of birth) that starts a date of the other, or the same
//   span of years on both;
// - a shared identity document or tax number (passport, national id, tax id; six characters or
//   more, four of them digits), when the two records also share a name word and their full
//   dates of birth, where both give any, agree;
// - a shared public identifier (Wikidata item, Bioguide id) or OFAC's one number per party
//   (us_ofac_sdn:N and us_ofac_cons:N).
// - the same full date of birth, no two countries, and primary names the matcher reads as one
//   (compare.ts, 0.85 or more: LUKASHENKA, Alyaksandr Ryhorovich / Lukashenko Alexander
//   Ryhorovich), which twins, born on one day with different given names, do not reach.
// Two records are never joined when both give full dates of birth and no date is common to
// both, even through a third record: a person is joined as a whole.
import { createHash } from 'node:crypto';
import { commonNameOther, compareNames } from './match/compare';
import { normalizeName } from './match/normalize';
import type { ListEntity } from './types';

/** The records an index holds, by position (engine.ts EntityTable). */
interface Records {
  readonly length: number;
  at(i: number): ListEntity;
}

/** Each record's person: the position of the person's first record (a record alone is its own). */
export type PersonTable = Int32Array;

/** Least length of a name key's word list: a one-word alias is not a name to join people by. */
const MIN_NAME_WORDS = 2;
/** A record giving more partial dates than this gives a span of years, not a date of birth. */
const MAX_PARTIAL_DATES = 2;

/** Document numbers that identify one person across lists (OFAC "Tax ID No." is the UK's national id for Russians). */
const DOCUMENT_ID = /passport|national|tax id|identification|cedula|c\.u\.r\.p|d\.n\.i|personal id/i;
/** Identifiers of one public registry: equal values are one person whatever the list. */
const REGISTRY_ID: ReadonlyMap<string, string> = new Map([['Wikidata', 'wikidata'], ['Bioguide ID', 'bioguide']]);
const OFAC_SOURCES: ReadonlySet<string> = new Set(['us_ofac_sdn', 'us_ofac_cons']);

/** Lower case, accents dropped, letters only. */
function words(name: string): string[] {
  // Plain ASCII needs no decomposition (most listed names; NFKD is the cost here).
  const plain = /^[\x00-\x7f]*$/.test(name) ? name : name.normalize('NFKD').replace(/\p{M}/gu, '');
  return plain
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
}

/** Words that join names rather than name anyone: "Abu Muhammad" is a by-name many people bear. */
const LINK_WORDS: ReadonlySet<string> = new Set(['abu', 'abou', 'bin', 'ben', 'ibn', 'bint', 'umm', 'um', 'al', 'el', 'ould', 'walad', 'de', 'van', 'von']);

/**
 * A name as a set of words: "PUTIN, Vladimir Vladimirovich", "Vladimir Vladimirovich PUTIN" → one
 * key; null for a name of fewer than two words besides the linking ones.
 */
function nameKey(name: string): string | null {
  const w = [...new Set(words(name))].sort();
  return w.filter((x) => !LINK_WORDS.has(x) && x.length > 1).length >= MIN_NAME_WORDS ? w.join(' ') : null;
}

/** The numbers a document cell holds: "(1) 01461558 (2) 00868774", "passport number 515458008". */
function documentNumbers(text: string): string[] {
  return text
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .filter((t) => t.length >= 6 && (t.match(/\d/g)?.length ?? 0) >= 4);
}

function fullDates(e: ListEntity): string[] {
  return e.dobs.filter((d) => d.length === 10);
}

/** Full dates of birth both give, or none given by one of them. */
function fullDatesAgree(a: readonly string[], b: readonly string[]): boolean {
  return a.length === 0 || b.length === 0 || a.some((d) => b.includes(d));
}

/** The dates of birth name the same day, or a year or month of it (see the head of this file). */
function datesAgree(a: ListEntity, b: ListEntity): boolean {
  const fa = fullDates(a);
  const fb = fullDates(b);
  if (fa.some((d) => fb.includes(d))) return true;
  if (fa.length > 0 && fb.length > 0) return false;
  // The same span of years on both lists (a UN listing and its copies) is the same statement.
  if (fa.length === 0 && fb.length === 0 && a.dobs.length > 0 && a.dobs.length === b.dobs.length && a.dobs.every((d) => b.dobs.includes(d))) return true;
  const partial = (x: ListEntity, y: ListEntity) =>
    fullDates(x).length === 0 && x.dobs.length > 0 && x.dobs.length <= MAX_PARTIAL_DATES && x.dobs.some((p) => y.dobs.some((d) => d.startsWith(p)));
  return partial(a, b) || partial(b, a);
}

function primaryKey(e: ListEntity): string | null {
  const first = e.names[0];
  return first === undefined ? null : nameKey(first.name);
}

function sharesNameWord(a: ListEntity, b: ListEntity): boolean {
  const mine = new Set(a.names.flatMap((n) => words(n.name)).filter((w) => w.length > 1));
  return b.names.some((n) => words(n.name).some((w) => mine.has(w)));
}

/** Adds `i` to the records filed under `key`. */
function file(map: Map<string, number[]>, key: string, i: number): void {
  const list = map.get(key);
  if (list) {
    if (list[list.length - 1] !== i) list.push(i);
  } else map.set(key, [i]);
}

/** Each record's person (see the head of this file). */
export function findPeople(records: Records): PersonTable {
  const parent = new Int32Array(records.length);
  for (let i = 0; i < parent.length; i++) parent[i] = i;
  // Each person's full dates of birth, on its root: a join never brings two different days together.
  const days = new Map<number, string[]>();
  const root = (i: number): number => {
    let r = i;
    while (parent[r] !== r) r = parent[r]!;
    while (parent[i] !== r) {
      const next = parent[i]!;
      parent[i] = r;
      i = next;
    }
    return r;
  };
  const join = (a: number, b: number): void => {
    const ra = root(a);
    const rb = root(b);
    if (ra === rb) return;
    const da = days.get(ra) ?? [];
    const db = days.get(rb) ?? [];
    if (!fullDatesAgree(da, db)) return;
    const [keep, gone] = ra < rb ? [ra, rb] : [rb, ra];
    parent[gone] = keep;
    days.set(keep, [...new Set([...da, ...db])]);
    days.delete(gone);
  };

  const byName = new Map<string, number[]>();
  const byId = new Map<string, number[]>();
  const byDay = new Map<string, number[]>();
  for (let i = 0; i < records.length; i++) {
    const e = records.at(i);
    if (e.schema !== 'person') continue;
    const full = fullDates(e);
    if (full.length > 0) days.set(i, full);
    for (const d of full) file(byDay, `${e.kind}|${d}`, i);
    if (e.dobs.length > 0) {
      for (const n of e.names) {
        if (n.quality !== 'strong') continue;
        const k = nameKey(n.name);
        if (k !== null) file(byName, `${e.kind}|${k}`, i);
      }
    }
    for (const id of e.ids) {
      const registry = REGISTRY_ID.get(id.type);
      if (registry !== undefined) file(byId, `${e.kind}|${registry}|${id.number.trim().toUpperCase()}`, i);
      else if (DOCUMENT_ID.test(id.type)) for (const n of documentNumbers(id.number)) file(byId, `${e.kind}|doc|${n}`, i);
    }
    if (OFAC_SOURCES.has(e.source)) file(byId, `${e.kind}|ofac|${e.id.slice(e.id.indexOf(':') + 1)}`, i);
  }

  for (const [key, list] of byName) {
    if (list.length < 2) continue;
    const name = key.slice(key.indexOf('|') + 1);
    // Each record read once per list (a table of JSON parses at every read: splice.ts).
    const read = list.map((i) => records.at(i));
    for (let x = 0; x < list.length; x++) {
      for (let y = x + 1; y < list.length; y++) {
        const a = read[x]!;
        const b = read[y]!;
        // The name must be one record's own (primary) name: two people can share a by-name
        // ("Abu Muhammad") or a nickname ("Los Mellizos", twins born on one day).
        if ((primaryKey(a) === name || primaryKey(b) === name) && datesAgree(a, b)) join(list[x]!, list[y]!);
      }
    }
  }
  for (const [key, list] of byId) {
    if (list.length < 2) continue;
    const doc = key.includes('|doc|');
    const read = list.map((i) => records.at(i));
    for (let x = 0; x < list.length; x++) {
      for (let y = x + 1; y < list.length; y++) {
        const a = read[x]!;
        const b = read[y]!;
        if (doc && (!sharesNameWord(a, b) || !fullDatesAgree(fullDates(a), fullDates(b)))) continue;
        join(list[x]!, list[y]!);
      }
    }
  }
  // Lists spell one person their own way (LUKASHENKA, Alyaksandr / Lukashenko Alexander): records
  // of one kind born the same day, of no two countries, whose names the matcher reads as one.
  for (const list of byDay.values()) {
    if (list.length < 2 || list.length > MAX_SAME_DAY) continue;
    const read = list.map((i) => records.at(i));
    for (let x = 0; x < list.length; x++) {
      for (let y = x + 1; y < list.length; y++) {
        if (root(list[x]!) === root(list[y]!)) continue;
        const a = read[x]!;
        const b = read[y]!;
        if (a.countries.length > 0 && b.countries.length > 0 && !a.countries.some((c) => b.countries.includes(c))) continue;
        if (sameName(a, b)) join(list[x]!, list[y]!);
      }
    }
  }
  const out = new Int32Array(records.length);
  for (let i = 0; i < out.length; i++) out[i] = root(i);
  return out;
}

/** Records born on one day beyond this many are a placeholder date ("1 January 1960"), not a day to join people by. */
const MAX_SAME_DAY = 40;
/** How closely two primary names must agree (compare.ts, 0-1) for records born the same day to be one person. */
const SAME_DAY_NAME = 0.85;

/**
 * The two records' own (primary) names read as one name, each name of two words or more, and no
 * common name of one met by another common name in the other, each the other's "another name"
 * (compare.ts: Kamal / Jamal Mustafa Abdallah Sultan al-Tikriti, brothers born on one day).
 * Spellings of one name across alphabets (Alyaksandr / Alexander, Siarhei / Sergei) stay one.
 */
function sameName(a: ListEntity, b: ListEntity): boolean {
  const na = a.names[0]?.name;
  const nb = b.names[0]?.name;
  if (na === undefined || nb === undefined || nameKey(na) === null || nameKey(nb) === null) return false;
  // Names with no word starting alike (three letters) are not one name: the comparison is left out.
  const starts = new Set(words(na).map((w) => w.slice(0, 3)));
  if (!words(nb).some((w) => starts.has(w.slice(0, 3)))) return false;
  const x = normalizeName(na, 'person');
  const y = normalizeName(nb, 'person');
  const cmp = compareNames(x, y);
  if (cmp.score < SAME_DAY_NAME) return false;
  return !cmp.alignment.some((p) => {
    if (p.method === 'unmatched' || p.at[1] - p.at[0] !== 1 || p.at[3] - p.at[2] !== 1) return false;
    const s = x.tokens[p.at[0]];
    const t = y.tokens[p.at[2]];
    return s !== undefined && t !== undefined && s.text !== t.text && commonNameOther(s, t) && commonNameOther(t, s);
  });
}

/** The records of each person listed more than once, in index order, by the person's id. */
export function peopleMembers(people: PersonTable): Map<number, number[]> {
  const count = new Int32Array(people.length);
  for (let i = 0; i < people.length; i++) count[people[i]!]!++;
  const out = new Map<number, number[]>();
  for (let i = 0; i < people.length; i++) {
    const p = people[i]!;
    if (count[p]! < 2) continue;
    const list = out.get(p);
    if (list) list.push(i);
    else out.set(p, [i]);
  }
  return out;
}

/**
 * Which record leads a person's match when two score alike, and the order of its listings: the
 * UN's designation first (the UK and Australia implement it), then OFAC's SDN, the UK's, then
 * Australia's list, OFAC's other lists, the CSL, the PEP sources and an organisation's own lists.
 */
const SOURCE_ORDER: readonly string[] = ['un_sc', 'us_ofac_sdn', 'uk_sanctions', 'au_dfat', 'us_ofac_cons', 'us_csl', 'pep_us_executive', 'pep_us_congress', 'pep_wikidata_leaders'];

function sourceRank(source: string): number {
  const i = SOURCE_ORDER.indexOf(source);
  return i < 0 ? SOURCE_ORDER.length : i;
}

function bySource(a: ListEntity, b: ListEntity): number {
  return sourceRank(a.source) - sourceRank(b.source) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

export interface PersonMatch {
  /** The record the match is: the best-ranked of the person's reported records. */
  lead: number;
  /** Every record of the person (the lead first, then by SOURCE_ORDER), reported or not. */
  records: number[];
}

/**
 * Reported records, with each one's rank (higher is better), folded into one match per person.
 * The lead is the best-ranked record; a tie goes to the source first in SOURCE_ORDER, then to
 * the smaller id, so the same person is led by the same record whatever order records came in.
 */
export function foldPeople(index: { entities: Records; people: PersonTable; members: ReadonlyMap<number, readonly number[]> }, reported: Iterable<readonly [number, number]>): PersonMatch[] {
  const leads = new Map<number, readonly [number, number]>();
  for (const r of reported) {
    const person = index.people[r[0]] ?? r[0];
    const prev = leads.get(person);
    if (!prev || r[1] > prev[1] || (r[1] === prev[1] && bySource(index.entities.at(r[0]), index.entities.at(prev[0])) < 0)) leads.set(person, r);
  }
  const out: PersonMatch[] = [];
  for (const [person, [lead]] of leads) {
    const others = (index.members.get(person) ?? []).filter((i) => i !== lead);
    others.sort((a, b) => bySource(index.entities.at(a), index.entities.at(b)));
    out.push({ lead, records: [lead, ...others] });
  }
  return out;
}

/**
 * The record hash of a match naming several records: a digest of every record's id and hash, so
 * a clearing of the match reopens when any of its records changes or a list adds or drops one.
 * A match naming one record keeps that record's own hash.
 */
export function personHash(records: readonly Pick<ListEntity, 'id' | 'recordHash'>[]): string {
  if (records.length === 1) return records[0]!.recordHash;
  const lines = records.map((r) => `${r.id}:${r.recordHash}`).sort();
  return createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 16);
}
