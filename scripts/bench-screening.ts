// `npm run bench:screening` (after bench-names.ts): the engine over all shipped lists.
// Prints figures; asserts nothing. Sections:
//   start-up   list load and index build times, and the snapshot restore the bundle uses
//   putin      every form in rigour/putin_names.txt, screened: is the listed Putin found?
//   recall     typo / reordered / shortened forms of listed people, made by code from the lists
//   exact name listed people by their exact listed name with a wrong DOB and country: must stay
//              listed at medium or high
//   false pos. yente synthetic negatives (should match nothing): flagged at all, and flagged high
//   traditions ordinary customers of 21 naming traditions (scripts/support/customers.ts): flagged
//              and high per tradition (issue 36 targets: each <= 4 % flagged, <= 0.4 % high)
//   uk / au    listed UK and Australian people written as customers type them: flagged, own record
//              among the matches, high
//   dial       the name-only information floor at several values: customers flagged against
//              listed people found without a date of birth (the fairness trade-off)
//   speed      screen p50/p99 in-process, and the same queries through Fuse.js for a ratio
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fuse from 'fuse.js';
import Papa from 'papaparse';
import { buildIndex, createScreenScratch, REPORT_THRESHOLD, screen, type ScreenResult, type SubjectInput } from '../src-main/service/core/screening/engine';
import { assessRisk } from '../src-main/service/core/screening/risk';
import { loadShippedLists } from '../src-main/service/core/screening/lists/load';
import { readSnapshot, writeSnapshot } from '../src-main/service/core/screening/snapshot';
import { toCountryCode } from '../src-main/service/core/screening/lists/countries';
import type { ListEntity } from '../src-main/service/core/screening/types';
import { COMMON_GIVEN_NAMES, COMMON_SURNAMES } from '../src-main/service/core/screening/match/common-names';
import { PARAMS } from '../src-main/service/core/screening/match/params';
import { rng } from './support/service';
import { makeCustomers } from './support/customers';
import { build as esbuild } from 'esbuild';
import { steadyState } from './support/stream-speed';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const testsets = path.join(root, '..', 'shared', 'watchlists', 'testsets');
const args = process.argv.slice(2);
const arg = (name: string, dflt: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
const NEGATIVES = arg('negatives', 50_000);
const VARIANTS = arg('variants', 9_000);
const FUSE_QUERIES = arg('fuse', 300);
const EXAMPLES = arg('examples', 8);
const EXACT = arg('exact', 300);

function section(title: string): void {
  process.stdout.write(`\n== ${title}\n`);
}
function line(label: string, value: string | number): void {
  process.stdout.write(`  ${label.padEnd(44)} ${value}\n`);
}
function pct(n: number, d: number): string {
  return d === 0 ? 'n/a' : `${((100 * n) / d).toFixed(2)} % (${n}/${d})`;
}
function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

/** The match is the record, or names it among the listings of the same person (one person, one match). */
function namesRecord(m: ScreenResult['matches'][number], id: string): boolean {
  return m.listings.some((l) => l.entity_id === id);
}

function riskLevel(r: ScreenResult): 'low' | 'medium' | 'high' {
  return assessRisk(r.matches.map((m) => ({ kind: m.list, score: m.score, strength: m.strength, cleared: m.cleared }))).level;
}


// ---------------------------------------------------------------- start-up
section('start-up (2-core machine)');
const t0 = performance.now();
const lists = loadShippedLists(path.join(root, 'resources', 'watchlists'));
const t1 = performance.now();
const index = buildIndex(lists.entities);
// One working memory for every screen() below, as the service keeps one beside its index.
const scratch = createScreenScratch();
const t2 = performance.now();
line('lists loaded (parse + de-duplicate)', `${Math.round(t1 - t0)} ms, ${lists.entities.length} records`);
line('index built', `${Math.round(t2 - t1)} ms, ${index.stats.names} names, ${index.stats.keys} keys`);
line('start-up total', `${Math.round(t2 - t0)} ms`);
{
  // One listed person, one match (core/screening/people.ts): records joined into people at build.
  let records = 0;
  let threeOrMore = 0;
  for (const m of index.members.values()) {
    records += m.length;
    if (new Set(m.map((i) => index.entities.at(i).source)).size >= 3) threeOrMore++;
  }
  line('people on more than one list record', `${index.members.size} people, ${records} records (${records - index.members.size} fewer matches)`);
  line('people on three lists or more', threeOrMore);
  // What is left to join: each UK, Australian and OFAC person with a full date of birth, screened
  // by their own name and date; the same person should come back as one match.
  let screened = 0;
  let split = 0;
  for (const e of lists.entities) {
    if (e.schema !== 'person' || !['uk_sanctions', 'au_dfat', 'us_ofac_sdn'].includes(e.source)) continue;
    const dob = e.dobs.find((d) => d.length === 10);
    const parts = primaryParts(e);
    if (!dob || !parts) continue;
    screened++;
    const r = screen(index, { first_name: parts.given.join(' '), last_name: parts.family.join(' '), date_of_birth: dob }, { lists: ['sanctions'] }, scratch);
    if (r.matches.filter((m) => m.dates_of_birth.includes(dob)).length > 1) split++;
  }
  line('listed people by own name and DOB: one person, several matches', pct(split, screened));
}
{
  // What the bundled service does instead: restore the build's snapshot of lists and index.
  const snapFile = path.join(mkdtempSync(path.join(tmpdir(), 'cc-bench-')), 'screening-index.bin');
  const bytes = writeSnapshot(snapFile, 'bench', path.join(root, 'resources', 'watchlists'), lists, index);
  const r0 = performance.now();
  const restored = readSnapshot(snapFile, 'bench', path.join(root, 'resources', 'watchlists'));
  const r1 = performance.now();
  line('snapshot restore (bundled service start)', `${Math.round(r1 - r0)} ms, ${(bytes / 1e6).toFixed(1)} MB, ${restored.ok ? 'ok' : restored.reason}`);
}
const all = { lists: ['sanctions' as const, 'pep' as const] };

// ---------------------------------------------------------------- putin
section('rigour/putin_names.txt: forms of one listed person, screened against all lists');
const putinForms = readFileSync(path.join(testsets, 'rigour', 'putin_names.txt'), 'utf8').split('\n').map((l) => l.trim()).filter(Boolean);
const putinIds = new Set(lists.entities.filter((e) => e.names.some((n) => /PUTIN, Vladimir/i.test(n.name))).map((e) => e.id));
let putinFound = 0;
const putinMissed: string[] = [];
for (const form of putinForms) {
  // Name parts as an analyst would type them: "LAST, First" reversed; CJK "·" / "・" separate parts.
  const parts = form.includes(',') ? form.split(',').map((s) => s.trim()).reverse() : form.split(/[\s\u00b7\u30fb]+/);
  const subject: SubjectInput = { first_name: parts.slice(0, -1).join(' ') || parts[0]!, last_name: parts.length > 1 ? parts.at(-1)! : '' };
  if (!subject.last_name) subject.last_name = subject.first_name;
  const r = screen(index, subject, all, scratch);
  if (r.matches.some((m) => m.listings.some((l) => putinIds.has(l.entity_id)))) putinFound++;
  else putinMissed.push(form);
}
line('listed Putin found', pct(putinFound, putinForms.length));
if (putinMissed.length) line('missed', putinMissed.slice(0, 8).join(' | '));

// ---------------------------------------------------------------- recall
section(`recall: ${VARIANTS} variants of listed people (typo, reordered, shortened), made from the lists`);
const random = rng(42);
const people = lists.entities.filter((e) => e.schema === 'person' && e.names.some((n) => n.quality === 'strong'));
function primaryParts(e: ListEntity): { given: string[]; family: string[] } | null {
  const n = e.names[0]!.name;
  if (n.includes(',')) {
    const [fam, giv] = n.split(',', 2).map((s) => s.trim());
    const given = (giv ?? '').split(/\s+/).filter(Boolean);
    const family = (fam ?? '').split(/\s+/).filter(Boolean);
    return given.length && family.length ? { given, family } : null;
  }
  const toks = n.split(/\s+/).filter(Boolean);
  return toks.length >= 2 ? { given: toks.slice(0, -1), family: toks.slice(-1) } : null;
}
/** One slip of the hand in a word of five letters or more, drawn from `r` (each section its own, so one's size does not change another's sample). */
function typo(word: string, r: () => number = random): string {
  if (word.length < 5) return word;
  const i = 1 + Math.floor(r() * (word.length - 2));
  const kind = Math.floor(r() * 3);
  if (kind === 0) return word.slice(0, i) + word.slice(i + 1); // deletion
  if (kind === 1) return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2); // transposition
  const letters = 'aeioulnrst';
  return word.slice(0, i) + letters[Math.floor(r() * letters.length)] + word.slice(i + 1); // substitution
}
const kinds = { typo: [0, 0], reordered: [0, 0], shortened: [0, 0] } as Record<string, [number, number]>;
let made = 0;
const recallMissed: string[] = [];
for (let guard = 0; made < VARIANTS && guard < VARIANTS * 10; guard++) {
  const e = people[Math.floor(random() * people.length)]!;
  const p = primaryParts(e);
  if (!p) continue;
  const kind = (['typo', 'reordered', 'shortened'] as const)[made % 3]!;
  let subject: SubjectInput;
  if (kind === 'typo') {
    const fam = p.family.map((w, i) => (i === 0 ? typo(w) : w));
    subject = { first_name: p.given.join(' '), last_name: fam.join(' ') };
  } else if (kind === 'reordered') {
    subject = { first_name: p.family.join(' '), last_name: p.given.join(' ') };
  } else {
    if (p.given.length < 2) continue;
    subject = { first_name: p.given[0]!, last_name: p.family.join(' ') };
  }
  made++;
  const r = screen(index, subject, all, scratch);
  kinds[kind]![1]++;
  if (r.matches.some((m) => namesRecord(m, e.id))) kinds[kind]![0]++;
  else if (recallMissed.length < EXAMPLES) recallMissed.push(`${kind}: ${subject.first_name} / ${subject.last_name} (listed ${e.names[0]!.name})`);
}
let found = 0;
for (const [k, [f, n]] of Object.entries(kinds)) {
  line(`${k}`, pct(f, n));
  found += f;
}
line('recall, all variants', pct(found, made));
for (const m of recallMissed) line('  missed', m);

