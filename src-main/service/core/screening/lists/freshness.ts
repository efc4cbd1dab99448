// List freshness (issue 23): when a list was published and whether it is older than the
// organisation's window for its kind. Pure: the caller gives the windows and "now" (the
// service's clock, or a screening's created time), so every answer is computed at answer time.
import type { ListFreshnessSettings } from '../../../../../src-shared/contracts/organization';
import { DEFAULT_STALE_DAYS } from '../../../../../src-shared/contracts/organization';
import type { ListVersion } from '../../../../../src-shared/contracts/screening';
import { utcDayStartOf, wholeDaysSince } from '../../../../../src-shared/dates';

/** What a list's version is known by before an organisation looks at it. */
export type BaseListVersion = Omit<ListVersion, 'published_at' | 'stale'>;

/** The window (days) for a kind: wanted lists age like sanctions, RCA like the PEP lists they come with. */
export function staleDaysFor(kind: string, windows: ListFreshnessSettings): number {
  return kind === 'pep' || kind === 'rca' ? windows.pep_stale_days : windows.sanctions_stale_days;
}

export interface Freshness {
  published_at: string | null;
  stale: boolean;
  age_days: number | null;
}

/**
 * The date stated in the file where there is one, else the retrieval date; stale when more whole
 * days than the kind's window have passed since. A list with no date at all is not called stale
 * (nothing to measure; docs/decisions.md).
 */
export function freshnessOf(
  v: { kind: string; list_date: string | null; retrieval_date: string | null },
  windows: ListFreshnessSettings,
  nowMs: number,
): Freshness {
  const published = v.list_date ?? v.retrieval_date;
  const day = published === null ? null : utcDayStartOf(published);
  if (published === null || day === null) return { published_at: published, stale: false, age_days: null };
  const age = wholeDaysSince(day, nowMs);
  return { published_at: published.slice(0, 10), stale: age > staleDaysFor(v.kind, windows), age_days: age };
}

/** The versions as given with a screening answer: with published_at and stale for these windows now. */
export function withFreshness(versions: readonly BaseListVersion[], windows: ListFreshnessSettings | undefined, nowMs: number): ListVersion[] {
  return versions.map((v) => {
    const f = freshnessOf(v, windows ?? DEFAULT_STALE_DAYS, nowMs);
    return { ...v, published_at: f.published_at, stale: f.stale };
  });
}
