// Name comparison: one-to-one token alignment, then a score that separates three kinds of
// disagreement. A token one name has and the other lacks ("Vladimir Vladimirovich Putin" vs
// "Vladimir Putin") is cheap: lists record fuller names than queries. A token each side has
// but which does not match the other's ("al-Dulaimi" vs "al-Tikriti") is a contradiction and
// costs a lot. A fuzzy pair costs in proportion to how fuzzy it is.

import { consonantSkeleton, createSimilarityScratch, editSimilarity, jaroWinkler, levenshteinSimilarity, type SimilarityScratch } from './similarity';
import { isVowelUnreliable, nameShare, normalizeName, toNameSchema, VIETNAMESE_FAMILY, type NameToken, type NormalizedName, type Script } from './normalize';
import { PARAMS } from './params';
import { SPELLING_PAIRS } from './name-stats';

export { PARAMS } from './params';

export type AlignmentMethod =
  | 'exact'
  | 'equivalent'
  | 'phonetic'
  | 'jaro_winkler'
  | 'edit_distance'
  | 'initial'
  | 'joined'
  | 'nickname'
  | 'slip'
  | 'repeated'
  | 'unmatched';

export interface AlignedPair {
  /** Query token(s); several tokens (space-separated) when they matched one joined token. */
  query: string | null;
  candidate: string | null;
  method: AlignmentMethod;
  /** How much the pair counted as a match, 0..1 (1 = identical or equivalent spelling). */
  similarity: number;
  /** Token positions [start, end) in the query and candidate (-1 when the side is empty), for shownAlignment. */
  at: readonly [number, number, number, number];
}

/** An aligned pair as people read it: the words as written (non-Latin words in their own characters). */
export interface ShownPair {
  query: string | null;
  candidate: string | null;
  method: AlignmentMethod;
  similarity: number;
  /** How a word in another script was read against the other name's letters; null for Latin alone. */
  romanisation: string | null;
  /**
   * For the explanation's summary, never in the response's alignment: the non-Latin side's
   * words in Latin letters as the matcher read them ("Ahmad" for حمد), and that side's script.
   */
  reading: { latin: string; script: string } | null;
}

/** The alignment in the subject's and the list's own words, with the romanisation used; never comparison keys. */
export function shownAlignment(query: NormalizedName, candidate: NormalizedName, alignment: readonly AlignedPair[]): ShownPair[] {
  return alignment.map((a) => {
    const [qs, qe, cs, ce] = a.at;
    return {
      query: qs < 0 ? null : spanShown(query.tokens, qs, qe),
      candidate: cs < 0 ? null : spanShown(candidate.tokens, cs, ce),
      method: a.method,
      similarity: a.similarity,
      romanisation: (qs < 0 ? null : romanisationOf(query.tokens, qs, qe)) ?? (cs < 0 ? null : romanisationOf(candidate.tokens, cs, ce)),
      reading: (qs < 0 ? null : readingOf(query.tokens, qs, qe)) ?? (cs < 0 ? null : readingOf(candidate.tokens, cs, ce)),
    };
  });
}

export interface NameComparison {
  score: number;
  alignment: AlignedPair[];
  penalties: string[];
  /**
   * Every part of the query's name (two or more) is in the candidate, spelled the same or as an
   * equivalent, through no guessed reading: the candidate may only add parts. The screening
   * engine never hides such a match behind its qualifiers.
   */
  exact: boolean;
  /** Some aligned pair reads one script in another where the romanisation is a guess (Han, Hangul, Arabic...). */
  reading: boolean;
}

export interface CompareOptions {
  /**
   * Informativeness of a token, typically IDF over the list (1 = ordinary). Multiplies the
   * token's base weight, so common names ("mohammed", "ali") count less. Default uniform.
   */
  tokenWeight?: (token: string) => number;
  /**
   * Working memory of the comparison (createMatchScratch); a caller comparing many names keeps
   * one and passes it every time. Default: a fresh one per call.
   */
  scratch?: MatchScratch;
  /**
   * The informativeness of each query / candidate token, when the caller already has it (the
   * engine computes a query's once and an indexed name's once per index): used instead of
   * `tokenWeight`.
   */
  queryWeights?: ArrayLike<number>;
  candidateWeights?: ArrayLike<number>;
  /**
   * A score under which the caller has no use for the comparison: such a comparison comes back
   * with its score only (no alignment, penalties or exactness), which most of a screening's
   * comparisons are.
   */
  floor?: number;
  /**
   * Token-pair credits remembered for one query across candidates (a screening compares one
   * query's words with the same list words many times): `candidateIds` numbers the candidate's
   * tokens so that equal tokens share a number (tokenSignature).
   */
  pairs?: { memo: PairMemo; candidateIds: ArrayLike<number> };
}

/**
 * Credits of (query token, list token) pairs for one query, by query position and list token
 * number; valid where `seen` holds the current stamp. Owned by one screening at a time
 * (startPairMemo), so nothing of a query outlives it but numbers.
 */
export interface PairMemo {
  stamp: number;
  size: number;
  seen: Uint32Array[];
  credit: Float64Array[];
  method: Uint8Array[];
}

export function createPairMemo(): PairMemo {
  return { stamp: 0, size: 0, seen: [], credit: [], method: [] };
}

/** Starts remembering pairs for a new query whose list tokens are numbered below `tokens`. */
export function startPairMemo(memo: PairMemo, tokens: number): void {
  if (memo.size < tokens || memo.stamp >= 0xfffffff0) {
    memo.size = Math.max(tokens, memo.size * 2, 1024);
    memo.seen = [];
    memo.credit = [];
    memo.method = [];
    memo.stamp = 0;
  }
  memo.stamp++;
}

function memoRow(memo: PairMemo, row: number): number {
  while (memo.seen.length <= row) {
    memo.seen.push(new Uint32Array(memo.size));
    memo.credit.push(new Float64Array(memo.size));
    memo.method.push(new Uint8Array(memo.size));
  }
  return row;
}

/** The credit remembered at (`row`, `id`) this screen, setting `s.method`; -1 when there is none yet. */
function recalled(s: MatchScratch, memo: PairMemo, row: number, id: number): number {
  if ((memo.seen[row] as Uint32Array)[id] !== memo.stamp) return -1;
  s.method = (memo.method[row] as Uint8Array)[id] as M;
  return (memo.credit[row] as Float64Array)[id] as number;
}

/** Remembers `credit` and `s.method` at (`row`, `id`) for the rest of the screen; returns the credit. */
function remember(s: MatchScratch, memo: PairMemo, row: number, id: number, credit: number): number {
  (memo.seen[row] as Uint32Array)[id] = memo.stamp;
  (memo.credit[row] as Float64Array)[id] = credit;
  (memo.method[row] as Uint8Array)[id] = s.method;
  return credit;
}

/** tokenCredit of `a` and the candidate's `j`th token `b`, remembered in `row` of the memo; sets `s.method`. */
function memoCredit(s: MatchScratch, pairs: NonNullable<CompareOptions['pairs']>, row: number, a: NameToken, b: NameToken, j: number): number {
  const id = pairs.candidateIds[j] as number;
  const known = recalled(s, pairs.memo, row, id);
  return known >= 0 ? known : remember(s, pairs.memo, row, id, tokenCredit(s, a, b));
}

/**
 * What tokenCredit reads of a token, as one string: tokens with equal signatures earn equal
 * credit against any token (the word's position in its name is not read).
 */
export function tokenSignature(t: NameToken): string {
  return [t.text, t.kind, t.key, t.script, t.native, t.mandarin, t.vietnamese ? 1 : 0, t.skeleton, t.skeletonAlt, t.loose, t.phonetic[0], t.phonetic[1], t.acronym ? 1 : 0, t.known ? 1 : 0,
    t.transcribed ? 1 : 0, t.common, t.share, t.weight, t.surface, t.shortFor.join(',')].join('\u0001');
}

/** Score at or above which a pair is reported as a potential match (tuned on the name bench). */
export const DEFAULT_THRESHOLD = PARAMS.nameThreshold;

/** Logistic credit rescaled so that similarity 1 earns exactly 1; tiny credits are dropped. */
function logisticCredit(sim: number, mid: number, steep: number): number {
  const top = 1 + Math.exp(-steep * (1 - mid));
  const c = top / (1 + Math.exp(-steep * (sim - mid)));
  return c < PARAMS.creditFloor ? 0 : c > 1 ? 1 : c;
}

