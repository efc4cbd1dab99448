// Writes src-main/service/core/screening/match/name-stats.ts: how common each name word is among
// people of the naming tradition where it is commonest, and which pairs of name words are
// spellings of one name. The screening engine weighs a name part by how much it identifies
// (engine.ts, nameInformation) and compare.ts never calls two different established names a
// "close spelling". Sources:
//   - the shipped official lists themselves (resources/watchlists: public-domain U.S. data, the
//     UN list, OGL v3.0 UK data, CC BY 4.0 Australian data, CC0 PEP data): the share of the
//     listed people of each nationality whose names carry the word, and the words their own
//     aliases spell two ways (Hossein / Hussein, Heidari / Heydari);
//   - the person-name lists of @faker-js/faker 10.6.0 (MIT licence): the given names and family
//     names its locales give for each country, a word on a short list counting as common there
//     (Nguyen on Vietnam's 26 family names, Gupta on India's). Not a dependency of the app: the
//     package is unpacked beside the run (`npm pack @faker-js/faker@10.6.0`, then
//     `tar xzf faker-js-faker-10.6.0.tgz` gives a `package/` folder).
// The U.S. Census and SSA rates (common-names.ts) are read beside this table at run time.
//
//   npx tsx scripts/build-name-stats.ts --faker DIR/package [--check]
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadShippedLists } from '../src-main/service/core/screening/lists/load';
import { findPeople } from '../src-main/service/core/screening/people';
import type { ListEntity } from '../src-main/service/core/screening/types';
import { ALPHABETS, normalizeName } from '../src-main/service/core/screening/match/normalize';
import { editSimilarity } from '../src-main/service/core/screening/match/similarity';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'src-main', 'service', 'core', 'screening', 'match', 'name-stats.ts');
const check = process.argv.includes('--check');

/** Listed people of one nationality added to its count before a share is taken: a few listed relatives are not a tradition. */
const PRIOR = 100;
/** A word must be on this many listed people's names of one nationality for that share to count. */
const MIN_PEOPLE = 6;
/** A word must be on this many listed people's names for its share of all listed people to count. */
const OVERALL_PEOPLE = 10;
/** Words rarer than this everywhere are left out (the engine's floor applies). */
const KEEP = 0.0015;
/** Most a word on a short faker list counts for (Nguyen is far commoner; no list says by how much). */
const FAKER_MAX = 0.04;
/** Share of a tradition's people a faker list's names carry between them: lists hold the commoner names, not all. */
const FAKER_MASS = 0.3;
/** A pair of spellings must be seen on this many listed people's aliases to be one name. */
const VARIANT_PEOPLE = 2;

/**
 * Countries that share a pool of names, for the lists' figures: a tradition's names are common
 * across its region (Osman, Farah, Hassan from Mogadishu to Khartoum), and a region has listed
 * people enough for a share where one country has a few dozen. A share is the most of the
 * country's and the region's.
 */
const REGIONS: Record<string, readonly string[]> = {
  arab: ['SA', 'YE', 'IQ', 'SY', 'LB', 'JO', 'PS', 'EG', 'LY', 'TN', 'DZ', 'MA', 'KW', 'QA', 'AE', 'BH', 'OM', 'SD', 'MR', 'SO', 'DJ', 'KM'],
  horn: ['SO', 'DJ', 'ET', 'ER', 'KE'],
  persianate: ['IR', 'AF', 'TJ', 'PK'],
  southAsia: ['PK', 'IN', 'BD', 'LK', 'NP', 'MV', 'BT'],
  turkic: ['TR', 'AZ', 'KZ', 'UZ', 'KG', 'TM'],
  eastSlavic: ['RU', 'UA', 'BY', 'MD'],
  caucasus: ['GE', 'AM', 'AZ'],
  balkans: ['RS', 'BA', 'HR', 'ME', 'MK', 'AL', 'XK', 'SI', 'BG'],
  korea: ['KP', 'KR'],
  chinese: ['CN', 'HK', 'MO', 'TW', 'SG'],
  mainlandSouthEastAsia: ['MM', 'TH', 'LA', 'KH', 'VN'],
  malay: ['MY', 'ID', 'BN', 'SG', 'PH'],
  hispanic: ['ES', 'MX', 'CO', 'VE', 'CU', 'NI', 'PE', 'AR', 'CL', 'EC', 'BO', 'GT', 'HN', 'SV', 'PA', 'PY', 'UY', 'DO', 'CR', 'PR'],
  lusophone: ['PT', 'BR', 'AO', 'MZ', 'GW', 'CV', 'ST', 'TL'],
  westAfrica: ['NG', 'GH', 'SN', 'ML', 'NE', 'BF', 'CI', 'GN', 'SL', 'LR', 'GM', 'TG', 'BJ', 'MR'],
  centralEastAfrica: ['CD', 'CF', 'CG', 'RW', 'BI', 'UG', 'SS', 'TZ', 'KE', 'CM', 'GA', 'TD', 'GQ'],
};

