// Which answered rows the review shows: the tabs and the search box, as the review grid's column
// filters (the table model applies them; components/batch/compare.ts orders the rows).
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

export function isReviewFilter(value: string): value is ReviewFilter {
  return (FILTERS as readonly string[]).includes(value);
}

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

/** The search box: a name, a client reference or an open match's name holds the text (or a match's id is it). */
export function matchesQuery(e: BatchEntry, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (q === '') return true;
  if (fullName(e.input).toLowerCase().includes(q)) return true;
  if (e.input.client_reference_id.toLowerCase().includes(q)) return true;
  return openMatches(e.result).some((m) => m.name.toLowerCase().includes(q) || m.entity_id.toLowerCase() === q);
}
