// `npx tsx scripts/bench-grid.ts`: the review table's sorting and filtering over a batch of
// 100,000 synthetic rows (made here, nobody's data), timed in Node: median of N runs per step.
//   npx tsx scripts/bench-grid.ts -- [--rows 100000] [--runs 7]
import { parseArgs } from 'node:util';
import type { BatchEntry } from '../src-renderer/console/stores/batch';
import { reviewRows, type Sort } from '../src-renderer/console/screens/review/review-filter';
import { syntheticEntries } from './support/synthetic-batch';

const { values } = parseArgs({ options: { rows: { type: 'string', default: '100000' }, runs: { type: 'string', default: '7' } } });
const ROWS = Number(values.rows);
const RUNS = Number(values.runs);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

function time(label: string, fn: () => unknown): void {
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    fn();
    ms.push(performance.now() - t);
  }
  console.log(`${label.padEnd(44)} median ${median(ms).toFixed(1).padStart(7)} ms   max ${Math.max(...ms).toFixed(1).padStart(7)} ms`);
}

const entries: BatchEntry[] = syntheticEntries(ROWS);
console.log(`${ROWS} rows, ${RUNS} runs each (hand-written reviewRows)`);
const sorts: Sort[] = [
  { key: 'risk', direction: 'descending' }, { key: 'risk', direction: 'ascending' },
  { key: 'change', direction: 'descending' }, { key: 'name', direction: 'ascending' },
];
for (const s of sorts) time(`all rows, sort ${s.key} ${s.direction}`, () => reviewRows(entries, 'all', s, ''));
time('increased, sort risk descending', () => reviewRows(entries, 'increased', sorts[0]!, ''));
time('all rows, search "ann", sort risk', () => reviewRows(entries, 'all', sorts[0]!, 'ann'));