const share = new Map<string, number>();
const raise = (word: string, f: number) => {
  if (f > (share.get(word) ?? 0)) share.set(word, f);
};

/**
 * Name words of a name as the matcher reads them: given/family/other words, two letters or more,
 * in Latin script, or also (`alphabets`) transliterated from an alphabet that writes every vowel
 * (Cyrillic Смирнов is smirnov), as the matcher reads a customer's or a list's word in it.
 */
function words(name: string, alphabets = false): string[] {
  const out: string[] = [];
  for (const t of normalizeName(name, 'person').tokens) {
    if (!(t.script === 'latin' || (alphabets && ALPHABETS.has(t.script))) || t.text.length < 2) continue;
    if (t.kind === 'given' || t.kind === 'family' || t.kind === 'token') out.push(t.text);
  }
  return out;
}

/** What brothers' and sisters' names share: every name word but the first given name, when a father's name and a family name remain (two words or more). */
function siblingsKey(name: string, country: string | undefined): string | null {
  const tokens = normalizeName(name, 'person').tokens.filter((t) => t.script === 'latin' && t.text.length >= 2 && (t.kind === 'given' || t.kind === 'family' || t.kind === 'token'));
  const own = tokens.findIndex((t) => t.kind === 'given');
  if (own < 0) return null;
  const rest = tokens.filter((_, i) => i !== own).map((t) => t.key).sort();
  return rest.length >= 2 ? `siblings ${country ?? ''} ${rest.join(' ')}` : null;
}

/**
 * The same words with each one's variant-class head beside it (Osman, Othman and Usman all count
 * for "uthman"): a name is as common as all its spellings together.
 */
function wordsAndNames(name: string): string[] {
  const out = new Set<string>();
  for (const t of normalizeName(name, 'person').tokens) {
    if (t.script !== 'latin' || t.text.length < 2) continue;
    if (t.kind !== 'given' && t.kind !== 'family' && t.kind !== 'token') continue;
    out.add(t.text);
    if (t.key !== t.text && /^[a-z]+$/.test(t.key)) out.add(t.key);
  }
  return [...out];
}

/** A word's first sound, vowels as one (Ebrahim / Ibrahim, Osama / Usama). */
function initial(w: string): string {
  return /^[aeiouy]/.test(w) ? 'a' : w[0]!;
}

/**
 * Spellings of one name: two aliases of the same person that differ in one word only, the two
 * words close in spelling ("Mohammad Hossein ZAMANI" / "Mohammad Hussein ZAMANI").
 */
function mineSpellings(id: string, byName: string[][]): void {
  for (let i = 0; i < byName.length; i++) {
    for (let j = i + 1; j < byName.length; j++) {
      const a = byName[i]!.filter((w) => !byName[j]!.includes(w));
      const b = byName[j]!.filter((w) => !byName[i]!.includes(w));
      if (a.length !== 1 || b.length !== 1 || byName[i]!.length !== byName[j]!.length || byName[i]!.length < 2) continue;
      const [x, y] = [a[0]!, b[0]!];
      if (x.length < 3 || y.length < 3 || initial(x) !== initial(y) || editSimilarity(x, y) < 0.6) continue;
      const key = x < y ? `${x} ${y}` : `${y} ${x}`;
      let s = variants.get(key);
      if (!s) variants.set(key, (s = new Set()));
      s.add(id);
    }
}
}

