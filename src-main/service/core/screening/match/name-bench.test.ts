// Quality gate on the shared name bench (../shared/watchlists/testsets next to the repo).
// Fails, saying where the sets come from, when the shared folder is not present (CI has it).

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_THRESHOLD, compareNames, scoreNamePair } from './compare';
import { normalizeName } from './normalize';
import { requiredTestset } from '../../../test/testsets';
import { confusion, loadBenchCases, loadCrossScriptPairs, loadLines, testsetsDir } from './name-bench';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', '..');
const dir = testsetsDir(repoRoot);

describe('name bench (nomenklatura cases.csv)', () => {
  it('reaches F1 >= 0.88 at the default threshold', () => {
    const cases = loadBenchCases(requiredTestset(path.join(dir, 'nomenklatura_name_bench', 'cases.csv')));
    expect(cases.length).toBeGreaterThan(300);
    const scores = cases.map((c) => scoreNamePair(c.schema, c.name1, c.name2));
    const c = confusion(scores, cases.map((x) => x.isMatch), DEFAULT_THRESHOLD);
    expect(c.f1).toBeGreaterThanOrEqual(0.88);
  });
});

describe('cross-script pairs (watchman)', () => {
  it('matches at least 75% at the default threshold', () => {
    const pairs = loadCrossScriptPairs(requiredTestset(path.join(dir, 'watchman_cross_script_pairs.csv')));
    expect(pairs.length).toBeGreaterThan(0);
    const hits = pairs.filter((p) => scoreNamePair('Person', p.query, p.expected) >= DEFAULT_THRESHOLD).length;
    expect(hits / pairs.length).toBeGreaterThanOrEqual(0.75);
  });
});

describe('Putin name forms (rigour)', () => {
  it('finds at least 98% of the forms at the default threshold, name against name', () => {
    const targets = ['Vladimir Vladimirovich PUTIN', 'PUTIN, Vladimir Vladimirovich'].map((t) => normalizeName(t, 'person'));
    const names = loadLines(requiredTestset(path.join(dir, 'rigour', 'putin_names.txt')));
    expect(names.length).toBe(81);
    const hits = names.filter((n) => {
      const q = normalizeName(n, 'person');
      return targets.some((t) => compareNames(q, t).score >= DEFAULT_THRESHOLD);
    }).length;
    expect(hits / names.length).toBeGreaterThanOrEqual(0.98);
  });
});
