// Which loaded lists are stale (the service says so, for this organisation's windows: see
// GET /api/screening/lists) and how a newer file gets in: the console's stale-lists banner.
import { OFFICIAL_SOURCES, type ListsStatus, type LoadedList } from '../../../src-shared/contracts/lists';

export interface StaleList {
  source: string;
  title: string;
  /**
   * The date its age counts from, and what that date is: the list's own date of publication when
   * it states one, else the day the file was retrieved (downloaded or imported).
   */
  dated: { label: 'published' | 'retrieved'; date: string | null };
  age_days: number | null;
  /** The window it is past, in days. */
  window_days: number;
  /** Where a newer file comes from: the official import (console or CLI) or the user's own list. */
  update: { kind: 'official'; cli: string } | { kind: 'user' } | { kind: 'shipped' };
}

/** The CLI command that imports a newer official file (npm run cli -- lists import, src-main/service/cli.ts). */
export function officialImportCommand(source: string): string {
  return `npm run cli -- lists import --data-dir DIR --source ${source} FILE`;
}

const isOfficial = (source: string): boolean => (OFFICIAL_SOURCES as readonly string[]).includes(source);

export function staleLists(data: ListsStatus | undefined): StaleList[] {
  if (!data || data.state !== 'ready') return [];
  return data.lists
    .filter((l: LoadedList) => l.stale)
    .map((l) => ({
      source: l.source,
      title: l.title,
      dated: l.list_date ? { label: 'published' as const, date: l.list_date } : { label: 'retrieved' as const, date: l.retrieval_date ?? l.published_at },
      age_days: l.age_days,
      window_days: l.stale_after_days,
      update: isOfficial(l.source)
        ? { kind: 'official' as const, cli: officialImportCommand(l.source) }
        : l.source.startsWith('user:') ? { kind: 'user' as const } : { kind: 'shipped' as const },
    }));
}

/** What the console remembers of a dismissed notice, for this browser session: which lists it named. */
export const STALE_DISMISSED_KEY = 'cc-stale-lists-dismissed';

/** The notice's identity: the stale lists it names. A list newly stale shows the notice again. */
export function staleKey(stale: readonly StaleList[]): string {
  return stale.map((l) => l.source).sort().join(' ');
}

/** "622 days old" / "1 day old". */
export function ageText(days: number | null): string {
  if (days === null) return 'age unknown';
  return `${days} ${days === 1 ? 'day' : 'days'} old`;
}
