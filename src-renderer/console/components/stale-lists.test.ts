// The stale-lists banner: shown only for lists the service calls stale, naming each with its date,
// age and window, and how a newer file gets in (the console's import or the real CLI command).
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ListsStatus, type LoadedList } from '../../../src-shared/contracts/lists';
import { StaleListsNotice } from './StaleListsBanner';
import { officialImportCommand, staleLists } from './stale-lists';

const counts = { total: 1, person: 1, organization: 0, vessel: 0, aircraft: 0, unknown: 0 };
const list = (over: Partial<LoadedList>): LoadedList => ({
  source: 'us_ofac_sdn', title: 'OFAC SDN', kind: 'sanctions', list_date: null, retrieval_date: '2024-05-03', sha256: 'ab'.repeat(32),
  published_at: '2024-05-03', stale: true, age_days: 622, stale_after_days: 14, publisher: null, terms: null, counts, ...over,
});
const status = (lists: LoadedList[]): ListsStatus => ListsStatus.parse({
  state: 'ready', loaded_kinds: ['sanctions', 'pep'], lists, index: null, user_lists: [],
  stale_windows: { sanctions_stale_days: 14, pep_stale_days: 180 },
});
const html = (data: ListsStatus, canManage = true) => renderToStaticMarkup(createElement(StaleListsNotice, { data, canManage }));

describe('stale lists banner', () => {
  it('names each stale list with its date, age and window, and the import in the console and the CLI', () => {
    const data = status([
      list({}),
      list({ source: 'un_sc', title: 'UN SC', stale: false, age_days: 3, published_at: '2026-01-12' }),
      list({ source: 'wd_pep', title: 'Heads of state', kind: 'pep', published_at: '2025-01-01', age_days: 379, stale_after_days: 180 }),
      list({ source: 'user:our-list', title: 'Our list', published_at: '2025-10-01', age_days: 106 }),
    ]);
    expect(staleLists(data).map((l) => l.source)).toEqual(['us_ofac_sdn', 'wd_pep', 'user:our-list']);
    const out = html(data);
    expect(out).toContain('3 lists screened against are out of date');
    expect(out).toContain('OFAC SDN');
    expect(out).toContain('622 days old (older than 14 days)');
    expect(out).toContain('379 days old (older than 180 days)');
    expect(out).not.toContain('UN SC');
    expect(out).toContain('Import newer official file…');
    expect(out).toContain(officialImportCommand('us_ofac_sdn'));
    expect(officialImportCommand('us_ofac_sdn')).toBe('npm run cli -- lists import --data-dir DIR --source us_ofac_sdn FILE');
    expect(out).toContain('Add your own list…');
    expect(out).toContain('A newer copy of the other lists comes with an update of the app.');
    expect(html(data, false)).toContain('An owner or admin can import a newer file');
    // The CLI command once per official list, for that list only.
    expect(out.match(/npm run cli -- lists import/g)).toHaveLength(1);
  });

  it('shows nothing when no list is stale or the lists are not ready', () => {
    expect(html(status([list({ stale: false })]))).toBe('');
    expect(html({ ...status([list({})]), state: 'loading' })).toBe('');
    expect(renderToStaticMarkup(createElement(StaleListsNotice, { data: undefined, canManage: true }))).toBe('');
  });
});