// ---------------------------------------------------------------- exact name, wrong DOB / country
section(`exact name, wrong DOB and country: ${EXACT} listed people by a listed name (primary, then a strong alias)`);
{
  const pick = rng(7);
  const COUNTRIES = ['IS', 'NZ', 'UY', 'CH', 'FI'];
  const wrongDob = (e: ListEntity): string => {
    const years = e.dobs.map((d) => Number(d.slice(0, 4)));
    let y = 1940 + Math.floor(pick() * 60);
    while (years.some((x) => Math.abs(x - y) <= 1)) y = 1940 + Math.floor(pick() * 60);
    return `${y}-${String(1 + Math.floor(pick() * 12)).padStart(2, '0')}-${String(1 + Math.floor(pick() * 28)).padStart(2, '0')}`;
  };
  const split = (name: string): { first_name: string; last_name: string } | null => {
    if (name.includes(',')) {
      const [fam, giv] = name.split(',', 2).map((x) => x.trim());
      return fam && giv ? { first_name: giv, last_name: fam } : null;
    }
    const toks = name.split(/\s+/).filter(Boolean);
    return toks.length >= 2 ? { first_name: toks.slice(0, -1).join(' '), last_name: toks.at(-1)! } : null;
  };
  for (const which of ['primary name', 'strong alias'] as const) {
    let listed = 0;
    let n = 0;
    const missed: string[] = [];
    for (let guard = 0; n < EXACT && guard < EXACT * 50; guard++) {
      const e = people[Math.floor(pick() * people.length)]!;
      const names = which === 'primary name' ? [e.names[0]!] : e.names.slice(1).filter((x) => x.quality === 'strong');
      const chosen = names[Math.floor(pick() * names.length)];
      const parts = chosen && chosen.quality === 'strong' ? split(chosen.name) : null;
      if (!parts) continue;
      n++;
      const subject: SubjectInput = { ...parts, date_of_birth: wrongDob(e), country: COUNTRIES.find((c) => !e.countries.includes(c)) };
      const r = screen(index, subject, all, scratch);
      if (r.matches.some((m) => namesRecord(m, e.id)) && riskLevel(r) !== 'low') listed++;
      else if (missed.length < EXAMPLES) missed.push(chosen!.name);
    }
    line(`${which}: still listed at medium or high`, pct(listed, n));
    if (missed.length) line('  missed', missed.join(' | '));
  }
}

