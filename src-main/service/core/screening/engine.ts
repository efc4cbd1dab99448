// The screening engine: an in-memory index over the loaded lists, candidate retrieval that
// never scans every record, the name comparison of match/, and the qualifiers (date of birth,
// country, gender, alias quality) that turn a name score into a match score with an
// explanation. Pure: lists in, matches out; nothing is written anywhere.
import { LIST_KINDS, type ClearedMatch, type ListKind, type MatchExplanation, type ScreeningMatch } from '../../../../src-shared/contracts/screening';
import { commonNameOther, compareNames, createPairMemo, startPairMemo, tokenIdf, tokenSignature, type PairMemo, otherName, createMatchScratch, PATRONYMIC_LINKS, shownAlignment, type AlignedPair, type MatchScratch, type NameComparison, type ShownPair } from './match/compare';
import { normalizeName, normalizeSubjectName, type NameToken, type NormalizedName } from './match/normalize';
import { PARAMS } from './match/params';
import { matchLevel } from './risk';
import type { ListEntity } from './types';
import { pepStatus } from './pep-status';
import { findPeople, foldPeople, peopleMembers, personHash, type PersonTable } from './people';

/** Match score (0-100) at or above which a match is reported, and above which it is strong. */
export const REPORT_THRESHOLD = PARAMS.reportThreshold;
export const STRONG_THRESHOLD = PARAMS.strongThreshold;

export interface IndexedName {
  readonly entity: number;
  readonly name: string;
  readonly quality: 'strong' | 'weak';
  /** Normalised when indexed; absent in an index restored from a snapshot (see ScreenScratch). */
  readonly norm?: NormalizedName;
}

/**
 * The index's records by position. A snapshot's are kept as their JSON and parsed when a search
 * first reaches one (snapshot.ts): a start then reads 33,000 strings instead of building 33,000
 * records' objects (~0.3 s of CPU, and their garbage collection), most of which no search needs.
 */
export interface EntityTable {
  readonly length: number;
  at(i: number): ListEntity;
}

function tableOf(list: readonly ListEntity[]): EntityTable {
  return { length: list.length, at: (i) => list[i]! };
}

/** Records given as JSON, each parsed the first time it is read (and kept). */
export function lazyEntityTable(json: readonly string[]): EntityTable {
  const parsed: (ListEntity | undefined)[] = new Array<ListEntity | undefined>(json.length);
  return { length: json.length, at: (i) => (parsed[i] ??= JSON.parse(json[i]!) as ListEntity) };
}

/** `base`'s records, then `more`'s. */
function joinTables(base: EntityTable, more: readonly ListEntity[]): EntityTable {
  return { length: base.length + more.length, at: (i) => (i < base.length ? base.at(i) : more[i - base.length]!) };
}

export interface ScreeningIndex {
  entities: EntityTable;
  names: readonly IndexedName[];
  postings: ReadonlyMap<string, Int32Array>;
  df: ReadonlyMap<string, number>;
  kinds: ReadonlySet<ListKind>;
  /** Each record's person (people.ts): records of one person on several lists are one match. */
  people: PersonTable;
  /** The records of each person listed more than once, by the person's id. */
  members: ReadonlyMap<number, readonly number[]>;
  stats: { entities: number; names: number; keys: number; build_ms: number };
}

/** Screenable record kinds for an individual: people, and records whose type the list omits. */
function screenable(e: ListEntity): boolean {
  return e.schema === 'person' || e.schema === 'unknown';
}

/**
 * Retrieval keys of one token, each with how strongly a hit on it suggests the same token:
 * the text and its variant key, the phonetic key, the first and last four letters (a typo
 * rarely touches both ends of a word) and the letters in order of the alphabet (a swap).
 */
function tokenKeys(text: string, key: string, phonetic: string, loose: string): string[] {
  const out = [`t:${text}`];
  if (key !== text) out.push(`t:${key}`);
  if (phonetic.length >= 2) out.push(`p:${phonetic}`);
  // Halves: a single typo leaves the first or the last half of a word intact ("Ricio" and
  // "Riccio" share "ric", "Kaimi" and "Karimi" share "imi"). Both roundings, so words one letter
  // longer or shorter still meet; never under three letters.
  if (text.length >= 4) {
    const lo = Math.max(3, text.length >> 1);
    const hi = Math.max(3, (text.length + 1) >> 1);
    out.push(`f:${text.slice(0, lo)}`, `e:${text.slice(-lo)}`);
    if (hi !== lo) out.push(`f:${text.slice(0, hi)}`, `e:${text.slice(-hi)}`);
  }
  // The loose consonant skeleton finds transcriptions whose vowels and affricates differ
  // ("puchin", "putsin", "fvtyn" for Putin).
  if (loose.length >= 3) out.push(`s:${loose}`);
  // The same letters in another order: two letters swapped in the middle of a word break both
  // halves ("Kaprov" / "Karpov", "Ibqal" / "Iqbal", "Horfsord" / "Horsford").
  if (text.length >= PARAMS.swapKeyMin) out.push(`a:${[...text].sort().join('')}`);
  return out;
}

const KEY_WEIGHT = PARAMS.keyWeights;
const KEY_WEIGHT_MAX = Math.max(PARAMS.keyWeightOther, ...Object.values(KEY_WEIGHT));

/** Keys per informative token and per joined run of a name; memoised, names repeat tokens a lot. */
function keyGroups(n: NormalizedName, memo: Map<string, string[]>): string[][] {
  const groups: string[][] = [];
  const get = (text: string, key: string, phonetic: string, loose: string) => {
    const id = `${text}|${key}|${phonetic}|${loose}`;
    let k = memo.get(id);
    if (!k) memo.set(id, (k = tokenKeys(text, key, phonetic, loose)));
    return k;
  };
  for (const t of n.tokens) if (t.weight >= PARAMS.informativeWeight) groups.push(get(t.text, t.key, t.phonetic[0], t.loose));
  for (const j of n.joins) groups.push(get(j.text, j.text, '', ''));
  return groups;
}

/**
 * Adds the names of `entities` to the index under construction, the first as record number
 * `first`; each name keeps its normalised form unless `lean` (then it is normalised again when
 * a search first compares it, as in a restored index).
 */
export function indexEntities(
  entities: readonly ListEntity[], first: number, names: IndexedName[], lists: Map<string, number[]>, df: Map<string, number>, kinds: Set<ListKind>,
  lean = false,
): void {
  const memo = new Map<string, string[]>();
  for (let i = 0; i < entities.length; i++) {
    const e = entities[i]!;
    const ei = first + i;
    kinds.add(e.kind);
    if (!screenable(e)) continue;
    const seen = new Set<string>();
    for (const n of e.names) {
      const norm = normalizeName(n.name, 'person');
      if (norm.tokens.length === 0 || seen.has(norm.text)) continue;
      seen.add(norm.text);
      const id = names.length;
      names.push(lean ? { entity: ei, name: n.name, quality: n.quality } : { entity: ei, name: n.name, quality: n.quality, norm });
      for (const group of keyGroups(norm, memo)) {
        for (const k of group) {
          let p = lists.get(k);
          if (!p) lists.set(k, (p = []));
          // Ids arrive in increasing order, so a repeat within one name is always the last one.
          if (p[p.length - 1] !== id) p.push(id);
        }
      }
      const texts = new Set<string>();
      for (const t of norm.tokens) texts.add(t.text);
      for (const t of texts) df.set(t, (df.get(t) ?? 0) + 1);
    }
  }
}

