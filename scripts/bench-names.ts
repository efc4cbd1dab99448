// Name-matching benchmark: `npx tsx scripts/bench-names.ts [--errors N]`.
// Reports precision/recall/F1 on the nomenklatura name bench (ours and the OpenSanctions
// logic-v2 reference), cross-script and Putin-variant accuracy, the worst errors per category,
// and timing. Reads ../shared/watchlists/testsets next to the repository.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Papa from 'papaparse';
import { parse as parseYaml } from 'yaml';
import { DEFAULT_THRESHOLD, compareNames, createMatchScratch, scoreNamePair } from '../src-main/service/core/screening/match/compare';
import { normalizeName, toNameSchema, type NormalizedName } from '../src-main/service/core/screening/match/normalize';
import {
  bestThreshold,
  confusion,
  fileIfPresent,
  loadBenchCases,
  loadCrossScriptPairs,
  loadLines,
  readCsvRecords,
  testsetsDir,
  type Confusion,
} from '../src-main/service/core/screening/match/name-bench';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = testsetsDir(repoRoot);
const errorsArg = process.argv.indexOf('--errors');
const showErrors = errorsArg >= 0 ? Number(process.argv[errorsArg + 1] ?? '15') : 15;

function fmt(c: Confusion): string {
  return `threshold ${c.threshold.toFixed(3)}  P ${c.precision.toFixed(3)}  R ${c.recall.toFixed(3)}  F1 ${c.f1.toFixed(3)}  (TP ${c.tp} FP ${c.fp} TN ${c.tn} FN ${c.fn})`;
}

function section(title: string): void {
  console.log(`\n== ${title}`);
}

const casesFile = fileIfPresent(path.join(dir, 'nomenklatura_name_bench', 'cases.csv'));
if (casesFile === null) {
  console.log(`cases.csv not found under ${dir}; nothing to benchmark.`);
  process.exit(0);
}
const cases = loadBenchCases(casesFile);
const scores = cases.map((c) => scoreNamePair(c.schema, c.name1, c.name2));
const labels = cases.map((c) => c.isMatch);

section(`nomenklatura name bench: ${cases.length} pairs`);
console.log(`ours at default  ${fmt(confusion(scores, labels, DEFAULT_THRESHOLD))}`);
console.log(`ours at best     ${fmt(bestThreshold(scores, labels))}`);

const refFile = fileIfPresent(path.join(dir, 'nomenklatura_name_bench', 'logicv2-frozen.csv'));
if (refFile !== null) {
  const ref = loadBenchCases(refFile).filter((c) => c.score !== undefined);
  const rs = ref.map((c) => c.score ?? 0);
  const rl = ref.map((c) => c.isMatch);
  console.log(`logic-v2 at 0.70 ${fmt(confusion(rs, rl, 0.7))}   (${ref.length} scored pairs)`);
  console.log(`logic-v2 at best ${fmt(bestThreshold(rs, rl))}`);
}

section('by case group (at default threshold)');
const groups = [...new Set(cases.map((c) => c.group))];
for (const g of groups) {
  const idx = cases.map((c, i) => (c.group === g ? i : -1)).filter((i) => i >= 0);
  const c = confusion(idx.map((i) => scores[i] ?? 0), idx.map((i) => labels[i] ?? false), DEFAULT_THRESHOLD);
  console.log(`${g.padEnd(16)} n=${String(idx.length).padStart(3)}  ${fmt(c)}`);
}

section(`worst errors at default threshold (up to ${showErrors} each)`);
const errors = cases
  .map((c, i) => ({ c, s: scores[i] ?? 0 }))
  .filter(({ c, s }) => (s >= DEFAULT_THRESHOLD) !== c.isMatch);
const fps = errors.filter((e) => !e.c.isMatch).sort((a, b) => b.s - a.s);
const fns = errors.filter((e) => e.c.isMatch).sort((a, b) => a.s - b.s);
for (const [title, list] of [['false positives', fps], ['false negatives', fns]] as const) {
  console.log(`-- ${title}: ${list.length}`);
  for (const { c, s } of list.slice(0, showErrors)) {
    const what = c.category !== '' && c.category !== 'LLM-proposed deviation' ? c.category : c.notes;
    console.log(`  ${s.toFixed(3)}  [${c.group}/${c.schema}] ${c.name1}  <>  ${c.name2}   (${what.slice(0, 60)})`);
  }
}

const checksFile = fileIfPresent(path.join(dir, 'nomenklatura_name_bench', 'entity_checks.yml'));
if (checksFile !== null) {
  // Name-only entity checks: a second, differently labelled set, not used for tuning.
  interface Check {
    match: boolean;
    schema: string;
    query: Record<string, unknown>;
    candidate: Record<string, unknown>;
  }
  const doc = parseYaml(readFileSync(checksFile, 'utf8')) as { checks?: Check[] };
  const firstName = (v: unknown): string => (Array.isArray(v) ? String(v[0] ?? '') : String(v ?? ''));
  const nameOnly = (doc.checks ?? []).filter(
    (c) => Object.keys(c.query).join() === 'name' && Object.keys(c.candidate).join() === 'name',
  );
  const s = nameOnly.map((c) => scoreNamePair(c.schema, firstName(c.query['name']), firstName(c.candidate['name'])));
  const l = nameOnly.map((c) => c.match);
  section(`entity_checks.yml, name-only checks: ${nameOnly.length} (not used for tuning)`);
  const c = confusion(s, l, DEFAULT_THRESHOLD);
  console.log(`ours at default  ${fmt(c)}  accuracy ${((c.tp + c.tn) / nameOnly.length).toFixed(3)}`);
}

