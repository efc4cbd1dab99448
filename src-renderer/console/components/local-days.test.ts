// The analyst's own calendar day (src-shared/dates.ts), which the console's date pickers, the audit
// and verification filters and saved file names use: the day on this machine's clock, whatever the
// UTC day is, checked in zones west and east of Greenwich (the suite itself may run in UTC).
import { describe, expect, it } from 'vitest';
import { isoDayOf, localDay, localDayStart, localToday } from '../../../src-shared/dates';

function inZone(tz: string, check: () => void): void {
  const zone = process.env.TZ;
  try {
    process.env.TZ = tz;
    check();
  } finally {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  }
}

describe('local days', () => {
  for (const tz of ['America/Los_Angeles', 'Pacific/Auckland']) {
    it(`takes the day on this machine's clock, not the UTC day (${tz})`, () => {
      inZone(tz, () => {
        const late = new Date(2026, 0, 15, 23, 30);
        const early = new Date(2026, 0, 15, 0, 30);
        // One of the two is on another UTC day in this zone.
        expect(isoDayOf(late) === '2026-01-15' && isoDayOf(early) === '2026-01-15').toBe(false);
        for (const t of [late, early]) {
          expect(localDay(t)).toEqual({ y: 2026, m: 1, d: 15 });
          expect(localToday(t)).toBe('2026-01-15');
        }
      });
    });

    it(`sends a local day as the instant it starts there (${tz})`, () => {
      inZone(tz, () => {
        expect(localDayStart('2026-01-15')).toBe(new Date(2026, 0, 15).toISOString());
        expect(localDayStart('2026-01-31', 1)).toBe(new Date(2026, 1, 1).toISOString());
        expect(new Date(localDayStart('2026-01-15')).getHours()).toBe(0);
      });
    });
  }
});