// ---------------------------------------------------------------- naming traditions
{
  const PER = arg('per-tradition', 1000);
  section(`ordinary customers of ${21} naming traditions, ${PER} each, half with a date of birth (targets: each <= 4 % flagged, <= 0.4 % high; all <= 2.5 % / 0.1 %)`);
  const by = new Map<string, { n: number; flagged: number; high: number; ex: string[] }>();
  let flagged = 0;
  let high = 0;
  const customers = makeCustomers(36, PER);
  for (const c of customers) {
    const g = by.get(c.tradition) ?? { n: 0, flagged: 0, high: 0, ex: [] };
    by.set(c.tradition, g);
    g.n++;
    const r = screen(index, c.subject, all, scratch);
    const level = riskLevel(r);
    if (level === 'low') continue;
    g.flagged++;
    flagged++;
    if (level === 'high') {
      g.high++;
      high++;
    }
    if (g.ex.length < Math.min(2, EXAMPLES)) {
      const s = c.subject;
      g.ex.push(`${[s.first_name, s.middle_name, s.last_name].filter(Boolean).join(' ')}${s.date_of_birth ? ` (${s.date_of_birth})` : ''} -> ${r.matches[0]!.explanation.matched_name} (${level}; ${r.matches[0]!.explanation.summary})`);
    }
  }
  line('all traditions: flagged', pct(flagged, customers.length));
  line('all traditions: high', pct(high, customers.length));
  for (const [t, g] of [...by].sort((a, b) => b[1].flagged - a[1].flagged)) {
    line(`${t}: flagged / high`, `${((100 * g.flagged) / g.n).toFixed(1)} % / ${((100 * g.high) / g.n).toFixed(2)} %`);
    for (const ex of g.ex) line('  e.g.', ex);
  }
}

