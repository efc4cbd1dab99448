// `npx tsx scripts/bench-grid.ts`: the review grid's table model (react-table, built exactly as
// the console's DataGrid builds it: components/grid-model.ts) over a batch of 100,000 synthetic
// rows (made here, nobody's data), headless in Node: median and max of N runs per step.
//   npx tsx scripts/bench-grid.ts -- [--rows 100000] [--runs 7]
// Steps: building the row model for a new rows array (every paint of a run, every decision);
// sorting by each sortable column; the review's tab and search filters; a decision (one row
// replaced) re-sorted; a paint's worth of answers appended.
import { parseArgs } from 'node:util';
import { constructTable, type ColumnFiltersState, type SortingState, type Table } from '@tanstack/react-table';
import { storeReactivityBindings } from '@tanstack/table-core/store-reactivity-bindings';
import type { BatchEntry } from '../src-renderer/console/stores/batch';
import { byDecision, byName, byRisk, byRiskChange } from '../src-renderer/console/components/batch/compare';
import { GRID_FEATURES, gridTableOptions, toColumnDef, type GridColumn, type GridFeatures, type GridRow } from '../src-renderer/console/components/grid-model';
import { inFilter, isReviewFilter, matchesQuery } from '../src-renderer/console/screens/review/review-filter';
import { syntheticEntries } from './support/synthetic-batch';

const { values } = parseArgs({ options: { rows: { type: 'string', default: '100000' }, runs: { type: 'string', default: '7' } } });
const ROWS = Number(values.rows);
const RUNS = Number(values.runs);

// The review's sortable and filterable columns (ReviewScreen.tsx), cells aside.
const COLUMNS: GridColumn<BatchEntry>[] = [
  { id: 'name', header: 'Customer', cell: () => null, compare: byName, filter: matchesQuery },
  { id: 'risk', header: 'Risk', cell: () => null, compare: byRisk, firstSort: 'descending' },
  { id: 'change', header: 'Change', cell: () => null, compare: byRiskChange, firstSort: 'descending', filter: (e, f) => isReviewFilter(f) && inFilter(e, f) },
  { id: 'disposition', header: 'Disposition', cell: () => null, compare: byDecision },
];

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

function time(label: string, setup: () => void, fn: () => unknown): void {
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    setup();
    const t = performance.now();
    fn();
    ms.push(performance.now() - t);
  }
  console.log(`${label.padEnd(52)} median ${median(ms).toFixed(1).padStart(7)} ms   max ${Math.max(...ms).toFixed(1).padStart(7)} ms`);
}

// The grid's features, with the store bindings that React's useTable adds itself.
const WITH_STORE = { ...GRID_FEATURES, coreReactivityFeature: storeReactivityBindings() };
const FEATURES: GridFeatures = WITH_STORE;
type BenchTable = Table<GridFeatures, GridRow<BatchEntry>>;

function tableOver(rows: readonly BatchEntry[]): BenchTable {
  return constructTable({ features: FEATURES, ...gridTableOptions({ rows, getRowKey: (e: BatchEntry) => e.input.row }, COLUMNS.map((c) => toColumnDef(c))) });
}

function setState(table: BenchTable, rows: readonly BatchEntry[], sorting: SortingState, columnFilters: ColumnFiltersState): void {
  if (table.options.data !== rows) table.setOptions((prev) => ({ ...prev, data: rows }));
  table.setSorting(sorting);
  table.setColumnFilters(columnFilters);
}

/** Back to the rows as given (the row model computed), so the next step sorts from scratch. */
function unsorted(table: BenchTable): void {
  setState(table, entries, [], []);
  table.getRowModel();
}

const entries = syntheticEntries(ROWS);
console.log(`${ROWS} rows, ${RUNS} runs each (react-table model)`);
let table = tableOver(entries);
let rows: readonly BatchEntry[] = entries;

time('row model of a new array, unsorted', () => {
  rows = rows.slice();
  table = tableOver(rows);
  setState(table, rows, [], []);
}, () => table.getRowModel());

const sorts: [string, SortingState][] = [
  ['sort risk descending', [{ id: 'risk', desc: true }]],
  ['sort risk ascending', [{ id: 'risk', desc: false }]],
  ['sort change descending', [{ id: 'change', desc: true }]],
  ['sort name ascending', [{ id: 'name', desc: false }]],
  ['sort disposition ascending', [{ id: 'disposition', desc: false }]],
];
table = tableOver(entries);
setState(table, entries, [], []);
table.getRowModel();
for (const [label, sorting] of sorts) {
  time(`all rows, ${label}`, () => unsorted(table), () => {
    setState(table, entries, sorting, []);
    return table.getRowModel();
  });
}
time('increased, sort risk descending', () => unsorted(table), () => {
  setState(table, entries, [{ id: 'risk', desc: true }], [{ id: 'change', value: 'increased' }]);
  return table.getRowModel();
});
time('all rows, search "ann", sort risk descending', () => unsorted(table), () => {
  setState(table, entries, [{ id: 'risk', desc: true }], [{ id: 'name', value: 'ann' }]);
  return table.getRowModel();
});

// A decision: one entry replaced by a new object in a new array; the model recomputes.
const sorted: SortingState = [{ id: 'risk', desc: true }];
let k = 0;
time('a decision, all rows sorted by risk', () => {
  setState(table, rows, sorted, []);
  table.getRowModel();
}, () => {
  const i = (k++ * 7919) % rows.length;
  const next = rows.slice();
  next[i] = { ...rows[i]!, decision: { disposition: 'escalated', reason: null, note: '', decidedBy: 'bench', decidedAt: '', approval: null } };
  rows = next;
  setState(table, rows, sorted, []);
  return table.getRowModel();
});
time('a decision, increased tab sorted by risk', () => {
  setState(table, rows, sorted, [{ id: 'change', value: 'increased' }]);
  table.getRowModel();
}, () => {
  const i = (k++ * 7919) % rows.length;
  const next = rows.slice();
  next[i] = { ...rows[i]!, decision: undefined };
  rows = next;
  setState(table, rows, sorted, [{ id: 'change', value: 'increased' }]);
  return table.getRowModel();
});

// A paint during a run: 250 answers join the rows already there (results unsorted, as the batch screen shows them).
const extra = syntheticEntries(250, 99).map((e, i) => ({ ...e, input: { ...e.input, row: ROWS + 10 + i } }));
time('250 answers appended to the rows, unsorted', () => unsorted(table), () => {
  setState(table, entries.concat(extra), [], []);
  return table.getRowModel();
});
