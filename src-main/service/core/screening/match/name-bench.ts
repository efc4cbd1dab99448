// Evaluation helpers for the name matcher on the shared test sets (../shared/watchlists/testsets).
// Used by scripts/bench-names.ts and by the quality test; they read files, so they are
// kept apart from the matcher itself.

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Papa from 'papaparse';

export interface BenchCase {
  group: string;
  schema: string;
  name1: string;
  name2: string;
  isMatch: boolean;
  quality: string;
  category: string;
  notes: string;
  /** Reference score when the file carries one (logicv2-frozen.csv). */
  score?: number;
}

export interface Confusion {
  threshold: number;
  tp: number;
  fp: number;
  tn: number;
  fn: number;
  precision: number;
  recall: number;
  f1: number;
}

/** The shared test-set folder next to the repository (…/shared/watchlists/testsets). */
export function testsetsDir(repoRoot: string): string {
  return path.join(repoRoot, '..', 'shared', 'watchlists', 'testsets');
}

export function readCsvRecords(file: string): Record<string, string>[] {
  const text = readFileSync(file, 'utf8');
  const parsed = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true });
  return parsed.data;
}

export function loadBenchCases(file: string): BenchCase[] {
  return readCsvRecords(file).map((r) => {
    const c: BenchCase = {
      group: r['case_group'] ?? '',
      schema: r['schema'] ?? '',
      name1: r['name1'] ?? '',
      name2: r['name2'] ?? '',
      isMatch: (r['is_match'] ?? '').toLowerCase() === 'true',
      quality: r['quality'] ?? '',
      category: r['category'] ?? '',
      notes: r['notes'] ?? '',
    };
    const s = r['score'];
    if (s !== undefined && s !== '') c.score = Number(s);
    return c;
  });
}

export function confusion(scores: readonly number[], labels: readonly boolean[], threshold: number): Confusion {
  let tp = 0;
  let fp = 0;
  let tn = 0;
  let fn = 0;
  for (let i = 0; i < scores.length; i++) {
    const predicted = (scores[i] ?? 0) >= threshold;
    const actual = labels[i] === true;
    if (predicted && actual) tp++;
    else if (predicted) fp++;
    else if (actual) fn++;
    else tn++;
  }
  const precision = tp + fp === 0 ? 0 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 0 : tp / (tp + fn);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { threshold, tp, fp, tn, fn, precision, recall, f1 };
}

/** Threshold (among the observed scores) with the highest F1. */
export function bestThreshold(scores: readonly number[], labels: readonly boolean[]): Confusion {
  const candidates = [...new Set(scores)].sort((a, b) => a - b);
  let best = confusion(scores, labels, 1);
  for (const t of candidates) {
    const c = confusion(scores, labels, t);
    if (c.f1 > best.f1) best = c;
  }
  return best;
}

export interface CrossScriptPair {
  query: string;
  expected: string;
  minScore: number;
  description: string;
}

/** watchman_cross_script_pairs.csv: `#` comment lines, no quoting, four columns. */
export function loadCrossScriptPairs(file: string): CrossScriptPair[] {
  const out: CrossScriptPair[] = [];
  for (const line of readFileSync(file, 'utf8').split(/\r?\n/)) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    const parts = Papa.parse<string[]>(line).data[0] ?? [];
    const [query, expected, min, description] = parts;
    if (query === undefined || expected === undefined) continue;
    out.push({ query, expected, minScore: Number(min ?? '0'), description: description ?? '' });
  }
  return out;
}

export function loadLines(file: string): string[] {
  return readFileSync(file, 'utf8')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
}

export function fileIfPresent(file: string): string | null {
  return existsSync(file) ? file : null;
}