/**
 * The index of `entities`. `lean`: names do not keep their normalised forms (each is normalised
 * again when a search first compares it, as in a restored index): an index of 47,000 records
 * built for the data directory then takes ~100 MB less at its peak, and only the few names a
 * search reaches are ever normalised again.
 */
export function buildIndex(entities: readonly ListEntity[], options: { lean?: boolean } = {}): ScreeningIndex {
  const started = performance.now();
  const names: IndexedName[] = [];
  const lists = new Map<string, number[]>();
  const df = new Map<string, number>();
  const kinds = new Set<ListKind>();
  indexEntities(entities, 0, names, lists, df, kinds, options.lean);
  const postings = new Map<string, Int32Array>();
  for (const [k, v] of lists) postings.set(k, Int32Array.from(v));
  const people = findPeople(tableOf(entities));
  return {
    entities: tableOf(entities), names, postings, df, kinds, people, members: peopleMembers(people),
    stats: { entities: entities.length, names: names.length, keys: postings.size, build_ms: Math.round(performance.now() - started) },
  };
}

/**
 * The index of `base` plus more entities (an organisation's own lists on top of the shipped
 * ones), built without re-normalising the base. Same result as buildIndex over all of them,
 * except that the added records are joined into people among themselves only, never with the
 * base's (that would read every base record again at each load).
 */
export function extendIndex(base: ScreeningIndex, more: readonly ListEntity[]): ScreeningIndex {
  if (more.length === 0) return base;
  const started = performance.now();
  const entities = joinTables(base.entities, more);
  const names = [...base.names];
  const lists = new Map<string, number[]>();
  const df = new Map(base.df);
  const kinds = new Set(base.kinds);
  indexEntities(more, base.entities.length, names, lists, df, kinds);
  const postings = new Map(base.postings);
  for (const [k, v] of lists) {
    const old = postings.get(k);
    if (!old) {
      postings.set(k, Int32Array.from(v));
      continue;
    }
    const joined = new Int32Array(old.length + v.length);
    joined.set(old);
    joined.set(v, old.length);
    postings.set(k, joined);
  }
  const added = findPeople(tableOf(more));
  const people = new Int32Array(base.people.length + added.length);
  people.set(base.people);
  for (let i = 0; i < added.length; i++) people[base.people.length + i] = base.people.length + added[i]!;
  return {
    entities, names, postings, df, kinds, people, members: peopleMembers(people),
    stats: { entities: entities.length, names: names.length, keys: postings.size, build_ms: base.stats.build_ms + Math.round(performance.now() - started) },
  };
}

/** The index as flat arrays and strings, for a snapshot (see snapshot.ts); entities travel apart. */
export interface IndexData {
  nameEntity: Int32Array;
  nameText: string[];
  /** 1 = strong, 0 = weak. */
  nameStrong: Uint8Array;
  keys: string[];
  /** postings of keys[i] are data[offsets[i] .. offsets[i + 1]). */
  offsets: Int32Array;
  data: Int32Array;
  dfTokens: string[];
  dfCounts: Int32Array;
  kinds: ListKind[];
  /** Each record's person (ScreeningIndex.people). */
  people: Int32Array;
}

export function indexData(index: ScreeningIndex): IndexData {
  const keys = [...index.postings.keys()];
  let total = 0;
  for (const p of index.postings.values()) total += p.length;
  const offsets = new Int32Array(keys.length + 1);
  const data = new Int32Array(total);
  let at = 0;
  keys.forEach((k, i) => {
    const p = index.postings.get(k)!;
    offsets[i] = at;
    data.set(p, at);
    at += p.length;
  });
  offsets[keys.length] = at;
  return {
    nameEntity: Int32Array.from(index.names, (n) => n.entity),
    nameText: index.names.map((n) => n.name),
    nameStrong: Uint8Array.from(index.names, (n) => (n.quality === 'strong' ? 1 : 0)),
    keys, offsets, data,
    dfTokens: [...index.df.keys()],
    dfCounts: Int32Array.from(index.df.values()),
    kinds: [...index.kinds],
    people: index.people,
  };
}

/**
 * The postings of a restored index, over its flat arrays: a key's list is cut out of `data` the
 * first time a search asks for it (and kept). Making all 236,000 views at a start cost 0.1-0.3 s
 * more than a map of positions; a search reads a few dozen. Iterating (extendIndex, indexData)
 * makes them all.
 */
function flatPostings(keys: readonly string[], offsets: Int32Array, data: Int32Array): ReadonlyMap<string, Int32Array> {
  // The map of positions too is made at the first search, not at the start: ~0.14 s of every
  // start, and a service that only starts, as most of the suite's do, never needs it.
  let positions: Map<string, number> | null = null;
  const at = (): Map<string, number> => {
    if (positions === null) {
      positions = new Map<string, number>();
      for (let i = 0; i < keys.length; i++) positions.set(keys[i]!, i);
    }
    return positions;
  };
  const views = new Array<Int32Array | undefined>(keys.length);
  const view = (i: number): Int32Array => (views[i] ??= data.subarray(offsets[i]!, offsets[i + 1]!));
  let whole: Map<string, Int32Array> | null = null;
  const all = (): Map<string, Int32Array> => (whole ??= new Map(keys.map((k, i) => [k, view(i)])));
  const map: ReadonlyMap<string, Int32Array> = {
    get size() {
      return at().size;
    },
    get: (k) => {
      const i = at().get(k);
      return i === undefined ? undefined : view(i);
    },
    has: (k) => at().has(k),
    forEach: (f, self?: unknown) => all().forEach((v, k) => f.call(self, v, k, map)),
    entries: () => all().entries(),
    keys: () => at().keys(),
    values: () => all().values(),
    [Symbol.iterator]: () => all()[Symbol.iterator](),
  };
  return map;
}

/** Rebuilds an index from indexData over the same entities; names are normalised when first compared. */
export function restoreIndex(entities: EntityTable, d: IndexData): ScreeningIndex {
  const started = performance.now();
  const names: IndexedName[] = d.nameText.map((name, i) => ({ entity: d.nameEntity[i]!, name, quality: d.nameStrong[i] === 1 ? 'strong' : 'weak' }));
  const postings = flatPostings(d.keys, d.offsets, d.data);
  const df = new Map<string, number>();
  d.dfTokens.forEach((t, i) => df.set(t, d.dfCounts[i]!));
  return {
    entities, names, postings, df, kinds: new Set(d.kinds), people: d.people, members: peopleMembers(d.people),
    stats: { entities: entities.length, names: names.length, keys: d.keys.length, build_ms: Math.round(performance.now() - started) },
  };
}

/**
 * Working memory of screening, owned by the caller (one per index and thread, e.g. beside the
 * loaded index): the comparison's scratch, and the names of a restored index normalised on
 * first comparison, so the index itself is never written after it is built.
 */
export interface ScreenScratch {
  match: MatchScratch;
  /** The index `norms` belongs to; another index resets them. */
  index: ScreeningIndex | null;
  norms: (NormalizedName | undefined)[];
  /** Each compared name's token informativeness over `index` and token numbers (see compared). */
  compared: (Compared | undefined)[];
  /** Token-pair credits of the current query (compareNames' pairs). */
  pairs: PairMemo;
  /** Retrieval votes by name id, valid where `voteStamp` is the current screen's stamp. */
  votes: Float64Array;
  voteStamp: Uint32Array;
  /** Names one query token has already reached (through its best key first), by the token's stamp. */
  hitStamp: Uint32Array;
  stamp: number;
  /** Each record's best vote and length gap, valid where `entityStamp` is the screen's stamp. */
  entityVote: Float64Array;
  entityGap: Int32Array;
  entityStamp: Uint32Array;
  entityStampNow: number;
}