const crossFile = fileIfPresent(path.join(dir, 'watchman_cross_script_pairs.csv'));
if (crossFile !== null) {
  const pairs = loadCrossScriptPairs(crossFile);
  section(`cross-script pairs: ${pairs.length}`);
  let atThreshold = 0;
  let atMin = 0;
  for (const p of pairs) {
    const s = scoreNamePair('Person', p.query, p.expected);
    if (s >= DEFAULT_THRESHOLD) atThreshold++;
    if (s >= p.minScore) atMin++;
    const mark = s >= DEFAULT_THRESHOLD ? 'ok  ' : 'MISS';
    console.log(`  ${mark} ${s.toFixed(3)}  ${p.query} <> ${p.expected}   (${p.description})`);
  }
  console.log(`matched at default threshold: ${atThreshold}/${pairs.length} = ${(atThreshold / pairs.length).toFixed(3)}`);
  console.log(`at or above the file's Min Score: ${atMin}/${pairs.length} = ${(atMin / pairs.length).toFixed(3)}`);
}

const putinFile = fileIfPresent(path.join(dir, 'rigour', 'putin_names.txt'));
if (putinFile !== null) {
  const names = loadLines(putinFile);
  section(`Putin name forms: ${names.length}`);
  const targets = ['Vladimir Vladimirovich PUTIN', 'PUTIN, Vladimir Vladimirovich'].map((t) => normalizeName(t, 'person'));
  let hits = 0;
  const misses: string[] = [];
  for (const name of names) {
    const q = normalizeName(name, 'person');
    const s = Math.max(...targets.map((t) => compareNames(q, t).score));
    if (s >= DEFAULT_THRESHOLD) hits++;
    else misses.push(`${s.toFixed(3)}  ${name}  [${q.text}]`);
  }
  console.log(`recall at default threshold: ${hits}/${names.length} = ${(hits / names.length).toFixed(3)}`);
  for (const m of misses) console.log(`  MISS ${m}`);
}

// Name-only false-positive rate: synthetic people (who are on no list) against every individual's
// primary name on the OFAC SDN list. No candidate retrieval, no DOB/country: an upper bound on
// what the name matcher alone lets through.
const fpArg = process.argv.indexOf('--fp');
const fpQueries = fpArg >= 0 ? Number(process.argv[fpArg + 1] ?? '200') : 200;
const sdnFile = fileIfPresent(path.join(dir, '..', 'us_ofac_sdn', '2024-05-03', 'sdn.csv'));
if (sdnFile !== null && fpQueries > 0) {
  const sdn = Papa.parse<string[]>(readFileSync(sdnFile, 'utf8').replace(/\x1a/g, ''), { skipEmptyLines: true }).data;
  const listed = sdn.filter((r) => r[2] === 'individual').map((r) => normalizeName(r[1] ?? '', 'person'));
  section(`false positives: synthetic negatives vs ${listed.length} SDN individuals (name only, ${fpQueries} queries per file)`);
  for (const which of ['global', 'us']) {
    const negFile = fileIfPresent(path.join(dir, 'yente_candidate_generation', `negatives_${which}.csv`));
    if (negFile === null) continue;
    const rows = readCsvRecords(negFile).slice(0, fpQueries);
    let withHit = 0;
    const shown: string[] = [];
    for (const r of rows) {
      const q = normalizeName(r['full_name'] ?? '', 'person');
      let best = 0;
      let bestName = '';
      for (const l of listed) {
        const s = compareNames(q, l).score;
        if (s > best) {
          best = s;
          bestName = l.raw;
        }
      }
      if (best >= DEFAULT_THRESHOLD) {
        withHit++;
        if (shown.length < 8) shown.push(`  ${best.toFixed(3)}  ${r['full_name'] ?? ''} <> ${bestName}`);
      }
    }
    console.log(`negatives_${which}: ${withHit}/${rows.length} queries = ${((100 * withHit) / rows.length).toFixed(1)}% have a name hit at the default threshold`);
    for (const s of shown) console.log(s);
  }
}

section('timing');
{
  const normalized: Array<[NormalizedName, NormalizedName]> = cases.map((c) => {
    const s = toNameSchema(c.schema);
    return [normalizeName(c.name1, s), normalizeName(c.name2, s)];
  });
  const t0 = process.hrtime.bigint();
  let normCount = 0;
  for (let r = 0; r < 5; r++) {
    for (const c of cases) {
      const s = toNameSchema(c.schema);
      normalizeName(c.name1, s);
      normalizeName(c.name2, s);
      normCount += 2;
    }
  }
  const t1 = process.hrtime.bigint();
  // Warm up, then measure, with one working memory as the engine keeps one.
  const scratch = createMatchScratch();
  for (let r = 0; r < 20; r++) for (const [a, b] of normalized) compareNames(a, b, { scratch });
  const rounds = 200;
  const t2 = process.hrtime.bigint();
  let sink = 0;
  for (let r = 0; r < rounds; r++) for (const [a, b] of normalized) sink += compareNames(a, b, { scratch }).score;
  const t3 = process.hrtime.bigint();
  const compareCount = rounds * normalized.length;
  const usCompare = Number(t3 - t2) / 1000 / compareCount;
  const usNorm = Number(t1 - t0) / 1000 / normCount;
  console.log(`compareNames: ${usCompare.toFixed(2)} µs per comparison, ${Math.round(1e6 / usCompare)} comparisons/s (checksum ${sink.toFixed(1)})`);
  console.log(`normalizeName: ${usNorm.toFixed(2)} µs per name`);
}
