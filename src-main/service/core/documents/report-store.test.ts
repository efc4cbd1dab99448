// The lists a KYC report names: titles readers know, versions kept whole.
import { describe, expect, it } from 'vitest';
import type { ListVersion } from '../../../../src-shared/contracts/screening';
import { SOURCE_INFO } from '../screening/lists/sources';
import { reportLists } from './report-store';

const version = (source: string, extra: Partial<ListVersion> = {}): ListVersion => ({
  source, kind: 'sanctions', list_date: '2026-11-20', retrieval_date: null, sha256: 'ab'.repeat(32), published_at: '2026-11-20', stale: false, ...extra,
});

describe('reportLists', () => {
  it('names official lists by their title, user lists by their name, and keeps everything the version carries', () => {
    const catalog = [{ source: 'user:staff-peps', title: 'Staff PEP list' }, { source: 'un_sc', title: SOURCE_INFO.un_sc.title }];
    // A field screening may add to a version later (freshness) arrives untouched.
    const later = { ...version('un_sc'), stale: true } as ListVersion;
    const lists = reportLists([version('us_ofac_sdn'), later, version('user:staff-peps', { kind: 'pep' }), version('user:gone')], catalog);
    expect(lists.map((l) => l.title)).toEqual([SOURCE_INFO.us_ofac_sdn.title, SOURCE_INFO.un_sc.title, 'Staff PEP list', 'user:gone']);
    expect(lists[1]).toMatchObject({ source: 'un_sc', sha256: 'ab'.repeat(32), list_date: '2026-11-20', stale: true });
  });
});
