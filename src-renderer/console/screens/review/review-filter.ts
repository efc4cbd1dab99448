// Which answered rows the review shows, and in what order.
import type { BatchEntry } from '../../stores/batch';
import { fullName, newMatches, openMatches } from '../../components/batch/labels';

export const FILTERS = ['increased', 'decreased', 'new', 'all'] as const;
export type ReviewFilter = (typeof FILTERS)[number];

export const FILTER_LABEL: Record<ReviewFilter, string> = {
  increased: 'Risk increased',
  decreased: 'Risk decreased',
  new: 'New matches',
  all: 'All rows',
};

export type SortKey = 'risk' | 'change' | 'name';
export interface Sort {
  key: SortKey;
  direction: 'ascending' | 'descending';
}

export const DEFAULT_SORT: Sort = { key: 'risk', direction: 'descending' };

export function inFilter(e: BatchEntry, filter: ReviewFilter): boolean {
  switch (filter) {
    case 'all':
      return true;
    case 'increased':
      return e.result?.risk_change === 'risk_increased';
    case 'decreased':
      return e.result?.risk_change === 'risk_decreased';
    case 'new':
      return e.result !== null && newMatches(e.result, e.input.previous?.flags).length > 0;
  }
}

function delta(e: BatchEntry): number {
  if (!e.result) return Number.NEGATIVE_INFINITY;
  return e.result.risk.score - (e.input.previous?.risk_score ?? 0);
}

function matchesQuery(e: BatchEntry, q: string): boolean {
  if (fullName(e.input).toLowerCase().includes(q)) return true;
  if (e.input.client_reference_id.toLowerCase().includes(q)) return true;
  return openMatches(e.result).some((m) => m.name.toLowerCase().includes(q) || m.entity_id.toLowerCase() === q);
}

const collator = new Intl.Collator(undefined, { sensitivity: 'base' });

export function reviewRows(entries: readonly BatchEntry[], filter: ReviewFilter, sort: Sort, query: string): BatchEntry[] {
  const q = query.trim().toLowerCase();
  const rows = entries.filter((e) => inFilter(e, filter) && (q === '' || matchesQuery(e, q)));
  const dir = sort.direction === 'ascending' ? 1 : -1;
  const byRow = (a: BatchEntry, b: BatchEntry) => a.input.row - b.input.row;
  switch (sort.key) {
    case 'risk':
      rows.sort((a, b) => dir * ((a.result?.risk.score ?? -1) - (b.result?.risk.score ?? -1)) || byRow(a, b));
      break;
    case 'change':
      rows.sort((a, b) => dir * (delta(a) - delta(b)) || byRow(a, b));
      break;
    case 'name':
      rows.sort((a, b) =>
        dir * (collator.compare(a.input.last_name, b.input.last_name) || collator.compare(a.input.first_name, b.input.first_name)) || byRow(a, b));
      break;
  }
  return rows;
}
