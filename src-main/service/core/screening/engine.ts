// The screening engine: an in-memory index over the loaded lists, candidate retrieval that
// never scans every record, the name comparison of match/, and the qualifiers (date of birth,
// country, gender, alias quality) that turn a name score into a match score with an
// explanation. Pure: lists in, matches out; nothing is written anywhere.
import type { ClearedMatch, ListKind, MatchExplanation, ScreeningMatch } from '../../../../src-shared/contracts/screening';
import { compareNames, type NameComparison } from './match/compare';
import { normalizeName, type NormalizedName } from './match/normalize';
import type { ListEntity } from './types';

/** Match score (0-100) at or above which a match is reported, and above which it is strong. */
export const REPORT_THRESHOLD = 70;
export const STRONG_THRESHOLD = 85;
/** Name score below which a candidate is not worth qualifying. */
const NAME_FLOOR = 0.6;
/** Points per (IDF-weighted) subject name part missing from the listed name. */
const QUERY_EXTRA_COST = 8;
/** How many retrieved candidates get the full comparison. */
const MAX_CANDIDATES = 24;

interface IndexedName {
  entity: number;
  name: string;
  quality: 'strong' | 'weak';
  /** Normalised when indexed, or on first comparison for an index restored from a snapshot. */
  norm?: NormalizedName;
}

export interface ScreeningIndex {
  entities: readonly ListEntity[];
  names: readonly IndexedName[];
  postings: ReadonlyMap<string, Int32Array>;
  df: ReadonlyMap<string, number>;
  kinds: ReadonlySet<ListKind>;
  stats: { entities: number; names: number; keys: number; build_ms: number };
}

/** Screenable record kinds for an individual: people, and records whose type the list omits. */
function screenable(e: ListEntity): boolean {
  return e.schema === 'person' || e.schema === 'unknown';
}

/**
 * Retrieval keys of one token, each with how strongly a hit on it suggests the same token:
 * the text and its variant key, the phonetic key, and the first and last four letters (a typo
 * rarely touches both ends of a word).
 */
function tokenKeys(text: string, key: string, phonetic: string, loose: string): string[] {
  const out = [`t:${text}`];
  if (key !== text) out.push(`t:${key}`);
  if (phonetic.length >= 2) out.push(`p:${phonetic}`);
  if (text.length >= 5) out.push(`f:${text.slice(0, 4)}`, `e:${text.slice(-4)}`);
  // The loose consonant skeleton finds transcriptions whose vowels and affricates differ
  // ("puchin", "putsin", "fvtyn" for Putin).
  if (loose.length >= 3) out.push(`s:${loose}`);
  return out;
}

const KEY_WEIGHT: Record<string, number> = { t: 1, p: 0.9, s: 0.7, f: 0.6, e: 0.6 };

/** Keys per informative token and per joined run of a name; memoised, names repeat tokens a lot. */
function keyGroups(n: NormalizedName, memo: Map<string, string[]>): string[][] {
  const groups: string[][] = [];
  const get = (text: string, key: string, phonetic: string, loose: string) => {
    const id = `${text}|${key}|${phonetic}|${loose}`;
    let k = memo.get(id);
    if (!k) memo.set(id, (k = tokenKeys(text, key, phonetic, loose)));
    return k;
  };
  for (const t of n.tokens) if (t.weight >= 0.3) groups.push(get(t.text, t.key, t.phonetic[0], t.loose));
  for (const j of n.joins) groups.push(get(j.text, j.text, '', ''));
  return groups;
}

