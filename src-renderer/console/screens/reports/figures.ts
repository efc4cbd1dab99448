// How the Reports screen writes its figures. Rates and confidences arrive on a 0-100 scale with
// one decimal (contracts/reports.ts); a null figure (no confidence in the range) is a dash.
import type { HealthCheck } from '../../../../src-shared/contracts/reports';
import type { BadgeTone } from '../../components/Badge';
import { codeLabel } from '../../../../src-shared/charts/charts';

export function count(n: number): string {
  return n.toLocaleString('en-US');
}

export function percent(n: number | null): string {
  return n === null ? '—' : `${n.toFixed(1)}%`;
}

export function score(n: number | null): string {
  return n === null ? '—' : n.toFixed(1);
}

export function millis(n: number | null): string {
  return n === null ? '—' : `${Math.round(n).toLocaleString('en-US')} ms`;
}

export type Direction = 'up' | 'down' | 'flat';

export interface Delta {
  direction: Direction;
  /** "+12", "−3.4 pts", "no change". */
  text: string;
  /** Said in words for screen readers: "up 12", "down 3.4 points". */
  spoken: string;
}

/** A period-over-period change: `unit` 'count' for whole numbers, 'points' for rates and confidences. */
export function delta(n: number | null, unit: 'count' | 'points'): Delta | null {
  if (n === null) return null;
  const size = unit === 'count' ? Math.abs(Math.round(n)).toLocaleString('en-US') : Math.abs(n).toFixed(1);
  if ((unit === 'count' && Math.round(n) === 0) || (unit === 'points' && size === '0.0')) {
    return { direction: 'flat', text: 'no change', spoken: 'no change' };
  }
  const direction: Direction = n > 0 ? 'up' : 'down';
  const suffix = unit === 'points' ? ' pts' : '';
  return {
    direction,
    text: `${direction === 'up' ? '+' : '−'}${size}${suffix}`,
    spoken: `${direction} ${size}${unit === 'points' ? ' points' : ''}`,
  };
}

export const HEALTH_LABEL: Record<HealthCheck['status'], string> = { ok: 'OK', warning: 'Warning', critical: 'Critical' };
export const HEALTH_TONE: Record<HealthCheck['status'], BadgeTone> = { ok: 'positive', warning: 'warning', critical: 'negative' };

/** "Days until the balance runs out"; null means nothing is being consumed. */
export function depletion(days: number | null): string {
  if (days === null) return 'Not running out at the current rate';
  const d = Math.floor(days);
  return d === 1 ? '1 day' : `${d.toLocaleString('en-US')} days`;
}

/** What a chart says instead of drawing: loading, not loaded (its error is shown above), or an empty range. */
export function emptyText(resource: { data: unknown; loading: boolean }, isEmpty: boolean): string | null {
  if (resource.data === undefined) return resource.loading ? 'Loading…' : 'Not available.';
  return isEmpty ? 'No verifications in this range.' : null;
}

/** A failure code as words: `no_face_detected` → "No face detected" (the code stays in the data table's key). */
/** A failure reason or health check as words; the PDF exports print them the same way. */
export const reasonLabel = codeLabel;
