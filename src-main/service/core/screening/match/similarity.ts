// String similarity primitives for name tokens. Inputs are normalised tokens: ASCII lower-case
// letters and digits. They run in the inner loop of every comparison, so they work on char
// codes in scratch rows the caller owns (one SimilarityScratch per comparison scratch) instead
// of allocating per call.
import { PARAMS } from './params';

const A = 97;
const ALPHABET = 36; // a-z then 0-9

function slot(code: number): number {
  if (code >= 97 && code <= 122) return code - A;
  if (code >= 48 && code <= 57) return 26 + code - 48;
  return -1;
}

const VOWELS = 'aeiouy';

/** Substitution costs: transliteration confusions cost less than arbitrary letter swaps. */
const SUB = new Float64Array(ALPHABET * ALPHABET).fill(1);
/** Insertion/deletion costs per letter; doubled letters are cheaper still (see below). */
const INDEL = new Float64Array(ALPHABET).fill(1);

function setSub(a: string, b: string, cost: number): void {
  const i = slot(a.charCodeAt(0));
  const j = slot(b.charCodeAt(0));
  SUB[i * ALPHABET + j] = cost;
  SUB[j * ALPHABET + i] = cost;
}

(function initCosts(): void {
  for (let i = 0; i < ALPHABET; i++) SUB[i * ALPHABET + i] = 0;
  // Vowels drift most between transliteration schemes (Usama/Osama, Laden/Ladin).
  for (const a of VOWELS) for (const b of VOWELS) if (a !== b) setSub(a, b, 0.5);
  setSub('y', 'i', 0.3);
  setSub('c', 'k', 0.3);
  setSub('k', 'q', 0.3);
  setSub('c', 'q', 0.5);
  setSub('c', 's', 0.6);
  setSub('s', 'z', 0.4);
  setSub('v', 'w', 0.3);
  setSub('b', 'v', 0.5);
  setSub('f', 'v', 0.5);
  setSub('b', 'p', 0.6);
  setSub('p', 'f', 0.6);
  setSub('d', 't', 0.5);
  setSub('g', 'k', 0.5);
  setSub('g', 'j', 0.6);
  setSub('j', 'y', 0.4);
  setSub('j', 'i', 0.5);
  setSub('l', 'r', 0.8);
  setSub('m', 'n', 0.7);
  for (const v of VOWELS) INDEL[slot(v.charCodeAt(0))] = 0.7;
  INDEL[slot('h'.charCodeAt(0))] = 0.5; // silent or digraph h: Jonson/Johnson, Husayn/Hussein
})();

/** The substitution and insertion/deletion cost tables, for the matcher's version hash. */
export const COST_TABLES: { readonly sub: Float64Array; readonly indel: Float64Array } = { sub: SUB, indel: INDEL };

/** Working rows of the distance functions; grown on demand, never shared between threads. */
export interface SimilarityScratch {
  rowPrev2: Float64Array;
  rowPrev: Float64Array;
  rowCur: Float64Array;
  slotsB: Int32Array;
  indelB: Float64Array;
  jwFlagsA: Uint8Array;
  jwFlagsB: Uint8Array;
}

export function createSimilarityScratch(): SimilarityScratch {
  return {
    rowPrev2: new Float64Array(64), rowPrev: new Float64Array(64), rowCur: new Float64Array(64),
    slotsB: new Int32Array(64), indelB: new Float64Array(64), jwFlagsA: new Uint8Array(64), jwFlagsB: new Uint8Array(64),
  };
}

function ensureRows(s: SimilarityScratch, len: number): void {
  if (s.rowCur.length > len) return;
  const size = Math.max(len + 1, s.rowCur.length * 2);
  s.rowPrev2 = new Float64Array(size);
  s.rowPrev = new Float64Array(size);
  s.rowCur = new Float64Array(size);
  s.slotsB = new Int32Array(size);
  s.indelB = new Float64Array(size);
}

function indelCost(s: string, i: number, code: number): number {
  // Inserting or deleting a letter next to the same letter is a doubling, not a new sound.
  if ((i > 0 && s.charCodeAt(i - 1) === code) || (i + 1 < s.length && s.charCodeAt(i + 1) === code)) {
    return PARAMS.editDoubled;
  }
  const k = slot(code);
  return k < 0 ? 1 : (INDEL[k] as number);
}

/**
 * Weighted Damerau (optimal string alignment) distance with transliteration-aware costs.
 * Returns the cost, not a similarity; see `editSimilarity`.
 */