const enum M {
  Exact,
  Equivalent,
  Phonetic,
  JaroWinkler,
  EditDistance,
  Initial,
  Joined,
  Nickname,
  Slip,
}

const METHOD_NAMES: readonly AlignmentMethod[] = [
  'exact',
  'equivalent',
  'phonetic',
  'jaro_winkler',
  'edit_distance',
  'initial',
  'joined',
  'nickname',
  'slip',
];

interface Edge {
  qs: number;
  qe: number;
  cs: number;
  ce: number;
  credit: number;
  method: M;
  /** Matched weight is the smaller side's, the rest counts as extra (initials). */
  asymmetric: boolean;
}

/**
 * Working memory of compareNames, owned by its caller: comparisons run in tight loops, so the
 * arrays only ever grow to the largest name pair seen and are reused. One per thread of work;
 * nothing in it outlives a call except capacity.
 */
export interface MatchScratch {
  /** Result of tokenCredit/stringCredit besides the credit: the method that won... */
  method: M;
  /** ... and the edit similarity computed on the way (-1 = none). */
  edit: number;
  /** Set per comparison: both names read as Mandarin and one of them is in Wade-Giles. */
  mandarinPair: boolean;
  /** Candidate edges; edgeCount of them are live. */
  pool: Edge[];
  edgeCount: number;
  /** Per-token weights (matched, penalty) and alignment marks of each side. */
  size: number;
  wq: Float64Array;
  wc: Float64Array;
  pq: Float64Array;
  pc: Float64Array;
  usedQ: Uint8Array;
  usedC: Uint8Array;
  sim: SimilarityScratch;
}

export function createMatchScratch(): MatchScratch {
  return {
    method: M.Exact, edit: -1, mandarinPair: false, pool: [], edgeCount: 0, size: 0,
    wq: new Float64Array(0), wc: new Float64Array(0), pq: new Float64Array(0), pc: new Float64Array(0),
    usedQ: new Uint8Array(0), usedC: new Uint8Array(0), sim: createSimilarityScratch(),
  };
}

function isName(t: NameToken): boolean {
  return t.kind === 'given' || t.kind === 'family' || t.kind === 'token';
}

/** A given or family name of a person's name (not a word of an organisation's). */
function isPersonName(t: NameToken): boolean {
  return t.kind === 'given' || t.kind === 'family';
}

function phoneticEqual(a: NameToken, b: NameToken): boolean {
  const [ap, as] = a.phonetic;
  const [bp, bs] = b.phonetic;
  if (ap.length < 2 || bp.length < 2) return false;
  return ap === bp || ap === bs || as === bp || (as.length >= 2 && as === bs);
}

/**
 * Credit for two strings judged by spelling alone: the best of weighted edit distance,
 * Jaro-Winkler (only for similar lengths: its prefix bonus otherwise rewards "Lind" vs
 * "Lindemann") and, across scripts that drop vowels, consonant skeletons.
 */
function stringCredit(
  s: MatchScratch, a: string, b: string, skelA: string, skelB: string, crossScript: boolean, articleA: boolean, articleB: boolean, jw = true, spelledVowels = false,
): number {
  const la = a.length;
  const lb = b.length;
  const maxLen = la > lb ? la : lb;
  const minLen = la > lb ? lb : la;
  let best = 0;
  let method = M.EditDistance;
  s.edit = -1;
  if (minLen / maxLen >= PARAMS.editLengthRatio) {
    const ed = editSimilarity(a, b, s.sim);
    s.edit = ed;
    // Short tokens are easy to hit by chance: "BD" vs "BP" must not count.
    best = maxLen <= PARAMS.shortToken ? (ed >= PARAMS.shortTokenEdit ? logisticCredit(ed, PARAMS.editMid, PARAMS.editSteep) : 0) : logisticCredit(ed, PARAMS.editMid, PARAMS.editSteep);
    if (jw && minLen / maxLen >= PARAMS.jwLengthRatio && maxLen >= PARAMS.jwMinLength) {
      const c = logisticCredit(jaroWinkler(a, b, s.sim), PARAMS.jwMid, PARAMS.jwSteep);
      if (c > best) {
        best = c;
        method = M.JaroWinkler;
      }
    }
  }
  if (crossScript && skelA.length > 0 && skelB.length > 0) {
    let sk = levenshteinSimilarity(skelA, skelB, s.sim);
    let shortest = skelA.length < skelB.length ? skelA.length : skelB.length;
    // Arabic's article is often glued on in transliteration ("lsysy" = al-Sisi).
    if (articleA && sk < 1 && skelA.length > 2) {
      const alt = levenshteinSimilarity(skelA.slice(1), skelB, s.sim);
      if (alt > sk) {
        sk = alt;
        shortest = Math.min(skelA.length - 1, skelB.length);
      }
    }
    if (articleB && sk < 1 && skelB.length > 2) {
      const alt = levenshteinSimilarity(skelA, skelB.slice(1), s.sim);
      if (alt > sk) {
        sk = alt;
        shortest = Math.min(skelA.length, skelB.length - 1);
      }
    }
    // Arabic writes a doubled consonant once (معمر "mmr" is Muammar): compare without doubles.
    if (sk < 1) {
      const sa = squeeze(skelA);
      const sb = squeeze(skelB);
      if (sa !== skelA || sb !== skelB) {
        const alt = levenshteinSimilarity(sa, sb, s.sim);
        if (alt > sk) {
          sk = alt;
          shortest = Math.min(sa.length, sb.length);
        }
      }
    }
    // Two consonants are weak evidence, unless the spellings agree as well (Khmer "hon" / Hun).
    // Indic scripts write their vowels: there, a skeleton without the spelling is a coincidence.
    const c = spelledVowels && s.edit < PARAMS.indicSpelling ? 0 : skeletonCurve(sk, shortest, s.edit >= PARAMS.skeletonSpelled);
    if (c > best) {
      best = c;
      method = M.Phonetic;
    }
  }
  s.method = method;
  return best > 1 ? 1 : best;
}

function squeeze(skeleton: string): string {
  let out = '';
  for (let i = 0; i < skeleton.length; i++) if (skeleton[i] !== skeleton[i - 1]) out += skeleton[i];
  return out;
}

/** Credit for skeleton similarity `sk`; one or two consonants are weak evidence, many names share them. */
function skeletonCurve(sk: number, shortest: number, spelled = false): number {
  const top = shortest === 1 ? PARAMS.skeletonCredit1 : shortest === 2 && !spelled ? PARAMS.skeletonCredit2 : PARAMS.skeletonCredit;
  return sk >= PARAMS.skeletonMin ? (top * (sk - PARAMS.skeletonOrigin)) / (1 - PARAMS.skeletonOrigin) : 0;
}

function skeletonCredit(s: MatchScratch, a: string, b: string): number {
  if (a.length === 0 || b.length === 0) return 0;
  return skeletonCurve(levenshteinSimilarity(a, b, s.sim), a.length < b.length ? a.length : b.length);
}

/**
 * Baltic languages decline names, and the nominative ending is part of the written name:
 * Lithuanian "Putinas", "Vladimiras", Latvian "Putins". One token being the other plus such
 * an ending is the same name.
 */
const BALTIC_ENDINGS = ['as', 'is', 'ys', 'us', 's'];
function balticInflection(a: string, b: string): boolean {
  const d = a.length - b.length;
  if (d === 0 || d > 2 || d < -2) return false; // hot path: most pairs stop here
  const short = d < 0 ? a : b;
  const long = d < 0 ? b : a;
  if (short.length < 4 || !long.startsWith(short)) return false;
  const ending = long.slice(short.length);
  return BALTIC_ENDINGS.includes(ending) && !/[aeiouys]$/.test(short);
}

/**
 * Endings and beginnings that make names out of other names (patronymics, "son of", "servant
 * of"), shared by many unrelated people: two tokens sharing one are compared on the rest.
 */
const NAME_SUFFIXES = ['sdottir', 'dottir', 'sson', 'shvili', 'ishvili', 'zadeh', 'oglu', 'ovich', 'evich', 'ovna', 'evna', 'enko'];
const NAME_PREFIXES = ['abdur', 'abdul', 'abdel', 'abdal', 'abdol', 'abd'];

