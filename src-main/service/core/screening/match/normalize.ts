// Name normalisation: turns a published or queried name into tokens the comparator can align
// cheaply. Everything that does not depend on the other name is computed here once (phonetic
// keys, skeletons, equivalence keys, adjacent-token concatenations), so a comparison does
// little more than look things up.

import { COMMON_NAMES } from './common-names';
import { NAME_SHARE } from './name-stats';
import anyAscii from 'any-ascii';
import { doubleMetaphone } from 'double-metaphone';
import { PARAMS } from './params';
import { consonantSkeleton } from './similarity';
import {
  ABJAD_NAME_VARIANTS,
  NAME_ABBREVIATIONS,
  NAME_VARIANTS,
  NUMBER_SCALES,
  NUMBER_WORDS,
  ORG_ABBREVIATIONS,
  ORG_TYPES,
  ORG_TYPE_PHRASES,
  PARTICLES,
  PATRONYMIC_SUFFIXES,
  PERSON_ONLY_PARTICLES,
} from './tables';
import { SHORT_FORMS } from './hypocorisms';
import { mandarinKey } from './mandarin';
import { SURNAME_TITLES, TITLE_FORMS, titlePosition } from './titles';

export type NameSchema = 'person' | 'organization' | 'vessel' | 'aircraft' | 'unknown';

export type TokenKind =
  | 'given'
  | 'family'
  | 'particle'
  | 'honorific'
  | 'orgtype'
  | 'number'
  | 'initial'
  | 'token';

/** Writing system a token came from; drives cross-script comparison. */
export type Script =
  | 'latin'
  | 'cyrillic'
  | 'greek'
  | 'armenian'
  | 'georgian'
  | 'arabic'
  | 'hebrew'
  | 'indic'
  | 'southeast_asian'
  | 'hangul'
  | 'kana'
  | 'han'
  | 'other';

export interface NameToken {
  /** Normalised surface form: ASCII, lower case, no accents or apostrophes. */
  text: string;
  /** Position of the word this token came from in the original string (before reordering). */
  index: number;
  kind: TokenKind;
  /** Double metaphone [primary, secondary]; empty for numbers. */
  phonetic: readonly [string, string];
  /** Base weight of the token kind: ~0 for legal forms and titles, low for particles. */
  weight: number;
  /** Comparison key: variant-class head, canonical legal form, number value or the text. */
  key: string;
  /** Consonant-class skeleton, used across scripts that drop vowels. */
  skeleton: string;
  /** Arabic script only: the skeleton with dh read as z and th as s, as many spellings do; else ''. */
  skeletonAlt: string;
  script: Script;
  /** Initialism such as "U.S." or "JC": only matches exactly or by the initials of a run. */
  acronym: boolean;
  /** The token is a spelling listed in the name-variant table (a known name). */
  known: boolean;
  /** Original characters of a Han or Hangul token (romanisation merges distinct syllables). */
  native: string;
  /**
   * A foreign name written syllable by syllable in kana, Han or Hangul ("ウラジーミル",
   * "弗拉基米尔"): its vowels are the script's, not the name's, so against Latin it is compared
   * by its loose skeleton.
   */
  transcribed: boolean;
  /** Consonant skeleton with affricates merged into the dentals (see consonantSkeleton). */
  loose: string;
  /** Variant keys of the formal names this token is a short form of ("ted": theodore, edward). */
  shortFor: readonly string[];
  /** Coarse Mandarin syllable key (see mandarin.ts) when the whole name reads as Mandarin, else ''. */
  mandarin: string;
  /** A name part of a name that reads as Vietnamese (vietnameseReading): one syllable of quốc ngữ. */
  vietnamese: boolean;
  /**
   * People in 100,000 carrying this word as a name, when it is a common one (common-names.ts,
   * public statistics); 0 for rarer words, non-Latin words and words outside people's names.
   */
  common: number;
  /**
   * Share of people (0-1) carrying this word as a name where it is commonest: the lists' own
   * nationalities, openly licensed name lists (name-stats.ts) and the public statistics of
   * `common`; 0 for words no source knows, non-Latin words and words outside people's names.
   */
  share: number;
  /** The word as written when its script is not Latin ("أسامة", "Путин", "金"), for explanations; else ''. */
  surface: string;
}

/** Concatenation of adjacent tokens, for "SiemensAG" / "Siemens AG" and "Jinping" / "Jin Ping". */
export interface JoinedRun {
  start: number;
  /** Exclusive. */
  end: number;
  text: string;
  skeleton: string;
  /** First letters of the run's tokens, for matching initialisms. */
  initials: string;
  /** The run's Mandarin key, when its name reads as Mandarin. */
  mandarin: string;
}

export interface NormalizedName {
  raw: string;
  schema: NameSchema;
  tokens: NameToken[];
  joins: JoinedRun[];
  /** Token texts joined by single spaces (for display and debugging). */
  text: string;
  /** True when the original contained letters outside the Latin script. */
  nonLatin: boolean;
  scripts: Script[];
  /** True when a "LAST, First" comma form was turned into "First LAST". */
  reordered: boolean;
  /**
   * Every name part reads as Mandarin syllables: in Wade-Giles when something only that system
   * writes is there (hs, ts, ung, ien, ih, syllables joined by hyphens), else in Pinyin.
   */
  romanisation: 'pinyin' | 'wade_giles' | null;
}

