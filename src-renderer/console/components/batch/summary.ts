// Counts over a run's answers, for the batch summary and the review's filter tabs.
import type { BatchEntry } from '../../stores/batch';
import { newMatches } from './labels';

export interface RunCounts {
  increased: number;
  decreased: number;
  unchanged: number;
  unknown: number;
  newMatches: number;
  errors: number;
}

export function countEntries(entries: readonly BatchEntry[]): RunCounts {
  const c: RunCounts = { increased: 0, decreased: 0, unchanged: 0, unknown: 0, newMatches: 0, errors: 0 };
  for (const e of entries) {
    if (!e.result) {
      c.errors++;
      continue;
    }
    switch (e.result.risk_change) {
      case 'risk_increased': c.increased++; break;
      case 'risk_decreased': c.decreased++; break;
      case 'risk_unchanged': c.unchanged++; break;
      case 'unknown_without_prior_result': c.unknown++; break;
    }
    if (e.result.matches.length > 0 && newMatches(e.result, e.input.previous?.flags).length > 0) c.newMatches++;
  }
  return c;
}

export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  return `${m} min ${String(s % 60).padStart(2, '0')} s`;
}