function sharedAffix(a: string, b: string): [string, string] | null {
  for (const suf of NAME_SUFFIXES) {
    if (a.length > suf.length + 1 && b.length > suf.length + 1 && a.endsWith(suf) && b.endsWith(suf) && a !== b) {
      return [a.slice(0, -suf.length), b.slice(0, -suf.length)];
    }
  }
  for (const pre of NAME_PREFIXES) {
    if (a.length > pre.length + 2 && b.length > pre.length + 2 && a.startsWith(pre) && b.startsWith(pre) && a !== b) {
      return [a.slice(pre.length), b.slice(pre.length)];
    }
  }
  return null;
}

/**
 * A Latin spelling without the letters English names spell a sound several ways with: silent h,
 * doubled letters, a final e, y for i, c or ck for k, ph for f. Jon and John, Sara and Sarah,
 * Philip and Phillip, Ann and Anne are one name written two ways; Jan and Juan, Jose and Jesse,
 * Carter and Carper are two names.
 */
function silentLetters(text: string): string {
  return text
    .replace(/ph/g, 'f')
    .replace(/ck/g, 'k')
    .replace(/c(?=[aou]|$)/g, 'k')
    .replace(/y/g, 'i')
    .replace(/h/g, '')
    .replace(/(.)\1+/g, '$1')
    .replace(/(?<=..)e$/, '');
}

/**
 * The subject's word `a` is a common name (common-names.ts, name-stats.ts) and `b` is another name, not the
 * same one written another way: credit for such a pair is capped, and the engine never makes it
 * strong.
 */
export function commonNameOther(a: NameToken, b: NameToken): boolean {
  if (a.common > 0 && a.key !== b.key && silentLetters(a.text) !== silentLetters(b.text)) return true;
  // So is an established name of any tradition (name-stats.ts) against a word of other consonants
  // (Hassan / Kassan, Wahid / Zahid).
  if (a.share >= PARAMS.establishedShare && a.key !== b.key && consonantsDiffer(a, b)) return true;
  // A name and its other-gender form are two names, one of them common on either side.
  return (a.common > 0 || b.common > 0) && genderForms(a.text, b.text);
}

// Family names that change with the bearer's gender (Slavic, Czech, Polish): the feminine ending
// and the masculine one it stands for.
const SURNAME_GENDER_ENDINGS: readonly (readonly [string, string])[] = [
  ['skaya', 'sky'], ['skaya', 'skiy'], ['skaya', 'skii'], ['skaja', 'skij'], ['ska', 'ski'], ['cka', 'cki'], ['dzka', 'dzki'],
  ['ova', 'ov'], ['eva', 'ev'], ['yova', 'yov'], ['ina', 'in'], ['yna', 'yn'],
];

/** 'f' for a feminine family-name ending, 'm' for a masculine one, else null. */
function surnameGender(w: string): 'f' | 'm' | null {
  let g: 'f' | 'm' | null = null;
  for (const [f, m] of SURNAME_GENDER_ENDINGS) {
    if (w.length >= f.length + 3 && w.endsWith(f)) return 'f';
    if (w.length >= m.length + 3 && w.endsWith(m)) g = 'm';
  }
  return g;
}

/** One of the words is a feminine family name and the other a masculine one (Vasilieva, Vasilyev): a woman and a man. */
export function surnameGenders(a: string, b: string): boolean {
  const ga = surnameGender(a);
  const gb = surnameGender(b);
  return ga !== null && gb !== null && ga !== gb;
}

/**
 * Two different one-syllable pinyin spellings in two names that both read as Mandarin (Ping /
 * Peng, Zheng / Zhang): each syllable is its own character, so another syllable is another
 * name. Wade-Giles against pinyin (Tse-tung / Zedong) is compared by its syllable key before this.
 */
function pinyinSyllables(s: MatchScratch, a: NameToken, b: NameToken): boolean {
  // One syllable each: many other names spell out as pinyin syllables (Pao-lo, Gen-ti-lo-ni).
  return !s.mandarinPair && a.script === 'latin' && b.script === 'latin' && a.mandarin !== '' && b.mandarin !== '' && a.text !== b.text
    && !a.mandarin.includes('.') && !b.mandarin.includes('.');
}

/**
 * Two different syllables in two names that both read as Vietnamese (Huong / Hung, Phuong /
 * Phong, Pham / Phan): quốc ngữ writes each syllable one way, so another syllable is another
 * name. A family name against a word outside the closed set of them is a typo of it (Nguyen /
 * Nguyn), not this.
 */
function vietnameseSyllables(a: NameToken, b: NameToken): boolean {
  if (!a.vietnamese || !b.vietnamese || a.text === b.text) return false;
  return VIETNAMESE_FAMILY.has(a.text) === VIETNAMESE_FAMILY.has(b.text);
}

/**
 * Luis and Luisa, Daniel and Daniela, Julio and Julia: one name with the feminine -a added, or
 * the masculine -o turned -a (Latin script, four letters or more for the longer form).
 */
function genderForms(a: string, b: string): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (long.length < 4 || !/^[a-z]+$/.test(long)) return false;
  if (long.length === short.length + 1) return long.endsWith('a') && long.startsWith(short) && !short.endsWith('a');
  if (long.length !== short.length) return false;
  const stem = long.slice(0, -1);
  return stem === short.slice(0, -1) && ((long.endsWith('a') && short.endsWith('o')) || (long.endsWith('o') && short.endsWith('a')));
}

/**
 * `a` and `b` are two names, not two spellings of one: both established (name-stats.ts), or one
 * formed from the other by an ending that makes another name (the nisba -i, the feminine -a),
 * and not given as spellings of one name by the lists' aliases or written alike but for the
 * letters English spells one sound with (Jon / John).
 */
export function otherName(ta: NameToken, tb: NameToken, sim?: SimilarityScratch): boolean {
  const a = latinWord(ta);
  const b = latinWord(tb);
  if (a === null || b === null || a.text === b.text) return false;
  const established = a.share >= PARAMS.establishedShare && b.share >= PARAMS.establishedShare;
  if (!established && !formedFrom(a, b, sim) && !formedFrom(b, a, sim) && !otherEnding(a.text, b.text)) return false;
  if (SPELLING_PAIRS.has(a.text < b.text ? `${a.text} ${b.text}` : `${b.text} ${a.text}`)) return false;
  // (Silent letters make one name only of words that start alike: Ahmad / Hamad lose their h differently.)
  return (a.text[0] !== b.text[0] || silentLetters(a.text) !== silentLetters(b.text)) && !vowelAdded(a.text, b.text);
}

/** A name word as Latin letters, with its share: what otherName compares. */
type LatinWord = Pick<NameToken, 'text' | 'share'>;

/**
 * The word in Latin letters: as written; transliterated, from an alphabet (Cyrillic Марина is
 * marina); or the name a word of another script is known to write (Arabic محمد is Muhammad).
 * Null for a word of another script read only by its consonants: no name to compare.
 */
function latinWord(t: NameToken): LatinWord | null {
  if (t.script === 'latin') return t;
  if (!isPersonName(t)) return null;
  const known = t.key !== t.text && /^[a-z]+$/.test(t.key) ? t.key : null;
  const word = ALPHABETS.has(t.script) ? t.text : known;
  return word === null ? null : { text: word, share: Math.max(nameShare(word), known === null ? 0 : nameShare(known)) };
}

// (Not Georgian: its nominative ending -i, ვლადიმერ პუტინი "Putini", reads as a nisba.)
const ALPHABETS: ReadonlySet<Script> = new Set(['cyrillic', 'greek', 'armenian']);

/**
 * One spelling has a vowel inside the word that the other leaves out (Sergei / Sergi, Mikhail /
 * Mikhal, Husain / Husein is not this): how transliterations differ, not how names do. At the
 * end of a word a vowel forms another name (formedFrom).
 */
function vowelAdded(a: string, b: string): boolean {
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  // Short names differ by a letter (Jan / Juan).
  if (long.length !== short.length + 1 || short.length < 4) return false;
  for (let i = 1; i < long.length - 1; i++) {
    if (long.slice(0, i) === short.slice(0, i) && long.slice(i + 1) === short.slice(i)) return /[aeiouy]/.test(long[i]!);
  }
  return false;
}