export function weightedEditDistance(a: string, b: string, scratch: SimilarityScratch = createSimilarityScratch()): number {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0) {
    let cost = 0;
    const s = n === 0 ? b : a;
    for (let i = 0; i < s.length; i++) cost += indelCost(s, i, s.charCodeAt(i));
    return cost;
  }
  ensureRows(scratch, m + 1);
  const slotsB = scratch.slotsB;
  const indelB = scratch.indelB;
  const transpose = PARAMS.editTranspose;
  // Per-character data of b, computed once instead of once per cell.
  for (let j = 0; j < m; j++) {
    const cb = b.charCodeAt(j);
    slotsB[j] = slot(cb);
    indelB[j] = indelCost(b, j, cb);
  }
  let prev2 = scratch.rowPrev2;
  let prev = scratch.rowPrev;
  let cur = scratch.rowCur;
  prev[0] = 0;
  for (let j = 1; j <= m; j++) prev[j] = (prev[j - 1] as number) + (indelB[j - 1] as number);
  let caPrev = -1;
  for (let i = 1; i <= n; i++) {
    const ca = a.charCodeAt(i - 1);
    const sa = slot(ca);
    const subRow = sa * ALPHABET;
    const delA = indelCost(a, i - 1, ca);
    cur[0] = (prev[0] as number) + delA;
    let cbPrev = -1;
    for (let j = 1; j <= m; j++) {
      const cb = b.charCodeAt(j - 1);
      let best: number;
      if (ca === cb) best = prev[j - 1] as number;
      else {
        const sb = slotsB[j - 1] as number;
        best = (prev[j - 1] as number) + (sa < 0 || sb < 0 ? 1 : (SUB[subRow + sb] as number));
      }
      const del = (prev[j] as number) + delA;
      if (del < best) best = del;
      const ins = (cur[j - 1] as number) + (indelB[j - 1] as number);
      if (ins < best) best = ins;
      if (ca === cbPrev && caPrev === cb && ca !== cb) {
        const tr = (prev2[j - 2] as number) + transpose;
        if (tr < best) best = tr;
      }
      cur[j] = best;
      cbPrev = cb;
    }
    caPrev = ca;
    const t = prev2;
    prev2 = prev;
    prev = cur;
    cur = t;
  }
  return prev[m] as number;
}

/** 1 - weighted distance / longer length: 1 is identical, 0 shares nothing. */
export function editSimilarity(a: string, b: string, scratch: SimilarityScratch = createSimilarityScratch()): number {
  const len = a.length > b.length ? a.length : b.length;
  if (len === 0) return 1;
  const d = weightedEditDistance(a, b, scratch);
  return d >= len ? 0 : 1 - d / len;
}

/** Jaro-Winkler similarity (prefix scale 0.1, prefix up to 4). */
export function jaroWinkler(a: string, b: string, scratch: SimilarityScratch = createSimilarityScratch()): number {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0) return n === m ? 1 : 0;
  if (a === b) return 1;
  if (scratch.jwFlagsA.length < n) scratch.jwFlagsA = new Uint8Array(n * 2);
  if (scratch.jwFlagsB.length < m) scratch.jwFlagsB = new Uint8Array(m * 2);
  const jwFlagsA = scratch.jwFlagsA;
  const jwFlagsB = scratch.jwFlagsB;
  jwFlagsA.fill(0, 0, n);
  jwFlagsB.fill(0, 0, m);
  const range = Math.max(0, Math.floor(Math.max(n, m) / 2) - 1);
  let matches = 0;
  for (let i = 0; i < n; i++) {
    const lo = Math.max(0, i - range);
    const hi = Math.min(m - 1, i + range);
    const ca = a.charCodeAt(i);
    for (let j = lo; j <= hi; j++) {
      if (jwFlagsB[j] === 0 && b.charCodeAt(j) === ca) {
        jwFlagsA[i] = 1;
        jwFlagsB[j] = 1;
        matches++;
        break;
      }
    }
  }
  if (matches === 0) return 0;
  let k = 0;
  let transpositions = 0;
  for (let i = 0; i < n; i++) {
    if (jwFlagsA[i] === 0) continue;
    while (jwFlagsB[k] === 0) k++;
    if (a.charCodeAt(i) !== b.charCodeAt(k)) transpositions++;
    k++;
  }
  const jaro = (matches / n + matches / m + (matches - transpositions / 2) / matches) / 3;
  let prefix = 0;
  const maxPrefix = Math.min(4, n, m);
  while (prefix < maxPrefix && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++;
  return jaro + prefix * 0.1 * (1 - jaro);
}