// ---------------------------------------------------------------- UK and Australian listed people
{
  const N = arg('listed', 600);
  section(`UK and Australian listed people as customers type them (${N}; targets: flagged >= 99 %, own record >= 98 %, high >= 95 %)`);
  const pick = rng(99);
  // Slips drawn apart from the people picked: the same people as before typos had their own draw.
  const slip = rng(101);
  const pool = lists.entities.filter((e) => (e.source === 'uk_sanctions' || e.source === 'au_dfat') && e.schema === 'person' && e.dobs.some((d) => d.length === 10));
  const forms = ['as listed', 'dropped middle name', 'swapped order', 'one typo', 'list script'] as const;
  const tally = new Map<string, { n: number; flagged: number; own: number; high: number }>();
  const missed: string[] = [];
  for (let i = 0; i < N && pool.length > 0; i++) {
    const e = pool[Math.floor(pick() * pool.length)]!;
    const form = forms[i % forms.length]!;
    const latin = e.names.filter((n) => n.quality === 'strong' && /^[\p{Script=Latin}\s,.'-]+$/u.test(n.name));
    const name = latin[0]?.name ?? e.names[0]!.name;
    let parts = primaryParts({ ...e, names: [{ name, kind: 'primary', quality: 'strong' }] });
    if (form === 'list script') {
      const other = e.names.find((n) => !/^[\p{Script=Latin}\s,.'-]+$/u.test(n.name));
      if (!other) continue;
      const toks = other.name.split(/[\s,]+/).filter(Boolean);
      parts = toks.length >= 2 ? { given: toks.slice(0, -1), family: toks.slice(-1) } : null;
    }
    if (!parts) continue;
    let given = parts.given;
    let family = parts.family;
    if (form === 'dropped middle name') {
      if (given.length < 2) continue;
      given = given.slice(0, 1);
    }
    if (form === 'swapped order') [given, family] = [family, given];
    if (form === 'one typo') family = family.map((w, k) => (k === 0 ? typo(w, slip) : w));
    const subject: SubjectInput = { first_name: given.join(' '), last_name: family.join(' '), date_of_birth: e.dobs.find((d) => d.length === 10) };
    const r = screen(index, subject, all, scratch);
    const t = tally.get(form) ?? { n: 0, flagged: 0, own: 0, high: 0 };
    tally.set(form, t);
    t.n++;
    const level = riskLevel(r);
    if (level !== 'low') t.flagged++;
    if (level === 'high') t.high++;
    if (r.matches.some((m) => m.entity_id === e.id || m.listings.some((l) => l.entity_id === e.id))) t.own++;
    else if (missed.length < EXAMPLES) missed.push(`${form}: ${subject.first_name} / ${subject.last_name} (listed ${name})`);
  }
  const sum = { n: 0, flagged: 0, own: 0, high: 0 };
  for (const [form, t] of tally) {
    line(`${form}: flagged / own record / high`, `${pct(t.flagged, t.n)} / ${((100 * t.own) / t.n).toFixed(1)} % / ${((100 * t.high) / t.n).toFixed(1)} %`);
    sum.n += t.n;
    sum.flagged += t.flagged;
    sum.own += t.own;
    sum.high += t.high;
  }
  line('all forms: flagged', pct(sum.flagged, sum.n));
  line('all forms: own record among the matches', pct(sum.own, sum.n));
  line('all forms: high', pct(sum.high, sum.n));
  for (const m of missed) line('  own record missed', m);
}

// ---------------------------------------------------------------- false positives
section(`false positives: yente synthetic negatives (first ${NEGATIVES} of global + us), default threshold ${REPORT_THRESHOLD}`);
interface Neg { first_name: string; middle_name: string; last_name: string; gender: string; date_of_birth: string; nationality: string }
const negatives: Neg[] = [];
for (const f of ['negatives_global.csv', 'negatives_us.csv']) {
  const rows = Papa.parse<Neg>(readFileSync(path.join(testsets, 'yente_candidate_generation', f), 'utf8'), { header: true, skipEmptyLines: true }).data;
  negatives.push(...rows.slice(0, NEGATIVES / 2));
}
let fpAny = 0;
let fpStrong = 0;
let flaggedAny = 0;
let flaggedHigh = 0;
let fpNameOnly = 0;
const fpExamples: string[] = [];
const times: number[] = [];
for (const n of negatives) {
  const subject: SubjectInput = {
    first_name: n.first_name || n.last_name, middle_name: n.middle_name || undefined, last_name: n.last_name || n.first_name,
    date_of_birth: n.date_of_birth || undefined, gender: n.gender || undefined, country: toCountryCode(n.nationality),
  };
  const s = performance.now();
  const r = screen(index, subject, all, scratch);
  times.push(performance.now() - s);
  const level = riskLevel(r);
  if (level !== 'low') flaggedAny++;
  if (level === 'high') flaggedHigh++;
  if (r.matches.length) {
    fpAny++;
    if (r.matches.some((m) => m.strength === 'strong')) fpStrong++;
    if (fpExamples.length < EXAMPLES) fpExamples.push(`${[subject.first_name, subject.middle_name, subject.last_name].filter(Boolean).join(' ')} -> ${r.matches[0]!.explanation.matched_name} (${r.matches[0]!.score} ${r.matches[0]!.strength}; name ${r.matches[0]!.explanation.name_score}; ${r.matches[0]!.explanation.qualifiers.map((q) => q.factor).join(',')})`);
  }
  const nameOnly = screen(index, { first_name: subject.first_name, middle_name: subject.middle_name, last_name: subject.last_name }, all, scratch);
  if (nameOnly.matches.length) fpNameOnly++;
}
line('flagged at all (risk medium or high)', pct(flaggedAny, negatives.length));
line('flagged high', pct(flaggedHigh, negatives.length));
line('with DOB, gender, nationality (as screened)', pct(fpAny, negatives.length));
line('  of which strong', pct(fpStrong, negatives.length));
line('name only (no qualifiers)', pct(fpNameOnly, negatives.length));
for (const ex of fpExamples) line('  e.g.', ex);

// ---------------------------------------------------------------- common names
// Issue 23's targets: common-name customers raised to high <= 0.1 %, flagged at all <= 3 %.
const COMMON = arg('common', 5_000);
section(`common-name customers (targets: high <= 0.10 %, flagged at all <= 3 %)`);
function rates(label: string, subjects: SubjectInput[]): void {
  let high = 0;
  let flagged = 0;
  const strongEx: string[] = [];
  for (const subject of subjects) {
    const r = screen(index, subject, all, scratch);
    const level = riskLevel(r);
    if (level !== 'low') flagged++;
    if (level === 'high') {
      high++;
      if (strongEx.length < 4) strongEx.push(`${subject.first_name} ${subject.last_name} -> ${r.matches[0]!.name} (${r.matches[0]!.score})`);
    }
  }
  line(`${label}: high`, pct(high, subjects.length));
  line(`${label}: flagged at all`, pct(flagged, subjects.length));
  for (const ex of strongEx) line('  high e.g.', ex);
}
rates('yente negatives, name only', negatives.map((n) => ({ first_name: n.first_name || n.last_name, middle_name: n.middle_name || undefined, last_name: n.last_name || n.first_name })));
{
  // Typical English-speaking customers: given names and surnames drawn by rank from the public
  // statistics common-names.ts is built from (SSA, Census), more common names more often.
  const pick = (words: readonly string[], r: () => number) => {
    const w = words[Math.floor(words.length * r() * r())]!;
    return w.charAt(0).toUpperCase() + w.slice(1);
  };
  const r = rng(23);
  const people: SubjectInput[] = [];
  for (let i = 0; i < COMMON; i++) people.push({ first_name: pick(COMMON_GIVEN_NAMES, r), last_name: pick(COMMON_SURNAMES, r) });
  rates(`${COMMON} typical English-speaking names, name only`, people);
  const withDob = people.map((p) => ({ ...p, date_of_birth: `${1940 + Math.floor(r() * 65)}-${String(1 + Math.floor(r() * 12)).padStart(2, '0')}-${String(1 + Math.floor(r() * 28)).padStart(2, '0')}` }));
  rates(`${COMMON} typical English-speaking names, with a DOB`, withDob);
}

// ---------------------------------------------------------------- the fairness dial
// Name-only screening's trade-off, at several values of PARAMS.nameOnlyInformation (how much a
// partial name must identify when the subject gave no date of birth): customers of the
// traditions the lists name most are flagged less as it rises, and listed people typed without a
// middle name, and no date of birth, are found less (typed whole with a slip, they should not
// be). The team's choice; the engine ships the first value (docs/decisions.md).
{
  const FLOORS = [PARAMS.nameOnlyInformation, 4, 4.5, 5];
  const DIAL = arg('dial', 1000);
  section(`the fairness dial: name-only information floor (shipped ${PARAMS.nameOnlyInformation}) against recall without a date of birth, ${DIAL} variants each`);
  const customers = makeCustomers(36, arg('per-tradition', 1000));
  const dialRandom = rng(43);
  const variants: { kind: 'typo' | 'shortened'; id: string; subject: SubjectInput }[] = [];
  for (let guard = 0; variants.length < 2 * DIAL && guard < DIAL * 20; guard++) {
    const e = people[Math.floor(dialRandom() * people.length)]!;
    const p = primaryParts(e);
    if (!p) continue;
    const kind = variants.length % 2 === 0 ? 'typo' : 'shortened';
    if (kind === 'typo') variants.push({ kind, id: e.id, subject: { first_name: p.given.join(' '), last_name: p.family.map((w, i) => (i === 0 ? typo(w, dialRandom) : w)).join(' ') } });
    else if (p.given.length >= 2) variants.push({ kind, id: e.id, subject: { first_name: p.given[0]!, last_name: p.family.join(' ') } });
  }
  const shipped = PARAMS.nameOnlyInformation;
  try {
    for (const floor of FLOORS) {
      PARAMS.nameOnlyInformation = floor;
      const by = new Map<string, { n: number; flagged: number }>();
      for (const c of customers) {
        const g = by.get(c.tradition) ?? { n: 0, flagged: 0 };
        by.set(c.tradition, g);
        g.n++;
        if (riskLevel(screen(index, c.subject, all, scratch)) !== 'low') g.flagged++;
      }
      const worst = [...by].sort((a, b) => b[1].flagged / b[1].n - a[1].flagged / a[1].n).slice(0, 3);
      const total = [...by.values()].reduce((a, g) => ({ n: a.n + g.n, flagged: a.flagged + g.flagged }), { n: 0, flagged: 0 });
      const found = { typo: { found: 0, n: 0 }, shortened: { found: 0, n: 0 } };
      for (const v of variants) {
        found[v.kind].n++;
        if (screen(index, v.subject, all, scratch).matches.some((m) => namesRecord(m, v.id))) found[v.kind].found++;
      }
      const rate = (x: { found: number; n: number }) => `${((100 * x.found) / Math.max(1, x.n)).toFixed(1)} %`;
      line(`floor ${floor.toFixed(1)}: customers flagged, all / worst three`, `${((100 * total.flagged) / total.n).toFixed(2)} % / ${worst.map(([t, g]) => `${t} ${((100 * g.flagged) / g.n).toFixed(1)} %`).join(', ')}`);
      line(`floor ${floor.toFixed(1)}: listed found, one typo / no middle name`, `${rate(found.typo)} / ${rate(found.shortened)}`);
    }
  } finally {
    PARAMS.nameOnlyInformation = shipped;
  }
}

// ---------------------------------------------------------------- speed
section('speed: screen() in-process over all shipped lists, negatives as queries');
times.sort((a, b) => a - b);
line('queries', times.length);
line('p50', `${quantile(times, 0.5).toFixed(3)} ms`);
line('p99', `${quantile(times, 0.99).toFixed(3)} ms`);
line('max', `${times.at(-1)!.toFixed(2)} ms`);
line('throughput (one core)', `${Math.round(1000 / (times.reduce((a, b) => a + b, 0) / times.length))} subjects/s`);

const fuseNames = index.names.map((n) => ({ name: n.name, entity: n.entity }));
const f0 = performance.now();
const fuse = new Fuse(fuseNames, { keys: ['name'], threshold: 0.3, includeScore: true, ignoreLocation: true });
const fuseBuild = performance.now() - f0;
const fuseTimes: number[] = [];
const ourTimes: number[] = [];
for (const n of negatives.slice(0, FUSE_QUERIES)) {
  const q = [n.first_name, n.middle_name, n.last_name].filter(Boolean).join(' ');
  let s = performance.now();
  fuse.search(q, { limit: 25 });
  fuseTimes.push(performance.now() - s);
  s = performance.now();
  screen(index, { first_name: n.first_name, middle_name: n.middle_name || undefined, last_name: n.last_name }, all, scratch);
  ourTimes.push(performance.now() - s);
}
fuseTimes.sort((a, b) => a - b);
ourTimes.sort((a, b) => a - b);
line(`Fuse.js (${FUSE_QUERIES} of the same queries), build`, `${Math.round(fuseBuild)} ms`);
line('Fuse.js p50 / p99', `${quantile(fuseTimes, 0.5).toFixed(2)} / ${quantile(fuseTimes, 0.99).toFixed(2)} ms`);
line('engine p50 / p99 on those queries', `${quantile(ourTimes, 0.5).toFixed(3)} / ${quantile(ourTimes, 0.99).toFixed(3)} ms`);
line('ratio Fuse.js / engine at p50', `${(quantile(fuseTimes, 0.5) / Math.max(1e-6, quantile(ourTimes, 0.5))).toFixed(0)}x`);

// ---------------------------------------------------------------- speed, JSON in and out
// Issue 36's target: <= 0.3 ms a screen on one core including JSON in and out, with every
// shipped list. What `npm run cli -- screening screen` does per line (parse, validate, screen,
// risk, response, serialise), over ordinary customers of every tradition, after a warm-up run.
{
  const STREAM = arg('stream', 500);
  const requests = makeCustomers(71, STREAM).map((c) => JSON.stringify({ subject: { type: 'individual', ...c.subject } }));
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-stream-'));
  const resources = path.join(root, 'resources');
  const fromSource = await steadyState(requests, resources, dataDir);
  // The same, bundled as the build bundles the service (esbuild, packages from node_modules), in a
  // process of its own: the code as it ships, without tsx's wrappers. Both without the time each
  // pass takes to open the lists (support/stream-speed.ts, steadyState).
  const bundleDir = path.join(root, 'out', 'bench');
  const bundle = path.join(bundleDir, 'stream-speed.mjs');
  await esbuild({ entryPoints: [path.join(root, 'scripts', 'support', 'stream-speed.ts')], bundle: true, platform: 'node', format: 'esm', packages: 'external', outfile: bundle, logLevel: 'warning' });
  const requestsFile = path.join(dataDir, 'requests.ndjson');
  writeFileSync(requestsFile, requests.join('\n') + '\n');
  const child = spawnSync(process.execPath, [bundle, requestsFile, resources, mkdtempSync(path.join(tmpdir(), 'bench-stream-built-'))], { encoding: 'utf8' });
  const built = child.status === 0 ? (JSON.parse(child.stdout.trim().split('\n').at(-1)!) as { ms: number; cpu: number; bytes: number }) : null;
  section(`speed: screening screen (JSON in and out), ${requests.length} customers of 21 traditions, steady state (target <= 0.3 ms)`);
  line('per screen, as built (wall / CPU)', built ? `${built.ms.toFixed(3)} / ${built.cpu.toFixed(3)} ms` : `failed: ${child.stderr.slice(0, 200)}`);
  line('per screen, from source under tsx (wall / CPU)', `${fromSource.ms.toFixed(3)} / ${fromSource.cpu.toFixed(3)} ms`);
  line('response size', `${Math.round(fromSource.bytes)} bytes a line`);
}