/**
 * Lists that spell one person differently (LUKASHENKA, Alyaksandr / Alexander LUKASHENKO) are not
 * joined by people.ts, which wants one set of words. For a share it is enough that a person of
 * the same country, born the same day, with a word starting alike (four letters) was counted.
 */
const birthdays = new Map<string, Set<string>[]>();
function sameBirthday(e: ListEntity): boolean {
  const prefixes = new Set(e.names.flatMap((n) => words(n.name)).filter((w) => w.length >= 4).map((w) => w.slice(0, 4)));
  let seenBefore = false;
  for (const dob of e.dobs.filter((d) => d.length === 10)) {
    const key = `${e.countries[0] ?? ''} ${dob}`;
    const counted = birthdays.get(key) ?? [];
    if (counted.some((c) => [...prefixes].some((p) => c.has(p)))) seenBefore = true;
    counted.push(prefixes);
    birthdays.set(key, counted);
  }
  return seenBefore;
}

// ---- the lists
const variants = new Map<string, Set<string>>();
const lists = loadShippedLists(path.join(root, 'resources', 'watchlists'));
const perCountry = new Map<string, Map<string, number>>();
const people = new Map<string, number>();
let persons = 0;
const overall = new Map<string, number>();
// One person listed by several lists (OFAC, the UK, Australia, a PEP source) counts once: a
// share counts people, not listings; a word needs six people of one nationality, so one
// family's few listed members (the Putins, the bin Ladens) do not make a name common.
const seen = new Set<string>();
// Records of one person on several lists (OFAC, the UK, Australia, the UN: people.ts) count as
// one person, however each list spells the name: the person's first record stands for them.
const personOf = findPeople({ length: lists.entities.length, at: (i) => lists.entities[i]! });
for (const [i, e] of lists.entities.entries()) {
  if (e.schema !== 'person') continue;
  const byName = e.names.map((n) => words(n.name));
  mineSpellings(e.id, byName);
  if (personOf[i] !== i || sameBirthday(e)) continue;
  // A person by the words of their name: records of one person (with or without a date of
  // birth) count once; namesakes, too, which only lowers a share.
  const person = [...(byName[0] ?? [])].sort().join(' ');
  if (seen.has(person)) continue;
  seen.add(person);
  // Brothers and sisters count once: people of one country whose names share everything but their
  // own given name, a father's name and a family name at least (Uday and Qusay Saddam Hussein
  // al-Tikriti, Arkady and Boris Romanovich Rotenberg). A family listed together is one draw of
  // its names, not several: its words are no commoner among the country's people for it.
  const family = siblingsKey(e.names[0]?.name ?? '', e.countries[0]);
  if (family !== null) {
    if (seen.has(family)) continue;
    seen.add(family);
  }
  persons++;
  const all = new Set(e.names.flatMap((n) => wordsAndNames(n.name)));
  for (const w of all) overall.set(w, (overall.get(w) ?? 0) + 1);
  const country = e.countries[0];
  if (country !== undefined) {
    people.set(country, (people.get(country) ?? 0) + 1);
    const groups = [country, ...Object.entries(REGIONS).filter(([, cs]) => cs.includes(country)).map(([r]) => r)];
    for (const g of groups) {
      if (g !== country) people.set(g, (people.get(g) ?? 0) + 1);
      let m = perCountry.get(g);
      if (!m) perCountry.set(g, (m = new Map()));
      for (const w of all) m.set(w, (m.get(w) ?? 0) + 1);
    }
  }
}
for (const [country, m] of perCountry) {
  const n = people.get(country)!;
  for (const [w, k] of m) if (k >= MIN_PEOPLE) raise(w, k / (n + PRIOR));
}
for (const [w, k] of overall) if (k >= OVERALL_PEOPLE) raise(w, k / persons);

