// Mandarin romanisations: the same Chinese name is written "Mao Zedong" in Pinyin and "Mao
// Tse-tung" in Wade-Giles, which older lists, passports from Taiwan and press archives still
// use. Spelling similarity sees two different names; read syllable by syllable they are one.
//
// A word that reads as a run of Mandarin syllables gets a coarse key on which both systems
// agree: initials that differ only by the systems' conventions (Pinyin b/d/g/j/zh/z against
// Wade-Giles p/t/k/ch/ts, x against hs) share a class, and so do the finals the two systems
// spell differently (ong/ung, ian/ien, ie/ieh, i/ih). The key is compared only when every part
// of both names reads as Mandarin (see compare.ts), so "Dan Smith" never meets "Tan".
//
// Syllable tables: the initials and finals of Hanyu Pinyin (ISO 7098) and of Wade-Giles as
// given in the Library of Congress Pinyin conversion guidelines (2000); apostrophes of
// aspiration are dropped by normalisation and so are not needed here.

export const INITIALS: ReadonlyArray<readonly [string, string]> = [
  ['zh', 'J'], ['ch', 'J'], ['sh', 'SH'], ['hs', 'X'], ['ts', 'Z'], ['tz', 'Z'], ['ss', 'S'], ['sz', 'S'],
  ['b', 'P'], ['p', 'P'], ['m', 'M'], ['f', 'F'], ['d', 'T'], ['t', 'T'], ['n', 'N'], ['l', 'L'], ['g', 'K'], ['k', 'K'],
  ['h', 'H'], ['j', 'J'], ['q', 'J'], ['x', 'X'], ['r', 'R'], ['z', 'Z'], ['c', 'Z'], ['s', 'S'], ['y', 'Y'], ['w', 'W'],
];

/** Finals, longest first, with the spelling both systems share. */
export const FINALS: ReadonlyArray<readonly [string, string]> = [
  ['iung', 'iong'], ['iong', 'iong'], ['iang', 'iang'], ['uang', 'uang'], ['ueng', 'ong'],
  ['erh', 'er'], ['ieh', 'ie'], ['ien', 'ian'], ['ian', 'ian'], ['iao', 'iao'], ['ing', 'ing'], ['ung', 'ong'], ['ong', 'ong'],
  ['ang', 'ang'], ['eng', 'eng'], ['uai', 'uai'], ['uan', 'uan'], ['ueh', 'ue'],
  ['ai', 'ai'], ['ei', 'ei'], ['ao', 'ao'], ['ou', 'ou'], ['an', 'an'], ['en', 'en'], ['in', 'in'], ['un', 'un'],
  ['ia', 'ia'], ['ie', 'ie'], ['iu', 'iu'], ['ua', 'ua'], ['uo', 'uo'], ['ui', 'ui'], ['ue', 'ue'], ['eh', 'e'], ['ih', 'i'],
  ['er', 'er'], ['a', 'a'], ['o', 'e'], ['e', 'e'], ['i', 'i'], ['u', 'u'], ['v', 'u'],
];

const FINAL_LETTERS: ReadonlySet<string> = new Set(FINALS.map(([f]) => f.charAt(f.length - 1)));

interface Syllable {
  length: number;
  key: string;
}

/** The initials by their first letter, each followed by the empty initial, in INITIALS' order. */
const INITIALS_FROM: ReadonlyMap<string, ReadonlyArray<readonly [string, string]>> = new Map(
  [...'abcdefghijklmnopqrstuvwxyz'].map((c) => [c, [...INITIALS.filter(([i]) => i.startsWith(c)), ['', ''] as const]]),
);

function syllablesAt(text: string, at: number): Syllable[] {
  const out: Syllable[] = [];
  const candidates = INITIALS_FROM.get(text.charAt(at)) ?? [['', ''] as const];
  for (const [ini, iniKey] of candidates) {
    if (!text.startsWith(ini, at)) continue;
    const from = at + ini.length;
    for (const [fin, finKey] of FINALS) {
      if (!text.startsWith(fin, from)) continue;
      // Wade-Giles writes Pinyin zi, ci, si as tzu, tz'u, ssu: after a dental sibilant, u is i.
      const f = finKey === 'u' && (iniKey === 'Z' || iniKey === 'S') && (ini.length === 2) ? 'i' : finKey;
      out.push({ length: ini.length + fin.length, key: `${iniKey}${f}` });
    }
  }
  return out;
}

/**
 * The coarse Mandarin key of a word ("tsetung" and "zedong" both give "Ze.Tong"), or '' when the
 * word cannot be read as one to four Mandarin syllables. Fewest syllables win, then the longest
 * first syllable. Nothing is cached: the words may be a subject's name, which lives only for
 * its request (a read is a few microseconds).
 */
export function mandarinKey(text: string): string {
  let key = '';
  // Every final ends in one of these letters: a word ending otherwise (Ahmed, Smith) reads as none.
  if (text.length >= 1 && text.length <= 24 && /^[a-z]+$/.test(text) && FINAL_LETTERS.has(text.charAt(text.length - 1))) {
    // best[i]: fewest syllables reading text[i..]; keys[i] the key of that reading.
    const n = text.length;
    const best = new Array<number>(n + 1).fill(Infinity);
    const keys = new Array<string>(n + 1).fill('');
    best[n] = 0;
    for (let i = n - 1; i >= 0; i--) {
      for (const s of syllablesAt(text, i)) {
        const rest = best[i + s.length]!;
        if (rest + 1 < best[i]!) {
          best[i] = rest + 1;
          keys[i] = rest === 0 ? s.key : `${s.key}.${keys[i + s.length]}`;
        }
      }
    }
    if (best[0]! <= 4) key = keys[0]!;
  }
  return key;
}