/** Base weight of each token kind (PARAMS.tokenWeights). */
const WEIGHTS: Readonly<Record<TokenKind, number>> = PARAMS.tokenWeights;

export function scriptOf(code: number): Script | null {
  if ((code >= 65 && code <= 90) || (code >= 97 && code <= 122)) return 'latin';
  if (code < 0xc0) return null;
  if (code <= 0x24f || (code >= 0x1e00 && code <= 0x1eff)) return code === 0xd7 || code === 0xf7 ? null : 'latin';
  if (code >= 0x370 && code <= 0x3ff) return 'greek';
  if (code >= 0x1f00 && code <= 0x1fff) return 'greek';
  if ((code >= 0x400 && code <= 0x52f) || (code >= 0x1c80 && code <= 0x1c8f) || (code >= 0x2de0 && code <= 0x2dff) || (code >= 0xa640 && code <= 0xa69f)) {
    return 'cyrillic';
  }
  if (code >= 0x530 && code <= 0x58f) return 'armenian';
  if (code >= 0x590 && code <= 0x5ff) return 'hebrew';
  if ((code >= 0x600 && code <= 0x8ff) || (code >= 0xfb50 && code <= 0xfdff) || (code >= 0xfe70 && code <= 0xfeff)) {
    return 'arabic'; // with Syriac and Thaana: all abjads as far as matching is concerned
  }
  if (code >= 0x900 && code <= 0xdff) return 'indic';
  if (code >= 0xe00 && code <= 0x109f) return 'southeast_asian';
  if ((code >= 0x10a0 && code <= 0x10ff) || (code >= 0x1c90 && code <= 0x1cbf)) return 'georgian';
  if ((code >= 0x1100 && code <= 0x11ff) || (code >= 0x3130 && code <= 0x318f) || (code >= 0xac00 && code <= 0xd7af)) {
    return 'hangul';
  }
  if (code >= 0x1200 && code <= 0x139f) return 'other';
  if (code >= 0x1780 && code <= 0x17ff) return 'southeast_asian';
  if ((code >= 0x3040 && code <= 0x30ff) || (code >= 0x31f0 && code <= 0x31ff) || (code >= 0xff66 && code <= 0xff9f)) {
    return 'kana';
  }
  if ((code >= 0x3400 && code <= 0x4dbf) || (code >= 0x4e00 && code <= 0x9fff) || (code >= 0xf900 && code <= 0xfaff) || (code >= 0x20000 && code <= 0x2ffff)) {
    return 'han';
  }
  if (/\p{L}/u.test(String.fromCodePoint(code))) return 'other';
  return null;
}

/**
 * Scripts whose romanisation drops short vowels (abjads, Indic and South-East Asian scripts as
 * any-ascii renders them), so consonant skeletons are compared. Han, Hangul and kana keep their
 * vowels: skeletons of their one-syllable tokens would match almost anything.
 */
export function isVowelUnreliable(script: Script): boolean {
  return script === 'arabic' || script === 'hebrew' || script === 'indic' || script === 'southeast_asian' || script === 'other';
}

const VARIANT_KEY: ReadonlyMap<string, string> = (() => {
  const map = new Map<string, string>();
  for (const cls of NAME_VARIANTS) {
    const head = cls[0];
    if (head === undefined) continue;
    for (const v of cls) map.set(v, head);
  }
  return map;
})();

const NONE: readonly string[] = [];
const FORMAL_KEYS = new Map<string, readonly string[]>();
/** Variant keys of the formal names `text` is a short form of, memoised. */
function formalKeys(text: string): readonly string[] {
  const formal = SHORT_FORMS.get(text);
  if (formal === undefined) return NONE;
  let keys = FORMAL_KEYS.get(text);
  if (keys === undefined) FORMAL_KEYS.set(text, (keys = [...formal].map((f) => VARIANT_KEY.get(f) ?? f)));
  return keys;
}

const ABJAD_VARIANT_KEY: ReadonlyMap<string, string> = new Map(ABJAD_NAME_VARIANTS.flatMap(([head, forms]) => forms.map((f) => [f, head] as const)));

const PHRASES_BY_FIRST: ReadonlyMap<string, ReadonlyArray<{ words: string[]; code: string; ambiguous: boolean }>> = (() => {
  const map = new Map<string, Array<{ words: string[]; code: string; ambiguous: boolean }>>();
  for (const [phrase, code] of ORG_TYPE_PHRASES) {
    const words = phrase.split(' ');
    const first = words[0] ?? '';
    // Phrases made only of one- and two-letter words ("a s", "de cv") are too easy to hit by
    // accident inside a person's name.
    const ambiguous = words.every((w) => w.length <= 2);
    const list = map.get(first) ?? [];
    list.push({ words, code, ambiguous });
    map.set(first, list);
  }
  for (const list of map.values()) list.sort((a, b) => b.words.length - a.words.length);
  return map;
})();

interface RawToken {
  text: string;
  /** Form with apostrophes kept (hamza/ayn carriers) for the skeleton. */
  pre: string;
  wordIndex: number;
  script: Script;
  acronym: boolean;
  /** From the part before the comma of a "LAST, First" name. */
  family: boolean;
  /** Set when the token was produced by merging a multi-word legal form. */
  orgCode?: string;
  native?: string;
  numberValue?: string;
  transcribed?: boolean;
  /** Spelling the loose skeleton is made from, when the script calls for another reading. */
  loosePre?: string;
  /** The word as written, when its script is not Latin. */
  surface?: string;
}