/**
 * `long` is `short` with an ending that forms another name: the established name with -a, -ah,
 * -i, -y, -ee or -iya (Abbas-i, Amin-a, Nasr-a, Ahmad-i); or, whatever its frequency, a name
 * with the nisba -i or -y added to any spelling of it (Mansour-i against Mansur, Haddad-i against
 * Hadad): a family name made from a given name is another name.
 */
function formedFrom(short: LatinWord, long: LatinWord, sim?: SimilarityScratch): boolean {
  if (short.text.length < 3) return false;
  if (short.share >= PARAMS.establishedShare && long.text.startsWith(short.text)) {
    const ending = long.text.slice(short.text.length);
    if (ending === 'i' || ending === 'y' || ending === 'a' || ending === 'ah' || ending === 'ee' || ending === 'iya') return true;
  }
  // The ending adds letters: two words of one length differ by a slip (Fadavi / Fadaiv), not a nisba.
  const nisba = long.text.length > short.text.length ? /^(.{4,}?)(?:i|y|ee)$/.exec(long.text) : null;
  return nisba !== null && short.text.length >= 4 && !/[iy]$/.test(short.text) && editSimilarity(nisba[1]!, short.text, sim) >= 0.8;
}

/** A word's ending that forms a name from a stem: the feminine -a, the nisba -i, the -e of a French spelling. */
const NAME_ENDING = /^([a-z]{3,}?)(aa|ah|a|iy|ie|ee|i|y|e)$/;
const ENDING_CLASS: Readonly<Record<string, string>> = { aa: 'a', ah: 'a', a: 'a', iy: 'i', ie: 'i', ee: 'i', i: 'i', y: 'i', e: 'e' };

/**
 * One stem with two endings of different kinds is two names, whatever the words' frequency:
 * Amina / Amini / Amine, Rima / Rimi, Abda / Abdi, Ferrara / Ferrari (a feminine, a nisba or
 * plural, a French spelling of the bare name). Endings English spells one sound with (-i, -y,
 * -ee) are one kind; a bare stem against an ending is formedFrom's.
 */
function otherEnding(a: string, b: string): boolean {
  const ma = NAME_ENDING.exec(a);
  const mb = NAME_ENDING.exec(b);
  return ma !== null && mb !== null && ma[1] === mb[1] && ENDING_CLASS[ma[2]!] !== ENDING_CLASS[mb[2]!];
}

/**
 * Latin letters (one or two: kh, sh, th...) and the letters of Arabic script, as any-ascii writes
 * them, that transliterations render them by: ق is q, k or g (Gaddafi), and gh in Persian (Ghasem);
 * ذ is dh, d or z; ث th, t or s; ح h, or kh from Russian (Akhmed); خ kh, or h in Turkish (Halil);
 * ض d, or z in Persian (Ramazan); ش sh, or ch in French (Cherif); Somali writes ح as x. A sound
 * class (similarity.ts) puts z with s and d with t, which no transliteration of these letters does.
 */
const ABJAD_RENDERINGS: Readonly<Record<string, readonly string[]>> = {
  b: ['b', 'p'], p: ['p', 'b'], t: ['t', 'th'], th: ['th', 't', 's', 'dh'], s: ['s', 'th', 'sh'], sh: ['sh', 's'], ch: ['ch', 'sh'],
  z: ['z', 'dh', 'zh', 'd'], zh: ['zh', 'z', 'j'], d: ['d', 'dh'], dh: ['dh', 'd', 'z', 'th'], j: ['j', 'zh', 'y'], dj: ['j'], g: ['g', 'q', 'j', 'gh', 'k'],
  q: ['q', 'k', 'g'], k: ['k', 'q'], c: ['k', 'q', 's'], kh: ['kh', 'h', 'k'], h: ['h', 'kh'], x: ['h', 'kh'], gh: ['gh', 'g', 'q'],
  f: ['f', 'p'], ph: ['f'], v: ['w', 'v', 'b', 'f'], l: ['l'], m: ['m'], n: ['n'], r: ['r'],
};
const LATIN_DIGRAPHS: ReadonlySet<string> = new Set(['kh', 'gh', 'sh', 'th', 'dh', 'zh', 'ch', 'ph', 'dj']);
const ARABIC_DIGRAPHS: ReadonlySet<string> = new Set(['th', 'kh', 'dh', 'sh', 'gh', 'zh', 'ch']);
const GLIDE = '~';