/** Whether ascending `p` holds `id`. */
function contains(p: Int32Array, id: number): boolean {
  let lo = 0;
  let hi = p.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = p[mid]!;
    if (v === id) return true;
    if (v < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/** Per name: its record and its length; per record: its kind, read when a search first needs it. */
interface NameTable {
  entity: Int32Array;
  length: Uint16Array;
  /** LIST_KIND position + 1; 0 = not read yet. */
  kind: Uint8Array;
}
const NAME_TABLES = new WeakMap<ScreeningIndex, NameTable>();

function nameTable(index: ScreeningIndex): NameTable {
  let t = NAME_TABLES.get(index);
  if (!t) {
    const n = index.names.length;
    t = { entity: new Int32Array(n), length: new Uint16Array(n), kind: new Uint8Array(index.entities.length) };
    for (let i = 0; i < n; i++) {
      const name = index.names[i]!;
      t.entity[i] = name.entity;
      t.length[i] = Math.min(0xffff, name.name.length);
    }
    NAME_TABLES.set(index, t);
  }
  return t;
}

function kindOf(index: ScreeningIndex, t: NameTable, ei: number): ListKind {
  const k = t.kind[ei]!;
  if (k !== 0) return LIST_KINDS[k - 1]!;
  const kind = index.entities.at(ei).kind;
  t.kind[ei] = LIST_KINDS.indexOf(kind) + 1;
  return kind;
}

export function createScreenScratch(): ScreenScratch {
  const none = new Float64Array(0);
  return { match: createMatchScratch(), index: null, norms: [], compared: [], pairs: createPairMemo(), votes: none, voteStamp: new Uint32Array(0), hitStamp: new Uint32Array(0), stamp: 0,
    entityVote: none, entityGap: new Int32Array(0), entityStamp: new Uint32Array(0), entityStampNow: 0,
  };
}

/** The next stamp for `scratch`'s vote arrays, sized to `names` (typed arrays: no per-call maps). */
function nextStamp(scratch: ScreenScratch, names: number): number {
  if (scratch.votes.length < names || scratch.stamp >= 0xff000000) {
    scratch.votes = new Float64Array(names);
    scratch.voteStamp = new Uint32Array(names);
    scratch.hitStamp = new Uint32Array(names);
    scratch.stamp = 0;
  }
  return ++scratch.stamp;
}

function ownScratch(index: ScreeningIndex, scratch: ScreenScratch): void {
  if (scratch.index !== index) {
    scratch.index = index;
    scratch.norms = [];
    scratch.compared = [];
  }
}

function nextEntityStamp(scratch: ScreenScratch, entities: number): number {
  if (scratch.entityVote.length < entities || scratch.entityStampNow >= 0xff000000) {
    scratch.entityVote = new Float64Array(entities);
    scratch.entityGap = new Int32Array(entities);
    scratch.entityStamp = new Uint32Array(entities);
    scratch.entityStampNow = 0;
  }
  return ++scratch.entityStampNow;
}

function normOf(index: ScreeningIndex, id: number, scratch: ScreenScratch): NormalizedName {
  const n = index.names[id]!;
  if (n.norm) return n.norm;
  ownScratch(index, scratch);
  return (scratch.norms[id] ??= normalizeName(n.name, 'person'));
}

/** What compareNames needs of an indexed name besides the name: worked out once per index. */
interface Compared {
  /** Each token's informativeness over the index. */
  weights: Float64Array;
  /** Each token's number: equal tokens (tokenSignature) share one, across every index. */
  ids: Int32Array;
}

/** Numbers of list tokens by signature. List words only: a subject's tokens are never numbered. */
const TOKEN_NUMBERS = new Map<string, number>();

function tokenNumber(t: NameToken): number {
  const sig = tokenSignature(t);
  let n = TOKEN_NUMBERS.get(sig);
  if (n === undefined) TOKEN_NUMBERS.set(sig, (n = TOKEN_NUMBERS.size));
  return n;
}

function comparedOf(index: ScreeningIndex, id: number, norm: NormalizedName, weight: (t: string) => number, scratch: ScreenScratch): Compared {
  ownScratch(index, scratch);
  return (scratch.compared[id] ??= { weights: Float64Array.from(norm.tokens, (t) => tokenIdf(t, weight)), ids: Int32Array.from(norm.tokens, tokenNumber) });
}

/**
 * Works out now what screening otherwise works out for each name on first comparison (its
 * normalised form in a restored index, its tokens' weights and numbers). Screening answers the
 * same either way; a batch run pays for it once up front.
 */
export function warmScreening(index: ScreeningIndex, scratch: ScreenScratch): void {
  const weight = idfWeight(index);
  nameTable(index);
  for (let id = 0; id < index.names.length; id++) comparedOf(index, id, normOf(index, id, scratch), weight, scratch);
}

/** Informativeness of a token over the indexed names: ~1 for rare names, less for Mohammed or Ali. */
export function idfWeight(index: ScreeningIndex): (token: string) => number {
  const n = Math.max(PARAMS.idfMinNames, index.names.length);
  const denom = Math.log(n / PARAMS.idfRare);
  const floor = PARAMS.idfFloor;
  return (token) => {
    const d = index.df.get(token);
    if (!d) return 1;
    return floor + (1 - floor) * Math.min(1, Math.max(0, Math.log(n / d) / denom));
  };
}

export interface SubjectInput {
  first_name: string;
  middle_name?: string | undefined;
  last_name: string;
  date_of_birth?: string | undefined;
  gender?: string | undefined;
  country?: string | undefined;
}

export interface ScreenOptions {
  lists: readonly ListKind[];
  cleared?: readonly ClearedMatch[];
  /** Report threshold override (benchmarks sweep it); default REPORT_THRESHOLD. */
  threshold?: number;
}

export interface ScreenResult {
  matches: ScreeningMatch[];
  /** Flags the matches alone do not express, e.g. a cleared match whose record changed. */
  flags: string[];
  candidates: number;
}

function gender(g: string | undefined): 'male' | 'female' | undefined {
  const v = g?.trim().toLowerCase();
  if (v === 'm' || v === 'male' || v === 'man') return 'male';
  if (v === 'f' || v === 'female' || v === 'woman') return 'female';
  return undefined;
}

type Qualifier = MatchExplanation['qualifiers'][number];

/**
 * Qualifiers that contradict the listed record. A match carrying one is not corroborated: it
 * can be reported, but only as possible (the spec's review band), never strong.
 */
const CONFLICTS: ReadonlySet<string> = new Set(['dob_mismatch', 'dob_near', 'dob_same_year', 'country_mismatch', 'gender_mismatch']);

/** Qualifiers that confirm the record: they let a name read across scripts be strong. */
const CORROBORATES: ReadonlySet<string> = new Set(['dob_exact', 'dob_year', 'country_match']);

/**
 * Date of birth as evidence, both ways: only agreement adds points; a listed full date in the
 * same year but on another day contradicts (it is a different date, not half a match); day and
 * month swapped is the commonest typing slip and counts as neither.
 */
function dobQualifier(dobs: readonly string[], dob: string): Qualifier {
  if (dobs.includes(dob)) return { factor: 'dob_exact', effect: PARAMS.qualifierEffects.dob_exact, detail: 'date of birth matches exactly' };
  const year = dob.slice(0, 4);
  if (dobs.some((d) => d.length < 10 && dob.startsWith(d))) return { factor: 'dob_year', effect: PARAMS.qualifierEffects.dob_year, detail: 'year of birth matches (the list gives no day)' };
  const flipped = `${year}-${dob.slice(8, 10)}-${dob.slice(5, 7)}`;
  if (dobs.includes(flipped)) return { factor: 'dob_flipped', effect: PARAMS.qualifierEffects.dob_flipped, detail: 'date of birth matches with day and month swapped' };
  if (dobs.some((d) => d.slice(0, 4) === year)) return { factor: 'dob_same_year', effect: PARAMS.qualifierEffects.dob_same_year, detail: 'year of birth matches, the date differs' };
  const y = Number(year);
  if (dobs.some((d) => Math.abs(Number(d.slice(0, 4)) - y) === 1)) return { factor: 'dob_near', effect: PARAMS.qualifierEffects.dob_near, detail: 'year of birth differs by one' };
  return { factor: 'dob_mismatch', effect: PARAMS.qualifierEffects.dob_mismatch, detail: 'date of birth differs from every listed one' };
}

function qualify(e: ListEntity, s: SubjectInput, quality: 'strong' | 'weak'): Qualifier[] {
  const q: Qualifier[] = [];
  if (s.date_of_birth && e.dobs.length > 0) q.push(dobQualifier(e.dobs, s.date_of_birth));
  if (s.country && e.countries.length > 0) {
    if (e.countries.includes(s.country)) q.push({ factor: 'country_match', effect: PARAMS.qualifierEffects.country_match, detail: `country ${s.country} is listed` });
    else q.push({ factor: 'country_mismatch', effect: PARAMS.qualifierEffects.country_mismatch, detail: 'country differs from the listed ones' });
  }
  const g = gender(s.gender);
  if (g && e.gender) {
    if (g === e.gender) q.push({ factor: 'gender_match', effect: PARAMS.qualifierEffects.gender_match, detail: 'gender matches' });
    else q.push({ factor: 'gender_mismatch', effect: PARAMS.qualifierEffects.gender_mismatch, detail: 'gender differs' });
  }
  if (quality === 'weak') q.push({ factor: 'weak_alias', effect: PARAMS.qualifierEffects.weak_alias, detail: 'matched a low-quality alias' });
  // Records whose type the list omits (CSL Commerce/State rows) may be companies.
  if (e.schema === 'unknown') q.push({ factor: 'record_type_unknown', effect: PARAMS.qualifierEffects.record_type_unknown, detail: 'the list does not say this record is a person' });
  q.push(...pepStatus(e));
  return q;
}


function isNamePart(t: NameToken): boolean {
  return t.kind === 'given' || t.kind === 'family' || t.kind === 'token';
}

interface PartEvidence {
  qualifiers: Qualifier[];
  /** The listed name's first family name is among the subject's names. */
  surnameListed: boolean;
}

/**
 * What the name parts one side lacks say. Lists record fuller names than customers give, so a
 * listed part the subject lacks is usually a middle name, but the subject's own parts should all
 * be there:
 * - a given name of the subject's that the list lacks costs a little (a middle name, a title the
 *   tables do not know);
 * - the subject's family name missing from the listed name, a part of a name the listed name
 *   gives as one word only, or a syllable of a name in Han or Hangul costs a lot;
 * - the listed name's family name missing from the subject's name costs a lot, its first part
 *   missing (CORONA ROMERO, Alfonso for "Alfonso Romero") a little;
 * - against a name in Han or Hangul, every listed part must be read: those names are short and
 *   whole.
 */
function partEvidence(query: NormalizedName, cand: NormalizedName, cmp: NameComparison, weight: (t: string) => number): PartEvidence {
  const unmatchedQ = new Set<string>();
  const matchedC = new Set<string>();
  for (const a of cmp.alignment) {
    if (a.method === 'unmatched') {
      if (a.query !== null) unmatchedQ.add(a.query);
    } else if (a.candidate !== null) for (const t of a.candidate.split(' ')) matchedC.add(t);
  }
  const q: Qualifier[] = [];
  const cost = (t: NameToken, strict: boolean) => (strict ? PARAMS.strictPartCost : PARAMS.partCost) * weight(t.text) * t.weight;

  let subjectCost = 0;
  if (unmatchedQ.size > 0) {
    const familyListed = query.tokens.some((t) => t.kind === 'family' && !unmatchedQ.has(t.text));
    const single = cand.tokens.filter(isNamePart).length <= 1;
    for (const t of query.tokens) {
      if (!unmatchedQ.has(t.text) || t.kind === 'honorific') continue;
      subjectCost += cost(t, (t.kind === 'family' && !familyListed) || t.native !== '' || single);
    }
  }
  if (Math.round(subjectCost) > 0) q.push({ factor: 'subject_name_part_unlisted', effect: -Math.round(subjectCost), detail: 'part of the subject\'s name is not in the listed name' });

  let surnameListed = true;
  const family = cand.tokens.filter((t) => t.kind === 'family');
  if (family.length > 0 && !matchedC.has(family[0]!.text)) {
    surnameListed = false;
    const any = family.some((t) => matchedC.has(t.text));
    const c = Math.round(cost(family[0]!, !any));
    if (c > 0) q.push({ factor: 'listed_surname_unmatched', effect: -c, detail: any ? 'the first listed family name is not in the subject\'s name' : 'the listed family name is not in the subject\'s name' });
  }

  if (query.tokens.some((t) => t.native !== '') && !cand.tokens.some((t) => t.native !== '')) {
    let c = 0;
    for (const t of cand.tokens) if (isNamePart(t) && !matchedC.has(t.text) && t.kind !== 'family') c += cost(t, true);
    if (Math.round(c) > 0) q.push({ factor: 'listed_name_part_unmatched', effect: -Math.round(c), detail: 'part of the listed name is not in the subject\'s name, written in characters that leave no part out' });
  }
  return { qualifiers: q, surnameListed };
}

/** How the summary line words each qualifier that tells for or against the record. */
const SUMMARY_WORDS: Record<string, string> = {
  dob_exact: 'date of birth matches',
  dob_year: 'year of birth matches',
  dob_flipped: 'date of birth matches with day and month swapped',
  dob_same_year: 'date of birth differs',
  dob_near: 'year of birth differs by one',
  dob_mismatch: 'date of birth differs',
  country_match: 'country is listed',
  country_mismatch: 'country differs',
  gender_mismatch: 'gender differs',
  subject_name_part_unlisted: 'part of the name is not listed',
  listed_surname_unmatched: 'listed family name differs',
  listed_name_part_unmatched: 'part of the listed name is missing',
};

/** How the summary names each way two words can differ. */
const DIFFERENCE_WORDS: Partial<Record<AlignedPair['method'], string>> = {
  edit_distance: 'close spelling',
  jaro_winkler: 'close spelling',
  phonetic: 'sounds alike',
  nickname: 'short form',
  slip: 'typo or another name',
  initial: 'initial',
  joined: 'written together',
};

/**
 * One line an analyst reads first: "name matches" only for an exact name; otherwise what differs
 * ("close spelling: Vladimr/Vladimir, Puttin/Putin; listed name also has: Kelly"), then what the
 * qualifiers say for or against the record.
 */
function summary(exact: boolean, alignment: readonly ShownPair[], quality: 'strong' | 'weak', qualifiers: readonly Qualifier[]): string {
  const parts: string[] = [];
  const listedExtra = alignment.filter((a) => a.method === 'unmatched' && a.candidate !== null).map((a) => a.candidate!);
  if (exact && listedExtra.length === 0) parts.push('name matches');
  else if (exact) parts.push(`every part of the name matches; listed name also has: ${listedExtra.join(', ')}`);
  else {
    const by = new Map<string, string[]>();
    const listedOnly: string[] = [];
    const subjectOnly: string[] = [];
    for (const a of alignment) {
      if (a.method === 'unmatched') {
        if (a.candidate !== null) listedOnly.push(a.candidate);
        else if (a.query !== null) subjectOnly.push(a.query);
        continue;
      }
      // A word read from another script is shown with the Latin letters it was read as, and the
      // script: "read from Arabic script: حمد → Ahmad/Ahmed".
      const read = a.reading !== null && a.method !== 'exact' ? a.reading : null;
      // A word read as another name (Mahmoudi / محمد, Muhammad) is another name, in any script.
      const other = anotherName(a) && (read === null || a.similarity === PARAMS.otherNameCredit);
      const how = other ? 'another name' : read !== null ? `read from ${read.script} script` : DIFFERENCE_WORDS[a.method];
      if (how === undefined || a.query === null || a.candidate === null) continue;
      const list = by.get(how) ?? [];
      const nonLatinQuery = read !== null && a.query !== read.latin && !/^[\p{Script=Latin}\s'-]+$/u.test(a.query);
      list.push(nonLatinQuery ? `${a.query} → ${read.latin}/${a.candidate}` : read !== null ? `${a.query}/${a.candidate} → ${read.latin}` : `${a.query}/${a.candidate}`);
      by.set(how, list);
    }
    for (const [how, pairs] of by) parts.push(`${how}: ${pairs.join(', ')}`);
    if (subjectOnly.length > 0) parts.push(`not in the listed name: ${subjectOnly.join(', ')}`);
    if (listedOnly.length > 0) parts.push(`listed name also has: ${listedOnly.join(', ')}`);
    if (parts.length === 0) parts.push('name matches with other words or order');
  }
  if (quality === 'weak') parts[0] += ' (a low-quality alias)';
  for (const q of qualifiers) {
    const w = SUMMARY_WORDS[q.factor];
    if (w !== undefined) parts.push(w);
  }
  return parts.join('; ');
}

/**
 * Name parts the listed name has and the subject's lacks ("Richard Kelly Smyth" for "Richard
 * Smith"), and whether the listed first given name is among them (the subject's first name met a
 * middle one: "Scott Michael Miller" for "Michael Muller", "Hamza Usama Muhammad bin Laden" for
 * "Usama bin Laden"). Names after bin/ibn (the nasab: father's, grandfather's names) and
 * patronymics (Vladimirovich) are not counted: lists record them and people leave them out.
 */
function extraListedParts(cand: NormalizedName, alignment: readonly AlignedPair[]): { count: number; firstGiven: boolean; givenNamed: boolean } {
  let count = 0;
  let firstGiven = false;
  // Some listed given name met by a name of the subject's, not only by an initial.
  let givenNamed = false;
  const firstGivenAt = cand.tokens.findIndex((t) => t.kind === 'given');
  for (const a of alignment) {
    if (a.method !== 'unmatched' && a.method !== 'initial' && a.at[2] >= 0) {
      for (let j = a.at[2]; j < a.at[3]; j++) if (cand.tokens[j]?.kind === 'given') givenNamed = true;
    }
    if (a.method !== 'unmatched' || a.candidate === null) continue;
    const i = a.at[2];
    const t = cand.tokens[i];
    if (t === undefined || (t.kind !== 'given' && t.kind !== 'initial' && t.kind !== 'family')) continue;
    if (t.kind === 'given' && isPatronymic(t)) continue;
    if (NASAB_LINKS.has(cand.tokens[i - 1]?.text ?? '')) continue;
    count++;
    if (i === firstGivenAt) firstGiven = true;
  }
  return { count, firstGiven, givenNamed };
}

/**
 * The name the subject is called by: their first given name, past a leading name so common it is
 * a prefix (Muhammad Imran Khan is Imran). -1 when they gave no given name.
 */
function ownGivenName(tokens: readonly NameToken[]): number {
  const given: number[] = [];
  for (let i = 0; i < tokens.length; i++) if (tokens[i]!.kind === 'given') given.push(i);
  let k = 0;
  while (k < given.length - 1 && tokens[given[k]!]!.share >= PARAMS.prefixNameShare) k++;
  return given[k] ?? -1;
}

/**
 * The subject gave a given name, and their own given name or the listed person's first given
 * name met nothing on the other side: the names that agree are others of the chain (a father's,
 * a grandfather's, a family name), which a father and his son, or two cousins, share ("Bashir
 * Osman Ahmed" and "Ahmed Osman", "Mohamed Warsame" and "Abdirahim Mohamed Warsame"). A listed
 * name is written as its first given name and family name (Muhammad Abdallah), so the listed
 * side's prefix is not skipped.
 */
function ownNameMissing(query: NormalizedName, cand: NormalizedName, alignment: readonly AlignedPair[]): boolean {
  const q = ownGivenName(query.tokens);
  if (q < 0) return false;
  const met = alignment.some((a) => a.method !== 'unmatched' && a.at[0] <= q && q < a.at[1]);
  if (!met) return true;
  // One name part and a title ("Putyin elnök", "President Putin") gives no given name of the
  // subject's own to set against the listed one.
  if (query.tokens.filter(isNamePart).length < 2) return false;
  const c = cand.tokens.findIndex((t) => t.kind === 'given');
  return alignment.some((a) => a.method === 'unmatched' && a.candidate !== null && a.at[2] === c);
}

/** A patronymic (Vladimirovich, Yurevna): normalize.ts keys it by its father's name and weighs it less. */
function isPatronymic(t: NameToken): boolean {
  return t.key.endsWith('ovich') && t.weight === PARAMS.patronymicWeight;
}

/** A father's name: a patronymic or the name after bin/ibn/walad. */
function fathersName(tokens: readonly NameToken[], i: number): boolean {
  const t = tokens[i];
  if (t === undefined || (t.kind !== 'given' && t.kind !== 'family')) return false;
  // (A list writing "SURNAME Given Patronymic" leaves the patronymic last, where a family name stands.)
  return isPatronymic(t) || NASAB_LINKS.has(tokens[i - 1]?.text ?? '');
}

/**
 * Both names give a father's name, and they are two names (Mikhail Ivanovich / Mikhail Yurevich
 * Alekseev, Ali bin Hassan / Ali bin Omar): another father, so another person, whatever else
 * agrees. Two names pair for no more than the other-name credit (compare.ts); a slip in one
 * (Borisovich / Boisovich) or another spelling of it pairs them for more, and a father's name
 * one side only leaves out is not a difference.
 */
function fatherDiffers(query: NormalizedName, cand: NormalizedName, alignment: readonly AlignedPair[]): boolean {
  let unmatchedQ = false;
  let unmatchedC = false;
  for (const a of alignment) {
    if (a.method === 'unmatched') {
      if (a.query !== null && fathersName(query.tokens, a.at[0])) unmatchedQ = true;
      if (a.candidate !== null && fathersName(cand.tokens, a.at[2])) unmatchedC = true;
      continue;
    }
    if (a.at[1] - a.at[0] !== 1 || a.at[3] - a.at[2] !== 1) continue;
    if (fathersName(query.tokens, a.at[0]) && fathersName(cand.tokens, a.at[2]) && a.similarity <= PARAMS.otherNameCredit) return true;
  }
  return unmatchedQ && unmatchedC;
}

/** Every name word of the subject's is a common name (common-names.ts): many people share the whole name. */
function everydayName(query: NormalizedName): boolean {
  const words = query.tokens.filter((t) => t.kind === 'given' || t.kind === 'family');
  return words.length > 0 && words.every((t) => t.common > 0);
}

/** The words that link a name to a father's (compare.ts), and walad, which the lists also write so ("Mafouz Walad Al-Walid"). */
const NASAB_LINKS: ReadonlySet<string> = new Set([...PATRONYMIC_LINKS, 'walad']);

/** Spelled differently, not as a listed equivalent or short form. */
const SPELLING_METHODS: ReadonlySet<string> = new Set(['edit_distance', 'jaro_winkler', 'phonetic', 'slip']);

/**
 * A common name of the subject's paired with another name by its spelling (compare.ts,
 * commonNameOther: "Jan" / "Juan", "Carter" / "Carper"): reviewed, never strong.
 */
function commonNameDiffers(query: NormalizedName, cand: NormalizedName, alignment: readonly AlignedPair[]): boolean {
  return alignment.some((a) => {
    if (!SPELLING_METHODS.has(a.method) || a.at[1] - a.at[0] !== 1 || a.at[3] - a.at[2] !== 1) return false;
    const q = query.tokens[a.at[0]];
    const c = cand.tokens[a.at[2]];
    return q !== undefined && c !== undefined && (commonNameOther(q, c) || otherName(q, c));
  });
}

interface Scored {
  cmp: NameComparison;
  name: IndexedName;
  /** The name's position in the index. */
  id: number;
  score: number;
  qualifiers: Qualifier[];
  strength: 'strong' | 'possible' | null;
  exact: boolean;
  /** Every part of the subject's name is in the listed name, and the listed name adds no part. */
  complete: boolean;
}

/**
 * Screens one subject. `scratch` is the caller's working memory (createScreenScratch), reused
 * across calls on one thread; without it each call makes its own (correct, slower on a
 * restored index).
 */
export function screen(index: ScreeningIndex, subject: SubjectInput, opts: ScreenOptions, scratch: ScreenScratch = createScreenScratch()): ScreenResult {
  const wanted = new Set(opts.lists);
  const threshold = opts.threshold ?? REPORT_THRESHOLD;
  const query = normalizeSubjectName(subject.first_name, subject.middle_name, subject.last_name);
  const weight = idfWeight(index);
  const everyday = everydayName(query);

  // Retrieval: each query token votes, with its IDF, for every name sharing one of its keys.
  // Typed arrays stamped per query and per token, walked through the ids in first-vote order.
  const voteStampNow = nextStamp(scratch, index.names.length);
  const { votes, voteStamp, hitStamp } = scratch;
  const voted: number[] = [];
  const perToken = keyGroups(query, new Map());
  // A token's vote is its informativeness (IDF) times its kind's weight: an initial says little.
  const informative = query.tokens.filter((t) => t.weight >= PARAMS.informativeWeight);
  const tokenVotes = perToken.map((_, i) => {
    const t = informative[i];
    return t ? weight(t.text) * t.weight : PARAMS.joinVote;
  });
  let total = 0;
  for (let i = 0; i < informative.length; i++) total += tokenVotes[i]!;
  const need = total * PARAMS.voteShare;
  // Heaviest votes first; once what the remaining tokens could add falls short of `need`, a name
  // none of the earlier tokens voted for can no longer become a candidate, so their (long, common)
  // postings only add to names already voted for. Same candidates, a fraction of the book-keeping.
  const order = perToken.map((_, i) => i).sort((a, b) => tokenVotes[b]! - tokenVotes[a]! || a - b);
  let potential = 0;
  for (const v of tokenVotes) potential += v * KEY_WEIGHT_MAX;
  let pool: number[] | null = null;
  for (const i of order) {
    const keys = perToken[i]!;
    const t = informative[i];
    const w = tokenVotes[i]!;
    const admit = potential >= need;
    potential -= w * KEY_WEIGHT_MAX;
    const hitStampNow = ++scratch.stamp;
    // Latin spellings are found by their own keys; skeletons are for other scripts.
    const skeletons = t !== undefined && t.script !== 'latin';
    const lists: Int32Array[] = [];
    const listWeights: number[] = [];
    let scan = 0;
    let search = 0;
    for (const k of keys) {
      if (!skeletons && k.charCodeAt(0) === 115 /* s: */) continue;
      const p = index.postings.get(k);
      if (!p) continue;
      const kw = KEY_WEIGHT[k[0]!] ?? PARAMS.keyWeightOther;
      if (kw <= 0) continue;
      lists.push(p);
      listWeights.push(kw);
      scan += p.length;
      search += Math.log2(p.length + 1) + 1;
    }
    // Only names already voted for that this and the remaining tokens could still lift to `need`
    // are worth a vote. Fewer of them than postings to read: look each one up (postings are in
    // increasing name order) instead of reading the postings through. A name out of reach stays
    // out (what it could still gain shrinks as fast as the bar rises), so each token filters the
    // last token's live names; and when even all of those would cost more to look up than the
    // postings to read, they are not filtered at all (a name out of reach that the reading lifts
    // still cannot reach `need`).
    const source = admit ? null : (pool ?? voted);
    if (source !== null && source.length * search < scan) {
      const live: number[] = [];
      const reach = need - w * KEY_WEIGHT_MAX - potential;
      for (const id of source) if (votes[id]! >= reach) live.push(id);
      pool = live;
      if (live.length * search < scan) {
        for (const id of live) {
          let best = 0;
          for (let l = 0; l < lists.length; l++) if (listWeights[l]! > best && contains(lists[l]!, id)) best = listWeights[l]!;
          if (best > 0) votes[id] = votes[id]! + w * best;
        }
        continue;
      }
    }
    // A name found under several of the token's keys votes once, with its best key's weight:
    // the keys are read best first, and a name already reached through a better (or equal) key
    // this token is passed over. One pass, no per-name book-keeping of weights.
    const byWeight = lists.length > 1 ? lists.map((_, l) => l).sort((a, b) => listWeights[b]! - listWeights[a]! || a - b) : [0];
    for (const l of byWeight) {
      const p = lists[l];
      if (p === undefined) continue;
      const add = w * listWeights[l]!;
      for (let j = 0; j < p.length; j++) {
        const id = p[j]!;
        if (hitStamp[id] === hitStampNow) continue;
        hitStamp[id] = hitStampNow;
        if (voteStamp[id] !== voteStampNow) {
          if (!admit) continue;
          voteStamp[id] = voteStampNow;
          votes[id] = 0;
          voted.push(id);
        }
        votes[id] = votes[id]! + add;
      }
    }
  }

  // Candidates are entities of the requested kinds, never names: a common name's many aliases
  // on one list must not crowd another list's record out of the comparison.
  const queryLength = query.text.length;
  const table = nameTable(index);
  // Each record's best vote (and, among equal votes, its name nearest the query's length: the
  // likelier same name), in typed arrays stamped per screen; then the best records kept.
  const entityStampNow = nextEntityStamp(scratch, index.entities.length);
  const { entityVote, entityGap, entityStamp } = scratch;
  const seenEntities: number[] = [];
  const passing: number[] = [];
  for (const id of voted) {
    const v = votes[id]!;
    if (v < need) continue;
    passing.push(id);
    const ei = table.entity[id]!;
    if (entityStamp[ei] !== entityStampNow) {
      if (!wanted.has(kindOf(index, table, ei))) continue;
      entityStamp[ei] = entityStampNow;
      entityVote[ei] = v;
      entityGap[ei] = Math.abs(table.length[id]! - queryLength);
      seenEntities.push(ei);
      continue;
    }
    const gap = Math.abs(table.length[id]! - queryLength);
    if (v > entityVote[ei]! || (v === entityVote[ei]! && gap < entityGap[ei]!)) {
      entityVote[ei] = v;
      entityGap[ei] = gap;
    }
  }
  const before = (a: number, b: number) => entityVote[b]! - entityVote[a]! || entityGap[a]! - entityGap[b]! || a - b;
  const top: number[] = [];
  for (const ei of seenEntities) {
    if (top.length === PARAMS.maxEntities && before(ei, top[top.length - 1]!) >= 0) continue;
    let at = top.length;
    while (at > 0 && before(ei, top[at - 1]!) < 0) at--;
    top.splice(at, 0, ei);
    if (top.length > PARAMS.maxEntities) top.pop();
  }
  const ranked = new Map<number, { names: number[] }>(top.map((ei) => [ei, { names: [] }]));
  for (const id of passing) ranked.get(table.entity[id]!)?.names.push(id);

  const queryWeights = Float64Array.from(query.tokens, (t) => tokenIdf(t, weight));
  // Numbers given on first comparison: room for every list token a candidate could bring.
  startPairMemo(scratch.pairs, TOKEN_NUMBERS.size + 64 * PARAMS.maxEntities * PARAMS.namesPerEntity);
  const best = new Map<number, Scored>();
  for (const [ei, cand] of ranked) {
    const entity = index.entities.at(ei);
    // In the record's order (its own name first) among equals: the order votes arrived in is not a reason.
    const names = cand.names.length > PARAMS.namesPerEntity ? cand.names.sort((a, b) => votes[b]! - votes[a]! || a - b).slice(0, PARAMS.namesPerEntity) : cand.names.sort((a, b) => a - b);
    for (const id of names) {
      const name = index.names[id]!;
      const norm = normOf(index, id, scratch);
      const known = comparedOf(index, id, norm, weight, scratch);
      const cmp = compareNames(query, norm, {
        scratch: scratch.match, queryWeights, candidateWeights: known.weights, floor: PARAMS.nameFloor, pairs: { memo: scratch.pairs, candidateIds: known.ids },
      });
      if (cmp.score < PARAMS.nameFloor) continue;
      const parts = partEvidence(query, norm, cmp, weight);
      const qualifiers = [...qualify(entity, subject, name.quality), ...parts.qualifiers];
      // A one-word alias ("Bilal") names nobody on its own: never exact, never strong. (A record
      // whose own name is one word, a mononym such as Suharto, is that name.)
      const oneWord = norm.tokens.filter(isNamePart).length <= 1 && entity.names[0]?.name !== name.name;
      const exact = cmp.exact && parts.surnameListed && name.quality === 'strong' && !oneWord;
      const score = Math.max(0, Math.min(100, Math.round(cmp.score * 100 + qualifiers.reduce((a, q) => a + q.effect, 0))));
      // Corroborated: nothing contradicts the record, except a country when the date of birth
      // matches exactly (people hold several nationalities and live abroad).
      const dobExact = qualifiers.some((q) => q.factor === 'dob_exact');
      const dobDiffers = qualifiers.some((q) => q.factor === 'dob_mismatch');
      const conflicting = qualifiers.some((q) => CONFLICTS.has(q.factor) && !(dobExact && q.factor === 'country_mismatch'));
      // A name read across scripts (Han, Hangul, Arabic... into Latin letters) is a guess at its
      // spelling: alone, like a low-quality alias, it is never strong; an agreeing date of birth
      // or country is.
      const corroborated = !cmp.reading || qualifiers.some((q) => CORROBORATES.has(q.factor));
      // The whole name must agree as names, and a record with nothing but a name (no date of birth,
      // country or identifier) is strong only on its exact full name; otherwise possible.
      // The listed first given name missing, or any listed part missing from an everyday name
      // (many Richard Smiths, one Ali Khamenei), is another person as often as the same one; an
      // exact date of birth identifies the person beyond the parts they did not give.
      const extra = extraListedParts(norm, cmp.alignment);
      const partsAgree = dobExact || (!extra.firstGiven && (extra.count === 0 || !everyday));
      const bare = entity.dobs.length === 0 && entity.countries.length === 0 && entity.ids.length === 0;
      const whole = partsAgree && !commonNameDiffers(query, norm, cmp.alignment) && (!bare || (exact && fullName(cmp.alignment)));
      // A full-name match: every part of the subject's name found, and no given name added.
      const complete = extra.count === 0 && !cmp.alignment.some((a) => a.method === 'unmatched' && a.query !== null);
      let strength: Scored['strength'] = null;
      // Only the family name agrees when the subject's given name met nothing but a listed middle
      // initial and the listed first name is missing ("Malachi Moore" / "Riley M. Moore"): no match.
      if (extra.firstGiven && !extra.givenNamed && cmp.alignment.some((a) => a.method === 'initial' && a.at[1] - a.at[0] === 1 && query.tokens[a.at[0]]?.kind === 'given')) continue;
      // Two fathers' names: another person, unless the date of birth says it is the same one.
      if (!dobExact && fatherDiffers(query, norm, cmp.alignment)) continue;
      // Without a date of birth or country that agrees, the name is all the evidence there is: it
      // must say who the person is. Common words (Mohammad, Ali, Khan, Li, Kim, Nguyen) say little,
      // so a name-only match is strong only on an exact full name of distinctive parts, and reported
      // at all, unless exact, only when what matched identifies enough (information).
      const identifies = information(query, norm, cmp.alignment);
      // A date of birth with day and month swapped is the same date typed the other way round. A
      // country backs a name only when the date of birth does not say another person: most of a
      // listed country's people share it.
      const backed = qualifiers.some((q) => q.factor === 'dob_exact' || q.factor === 'dob_year' || q.factor === 'dob_flipped' || (q.factor === 'country_match' && identifies >= PARAMS.countryInformation && !dobDiffers));
      const exactListed = exact && fullName(cmp.alignment);
      const distinctive = exactListed && identifies >= PARAMS.distinctiveName;
      // The listed person's own name: every part the subject gave met the listed name closely (a
      // slip at most, no sound-alike), the listed first given name and family name among them.
      // Every listed part given, it is reported on its score however common its words: a slip in a
      // listed name is how people type it. With listed parts left out (a middle name, a
      // patronymic, a second surname: "Andrey Ivanov" for Andrey Nikolayevich Ivanov), the words
      // given must identify as any other partial name's do: thousands of people are Andrey
      // Ivanov, Maria Fernandez or Ahmed Osman, and each would be the listed person's namesake.
      const ownMissing = ownNameMissing(query, norm, cmp.alignment);
      const shortName = !extra.firstGiven && !ownMissing && parts.surnameListed && !oneWord
        && cmp.alignment.every((a) => (a.method === 'unmatched' ? a.query === null : a.similarity >= PARAMS.shortNameSimilarity));
      // The name alone says who it is: the listed name in full (a slip at most), or words that
      // identify; without a date of birth, a name with parts the other lacks to the name-only floor.
      const reportFloor = !subject.date_of_birth && partialName(norm, cmp.alignment) ? PARAMS.nameOnlyInformation : PARAMS.reportInformation;
      const nameSays = ((shortName && !namePartsLeftOut(norm, cmp.alignment)) || (identifies >= reportFloor && !ownMissing)) && (name.quality === 'strong' || identifies >= PARAMS.distinctiveName);
      if (score >= STRONG_THRESHOLD && !conflicting && corroborated && whole && name.quality === 'strong' && !oneWord && (backed || distinctive)) strength = 'strong';
      // An exact, complete name on a published (not low-quality) name is never hidden by
      // what qualifies it: a typo in a date of birth must not hide a head of state.
      // The subject's name exactly as listed (every listed part, every subject part) is always
      // reported; a name that only shares some of a listed name's parts is not, against a date of birth.
      // (A threshold below the default, as benchmarks sweep, shows every candidate it admits.)
      // Nor when the person's own given name (either side's) is not in the other name: without a
      // date of birth that agrees, that is a relative as often as the person.
      // Nor, against a date of birth the record contradicts, a name that is not the listed one
      // exactly (a part left out, a patronymic or middle name among them, a spelling of its own):
      // two things would have to be wrong.
      else if ((score >= threshold && (backed || (nameSays && !(dobDiffers && !exactListed)) || threshold < REPORT_THRESHOLD)) || exactListed) strength = 'possible';
      const prev = best.get(ei);
      if (!prev || rank(strength, score, complete) > rank(prev.strength, prev.score, prev.complete)) best.set(ei, { cmp, name, id, score, qualifiers, strength, exact, complete });
    }
  }

  // One match per person (people.ts): the best-ranked record leads and every record of the
  // person is named. A clearing carries the match's hash (for a person on several records, a
  // digest of all of them) or, for each record, that record's own hash.
  const clearedBy = new Map<string, string[]>();
  for (const c of opts.cleared ?? []) clearedBy.set(c.entity_id, [...(clearedBy.get(c.entity_id) ?? []), c.record_hash]);
  const reported: [number, number][] = [];
  for (const [ei, m] of best) if (m.strength !== null) reported.push([ei, rank(m.strength, m.score, m.complete)]);
  const flags: string[] = [];
  const matches: ScreeningMatch[] = [];
  for (const { lead: ei, records } of foldPeople(index, reported)) {
    const m = best.get(ei)!;
    if (m.strength === null) continue;
    const e = index.entities.at(ei);
    const listed = records.map((i) => index.entities.at(i));
    const recordHash = personHash(listed);
    const carried = listed.flatMap((l) => clearedBy.get(l.id) ?? []);
    const cleared = carried.includes(recordHash) || listed.every((l) => clearedBy.get(l.id)?.includes(l.recordHash));
    const shown = shownAlignment(query, normOf(index, m.id, scratch), m.cmp.alignment);
    if (carried.length > 0 && !cleared) flags.push('CLEARED_MATCH_RECORD_CHANGED');
    matches.push({
      entity_id: e.id,
      list: e.kind,
      source: e.source,
      source_list: e.sourceList,
      schema: e.schema,
      name: e.names[0]?.name ?? m.name.name,
      aliases: e.names.slice(1, 11).map((n) => n.name),
      score: m.score,
      strength: m.strength,
      risk_level: matchLevel({ kind: e.kind, score: m.score, strength: m.strength }),
      programs: e.programs,
      dates_of_birth: e.dobs,
      countries: e.countries,
      listed_on: e.listedOn ?? null,
      record_hash: recordHash,
      cleared,
      listings: listed.map((l) => ({
        entity_id: l.id, source: l.source, source_list: l.sourceList, name: l.names[0]?.name ?? '', programs: l.programs, listed_on: l.listedOn ?? null, record_hash: l.recordHash,
      })),
      explanation: {
        matched_name: m.name.name,
        matched_name_quality: m.name.quality,
        name_score: Math.round(m.cmp.score * 1000) / 1000,
        exact_name: m.exact,
        summary: summary(m.exact, shown, m.name.quality, m.qualifiers),
        alignment: shown.map(({ reading: _reading, ...a }) => ({ ...a, similarity: Math.round(a.similarity * 1000) / 1000 })),
        qualifiers: m.qualifiers,
      },
    });
  }
  const completeOf = new Map([...best].map(([ei, m]) => [index.entities.at(ei).id, m.complete]));
  matches.sort((a, b) => rank(b.strength, b.score, completeOf.get(b.entity_id)) - rank(a.strength, a.score, completeOf.get(a.entity_id)) || KIND_ORDER[a.list] - KIND_ORDER[b.list] || a.entity_id.localeCompare(b.entity_id));
  return { matches: matches.slice(0, PARAMS.maxMatches), flags: [...new Set(flags)], candidates: ranked.size };
}

/** Among equally ranked matches, the list that weighs most comes first (risk.ts). */
const KIND_ORDER: Readonly<Record<ListKind, number>> = { sanctions: 0, wanted: 1, rca: 2, pep: 3 };

/** Order of matches: strong before possible, then the subject's exact full name before a partial one, then by score. */
function rank(strength: Scored['strength'] | ScreeningMatch['strength'], score: number, complete = false): number {
  return (strength === 'strong' ? 2000 : strength === 'possible' ? 1000 : 0) + (complete ? 500 : 0) + score;
}

/**
 * How much the matched part of the subject's name identifies a person, in powers of ten: the sum,
 * over the subject's name words that met a listed word, of -log10 of the share of people who carry
 * the word (NameToken.share), times the pair's similarity when it is under 0.9. Initials, particles
 * and titles say nothing; a word no source knows says PARAMS.rareWordInformation.
 */
function information(query: NormalizedName, cand: NormalizedName, alignment: readonly AlignedPair[]): number {
  const cap = PARAMS.rareWordInformation;
  // A Mandarin reading says the name is Chinese only when there are two parts to read ("Putin" alone reads as pu-tin).
  const chinese = query.romanisation !== null && query.tokens.filter(isNamePart).length >= 2;
  let sum = 0;
  for (const a of alignment) {
    // A word paired with another name (Morozova / Borisova) says nothing of who the person is.
    if (a.method === 'unmatched' || a.at[0] < 0 || anotherName(a)) continue;
    // A word written in another script, or spelled another way, is as common as the listed word it met.
    let listed = 0;
    for (let j = a.at[2]; j < a.at[3]; j++) listed = Math.max(listed, cand.tokens[j]?.share ?? 0);
    for (let i = a.at[0]; i < a.at[1]; i++) {
      const t = query.tokens[i];
      if (t === undefined || !isNamePart(t)) continue;
      const most = (chinese && t.mandarin !== '') || t.text.length <= 3 ? PARAMS.syllableInformation : cap;
      const share = Math.max(t.share, listed);
      // A close reading (Putyin / Putin, 0.9 and over) says as much as the word; a looser one less.
      sum += (a.similarity >= 0.9 ? 1 : a.similarity) * (share > 0 ? Math.min(most, -Math.log10(share)) : most);
    }
  }
  return sum;
}

/** The pair's words are two names, not spellings of one (compare.ts, otherName): credit at the other-name level or under. */
function anotherName(a: Pick<AlignedPair, 'method' | 'similarity'>): boolean {
  return SPELLING_METHODS.has(a.method) && a.similarity <= PARAMS.otherNameCredit;
}

/** A listed given, family or other name word (not an initial, title or particle) met no word of the subject's. */
function namePartsLeftOut(cand: NormalizedName, alignment: readonly AlignedPair[]): boolean {
  return alignment.some((a) => a.method === 'unmatched' && a.candidate !== null && cand.tokens.slice(a.at[2], a.at[3]).some((t) => isNamePart(t) && t.text.length > 1));
}

/**
 * Either side has a name part the other lacks: a listed middle name or patronymic not given, or a
 * part given that the listed name does not have. Without a date of birth such a name is held to
 * the name-only floor (PARAMS.nameOnlyInformation); a whole name with a slip in it is not.
 */
function partialName(cand: NormalizedName, alignment: readonly AlignedPair[]): boolean {
  return namePartsLeftOut(cand, alignment) || alignment.some((a) => a.method === 'unmatched' && a.query !== null);
}

/** No listed name part (given, family or other word) is left unmatched: the exact full name. */
function fullName(alignment: readonly AlignedPair[]): boolean {
  return !alignment.some((a) => a.method === 'unmatched' && a.candidate !== null && a.candidate.length > 1);
}
