// The stale-lists notice: shown only for lists the service calls stale, one line each with the
// date its age counts from (published when the list states it, retrieved otherwise), its age and
// window; a link to the page with the import steps; dismissed for the session until the set changes.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ListsStatus, type LoadedList } from '../../../src-shared/contracts/lists';
import { StaleListsNotice } from './StaleListsBanner';
import { officialImportCommand, staleKey, staleLists } from './stale-lists';

const counts = { total: 1, person: 1, organization: 0, vessel: 0, aircraft: 0, unknown: 0 };
const list = (over: Partial<LoadedList>): LoadedList => ({
  source: 'us_ofac_sdn', title: 'OFAC SDN', kind: 'sanctions', list_date: null, retrieval_date: '2024-05-03', sha256: 'ab'.repeat(32),
  published_at: '2024-05-03', stale: true, age_days: 622, stale_after_days: 14, publisher: null, terms: null, counts, ...over,
});
const status = (lists: LoadedList[]): ListsStatus => ListsStatus.parse({
  state: 'ready', loaded_kinds: ['sanctions', 'pep'], lists, index: null, user_lists: [], held_imports: [],
  stale_windows: { sanctions_stale_days: 14, pep_stale_days: 180 },
});
const html = (data: ListsStatus, dismissed: string | null = null) => renderToStaticMarkup(createElement(StaleListsNotice, { data, dismissed, onDismiss: () => undefined }));

describe('stale lists notice', () => {
  const data = status([
    list({}),
    list({ source: 'un_sc', title: 'UN SC', stale: false, age_days: 3, published_at: '2026-01-12' }),
    list({ source: 'wd_pep', title: 'Heads of state', kind: 'pep', list_date: '2025-01-01', published_at: '2025-01-01', age_days: 379, stale_after_days: 180 }),
    list({ source: 'user:our-list', title: 'Our list', published_at: '2025-10-01', retrieval_date: '2025-10-01', age_days: 106 }),
  ]);

  it('is one line per stale list: its date (published or retrieved), age and window', () => {
    expect(staleLists(data).map((l) => l.source)).toEqual(['us_ofac_sdn', 'wd_pep', 'user:our-list']);
    const out = html(data);
    expect(out).toContain('3 lists out of date');
    expect(out.match(/<li /g)).toHaveLength(3);
    expect(out).not.toContain('UN SC');
    // A file with no date of its own is dated by its retrieval, never called "published".
    expect(out).toMatch(/OFAC SDN<\/strong>: retrieved <span title="2024-05-03">[^<]+<\/span>, 622 days old \(older than 14 days\)/);
    expect(out).toMatch(/Heads of state<\/strong>: published <span title="2025-01-01">/);
    expect(out).toContain('379 days old (older than 180 days)');
  });

  it('links to the page with the import steps instead of listing commands, and can be dismissed', () => {
    const out = html(data);
    expect(out).toContain('href="#/screening/update-lists"');
    expect(out).not.toContain('npm run cli');
    expect(out).toContain('data-testid="stale-lists-dismiss"');
    expect(officialImportCommand('us_ofac_sdn')).toBe('npm run cli -- lists import --data-dir DIR --source us_ofac_sdn FILE');
  });

  it('stays dismissed for the same lists, and comes back when another list goes out of date', () => {
    const key = staleKey(staleLists(data));
    expect(html(data, key)).toBe('');
    const more = status(data.lists.map((l) => (l.source === 'un_sc' ? { ...l, stale: true, age_days: 30 } : l)));
    expect(staleKey(staleLists(more))).not.toBe(key);
    expect(html(more, key)).toContain('UN SC');
  });

  it('shows nothing when no list is stale or the lists are not ready', () => {
    expect(html(status([list({ stale: false })]))).toBe('');
    expect(html({ ...status([list({})]), state: 'loading' })).toBe('');
    expect(renderToStaticMarkup(createElement(StaleListsNotice, { data: undefined }))).toBe('');
  });
});