// ---- faker's person names by locale
const fakerAt = process.argv.indexOf('--faker');
if (fakerAt < 0 || !process.argv[fakerAt + 1]) throw new Error('usage: build-name-stats.ts --faker DIR/package [--check] (DIR: an unpacked @faker-js/faker 10.6.0)');
const fakerDir = path.resolve(process.argv[fakerAt + 1]!);
// Locales whose names are written in Latin letters or in an alphabet (Cyrillic: ru, uk, mk; Greek,
// Armenian, Georgian). Not those written in an abjad (fa, ar, ur, he: no vowels to read a Latin
// spelling from) or a syllabary.
const LOCALES = [
  'af_ZA', 'az', 'cs_CZ', 'da', 'de', 'el', 'en', 'en_GH', 'en_IN', 'en_NG', 'en_NP', 'es', 'es_MX', 'fi', 'fr', 'hr', 'hu', 'hy', 'id_ID',
  'it', 'ka_GE', 'ko', 'ku_kmr_latin', 'lv', 'mk', 'nb_NO', 'ne', 'nl', 'pl', 'pt_BR', 'pt_PT', 'ro', 'ru', 'sk', 'sl_SI', 'sr_RS_latin', 'sv', 'tr', 'uk',
  'uz_UZ_latin', 'vi', 'yo_NG', 'zh_CN', 'zh_TW', 'zu_ZA',
];
interface PersonDefs { first_name?: Record<string, string[]>; last_name?: Record<string, string[]> }
const fakerVersion = (JSON.parse(readFileSync(path.join(fakerDir, 'package.json'), 'utf8')) as { version: string }).version;
for (const loc of LOCALES) {
  const mod = (await import(path.join(fakerDir, 'dist', 'locale', `${loc}.js`))) as Record<string, { rawDefinitions?: { person?: PersonDefs } }>;
  const faker = Object.values(mod).find((x) => x?.rawDefinitions?.person);
  const defs = faker?.rawDefinitions?.person;
  if (!defs) continue;
  for (const [group, family] of [[defs.first_name, false], [defs.last_name, true]] as const) {
    if (!group) continue;
    for (const names of Object.values(group)) {
      // A family name on a tradition's list is an established name there (Morozov, not a slip of
      // Borisov), however long the list: never rarer than the table keeps. (Not a given name: one
      // given name has forms in many traditions, Anzhelika and Angelica, Kathryn and Catherine.)
      const f = Math.max(family ? KEEP : 0, Math.min(FAKER_MAX, FAKER_MASS / names.length));
      for (const name of names) for (const w of words(name, true)) raise(w, f);
    }
  }
}

// Spellings the lists give for one name share its figure.
for (const [pair, seenFor] of variants) {
  if (seenFor.size < VARIANT_PEOPLE) continue;
  const [a, b] = pair.split(' ') as [string, string];
  const f = Math.max(share.get(a) ?? 0, share.get(b) ?? 0);
  raise(a, f);
  raise(b, f);
}
const rows = [...share].filter(([, f]) => f >= KEEP).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
const pairs = [...variants].filter(([, s]) => s.size >= VARIANT_PEOPLE).map(([k]) => k).sort();
const body = `// Generated by scripts/build-name-stats.ts: do not edit by hand. Sources: the shipped official
// lists (resources/watchlists, manifest.json: ${lists.entities.length} records) and the person-name lists of
// @faker-js/faker ${fakerVersion} (MIT licence). See the script for how each figure is made.

/** Name words and the share of people carrying each where it is commonest (0-1, ${rows.length} words). */
const FREQ = \`${rows.map(([w, f]) => `${w} ${Number(f.toPrecision(2))}`).join('\n')}\`;

/** Pairs of words that the lists' own aliases give as spellings of one name (${pairs.length} pairs). */
const VARIANTS = \`${pairs.join('\n')}\`;

export const NAME_SHARE: ReadonlyMap<string, number> = new Map(FREQ.split('\\n').map((l) => {
  const [w, f] = l.split(' ');
  return [w!, Number(f)] as const;
}));

export const SPELLING_PAIRS: ReadonlySet<string> = new Set(VARIANTS.split('\\n'));
`;
if (check) {
  const now = readFileSync(out, 'utf8');
  if (now !== body) {
    process.stderr.write(`${path.relative(root, out)} is out of date: run npx tsx scripts/build-name-stats.ts\n`);
    process.exit(1);
  }
} else {
  writeFileSync(out, body);
  process.stdout.write(`wrote ${path.relative(root, out)}: ${rows.length} words, ${pairs.length} spelling pairs\n`);
}
