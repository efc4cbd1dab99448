// Every screening response and batch names the matcher that made it, and a rescreen says
// whether the previous result came from another matcher (docs/decisions.md).
import { describe, expect, it } from 'vitest';
import type { PreviousResultSummary } from '../../../../src-shared/contracts/screening';
import { buildIndex, createScreenScratch } from './engine';
import { importUserList } from './lists/user-csv';
import { MATCHER_VERSION } from './match/version';
import { eventFields, runScreening, type LoadedIndex } from './service';

const imp = importUserList('kind,name,dob,country\nsanctions,Ivan Petrovich Sidorov,1961,RU\n', { listName: 'Fixture' }).import;
const index = buildIndex(imp.entities);
const loaded: LoadedIndex = {
  index, scratch: createScreenScratch(), stats: index.stats,
  versions: [{ source: imp.source, kind: 'sanctions', list_date: null, retrieval_date: '2026-01-01', sha256: imp.sha256 }],
  catalog: [], loadedKinds: ['sanctions'], stamp: 'none', timings: { load_ms: 0, index_ms: 0, snapshot: 'test' },
};
const subject = { type: 'individual' as const, first_name: 'Ivan', last_name: 'Sidorov' };
const rescreen = (summary: PreviousResultSummary | undefined) =>
  runScreening(loaded, { id: 'scr_1', created: Date.UTC(2026, 0, 1), livemode: false, subject, rescreen: { previous_screening_id: 'scr_0', reason: 'periodic_rescreen', summary } });

describe('matcher version in screening results', () => {
  it('sits next to list_versions in every response and in the webhook event', () => {
    const r = runScreening(loaded, { id: 'scr_1', created: Date.UTC(2026, 0, 1), livemode: false, subject });
    expect(r.screening.matcher_version).toBe(MATCHER_VERSION);
    expect(r.screening.list_versions).toHaveLength(1);
    expect(r.matches.length).toBeGreaterThan(0);
    expect(eventFields(r)).toMatchObject({ screening: { matcher_version: MATCHER_VERSION } });
  });

  it('a rescreen tells a risk change under another matcher from one under the same matcher', () => {
    const before = { risk_score: 0, risk_level: 'low' as const, flags: [] };
    const same = rescreen({ ...before, matcher_version: MATCHER_VERSION }).rescreen!;
    expect(same).toMatchObject({ risk_change: 'risk_increased', matcher_changed: false });
    const other = rescreen({ ...before, matcher_version: '0.9.0+000000000000' }).rescreen!;
    expect(other).toMatchObject({ risk_change: 'risk_increased', matcher_changed: true });
    // A summary that does not say which matcher made it: unknown, so the field is left out.
    expect(rescreen(before).rescreen).not.toHaveProperty('matcher_changed');
    expect(rescreen(undefined).rescreen).toMatchObject({ risk_change: 'unknown_without_prior_result' });
    expect(rescreen(undefined).rescreen).not.toHaveProperty('matcher_changed');
  });
});