const SEPARATOR_RE = /[\s\u00b7\u30fb\u2027\u2022,;:/\\|()[\]{}<>"“”„«»!?+=*#~^_]+/u;
const DOTTED_INITIALISM_RE = /(?:^|(?<=[^a-z0-9]))(?:[a-z]\.){1,}[a-z](?:\.|(?=[^a-z0-9])|$)/g;
const APOSTROPHES_RE = /['`\u2018\u2019\u02bb\u02bc\u02b9\u02bf\u02be\u00b4]/g;

function dominantScript(word: string): Script {
  for (const ch of word) {
    const s = scriptOf(ch.codePointAt(0) ?? 0);
    if (s !== null) return s;
  }
  return 'latin';
}

function isCjk(script: Script | null): boolean {
  return script === 'han' || script === 'hangul';
}

/**
 * Turns one whitespace-free word into raw tokens. CJK names are written without spaces:
 * a 2-4 character Han or Hangul word is read as family name (first syllable) + given name, the
 * usual shape of Chinese and Korean names; longer words (foreign names) stay whole.
 */
function wordTokens(word: string, wordIndex: number, family: boolean, splitCjk: boolean, foreignHan: boolean, out: RawToken[]): void {
  let i = 0;
  const chars = Array.from(word);
  while (i < chars.length) {
    const first = chars[i] ?? '';
    const sc = scriptOf(first.codePointAt(0) ?? 0);
    let j = i + 1;
    if (isCjk(sc)) {
      while (j < chars.length && scriptOf((chars[j] ?? '').codePointAt(0) ?? 0) === sc) j++;
      let run = chars.slice(i, j).map((c) => anyAscii(c).toLowerCase().replace(/[^a-z]/g, ''));
      const script = sc ?? 'han';
      const split = splitCjk && run.length >= 2 && run.length <= 4;
      if (script === 'hangul') {
        const foreign = !split && run.length >= 3;
        // Hangul spells foreign names with an epenthetic "eu" (beul-la-di-mi-leu = Vladimir);
        // dropping it brings the romanisation close to the original spelling.
        if (foreign) run = run.map((syl) => syl.replace(/eu(?=[^aeiou]|$)/g, ''));
        run = run.map(koreanSyllable);
        // Korean names: a word-initial plosive is voiceless in the lists' spelling (Kim, Pak).
        if (!foreign) run = run.map((syl, k) => (k === 0 || (split && k === 1) ? syl.replace(/^g/, 'k').replace(/^d/, 't').replace(/^b/, 'p') : syl));
      }
      const original = chars.slice(i, j);
      const parts = split ? [run[0] ?? '', run.slice(1).join('')] : [run.join('')];
      const natives = split ? [original[0] ?? '', original.slice(1).join('')] : [original.join('')];
      // Foreign names written in characters (see tokenizeWords), or one Han word too long to
      // be a Chinese name; Hangul spells them in three or more syllables.
      const transcribed = !split && (script === 'hangul' ? run.length >= 3 : foreignHan ? run.length >= 2 : run.length >= 5);
      parts.forEach((p, k) => {
        if (p.length > 0) out.push({ text: p, pre: p, wordIndex, script, acronym: false, family, native: natives[k] ?? '', transcribed });
      });
    } else {
      while (j < chars.length && !isCjk(scriptOf((chars[j] ?? '').codePointAt(0) ?? 0))) j++;
      latinTokens(chars.slice(i, j).join(''), wordIndex, family, out);
    }
    i = j;
  }
}

/**
 * any-ascii romanises Hangul in the Revised Romanisation style (Gim Jeong-eun, Bag); sanctions
 * lists mostly use McCune-Reischauer-like spellings (Kim Jong Un, Pak). Bring a syllable
 * closer to those: eo/eu lose their e, final g/d/b devoice (initials: see the caller).
 */
function koreanSyllable(syl: string): string {
  return syl
    .replace(/eo/g, 'o')
    .replace(/eu/g, 'u')
    .replace(/(?<!n)g$/, 'k')
    .replace(/d$/, 't')
    .replace(/b$/, 'p');
}

/**
 * Greek spells sounds it lacks letters for with digraphs: ου is u, αυ/ευ are av/ev, and in
 * foreign names ντ, μπ, γκ stand for d, b, g (nd, mb, ng inside a word). any-ascii reads them
 * letter by letter ("Πούτιν" as "poytin"), so they are resolved first.
 */
function greekDigraphs(word: string): string {
  return word
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/ου/g, 'ou')
    .replace(/αυ/g, 'av')
    .replace(/ευ/g, 'ev')
    .replace(/^ντ/, 'd')
    .replace(/^μπ/, 'b')
    .replace(/^γκ/, 'g')
    .replace(/ντ/g, 'nd')
    .replace(/μπ/g, 'mb')
    .replace(/γ[κγ]/g, 'ng')
    .replace(/τ[σς]/g, 'ts')
    .replace(/τζ/g, 'dz');
}

/** Armenian writes the vowel u as ու (like Greek ου): any-ascii reads it letter by letter ("Պուտին" as "powtin"). */
function armenianDigraphs(word: string): string {
  return word.replace(/[Ոո]ւ/g, (m) => (m[0] === 'Ո' ? 'U' : 'u'));
}

/**
 * The Devanagari anusvara (ं) is a nasal taking the place of the next consonant: n before most
 * (नरेंद्र Narendra, गांधी Gandhi), m before labials. any-ascii writes m for all of them.
 */
function devanagariNasals(word: string): string {
  return word.replace(/\u0902(?=[\u092a-\u092e])/g, '\u092e\u094d').replace(/\u0902/g, '\u0928\u094d');
}

function latinTokens(segment: string, wordIndex: number, family: boolean, out: RawToken[]): void {
  const script = dominantScript(segment);
  const spelled = script === 'greek' ? greekDigraphs(segment) : script === 'indic' ? devanagariNasals(segment) : script === 'armenian' ? armenianDigraphs(segment) : segment;
  let s = anyAscii(spelled).toLowerCase();
  const burmese = /[\u1000-\u109f]/.test(segment);
  const surface = script === 'latin' ? undefined : segment;
  s = s.replace(/&/g, ' and ');
  // Possessive 's carries nothing: "Deutsche Bank's AG", "People's Liberation Army".
  if (script === 'latin') s = s.replace(/([a-z])['\u2019]s(?![a-z])/g, '$1');
  s = s.replace(APOSTROPHES_RE, "'");
  // "U.S.", "L.L.C.", "S.A.R.L." are one word spelled with dots: join them into an initialism.
  const dotted: string[] = [];
  s = s.replace(DOTTED_INITIALISM_RE, (m) => {
    const joined = m.replace(/\./g, '');
    dotted.push(joined);
    return ` ${joined} `;
  });
  for (const piece of s.split(/[^a-z0-9']+/)) {
    if (piece.length === 0) continue;
    const text = piece.replace(/'/g, '');
    if (text.length === 0) continue;
    const pre = piece;
    // Split digit/letter runs only for ordinals; codes like "ahl1" stay whole.
    const ordinal = /^(\d+)(?:st|nd|rd|th)$/.exec(text);
    if (ordinal !== null) {
      const value = String(Number(ordinal[1]));
      out.push({ text: value, pre: value, wordIndex, script, acronym: false, family, numberValue: value });
      continue;
    }
    const acronym = dotted.includes(text) && text.length >= 2;
    // Katakana is the script of foreign names in Japanese: every kana token is a transcription.
    // Burmese spells foreign names syllable by syllable too, and its ya also writes r (ရ is
    // read ya): "ဗလာဒီမီယာ" is Vladimir.
    if (script === 'kana') out.push({ text, pre, wordIndex, script, acronym, family, transcribed: true, loosePre: kanaInitialW(pre), surface });
    else if (burmese) out.push({ text, pre, wordIndex, script, acronym, family, transcribed: true, loosePre: pre.replace(/(?<=.)y/g, 'r'), surface });
    else out.push({ text, pre, wordIndex, script, acronym, family, surface });
  }
}

function mergeOrgPhrases(tokens: RawToken[], person: boolean): RawToken[] {
  const out: RawToken[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t === undefined) continue;
    const candidates = PHRASES_BY_FIRST.get(t.text);
    let merged = false;
    if (candidates !== undefined) {
      for (const cand of candidates) {
        if (person && cand.ambiguous) continue;
        if (i + cand.words.length > tokens.length) continue;
        let ok = true;
        for (let k = 0; k < cand.words.length; k++) {
          if (tokens[i + k]?.text !== cand.words[k]) {
            ok = false;
            break;
          }
        }
        if (!ok) continue;
        // The canonical code stands in for the phrase: "Limited Liability Company" reads as llc.
        out.push({ ...t, text: cand.code, pre: cand.code, acronym: false, orgCode: cand.code });
        i += cand.words.length - 1;
        merged = true;
        break;
      }
    }
    if (!merged) out.push(t);
  }
  return out;
}

const ROMAN_RE = /^(?=[ivx])(x{0,3})(ix|iv|v?i{0,3})$/;

function romanValue(s: string): number {
  const values: Record<string, number> = { i: 1, v: 5, x: 10 };
  let total = 0;
  for (let i = 0; i < s.length; i++) {
    const v = values[s[i] ?? ''] ?? 0;
    const next = values[s[i + 1] ?? ''] ?? 0;
    total += v < next ? -v : v;
  }
  return total;
}

/** "Forty-Four", "Forty 4", "First" -> one number token; only for non-person names. */
function mergeNumberWords(tokens: RawToken[]): RawToken[] {
  const out: RawToken[] = [];
  let i = 0;
  while (i < tokens.length) {
    const t = tokens[i];
    if (t === undefined) break;
    if (!NUMBER_WORDS.has(t.text)) {
      out.push(t);
      i++;
      continue;
    }
    let total = 0;
    let current = 0;
    let j = i;
    for (; j < tokens.length; j++) {
      const w = tokens[j]?.text ?? '';
      const v = NUMBER_WORDS.get(w);
      const scale = NUMBER_SCALES.get(w);
      if (v !== undefined) {
        if (j > i && current % 10 !== 0 && v < 10) break; // "one two" is two numbers
        current += v;
      } else if (scale !== undefined && j > i) {
        current = (current === 0 ? 1 : current) * scale;
        if (scale >= 1000) {
          total += current;
          current = 0;
        }
      } else if (/^[1-9]$/.test(w) && j > i && current >= 20 && current % 10 === 0) {
        current += Number(w); // "Forty 4"
        j++;
        break;
      } else break;
    }
    const value = String(total + current);
    out.push({ ...t, text: value, pre: value, numberValue: value });
    i = j;
  }
  return out;
}

const LEET: Readonly<Record<string, string>> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '9': 'g' };

/**
 * A digit between letters of a person's name is a typing or OCR substitution ("Ig0r Sech1n");
 * digits at the end of a token are a code ("AR16") and stay.
 */
function undoLeet(t: RawToken): RawToken {
  if (!/[a-z][0-9]+[a-z]/.test(t.text)) return t;
  const text = t.text.replace(/(?<=[a-z])[0-9]+(?=[a-z])/g, (d) => [...d].map((c) => LEET[c] ?? c).join(''));
  return { ...t, text, pre: text };
}

function patronymicStem(text: string): string | null {
  for (const suf of PATRONYMIC_SUFFIXES) {
    if (text.length >= suf.length + 3 && text.endsWith(suf)) return text.slice(0, text.length - suf.length);
  }
  return null;
}

const VOWEL_RE = /[aeiouy]/;

function splitOnComma(raw: string): [string, string] | null {
  const parts = raw.split(',');
  if (parts.length !== 2) return null;
  const [a, b] = parts;
  if (a === undefined || b === undefined || a.trim() === '' || b.trim() === '') return null;
  return [a, b];
}

function tokenizeWords(text: string, wordOffset: number, family: boolean, out: RawToken[]): number {
  let index = wordOffset;
  const words = text.split(SEPARATOR_RE).filter((w) => w.length > 0);
  // A CJK name written as one word ("김정은", "习近平") is family + given name; when the words
  // are already separated ("은지 윤"), each word is a name of its own.
  const cjkWords = words.filter((w) => isCjk(scriptOf(w.codePointAt(0) ?? 0))).length;
  // Chinese family and given names have one or two characters each: a Han name with a part
  // of three or more, or with "·" between its parts, is a foreign name written in characters.
  const foreignHan = /[\u00b7\u30fb\u2027]/.test(text) || (cjkWords >= 2 && words.some((w) => scriptOf(w.codePointAt(0) ?? 0) === 'han' && Array.from(w).length >= 3));
  for (const word of words) {
    wordTokens(word, index, family, cjkWords === 1, foreignHan, out);
    index++;
  }
  return index;
}

function isSuffixOnly(tokens: RawToken[]): boolean {
  return tokens.every((t) => ORG_TYPES.has(t.text) || t.text === 'jr' || t.text === 'sr' || /^(ii|iii|iv)$/.test(t.text));
}

/**
 * Normalises a name for comparison. `schema` decides which vocabulary applies: legal forms
 * and number words for organisations, vessels and aircraft; titles, initials and "LAST, First"
 * for people; `unknown` takes the cautious middle.
 */
export function normalizeName(raw: string, schema: NameSchema): NormalizedName {
  const nfkc = raw.normalize('NFKC');
  const person = schema === 'person';
  const org = schema === 'organization' || schema === 'vessel' || schema === 'aircraft';

  let rawTokens: RawToken[] = [];
  let reordered = false;
  const comma = person || schema === 'unknown' ? splitOnComma(nfkc) : null;
  if (comma !== null) {
    const familyPart: RawToken[] = [];
    const givenPart: RawToken[] = [];
    const next = tokenizeWords(comma[0], 0, true, familyPart);
    tokenizeWords(comma[1], next, false, givenPart);
    // "Apple, Inc." and "Smith, Jr." are not "LAST, First".
    if (givenPart.length > 0 && !isSuffixOnly(givenPart) && familyPart.length <= 4) {
      rawTokens = [...givenPart, ...familyPart];
      reordered = true;
    } else {
      rawTokens = [...familyPart, ...givenPart].map((t) => ({ ...t, family: false }));
    }
  } else {
    tokenizeWords(nfkc, 0, false, rawTokens);
  }

  if (person) rawTokens = rawTokens.map(undoLeet);
  rawTokens = mergeOrgPhrases(rawTokens, person);
  if (!person) rawTokens = mergeNumberWords(rawTokens);

  // A two- or three-letter token without vowels in a person's name is a run of initials ("JC"),
  // unless it is a name's written short form (Md., Mhd for Muhammad: tables.ts).
  if (person) {
    const expanded: RawToken[] = [];
    for (const t of rawTokens) {
      const initialsLike =
        t.script === 'latin' && t.text.length >= 2 && t.text.length <= 3 && /^[a-z]+$/.test(t.text) && !VOWEL_RE.test(t.text) &&
        !ORG_TYPES.has(t.text) && !PARTICLES.has(t.text) && !TITLE_FORMS.has(t.text) && !NAME_ABBREVIATIONS.has(t.text);
      if (initialsLike || (t.acronym && t.text.length <= 3)) {
        for (const ch of t.text) expanded.push({ ...t, text: ch, pre: ch, acronym: false });
      } else expanded.push(t);
    }
    rawTokens = expanded;
  }

  const scripts = new Set<Script>();
  for (const ch of nfkc) {
    const s = scriptOf(ch.codePointAt(0) ?? 0);
    if (s !== null) scripts.add(s);
  }
  const nonLatin = [...scripts].some((s) => s !== 'latin');

  // Titles by position: some are titles only before the name (Sayyid) or after it (Pasha).
  // The title table is written for alphabets and for Arabic script; a Khmer "hon" (Hun) is not "Hon.".
  const titleAt = rawTokens.map((t) =>
    (person || schema === 'unknown') && (ALPHABETS.has(t.script) || t.script === 'arabic' || t.script === 'hebrew')
      ? titlePosition(t.text, t.pre, t.script === 'arabic' || t.script === 'hebrew')
      : null);
  const isTitle = (i: number): boolean => {
    const pos = titleAt[i];
    if (pos === null || pos === undefined) return false;
    if (pos === 'leading') return titleAt.slice(0, i).every((p) => p !== null);
    if (pos === 'trailing') return titleAt.slice(i + 1).every((p) => p !== null);
    return true;
  };

  const kinds: TokenKind[] = [];
  const keys: string[] = [];
  const weights: number[] = [];
  rawTokens.forEach((t, i) => {
    let kind: TokenKind = 'token';
    let key = t.text;
    let weight = 1;
    const orgType = ORG_TYPES.get(t.text);
    const isNumeric = /\d/.test(t.text);
    if (t.orgCode !== undefined) {
      kind = 'orgtype';
      key = t.orgCode;
    } else if (t.numberValue !== undefined || isNumeric) {
      kind = 'number';
      key = t.numberValue ?? t.text.replace(/^0+(?=\d)/, '');
    } else if (orgType !== undefined && (org ? true : person ? !orgType.ambiguous : !orgType.ambiguous || i === rawTokens.length - 1)) {
      kind = 'orgtype';
      key = orgType.code;
    } else if (!person && i > 0 && ROMAN_RE.test(t.text) && !t.acronym) {
      kind = 'number';
      key = String(romanValue(t.text));
    } else if ((person || (schema === 'unknown' && i === 0)) && isTitle(i)) {
      kind = 'honorific';
    } else if (t.script === 'arabic' && t.text === 'l') {
      kind = 'particle'; // Arabic "آل" / "ال" transliterates to a bare l
      key = 'al';
    } else if (
      PARTICLES.has(t.text) && (person ? t.text.length >= 2 : !(org && PERSON_ONLY_PARTICLES.has(t.text))) &&
      // A particle links two names, so it does not open a person's name: there "Ben" is Benjamin.
      !(person && i === 0 && rawTokens.length > 1 && SHORT_FORMS.has(t.text))
    ) {
      kind = 'particle';
      key = VARIANT_KEY.get(t.text) ?? t.text;
    } else if (person && t.text.length === 1 && !isCjk(t.script) && !isVowelUnreliable(t.script)) {
      // Scripts without letter case or abbreviation dots (Arabic, Hebrew...) have no initials.
      kind = 'initial';
    } else {
      kind = person ? 'given' : 'token';
      const base = person && t.script === 'latin' ? hungarianPalatals(t.text) : t.text;
      const stem = patronymicStem(base);
      if (person && stem !== null) {
        key = `${VARIANT_KEY.get(stem) ?? stem}ovich`;
        weight = PARAMS.patronymicWeight;
      } else {
        key = (t.script === 'arabic' ? ABJAD_VARIANT_KEY.get(base) : undefined) ?? VARIANT_KEY.get(base) ?? (person ? undefined : ORG_ABBREVIATIONS.get(t.text)) ?? base;
      }
    }
    kinds.push(kind);
    keys.push(key);
    weights.push(kind === 'given' || kind === 'token' ? weight : WEIGHTS[kind]);
  });

  // A name made only of "titles" ("General", "President") is a name after all.
  if (kinds.length > 0 && !kinds.some((k) => k !== 'honorific' && k !== 'particle')) {
    for (let i = 0; i < kinds.length; i++) {
      kinds[i] = person ? 'given' : 'token';
      weights[i] = 1;
    }
  }
  // A particle links a name to the next one: at the end of a person's name, or as the whole
  // family part of "LAST, First", it is the name itself (Stephen Lo, "LO, Stephen").
  if (person) {
    const familyPart = reordered ? rawTokens.map((t, i) => (t.family ? i : -1)).filter((i) => i >= 0) : [];
    const lone = familyPart.length > 0 && familyPart.every((i) => kinds[i] === 'particle') ? familyPart : [];
    const last = kinds.length - 1;
    if (!reordered && last > 0 && kinds[last] === 'particle') lone.push(last);
    for (const i of lone) {
      kinds[i] = 'given';
      keys[i] = rawTokens[i]?.text ?? keys[i] ?? '';
      weights[i] = 1;
    }
  }

  // Family name: the comma part when reordered; else the first syllable of a CJK name, else the
  // last name-like word, with every part of it when hyphenated ("Torres-Vasquez").
  if (person) {
    const nameIdx = kinds.map((k, i) => (k === 'given' ? i : -1)).filter((i) => i >= 0);
    const personal = kinds.filter((k) => k === 'given' || k === 'initial').length;
    if (reordered) {
      for (const i of nameIdx) if (rawTokens[i]?.family === true) kinds[i] = 'family';
    } else if (nameIdx.length >= 1 && personal >= 2) {
      const first = nameIdx[0] ?? 0;
      const last = nameIdx[nameIdx.length - 1] ?? 0;
      const cjk = isCjk(rawTokens[first]?.script ?? 'latin');
      if (cjk) kinds[first] = 'family';
      else {
        const word = rawTokens[last]?.wordIndex;
        const sameWord = nameIdx.filter((i) => rawTokens[i]?.wordIndex === word);
        // A name of one hyphenated word ("Jean-Pierre") keeps a given name.
        for (const i of sameWord.length < nameIdx.length ? sameWord : [last]) kinds[i] = 'family';
      }
    }
  }

  const tokens: NameToken[] = rawTokens.map((t, i) => {
    const kind = kinds[i] ?? 'token';
    const phonetic: readonly [string, string] = kind === 'number' ? ['', ''] : doubleMetaphone(t.text);
    return {
      text: t.text,
      index: t.wordIndex,
      kind,
      phonetic,
      weight: weights[i] ?? 1,
      key: keys[i] ?? t.text,
      skeleton: kind === 'number' ? t.text : consonantSkeleton(t.pre),
      skeletonAlt: t.script === 'arabic' && /dh|th/.test(t.pre) ? consonantSkeleton(t.pre.replace(/dh/g, 'z').replace(/th/g, 's')) : '',
      script: t.script,
      acronym: t.acronym && !person,
      known: VARIANT_KEY.has(t.text) || (t.script === 'arabic' && ABJAD_VARIANT_KEY.has(t.text)) || (kind === 'particle' && PARTICLES.has(t.text)),
      native: t.native ?? '',
      transcribed: t.transcribed === true,
      loose: kind === 'number' ? t.text : consonantSkeleton(t.loosePre ?? t.pre, true),
      shortFor: person ? formalKeys(t.text) : NONE,
      mandarin: '',
      vietnamese: false,
      surface: t.native || t.surface || '',
      common: person && t.script === 'latin' && (kind === 'given' || kind === 'family') ? COMMON_NAMES.get(t.text) ?? 0 : 0,
      // A spelling is as common as the name it spells (Osman as Uthman).
      share: person && t.script === 'latin' && (kind === 'given' || kind === 'family' || kind === 'token') ? Math.max(nameShare(t.text), keys[i] && keys[i] !== t.text ? nameShare(keys[i]!) : 0) : 0,
    };
  });

  const romanisation = person ? mandarinReading(tokens) : null;
  if (person) vietnameseReading(tokens);
  const joins: JoinedRun[] = [];
  for (let i = 0; i < tokens.length; i++) {
    let text = '';
    let pre = '';
    let initials = '';
    for (let k = 0; k < 3 && i + k < tokens.length; k++) {
      const t = tokens[i + k];
      // Runs stay inside one part of a "LAST, First" name and skip initials and numbers.
      // CJK syllables are whole name parts already (one character each, or the given name).
      if (t === undefined || t.kind === 'number' || t.kind === 'honorific' || t.text.length < 2 || isCjk(t.script)) break;
      if (rawTokens[i + k]?.family !== rawTokens[i]?.family) break;
      text += t.text;
      pre += rawTokens[i + k]?.pre ?? t.text;
      initials += t.text[0] ?? '';
      if (k >= 1) {
        const mandarin = romanisation === null ? '' : tokens.slice(i, i + k + 1).map((x) => x.mandarin).join('.');
        joins.push({ start: i, end: i + k + 1, text, skeleton: consonantSkeleton(pre), initials, mandarin });
      }
    }
  }

  return {
    raw,
    schema,
    tokens,
    joins,
    text: tokens.map((t) => t.text).join(' '),
    nonLatin,
    scripts: [...scripts],
    reordered,
    romanisation,
  };
}

/**
 * A subject's name from the parts a caller gave: the tokens of `last` are the family name,
 * the rest given names, whatever the heuristics of normalizeName would guess. Commas inside a
 * part are separators here, never the "LAST, First" form.
 */
export function normalizeSubjectName(first: string, middle: string | undefined, last: string): NormalizedName {
  const parts = [first, middle ?? '', last].map((p) => p.replace(/,/g, ' ').trim()).filter((p) => p.length > 0);
  const n = normalizeName(parts.join(' '), 'person');
  const words = (s: string) => s.normalize('NFKC').split(SEPARATOR_RE).filter((w) => w.length > 0).length;
  const familyFrom = words(parts.join(' ')) - words(last.replace(/,/g, ' '));
  for (const t of n.tokens) {
    // A word the caller gave as the family name is one when such titles are also family names
    // ("Bilal Sheikh", "Omar Pasha"): dropping it would leave a one-word name. An office after a
    // name ("Putyin elnök") stays a title.
    if (t.kind === 'honorific' && t.index >= familyFrom && SURNAME_TITLES.has(t.text)) {
      t.kind = 'family';
      t.weight = 1;
      t.key = t.text;
      t.share = nameShare(t.text);
    }
    if (t.kind !== 'given' && t.kind !== 'family') continue;
    t.kind = t.index >= familyFrom ? 'family' : 'given';
  }
  // A last name of particles only ("Lo", "Da") is the family name, not a link.
  if (n.tokens.every((t) => t.index < familyFrom || t.kind === 'particle')) {
    for (const t of n.tokens) {
      if (t.index < familyFrom) continue;
      t.kind = 'family';
      t.key = t.text;
      t.weight = 1;
    }
  }
  // The caller drew the line between given and family names: a run never joins across it.
  n.joins = n.joins.filter((j) => (n.tokens[j.start]?.index ?? 0) >= familyFrom || (n.tokens[j.end - 1]?.index ?? 0) < familyFrom);
  return n;
}

/** How common a name word is where it is commonest (NormalizedName tokens' `share`). */
export function nameShare(word: string): number {
  const known = Math.max(NAME_SHARE.get(word) ?? 0, (COMMON_NAMES.get(word) ?? 0) / 100_000);
  if (known > 0) return known;
  // A feminine surname (Smirnova, Kowalska) is as common as its masculine form; a patronymic
  // (Vladimirovich, Sergeyevna) as the father's name it is made from.
  const fem = /^(.{3,}(?:ov|ev|in|yn))a$/.exec(word) ?? /^(.{3,}(?:sk|ck))a$/.exec(word);
  if (fem) return NAME_SHARE.get(fem[1]!.endsWith('k') ? `${fem[1]}i` : fem[1]!) ?? 0;
  const pat = /^(.{3,}?)(?:ovich|evich|ovna|evna|yevich|yevna|ich|ovych|ovych)$/.exec(word);
  if (pat) {
    const stem = pat[1]!;
    return Math.max(...[stem, `${stem}y`, `${stem}i`, `${stem}a`, stem.replace(/e$/, 'ey')].map((w) => NAME_SHARE.get(w) ?? 0));
  }
  return 0;
}

/** Scripts whose letters transliterate one for one, where titles are written as in the table. */
export const ALPHABETS: ReadonlySet<Script> = new Set(['latin', 'cyrillic', 'greek', 'armenian', 'georgian']);

const WADE_GILES_ONLY = /hs|ts|tz|ss|sz|ih$|ieh$|ien$|ung$|erh$|ueh$/;

/** Sets each token's Mandarin key when every name part reads as Mandarin; says in which system. */
function mandarinReading(tokens: NameToken[]): NormalizedName['romanisation'] {
  const names = tokens.filter((t) => t.kind === 'given' || t.kind === 'family');
  if (names.length === 0) return null;
  // Each name part read once; the first that does not read as Mandarin ends it.
  const keys: string[] = [];
  for (const t of names) {
    const key = t.script === 'latin' || t.script === 'han' ? mandarinKey(t.text) : '';
    if (key === '') return null;
    keys.push(key);
  }
  names.forEach((t, i) => (t.mandarin = keys[i]!));
  for (const t of tokens) if (t.kind !== 'given' && t.kind !== 'family') t.mandarin = mandarinKey(t.text);
  const latin = tokens.filter((t) => t.script === 'latin');
  // Wade-Giles hyphenates the syllables of a given name (Tse-tung); Pinyin writes them as one.
  const hyphenated = latin.some((t, i) => i > 0 && latin[i - 1]?.index === t.index);
  return hyphenated || latin.some((t) => WADE_GILES_ONLY.test(t.text)) ? 'wade_giles' : 'pinyin';
}

// Vietnamese family names: a closed set, some fourteen of them carried by nine people in ten.
export const VIETNAMESE_FAMILY: ReadonlySet<string> = new Set([
  'nguyen', 'tran', 'le', 'pham', 'hoang', 'huynh', 'phan', 'vu', 'vo', 'dang', 'bui', 'do', 'ho', 'ngo', 'duong', 'ly', 'truong', 'dinh',
  'doan', 'trinh', 'luong', 'lam', 'mai', 'cao', 'ha', 'ta', 'quach', 'chau', 'thai', 'luu', 'phung', 'giang', 'to', 'tong', 'la', 'lai',
]);
/** One syllable of quốc ngữ without its diacritics: an initial, a vowel cluster, a final. */
const VIETNAMESE_SYLLABLE = /^(?:ngh|ng|nh|ch|gh|gi|kh|ph|qu|th|tr|[bcdghklmnpqrstvx])?[aeiouy]{1,3}(?:ng|nh|ch|[cmnpt])?$/;

/**
 * Marks the name parts of a name that reads as Vietnamese: two parts or more, each one syllable,
 * and a Vietnamese family name among them (Pham Thi Huong, Nguyen Van An). Each syllable is its
 * own word there, written one way: another syllable is another name (compare.ts).
 */
function vietnameseReading(tokens: NameToken[]): void {
  const names = tokens.filter((t) => t.kind === 'given' || t.kind === 'family');
  if (names.length < 2 || !names.some((t) => VIETNAMESE_FAMILY.has(t.text))) return;
  if (!names.every((t) => t.script === 'latin' && VIETNAMESE_SYLLABLE.test(t.text))) return;
  for (const t of names) t.vietnamese = true;
}

/**
 * Hungarian writes the Russian soft d and t (ди, ти) as gy and ty between vowels: Vlagyimir
 * Putyin, Medvegyev. The comparison key reads them back as d and t.
 */
function hungarianPalatals(text: string): string {
  return text.includes('y') ? text.replace(/(?<=[aeiou])(g|t)y(?=[aeiou])/g, (_m, c: string) => (c === 'g' ? 'd' : 't')) : text;
}

/**
 * A word-initial ウ before a consonant stands for the w or v Japanese lacks (ウラジオストク,
 * Vladivostok; ウォッカ, vodka): give the skeleton its labial.
 */
function kanaInitialW(text: string): string {
  return /^u[^aeiou]/.test(text) ? `w${text}` : text;
}

/** Maps free-form schema labels (FtM names, CSV input) onto the normaliser's schemas. */
export function toNameSchema(schema: string): NameSchema {
  const s = schema.trim().toLowerCase();
  if (s === 'person' || s === 'individual') return 'person';
  if (s === 'vessel' || s === 'ship') return 'vessel';
  if (s === 'aircraft' || s === 'airplane') return 'aircraft';
  if (s === 'company' || s === 'organization' || s === 'organisation' || s === 'legalentity' || s === 'entity' || s === 'publicbody') {
    return 'organization';
  }
  return 'unknown';
}