/** Plain Levenshtein similarity, for consonant skeletons (already coarse, so unit costs). */
export function levenshteinSimilarity(a: string, b: string, scratch: SimilarityScratch = createSimilarityScratch()): number {
  const n = a.length;
  const m = b.length;
  const len = n > m ? n : m;
  if (len === 0) return 1;
  if (n === 0 || m === 0) return 0;
  ensureRows(scratch, m + 1);
  let prev = scratch.rowPrev;
  let cur = scratch.rowCur;
  for (let j = 0; j <= m; j++) prev[j] = j;
  for (let i = 1; i <= n; i++) {
    cur[0] = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= m; j++) {
      const sub = (prev[j - 1] ?? 0) + (ca === b.charCodeAt(j - 1) ? 0 : 1);
      const del = (prev[j] ?? 0) + 1;
      const ins = (cur[j - 1] ?? 0) + 1;
      cur[j] = sub < del ? (sub < ins ? sub : ins) : del < ins ? del : ins;
    }
    const t = prev;
    prev = cur;
    cur = t;
  }
  return 1 - (prev[m] ?? 0) / len;
}

/**
 * Consonant skeleton with coarse sound classes. Scripts that omit short vowels (Arabic, Hebrew,
 * Indic, Thai) transliterate to "mhmd", so cross-script tokens are compared on what survives:
 * consonant classes in order. `raw` may still hold apostrophes (hamza/ayn), which make a
 * following w/y a vowel carrier rather than an initial consonant.
 *
 * `loose` also merges the affricates (ch, j, ts, dz, zh) into the dental class: scripts that
 * transcribe foreign names syllable by syllable palatalise t and d before i (Japanese "chi" and
 * "ji" for ti and di, Chinese "ji", Belarusian "ts"), so Putin is puchin, pujing or putsin.
 */
export function consonantSkeleton(raw: string, loose = false): string {
  let out = '';
  let last = '';
  const s = raw;
  const n = s.length;
  let started = false; // first letter seen
  for (let i = 0; i < n; i++) {
    const ch = s[i] ?? '';
    if (ch === "'" || ch === '`') {
      started = true;
      continue;
    }
    if (ch < 'a' || ch > 'z') continue;
    const next = s[i + 1] ?? '';
    const initial = !started;
    started = true;
    let cls = '';
    switch (ch) {
      case 'a': case 'e': case 'i': case 'o': case 'u':
        cls = '';
        last = ''; // a vowel between two equal consonants keeps both ("Oded" is T-T)
        break;
      case 'y':
        cls = initial ? 'Y' : '';
        if (!initial) last = '';
        break;
      case 'w':
        cls = initial ? 'P' : '';
        if (!initial) last = '';
        break;
      case 'b': case 'p': case 'f': case 'v':
        if (ch === 'p' && next === 'h') i++;
        cls = 'P';
        break;
      case 't': case 'd':
        if (next === 'h') i++;
        else if (loose && ch === 'd' && (next === 'z' || next === 'j')) i++;
        else if (ch === 't' && (next === 's' || next === 'z')) i++;
        cls = ch === 't' && (next === 's' || next === 'z') && !loose ? 'S' : 'T';
        break;
      case 'k': case 'g': case 'q':
        if (next === 'h') i++;
        cls = 'K';
        break;
      case 'c':
        if (next === 'h') {
          i++;
          cls = loose ? 'T' : 'S';
        } else cls = next === 'e' || next === 'i' || next === 'y' ? 'S' : 'K';
        break;
      case 'x':
        cls = 'KS';
        break;
      case 's':
        if (next === 'h') i++;
        cls = 'S';
        break;
      case 'z':
        if (next === 'h') {
          i++;
          cls = loose ? 'T' : 'J';
        } else cls = 'S';
        break;
      case 'j':
        cls = loose ? 'T' : 'J';
        break;
      case 'l':
        // Japanese and Korean have one liquid for both: only transcriptions merge them.
        cls = loose ? 'R' : 'L';
        break;
      case 'r':
        cls = 'R';
        break;
      case 'm':
        cls = 'M';
        break;
      case 'n':
        if (next === 'g') i++;
        cls = 'N';
        break;
      case 'h':
        // Word-final h is mostly ta marbuta or a silent ending (Fatimah/Fatima).
        cls = i === n - 1 ? '' : 'H';
        break;
      default:
        cls = '';
    }
    for (const c of cls) {
      if (c !== last) out += c;
      last = c;
    }
  }
  return out;
}