/** Adds the names of entities[from..] to the index under construction. */
function indexEntities(
  entities: readonly ListEntity[], from: number, names: IndexedName[], lists: Map<string, number[]>, df: Map<string, number>, kinds: Set<ListKind>,
): void {
  const memo = new Map<string, string[]>();
  for (let ei = from; ei < entities.length; ei++) {
    const e = entities[ei]!;
    kinds.add(e.kind);
    if (!screenable(e)) continue;
    const seen = new Set<string>();
    for (const n of e.names) {
      const norm = normalizeName(n.name, 'person');
      if (norm.tokens.length === 0 || seen.has(norm.text)) continue;
      seen.add(norm.text);
      const id = names.length;
      names.push({ entity: ei, name: n.name, quality: n.quality, norm });
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

export function buildIndex(entities: readonly ListEntity[]): ScreeningIndex {
  const started = performance.now();
  const names: IndexedName[] = [];
  const lists = new Map<string, number[]>();
  const df = new Map<string, number>();
  const kinds = new Set<ListKind>();
  indexEntities(entities, 0, names, lists, df, kinds);
  const postings = new Map<string, Int32Array>();
  for (const [k, v] of lists) postings.set(k, Int32Array.from(v));
  return {
    entities, names, postings, df, kinds,
    stats: { entities: entities.length, names: names.length, keys: postings.size, build_ms: Math.round(performance.now() - started) },
  };
}

/**
 * The index of `base` plus more entities (an organisation's own lists on top of the shipped
 * ones), built without re-normalising the base. Same result as buildIndex over all of them.
 */
export function extendIndex(base: ScreeningIndex, more: readonly ListEntity[]): ScreeningIndex {
  if (more.length === 0) return base;
  const started = performance.now();
  const entities = [...base.entities, ...more];
  const names = [...base.names];
  const lists = new Map<string, number[]>();
  const df = new Map(base.df);
  const kinds = new Set(base.kinds);
  indexEntities(entities, base.entities.length, names, lists, df, kinds);
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
  return {
    entities, names, postings, df, kinds,
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
  };
}

/** Rebuilds an index from indexData over the same entities; names are normalised when first compared. */
export function restoreIndex(entities: readonly ListEntity[], d: IndexData): ScreeningIndex {
  const started = performance.now();
  const names: IndexedName[] = d.nameText.map((name, i) => ({ entity: d.nameEntity[i]!, name, quality: d.nameStrong[i] === 1 ? 'strong' : 'weak' }));
  const postings = new Map<string, Int32Array>();
  d.keys.forEach((k, i) => postings.set(k, d.data.subarray(d.offsets[i]!, d.offsets[i + 1]!)));
  const df = new Map<string, number>();
  d.dfTokens.forEach((t, i) => df.set(t, d.dfCounts[i]!));
  return {
    entities, names, postings, df, kinds: new Set(d.kinds),
    stats: { entities: entities.length, names: names.length, keys: postings.size, build_ms: Math.round(performance.now() - started) },
  };
}

function normOf(n: IndexedName): NormalizedName {
  return (n.norm ??= normalizeName(n.name, 'person'));
}

/** Informativeness of a token over the indexed names: ~1 for rare names, less for Mohammed or Ali. */
export function idfWeight(index: ScreeningIndex): (token: string) => number {
  const n = Math.max(10, index.names.length);
  const denom = Math.log(n / 5);
  return (token) => {
    const d = index.df.get(token);
    if (!d) return 1;
    return 0.15 + 0.85 * Math.min(1, Math.max(0, Math.log(n / d) / denom));
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

function qualify(e: ListEntity, s: SubjectInput, quality: 'strong' | 'weak'): MatchExplanation['qualifiers'] {
  const q: MatchExplanation['qualifiers'] = [];
  if (s.date_of_birth && e.dobs.length > 0) {
    const dob = s.date_of_birth;
    const year = Number(dob.slice(0, 4));
    if (e.dobs.includes(dob)) q.push({ factor: 'dob_exact', effect: 8, detail: 'date of birth matches exactly' });
    else if (e.dobs.some((d) => d.length < 10 && dob.startsWith(d))) q.push({ factor: 'dob_year', effect: 4, detail: 'year of birth matches' });
    else if (e.dobs.some((d) => Number(d.slice(0, 4)) === year)) q.push({ factor: 'dob_year', effect: 2, detail: 'year of birth matches, day differs' });
    else if (e.dobs.some((d) => Math.abs(Number(d.slice(0, 4)) - year) === 1)) q.push({ factor: 'dob_near', effect: -4, detail: 'year of birth differs by one' });
    else q.push({ factor: 'dob_mismatch', effect: -25, detail: 'date of birth differs from every listed one' });
  }
  if (s.country && e.countries.length > 0) {
    if (e.countries.includes(s.country)) q.push({ factor: 'country_match', effect: 3, detail: `country ${s.country} is listed` });
    else q.push({ factor: 'country_mismatch', effect: -6, detail: 'country differs from the listed ones' });
  }
  const g = gender(s.gender);
  if (g && e.gender) {
    if (g === e.gender) q.push({ factor: 'gender_match', effect: 1, detail: 'gender matches' });
    else q.push({ factor: 'gender_mismatch', effect: -12, detail: 'gender differs' });
  }
  if (quality === 'weak') q.push({ factor: 'weak_alias', effect: -8, detail: 'matched a low-quality alias' });
  // Records whose type the list omits (CSL Commerce/State rows) may be companies.
  if (e.schema === 'unknown') q.push({ factor: 'record_type_unknown', effect: -4, detail: 'the list does not say this record is a person' });
  return q;
}

export function screen(index: ScreeningIndex, subject: SubjectInput, opts: ScreenOptions): ScreenResult {
  const wanted = new Set(opts.lists);
  const threshold = opts.threshold ?? REPORT_THRESHOLD;
  const full = [subject.first_name, subject.middle_name, subject.last_name].filter(Boolean).join(' ');
  const query = normalizeName(full, 'person');
  const weight = idfWeight(index);
  const kindWeight = new Map(query.tokens.map((t) => [t.text, t.weight]));

  // Retrieval: each query token votes, with its IDF, for every name sharing one of its keys.
  const votes = new Map<number, number>();
  let total = 0;
  const perToken = keyGroups(query, new Map());
  // A token's vote is its informativeness (IDF) times its kind's weight: an initial says little.
  const informative = query.tokens.filter((t) => t.weight >= 0.3);
  perToken.forEach((keys, i) => {
    const t = informative[i];
    const w = t ? weight(t.text) * t.weight : 0.5;
    if (t) total += w;
    const hit = new Map<number, number>();
    // Latin spellings are found by their own keys; skeletons are for other scripts.
    const skeletons = t !== undefined && t.script !== 'latin';
    for (const k of keys) {
      if (!skeletons && k.charCodeAt(0) === 115 /* s: */) continue;
      const p = index.postings.get(k);
      if (!p) continue;
      const kw = KEY_WEIGHT[k[0]!] ?? 0.5;
      for (let j = 0; j < p.length; j++) {
        const id = p[j]!;
        if ((hit.get(id) ?? 0) < kw) hit.set(id, kw);
      }
    }
    for (const [id, kw] of hit) votes.set(id, (votes.get(id) ?? 0) + w * kw);
  });
  const need = total * 0.45;
  const ranked = [...votes].filter(([, v]) => v >= need).sort((a, b) => b[1] - a[1]).slice(0, MAX_CANDIDATES);

  const best = new Map<number, { cmp: NameComparison; name: IndexedName; score: number; qualifiers: MatchExplanation['qualifiers'] }>();
  for (const [id] of ranked) {
    const name = index.names[id]!;
    const entity = index.entities[name.entity]!;
    if (!wanted.has(entity.kind)) continue;
    const cmp = compareNames(query, normOf(name), { tokenWeight: weight });
    if (cmp.score < NAME_FLOOR) continue;
    const qualifiers = qualify(entity, subject, name.quality);
    // A part of the subject's own name that the listed name lacks is evidence of a different
    // person (lists record fuller names than customers give, not the other way round).
    // Titles, particles and legal forms are not name parts: they count with their kind's weight.
    const missing = cmp.alignment.filter((a) => a.method === 'unmatched' && a.query !== null && a.candidate === null);
    let missingWeight = 0;
    for (const a of missing) for (const tok of a.query!.split(' ')) if (tok) missingWeight += weight(tok) * (kindWeight.get(tok) ?? 1);
    const missingCost = Math.round(QUERY_EXTRA_COST * missingWeight);
    if (missingCost > 0) {
      qualifiers.push({ factor: 'subject_name_part_unlisted', effect: -missingCost, detail: 'part of the subject\'s name is not in the listed name' });
    }
    const score = Math.max(0, Math.min(100, Math.round(cmp.score * 100 + qualifiers.reduce((a, q) => a + q.effect, 0))));
    const prev = best.get(name.entity);
    if (!prev || score > prev.score) best.set(name.entity, { cmp, name, score, qualifiers });
  }

  const cleared = new Map((opts.cleared ?? []).map((c) => [c.entity_id, c.record_hash]));
  const flags: string[] = [];
  const matches: ScreeningMatch[] = [];
  for (const [ei, m] of best) {
    if (m.score < threshold) continue;
    const e = index.entities[ei]!;
    const clearedHash = cleared.get(e.id);
    if (clearedHash !== undefined && clearedHash !== e.recordHash) flags.push('CLEARED_MATCH_RECORD_CHANGED');
    matches.push({
      entity_id: e.id,
      list: e.kind,
      source: e.source,
      source_list: e.sourceList,
      schema: e.schema,
      name: e.names[0]?.name ?? m.name.name,
      aliases: e.names.slice(1, 11).map((n) => n.name),
      score: m.score,
      strength: m.score >= STRONG_THRESHOLD ? 'strong' : 'possible',
      programs: e.programs,
      dates_of_birth: e.dobs,
      countries: e.countries,
      record_hash: e.recordHash,
      cleared: clearedHash === e.recordHash,
      explanation: {
        matched_name: m.name.name,
        matched_name_quality: m.name.quality,
        name_score: Math.round(m.cmp.score * 1000) / 1000,
        alignment: m.cmp.alignment.map((a) => ({ ...a, similarity: Math.round(a.similarity * 1000) / 1000 })),
        qualifiers: m.qualifiers,
      },
    });
  }
  matches.sort((a, b) => b.score - a.score || a.entity_id.localeCompare(b.entity_id));
  return { matches: matches.slice(0, 25), flags: [...new Set(flags)], candidates: ranked.length };
}
