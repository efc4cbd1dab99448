// Rate limits shared by every instance on one PostgreSQL (issue 40): a bucket's tokens are taken
// under its row lock by the database's own function, so thirty requests at once through three
// instances on a burst of ten get ten (each instance's own memory would give thirty). A bucket
// refills at its rate, starts full at a new limit, is read without spending by `peek`, is named by
// a keyed hash (no address or e-mail stored) and is removed once full again.
import { describe, expect, it } from 'vitest';
import { POSTGRES, TEST_SECRET, testEngines } from '../../test/engines';
import { ManualClock } from '../clock';
import { memoryBuckets, sharedBuckets } from './token-bucket';

const engines = testEngines();
const LIMIT = { rps: 0.5, burst: 10 };

describe.skipIf(!POSTGRES.url)(`shared token buckets on PostgreSQL${POSTGRES.url ? '' : ` (skipped: ${POSTGRES.why})`}`, () => {
  it('thirty takes at once through three instances on a burst of ten: ten allowed', async () => {
    const t = await engines.open('postgres');
    const clock = new ManualClock(Date.parse('2026-12-04T09:00:00.000Z'));
    const instances = engines.instances(t, 3, 4).map((e) => sharedBuckets(e, clock, TEST_SECRET, 'limits'));
    const taken = await Promise.all(Array.from({ length: 30 }, (_, i) => instances[i % 3]!.take('key_1:verification:human', LIMIT)));
    expect(taken.filter((d) => d.allowed)).toHaveLength(10);
    expect(taken.filter((d) => !d.allowed).every((d) => d.retryAfter === 2 && d.remaining === 0)).toBe(true);
    // The same thirty on each instance's own memory: thirty allowed (the fault this fixes).
    const own = Array.from({ length: 3 }, () => memoryBuckets(clock));
    const alone = await Promise.all(Array.from({ length: 30 }, (_, i) => own[i % 3]!.take('key_1:verification:human', LIMIT)));
    expect(alone.filter((d) => d.allowed)).toHaveLength(30);
  });

  it('refills at its rate, starts full at a new limit, peeks without spending, stores no name and is removed once full', async () => {
    const t = await engines.open('postgres');
    const clock = new ManualClock(Date.parse('2026-12-04T09:00:00.000Z'));
    const buckets = sharedBuckets(t.engine, clock, TEST_SECRET, 'login');
    const id = 'addr:203.0.113.7';
    for (let i = 0; i < 10; i++) expect((await buckets.take(id, LIMIT)).allowed).toBe(true);
    expect(await buckets.peek(id, LIMIT)).toMatchObject({ allowed: false, remaining: 0, retryAfter: 2 });
    expect((await buckets.take(id, LIMIT)).allowed).toBe(false);
    clock.advance(2_000);
    expect(await buckets.peek(id, LIMIT)).toMatchObject({ allowed: true, remaining: 1 });
    expect(await buckets.peek(id, LIMIT)).toMatchObject({ allowed: true, remaining: 1 }); // peeking spends nothing
    expect(await buckets.take(id, LIMIT)).toMatchObject({ allowed: true, remaining: 0 });
    expect(await buckets.take(id, { rps: 1, burst: 3 })).toMatchObject({ allowed: true, remaining: 2 }); // a new limit: full
    const rows = await t.engine.q.selectFrom('rate_buckets').select('id').execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id).not.toContain('203.0.113');
    // The same name in another space is another bucket.
    expect((await sharedBuckets(t.engine, clock, TEST_SECRET, 'wrong-keys').take(id, LIMIT)).remaining).toBe(9);
    expect(await buckets.sweep()).toBe(0);
    clock.advance(60_000);
    expect(await buckets.sweep()).toBe(2);
    expect(await t.engine.q.selectFrom('rate_buckets').select('id').execute()).toEqual([]);
  });
});