/** The Arabic-script word's letters as any-ascii writes them: digraphs as one, w and y (vowel letters or glides) as ~. */
function arabicUnits(word: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < word.length; i++) {
    const two = word.slice(i, i + 2);
    let u = ARABIC_DIGRAPHS.has(two) ? two : word[i]!;
    if (u.length === 2) i++;
    if (/[aeiou'`]/.test(u)) continue;
    if (u === 'w' || u === 'y') u = GLIDE;
    out.push(u);
  }
  return out;
}

/**
 * The Latin word's consonants are, one for one, renderings of the Arabic-script word's letters
 * (ABJAD_RENDERINGS). Either side may leave out a w or y (a vowel letter or a glide), a final h
 * (ة, or a Latin -ah) and a doubled letter (Arabic writes a double once: Habib, حبیب; Allah, الله),
 * and the Arabic side a glued article (ال); a Latin letter pair may be a digraph or two letters
 * (Azhar, اظہر). True for any pair other than Latin against Arabic script.
 */
function abjadSpells(a: NameToken, b: NameToken): boolean {
  const [latin, abjad] = a.script === 'latin' && b.script === 'arabic' ? [a, b] : b.script === 'latin' && a.script === 'arabic' ? [b, a] : [null, null];
  if (latin === null || abjad === null) return true;
  const x = latin.text;
  const y = arabicUnits(abjad.text);
  let steps = 0;
  const go = (i: number, j: number): boolean => {
    // Words are short; the bound keeps a pathological pair cheap.
    if (++steps > 2000) return false;
    if (i === x.length && j === y.length) return true;
    const c = x[i];
    const yj = y[j];
    if (yj !== undefined && (yj === GLIDE || (yj === 'h' && j === y.length - 1) || yj === y[j - 1]) && go(i, j + 1)) return true;
    if (c === undefined) return false;
    if (/[aeiou'`]/.test(c) || (c === 'h' && i === x.length - 1) || (i > 0 && c === x[i - 1])) if (go(i + 1, j)) return true;
    if (c === 'w' || c === 'y') return (yj === GLIDE && go(i + 1, j + 1)) || go(i + 1, j);
    if (yj === undefined) return false;
    const pair = x.slice(i, i + 2);
    if (LATIN_DIGRAPHS.has(pair) && (ABJAD_RENDERINGS[pair] ?? []).includes(yj) && go(i + 2, j + 1)) return true;
    const as = yj === GLIDE ? (c === 'v' ? 'w' : c === 'j' ? 'y' : '') : yj;
    return (ABJAD_RENDERINGS[c] ?? [c]).includes(as) && go(i + 1, j + 1);
  };
  return go(0, 0) || (hasGluedArticle(abjad) && y[0] === 'l' && go(0, 1));
}

/** An Arabic-script token starting with l may carry the article (al-) glued on. */
function hasGluedArticle(t: NameToken): boolean {
  return t.script === 'arabic' && t.text.charCodeAt(0) === 108;
}

function crossScript(a: NameToken, b: NameToken): boolean {
  return a.script !== b.script && (isVowelUnreliable(a.script) || isVowelUnreliable(b.script));
}

/** Scripts whose romanisation is a guess at the name's sound, not a spelling of it. */
function guessedReading(script: Script): boolean {
  return script === 'han' || script === 'hangul' || script === 'kana' || isVowelUnreliable(script);
}

/**
 * Credit for a single token pair; sets `s.method`. A reading of a name across scripts where
 * one side's romanisation is a guess (Han, Hangul, kana, abjads...) earns at most
 * `readingCredit`: the same sound is not the same spelling.
 */
function tokenCredit(s: MatchScratch, a: NameToken, b: NameToken): number {
  const c = spellingCredit(s, a, b);
  if (c > PARAMS.readingCredit && s.method !== M.Initial && readsAcross(a, b)) {
    s.method = M.Phonetic;
    return PARAMS.readingCredit;
  }
  return c;
}

function spellingCredit(s: MatchScratch, a: NameToken, b: NameToken): number {
  if (a.kind === 'number' || b.kind === 'number') {
    // Numbers match exactly or not at all: "Vessel 7" is not "Vessel 8".
    s.method = M.Exact;
    return a.kind === b.kind && a.key === b.key ? 1 : 0;
  }
  if (a.kind === 'orgtype' || b.kind === 'orgtype') {
    if (a.kind !== b.kind) return 0;
    s.method = a.text === b.text ? M.Exact : M.Equivalent;
    return a.key === b.key ? 1 : PARAMS.orgTypeCredit;
  }
  if (a.kind === 'honorific' || b.kind === 'honorific') {
    s.method = M.Exact;
    return a.kind === b.kind && a.text === b.text ? 1 : 0;
  }
  if (a.kind === 'initial' || b.kind === 'initial') {
    s.method = M.Initial;
    if (a.kind === 'initial' && b.kind === 'initial') {
      s.method = M.Exact;
      return a.text === b.text ? 1 : 0;
    }
    const other = a.kind === 'initial' ? b : a;
    if (!isName(other)) return 0;
    return a.text[0] === b.text[0] ? 1 : 0;
  }
  if (a.native !== '' && b.native !== '' && a.script === b.script) {
    // Same CJK script: compare the characters themselves. Han and Hangul characters are
    // morphemes/syllables, so a different character is a different name, and 종 and 정
    // romanise alike.
    s.method = M.Exact;
    return a.native === b.native ? 1 : 0;
  }
  if (a.text === b.text) {
    s.method = M.Exact;
    return 1;
  }
  if (a.key === b.key) {
    s.method = M.Equivalent;
    return PARAMS.equivalentCredit;
  }
  if (a.kind === 'particle' || b.kind === 'particle') {
    // Particles only pair with particles, and only when equal or equivalent (above).
    return 0;
  }
  if (a.acronym || b.acronym) return 0;
  // Pinyin against Wade-Giles ("Zedong" / "Tse-tung"): the same syllables in another system.
  if (s.mandarinPair && a.mandarin !== '' && a.mandarin === b.mandarin) {
    s.method = M.Equivalent;
    return PARAMS.romanisationCredit;
  }
  if (a.shortFor.includes(b.key) || b.shortFor.includes(a.key)) {
    s.method = M.Nickname;
    return PARAMS.nicknameCredit;
  }
  // Two different known names (Ahmed, Mohamed) are different names, however close they look.
  if (a.known && b.known) return 0;

  // Name frequency is evidence. A subject's common name against another listed spelling (Jan /
  // Juan, Jose / Jesse, Carter / Carper, Torres / Torresi) is likelier the subject's own name than
  // a typo of the listed one: part credit only, enough to review, and the engine never makes
  // such a pair strong (engine.ts, commonNameDiffers). A slip in a rarer name keeps its credit.
  // A foreign name transcribed into kana, Han or Hangul against its spelling in another script.
  const transcription = a.script !== b.script && (a.transcribed || b.transcribed) ? skeletonCredit(s, a.loose, b.loose) : 0;
  // Pinyin from Han characters is canonical: a Latin spelling one vowel away ("Yang"/"Yong",
  // "Cheng"/"Chen") is another syllable, so another character and another name.
  if (a.script === 'han' || b.script === 'han') {
    s.method = M.Phonetic;
    return transcription;
  }
  // Two different common names are not inflections of one another (Roberts / Robert).
  if (a.script === 'latin' && b.script === 'latin' && !(a.common > 0 && b.common > 0)) {
    const inflected = balticInflection(a.text, b.text);
    if (inflected) {
      s.method = M.Equivalent;
      return PARAMS.inflectionCredit;
    }
    const stems = sharedAffix(a.text, b.text);
    if (stems !== null) {
      // The shared part forms names, it does not tell them apart: Jónsdóttir and Tómasdóttir
      // are daughters of different fathers. Only the stems speak.
      const c = stringCredit(s, stems[0], stems[1], '', '', false, false, false);
      s.method = c > 0 ? s.method : M.EditDistance;
      return c;
    }
  }
  const cs = crossScript(a, b);
  const indic = a.script === 'indic' || b.script === 'indic';
  let best = stringCredit(s, a.text, b.text, a.skeleton, b.skeleton, cs, hasGluedArticle(a), hasGluedArticle(b), true, indic);
  let method = s.method;
  // Arabic ذ and ظ ("dh") are z in most transliterations (al-Zawahiri), ث ("th") often s.
  if (cs && best < PARAMS.skeletonCredit && (a.skeletonAlt !== '' || b.skeletonAlt !== '')) {
    const alt = stringCredit(s, a.text, b.text, a.skeletonAlt || a.skeleton, b.skeletonAlt || b.skeleton, cs, hasGluedArticle(a), hasGluedArticle(b));
    if (alt > best) {
      best = alt;
      method = s.method;
    }
  }
  if (transcription > best) {
    best = transcription;
    method = M.Phonetic;
  }
  if (best < PARAMS.phoneticCredit && phoneticEqual(a, b) && (s.edit >= 0 ? s.edit : editSimilarity(a.text, b.text, s.sim)) >= PARAMS.phoneticGuard) {
    best = PARAMS.phoneticCredit;
    method = M.Phonetic;
  }
  s.method = method;
  // A Latin word against a word in Arabic script, met by sound classes alone: the letters must be
  // ones a transliteration writes for each other (Zein is not صوان Sawan, Deeqa not عتیق Atiq).
  if (best > PARAMS.otherNameCredit && cs && method === M.Phonetic && !abjadSpells(a, b)) return PARAMS.otherNameCredit;
  // Checked last, and only for credit above the caps: most pairs never pay for it.
  // Two established names, each common among the people of some tradition (Hamid and Hamad,
  // Karimi and Karami, Zheng and Zhang, Pyong and Yong), and a name and the name formed from it
  // (Abbas and Abbasi, Amin and Amina) are two names however alike they look: unless the lists'
  // own aliases spell one as the other (Hossein / Hussein), a slip that lands on another common
  // name is the other name. The pair keeps a little credit, enough for a date of birth to bring
  // it to review, never more.
  if (best > PARAMS.otherNameCredit && (otherName(a, b, s.sim) || ((a.kind === 'family' || b.kind === 'family') && surnameGenders(a.text, b.text)) || pinyinSyllables(s, a, b) || vietnameseSyllables(a, b))) {
    s.method = M.EditDistance;
    return PARAMS.otherNameCredit;
  }
  // Said as it is: a close spelling only when the consonants agree; the credit stays, since a typed
  // slip of a listed name is as likely as another name.
  // (Under the other-name credit a pair is worded another name anyway.)
  if (best > PARAMS.otherNameCredit && (method === M.EditDistance || method === M.JaroWinkler) && consonantsDiffer(a, b)) s.method = M.Slip;
  return best > PARAMS.commonNameCredit && commonNameOther(a, b) ? PARAMS.commonNameCredit : best;
}

/**
 * Two Latin spellings whose consonants differ (Nabil / Habil, Hassan / Kassan, Wahid / Zahid,
 * Hani / Haqqani): not how one name is written two ways (transliterations move vowels, double
 * letters and swap letters that spell one sound: Walid / Oualid, Darwish / Darvish, Cherif /
 * Sherif, Yusuf / Jusuf, Jon / John), but a typing slip or another name, and nothing says which.
 * Compared by sound classes (similarity.ts, consonantSkeleton), once as spelled and once softened
 * (softSkeleton). It words the explanation, and caps the credit only when the subject's word is an
 * established name (commonNameOther): capping every such pair lost one typed listed name in fifty.
 */
function consonantsDiffer(a: NameToken, b: NameToken): boolean {
  if (a.script !== 'latin' || b.script !== 'latin' || !isPersonName(a) || !isPersonName(b)) return false;
  // A letter more or less in a long name is a typo of it (Kowalczykiewic).
  if (a.text.length >= LONG_NAME && b.text.length >= LONG_NAME) return false;
  if (a.skeleton === b.skeleton) return false;
  return softSkeleton(a.text) !== softSkeleton(b.text);
}

const LONG_NAME = 8;

/** The skeleton with w and v as vowels, an initial j as y, and an h after a vowel or liquid silent (Jon / John). */
function softSkeleton(word: string): string {
  return consonantSkeleton(word.replace(/[wv]/g, 'u').replace(/^j/, 'y').replace(/([aeiouylrnm])h/g, '$1'));
}

// Candidate edges live in the scratch's pool, reused across calls.
function addEdge(s: MatchScratch, qs: number, qe: number, cs: number, ce: number, credit: number, method: M, asymmetric: boolean): void {
  let e = s.pool[s.edgeCount];
  if (e === undefined) {
    e = { qs, qe, cs, ce, credit, method, asymmetric };
    s.pool.push(e);
  } else {
    e.qs = qs;
    e.qe = qe;
    e.cs = cs;
    e.ce = ce;
    e.credit = credit;
    e.method = method;
    e.asymmetric = asymmetric;
  }
  s.edgeCount++;
}

/** Best credit first; on ties plain token pairs before joins, then by position (determinism). */
function edgeBefore(x: Edge, y: Edge): boolean {
  if (x.credit !== y.credit) return x.credit > y.credit;
  // A whole name before an initial of equal credit: "Moore" pairs with "Moore", not with "M.".
  if (x.asymmetric !== y.asymmetric) return !x.asymmetric;
  const sx = x.qe - x.qs + x.ce - x.cs;
  const sy = y.qe - y.qs + y.ce - y.cs;
  if (sx !== sy) return sx < sy;
  if (x.qs !== y.qs) return x.qs < y.qs;
  return x.cs < y.cs;
}

function sortEdges(s: MatchScratch): void {
  const pool = s.pool;
  // Insertion sort: a few dozen edges, already partly ordered by construction.
  for (let i = 1; i < s.edgeCount; i++) {
    const e = pool[i] as Edge;
    let j = i - 1;
    while (j >= 0 && edgeBefore(e, pool[j] as Edge)) {
      pool[j + 1] = pool[j] as Edge;
      j--;
    }
    pool[j + 1] = e;
  }
}

function pushJoinEdges(s: MatchScratch, runs: NormalizedName['joins'], runTokens: NameToken[], singles: NameToken[], runIsQuery: boolean, memo?: JoinMemo): void {
  for (let r = 0; r < runs.length; r++) {
    const run = runs[r]!;
    let runScript = runTokens[run.start]?.script ?? 'latin';
    let hasLink = false;
    for (let k = run.start; k < run.end; k++) {
      const rt = runTokens[k];
      if (rt === undefined) continue;
      if (rt.script !== runScript) runScript = 'other';
      // Compounds with Allah are written apart in Arabic and joined in Latin (Nasrallah, Fadlallah).
      if (rt.kind === 'particle' || rt.key === 'abd' || rt.key === 'abu' || rt.text === 'llh' || rt.text === 'allah') hasLink = true;
    }
    // The query's runs against list words, remembered for the screen like single words (memoCredit).
    const row = memo === undefined ? -1 : memoRow(memo.pairs.memo, memo.rowBase + 2 * r + (s.mandarinPair ? 1 : 0));
    for (let j = 0; j < singles.length; j++) {
      const t = singles[j];
      if (t === undefined) continue;
      let credit: number;
      if (row < 0) credit = joinCredit(s, run, runScript, hasLink, t);
      else {
        const id = memo!.pairs.candidateIds[j] as number;
        credit = recalled(s, memo!.pairs.memo, row, id);
        if (credit < 0) credit = remember(s, memo!.pairs.memo, row, id, joinCredit(s, run, runScript, hasLink, t));
      }
      if (credit <= 0) continue;
      if (runIsQuery) addEdge(s, run.start, run.end, j, j + 1, credit, s.method, false);
      else addEdge(s, j, j + 1, run.start, run.end, credit, s.method, false);
    }
  }
}

/**
 * The same letters split between words elsewhere ("Ala-Sad" / "Al-Asad", "Als Alih" / "Al Salih"):
 * a run of the subject's words against a run of the listed name's, written alike once joined, is
 * those words. (A run split where the other is split is its words, paired one by one.)
 */
function pushResplitEdges(s: MatchScratch, qRuns: NormalizedName['joins'], qt: NameToken[], cRuns: NormalizedName['joins'], ct: NameToken[]): void {
  for (const q of qRuns) {
    if (q.text.length < PARAMS.resplitMin) continue;
    for (const c of cRuns) {
      if (c.text !== q.text || qt[q.start]?.text === ct[c.start]?.text) continue;
      if (qt[q.start]?.script !== 'latin' || ct[c.start]?.script !== 'latin') continue;
      addEdge(s, q.start, q.end, c.start, c.end, PARAMS.resplitCredit, M.Joined, false);
    }
  }
}

/** Where a screen remembers its query's runs: rows from `rowBase` of the pair memo, two a run. */
interface JoinMemo {
  pairs: NonNullable<CompareOptions['pairs']>;
  rowBase: number;
}

/** Credit of a run of words written together against one word (0: no edge); sets `s.method`. */
function joinCredit(s: MatchScratch, run: NormalizedName['joins'][number], runScript: Script, hasLink: boolean, t: NameToken): number {
  if (!isName(t)) return 0;
  s.method = M.Joined;
  if (t.acronym) {
    // "U.S." vs "United States": an initialism against the initials of a run.
    if (t.text !== run.initials) return 0;
    s.method = M.Initial;
    return PARAMS.acronymCredit;
  }
  if (s.mandarinPair && run.mandarin !== '' && run.mandarin === t.mandarin) return run.text === t.text ? 1 : PARAMS.romanisationCredit;
  const cs = t.script !== runScript && (isVowelUnreliable(t.script) || isVowelUnreliable(runScript));
  // Skeletons are lossy: across scripts, only join runs built around a particle or a
  // known name part ("Abd" + "Allah"), never two arbitrary words.
  if (cs && !hasLink) return 0;
  // Cheap length filter first; across vowel-dropping scripts compare skeleton lengths.
  const len = cs ? t.skeleton.length : t.text.length;
  const rl = cs ? run.skeleton.length : run.text.length;
  const diff = rl > len ? rl - len : len - rl;
  if (diff > PARAMS.joinLengthSlack && diff > PARAMS.joinLengthRatio * (rl > len ? rl : len)) return 0;
  // Jaro-Winkler's prefix bonus would take "Leonard Orr" for "Leonardo": edits only.
  let credit = run.text === t.text ? 1 : stringCredit(s, run.text, t.text, run.skeleton, t.skeleton, cs, false, false, false);
  s.method = M.Joined;
  // A split must be near-exact; against pinyin from Han characters, exact.
  const floor = t.script === 'han' ? 1 : PARAMS.joinFloor;
  if (credit < floor) return 0;
  if (t.script !== runScript && (guessedReading(t.script) || guessedReading(runScript))) credit = Math.min(credit, PARAMS.readingCredit);
  return credit;
}

export const PATRONYMIC_LINKS: ReadonlySet<string> = new Set(['bin', 'ibn', 'ben', 'bint', 'binti', 'bn', 'ould']);

/**
 * "Salman bin Muhammad" is Muhammad's son Salman; "Muhammad bin Salman" is his father or his
 * son. When both names link the same two people in opposite directions, the pair contradicts
 * itself even though every token aligned. Returns the weight to count as conflict.
 */
function patronymicReversal(qt: NameToken[], ct: NameToken[], chosen: readonly Edge[]): number {
  const alignedTo = (i: number): number => {
    for (const e of chosen) if (e.qs === i && e.qe === i + 1 && e.ce - e.cs === 1) return e.cs;
    return -1;
  };
  for (let p = 1; p + 1 < qt.length; p++) {
    if (!PATRONYMIC_LINKS.has(qt[p]?.text ?? '')) continue;
    const son = alignedTo(p - 1);
    const father = alignedTo(p + 1);
    if (son < 0 || father < 0) continue;
    // In the candidate, the query's father must not be the one followed by "bin <son>".
    if (father + 2 === son && PATRONYMIC_LINKS.has(ct[father + 1]?.text ?? '')) return 1;
  }
  return 0;
}

function spanText(tokens: NameToken[], s: number, e: number): string {
  let out = '';
  for (let i = s; i < e; i++) out += (i > s ? ' ' : '') + (tokens[i]?.text ?? '');
  return out;
}

/** A word as its writer wrote it: the original characters of a non-Latin word, else the word capitalised. */
function shownWord(t: NameToken): string {
  return t.surface !== '' ? t.surface : t.text.charAt(0).toUpperCase() + t.text.slice(1);
}

function spanShown(tokens: NameToken[], s: number, e: number): string {
  const out: string[] = [];
  for (let i = s; i < e; i++) {
    const w = shownWord(tokens[i] as NameToken);
    // One non-Latin word can make several tokens: show it once.
    if (out[out.length - 1] !== w) out.push(w);
  }
  return out.join(' ');
}

const SCRIPT_NAMES: Readonly<Record<Script, string>> = {
  latin: 'Latin', cyrillic: 'Cyrillic', greek: 'Greek', armenian: 'Armenian', georgian: 'Georgian', arabic: 'Arabic', hebrew: 'Hebrew',
  indic: 'Indic', southeast_asian: 'Southeast Asian', hangul: 'Hangul', kana: 'Japanese kana', han: 'Chinese characters', other: 'non-Latin',
};

/** How a span in another script was read: the romanisation used, in words (never a comparison key). */
/**
 * A span's non-Latin words in Latin letters, as the comparison read them: the name a known
 * spelling stands for (محمد as Muhammad, حمد as Ahmad), Pinyin or the Korean romanisation, the
 * letters of an alphabet one by one; an abjad's consonants with the article and a plain vowel
 * between them (الشامي as al-Shamy), since its short vowels are not written.
 */
function readingOf(tokens: readonly NameToken[], s: number, e: number): ShownPair['reading'] {
  const t = tokens[s];
  if (t === undefined || t.script === 'latin' || s >= e) return null;
  const words: string[] = [];
  for (let i = s; i < e; i++) {
    const w = tokens[i];
    if (w === undefined) continue;
    const latin = w.key !== w.text && /^[a-z]+$/.test(w.key) ? w.key : isVowelUnreliable(w.script) ? vowelled(w.text) : w.text;
    words.push(latin.charAt(0).toUpperCase() + latin.slice(1));
  }
  return { latin: words.join(' '), script: SCRIPT_NAMES[t.script] };
}

/** An abjad's consonants as a reader would say them: the article as al-, a plain a between two consonants. */
function vowelled(consonants: string): string {
  const article = consonants.length > 3 && consonants.startsWith('l') ? 'al-' : '';
  const rest = article ? consonants.slice(1) : consonants;
  const said = rest.replace(/(sh|kh|gh|th|dh|[bcdfghjklmnpqrstvwxz])(?=[bcdfghjklmnpqrstvwxz])/g, '$1a');
  return article + said.charAt(0).toUpperCase() + said.slice(1);
}

function romanisationOf(tokens: readonly NameToken[], s: number, e: number): string | null {
  const t = tokens[s];
  if (t === undefined || t.script === 'latin' || s >= e) return null;
  const script = SCRIPT_NAMES[t.script];
  if (t.script === 'han') return `${script} read in Pinyin (${t.text})`;
  if (t.script === 'hangul') return `${script} romanised as in the lists' Korean spellings (${t.text})`;
  if (t.transcribed) return `${script} transcription of a foreign name, compared by its consonants`;
  if (isVowelUnreliable(t.script)) return `${script} script, which leaves short vowels unwritten: compared by its consonants`;
  return `${script} letters romanised one by one (${t.text})`;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

function isOrgSchema(n: NormalizedName): boolean {
  return n.schema === 'organization' || n.schema === 'vessel' || n.schema === 'aircraft';
}

/** used[] value of a token left unaligned because it repeats an aligned one. */
const REPEAT = 2;

/** Only when the other side has nothing left a copy could stand for is it a repeat. */
function hasUnmatchedName(tokens: NameToken[], used: Uint8Array, count: number): boolean {
  for (let i = 0; i < count; i++) if (used[i] === 0 && isName(tokens[i] as NameToken)) return true;
  return false;
}

function markRepeats(tokens: NameToken[], used: Uint8Array, count: number): void {
  for (let i = 0; i < count; i++) {
    if (used[i] !== 0) continue;
    const t = tokens[i] as NameToken;
    if (!isName(t)) continue;
    for (let j = 0; j < count; j++) {
      if (used[j] === 1 && (tokens[j] as NameToken).text === t.text) {
        used[i] = REPEAT;
        break;
      }
    }
  }
}

function ensureScratch(s: MatchScratch, size: number): void {
  if (size <= s.size) return;
  s.size = Math.max(size, s.size * 2, 16);
  s.wq = new Float64Array(s.size);
  s.wc = new Float64Array(s.size);
  s.pq = new Float64Array(s.size);
  s.pc = new Float64Array(s.size);
  s.usedQ = new Uint8Array(s.size);
  s.usedC = new Uint8Array(s.size);
}

/** A token's informativeness under `tokenWeight`: names and numbers only, other tokens 1. */
export function tokenIdf(t: NameToken, tokenWeight: ((token: string) => number) | undefined): number {
  return tokenWeight !== undefined && (isName(t) || t.kind === 'number') ? tokenWeight(t.text) : 1;
}

/**
 * Compares two normalised names: greedy one-to-one alignment of tokens (and of adjacent-token
 * concatenations against single tokens), then a weighted score with an explanation.
 * Deterministic; symmetric up to tie-breaking.
 */
export function compareNames(query: NormalizedName, candidate: NormalizedName, opts?: CompareOptions): NameComparison {
  const qt = query.tokens;
  const ct = candidate.tokens;
  const n = qt.length;
  const m = ct.length;
  const s = opts?.scratch ?? createMatchScratch();
  ensureScratch(s, n > m ? n : m);
  const { wq, wc, pq, pc, usedQ, usedC, pool } = s;
  const tokenWeight = opts?.tokenWeight;
  const queryWeights = opts?.queryWeights;
  const candidateWeights = opts?.candidateWeights;
  // Matched tokens earn their informativeness (a shared "Mohammed" proves little), but a
  // missing token costs at least its base weight: common names cannot carry a match alone.
  for (let i = 0; i < n; i++) {
    const t = qt[i] as NameToken;
    const idf = queryWeights !== undefined ? (queryWeights[i] as number) : tokenIdf(t, tokenWeight);
    wq[i] = t.weight * idf;
    pq[i] = t.weight * (idf > 1 ? idf : 1);
    usedQ[i] = 0;
  }
  for (let j = 0; j < m; j++) {
    const t = ct[j] as NameToken;
    const idf = candidateWeights !== undefined ? (candidateWeights[j] as number) : tokenIdf(t, tokenWeight);
    wc[j] = t.weight * idf;
    pc[j] = t.weight * (idf > 1 ? idf : 1);
    usedC[j] = 0;
  }

  s.mandarinPair = query.romanisation !== null && candidate.romanisation !== null && (query.romanisation === 'wade_giles' || candidate.romanisation === 'wade_giles');
  s.edgeCount = 0;
  const pairs = opts?.pairs;
  for (let i = 0; i < n; i++) {
    const a = qt[i] as NameToken;
    const row = pairs === undefined ? -1 : memoRow(pairs.memo, 2 * i + (s.mandarinPair ? 1 : 0));
    for (let j = 0; j < m; j++) {
      const credit = row < 0 ? tokenCredit(s, a, ct[j] as NameToken) : memoCredit(s, pairs!, row, a, ct[j] as NameToken, j);
      if (credit > 0) addEdge(s, i, i + 1, j, j + 1, credit, s.method, s.method === M.Initial);
    }
  }
  pushJoinEdges(s, query.joins, qt, ct, true, pairs === undefined ? undefined : { pairs, rowBase: 2 * n });
  pushJoinEdges(s, candidate.joins, ct, qt, false);
  pushResplitEdges(s, query.joins, qt, candidate.joins, ct);
  sortEdges(s);
  const edgeCount = s.edgeCount;

  // Greedy one-to-one selection; chosen edges are moved to the front of the pool.
  let chosenCount = 0;
  for (let k = 0; k < edgeCount; k++) {
    const e = pool[k] as Edge;
    let free = true;
    for (let i = e.qs; i < e.qe && free; i++) if (usedQ[i] === 1) free = false;
    for (let j = e.cs; j < e.ce && free; j++) if (usedC[j] === 1) free = false;
    if (!free) continue;
    for (let i = e.qs; i < e.qe; i++) usedQ[i] = 1;
    for (let j = e.cs; j < e.ce; j++) usedC[j] = 1;
    pool[k] = pool[chosenCount] as Edge;
    pool[chosenCount] = e;
    chosenCount++;
  }
  const chosen = pool.slice(0, chosenCount);
  // A name part given twice ("Suhartono Suhartono" for a one-word name, first name typed again as
  // family name) is one part: the unaligned copy of an aligned part is a repeat, not an extra.
  if (!hasUnmatchedName(ct, usedC, m)) markRepeats(qt, usedQ, n);
  if (!hasUnmatchedName(qt, usedQ, n)) markRepeats(ct, usedC, m);

  let matched = 0;
  let partial = 0;
  let extra = 0;
  let initialRest = 0;
  let substantive = false;
  for (const e of chosen) {
    let sq = 0;
    let sc = 0;
    for (let i = e.qs; i < e.qe; i++) sq += wq[i] ?? 0;
    for (let j = e.cs; j < e.ce; j++) sc += wc[j] ?? 0;
    let w: number;
    if (e.asymmetric) {
      // An initial stands for part of a name: it earns its own small weight, and the rest of
      // the full name is counted separately.
      w = sq < sc ? sq : sc;
      initialRest += sq < sc ? sc - sq : sq - sc;
    } else w = (sq + sc) / 2;
    matched += e.credit * w;
    partial += (1 - e.credit) * w;
    if (e.method !== M.Initial && e.credit >= 0.5) {
      const a = qt[e.qs] as NameToken;
      const b = ct[e.cs] as NameToken;
      const aOk = isName(a) || a.kind === 'number' || e.qe - e.qs > 1;
      const bOk = isName(b) || b.kind === 'number' || e.ce - e.cs > 1;
      if (aOk && bOk) substantive = true;
    }
  }

  const penalties: string[] = [];
  let unmatchedQ = 0;
  let unmatchedC = 0;
  let numbersQ = 0;
  let numbersC = 0;
  // A title one side has ("President", "elnök") contradicts nothing: it is only extra.
  let titles = 0;
  for (let i = 0; i < n; i++) {
    if (usedQ[i] !== 0) continue;
    const kind = (qt[i] as NameToken).kind;
    if (kind === 'number') numbersQ += pq[i] ?? 0;
    else if (kind === 'honorific') titles += pq[i] ?? 0;
    else unmatchedQ += pq[i] ?? 0;
  }
  for (let j = 0; j < m; j++) {
    if (usedC[j] !== 0) continue;
    const kind = (ct[j] as NameToken).kind;
    if (kind === 'number') numbersC += pc[j] ?? 0;
    else if (kind === 'honorific') titles += pc[j] ?? 0;
    else unmatchedC += pc[j] ?? 0;
  }
  const numberPairs = numbersQ < numbersC ? numbersQ : numbersC;
  const numberConflict = numbersQ + numbersC - 2 * numberPairs;
  const reversal = patronymicReversal(qt, ct, chosen);
  const conflict = (unmatchedQ < unmatchedC ? unmatchedQ : unmatchedC) + reversal;
  extra += (unmatchedQ < unmatchedC ? unmatchedC - unmatchedQ : unmatchedQ - unmatchedC) + titles;
  const beta = isOrgSchema(query) || isOrgSchema(candidate) ? PARAMS.extraOrg : PARAMS.extraPerson;
  const denom =
    matched +
    PARAMS.conflict * conflict +
    PARAMS.numberConflict * numberConflict +
    PARAMS.numberPair * 2 * numberPairs +
    PARAMS.partial * partial +
    beta * extra +
    PARAMS.initialRemainder * initialRest;
  let score = denom > 0 ? matched / denom : 0;

  const insubstantial = !substantive && score > PARAMS.insubstantialCap;
  if (insubstantial) score = PARAMS.insubstantialCap;
  const floor = opts?.floor;
  if (floor !== undefined && round(score) < floor) return { score: round(score), alignment: [], penalties: [], exact: false, reading: false };
  if (reversal > 0) penalties.push('father and son names swapped around bin/ibn');
  if (conflict > reversal) penalties.push(`unmatched tokens on both sides (weight ${round(conflict - reversal)})`);
  if (numberConflict + numberPairs > 0) penalties.push('numbers differ');
  if (extra > 0) penalties.push(`tokens on one side only (weight ${round(extra)})`);
  if (initialRest > 0) penalties.push('initials stand in for full names');
  if (insubstantial) penalties.push('only legal forms, titles, particles or initials matched');

  const exact = isExact(qt, ct, chosen, usedQ, usedC);
  const reading = chosen.some((e) => edgeReads(e, qt, ct));

  const alignment: AlignedPair[] = [];
  chosen.sort((x, y) => x.qs - y.qs);
  for (const e of chosen) {
    alignment.push({
      query: spanText(qt, e.qs, e.qe),
      candidate: spanText(ct, e.cs, e.ce),
      method: METHOD_NAMES[e.method] ?? 'exact',
      similarity: round(e.credit),
      at: [e.qs, e.qe, e.cs, e.ce],
    });
  }
  for (let i = 0; i < n; i++) {
    if (usedQ[i] === 0) alignment.push({ query: (qt[i] as NameToken).text, candidate: null, method: 'unmatched', similarity: 0, at: [i, i + 1, -1, -1] });
    else if (usedQ[i] === REPEAT) alignment.push({ query: (qt[i] as NameToken).text, candidate: null, method: 'repeated', similarity: 1, at: [i, i + 1, -1, -1] });
  }
  for (let j = 0; j < m; j++) {
    if (usedC[j] === 0) alignment.push({ query: null, candidate: (ct[j] as NameToken).text, method: 'unmatched', similarity: 0, at: [-1, -1, j, j + 1] });
    else if (usedC[j] === REPEAT) alignment.push({ query: null, candidate: (ct[j] as NameToken).text, method: 'repeated', similarity: 1, at: [-1, -1, j, j + 1] });
  }
  return { score: round(score), alignment, penalties, exact, reading };
}


function isExact(qt: NameToken[], ct: NameToken[], chosen: readonly Edge[], usedQuery: Uint8Array, usedCandidate: Uint8Array): boolean {
  let names = 0;
  for (let i = 0; i < qt.length; i++) {
    const t = qt[i] as NameToken;
    if (t.kind === 'honorific' || t.kind === 'particle' || t.kind === 'orgtype') continue;
    if (usedQuery[i] === 0) return false;
    if (isName(t)) names++;
  }
  // One name part is exact only when it is the whole of the other name as well ("Haji Bando").
  if (names < 2 && (names === 0 || ct.some((t, j) => isName(t) && usedCandidate[j] === 0))) return false;
  for (const e of chosen) {
    // Exact means spelled the same or as a listed equivalent (Mohammed / Muhammad, a declined
    // ending): a spelling that is only close ("Vladimr" / "Vladimir") is a typo or another
    // name, never exact. A split or join is exact only when the letters are the same.
    const joined = e.qe - e.qs > 1 || e.ce - e.cs > 1;
    const same = joined ? e.credit >= 1 : e.method === M.Exact || e.method === M.Equivalent;
    if (!same || e.credit <= 0) {
      // A title or particle that paired loosely does not make the name less exact.
      let matters = false;
      for (let i = e.qs; i < e.qe; i++) {
        const k = (qt[i] as NameToken).kind;
        if (k !== 'honorific' && k !== 'particle' && k !== 'orgtype') matters = true;
      }
      if (matters) return false;
      continue;
    }
    if (edgeReads(e, qt, ct)) return false;
  }
  return true;
}

/** The pair reads one script in another where the romanisation is a guess. */
function readsAcross(a: NameToken, b: NameToken): boolean {
  return a.script !== b.script && (guessedReading(a.script) || guessedReading(b.script));
}

function edgeReads(e: Edge, qt: NameToken[], ct: NameToken[]): boolean {
  for (let i = e.qs; i < e.qe; i++) for (let j = e.cs; j < e.ce; j++) if (readsAcross(qt[i] as NameToken, ct[j] as NameToken)) return true;
  return false;
}

/** Convenience for CSV scoring: normalise both names with the same schema and compare. */
export function scoreNamePair(schema: string, name1: string, name2: string): number {
  const s = toNameSchema(schema);
  return compareNames(normalizeName(name1, s), normalizeName(name2, s)).score;
}

/** The comparison's own word tables, for the matcher's version hash (version.ts). */
export const COMPARE_TABLES = { BALTIC_ENDINGS, NAME_SUFFIXES, NAME_PREFIXES, PATRONYMIC_LINKS, SURNAME_GENDER_ENDINGS, VIETNAMESE_FAMILY, LONG_NAME, NAME_ENDING: NAME_ENDING.source, ENDING_CLASS } as const;
