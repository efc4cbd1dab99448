// The storefront age gate's stores and daily selfie cap on both engines. Two first saves at once
// make one store with one public id. Selfie checks charged at once through several instances never
// pass the store's daily cap: each charging transaction links its row and counts the store's
// charged checks under the store's row lock (PostgreSQL), and the one that would pass the cap is
// refused and rolled back, uncharged.
import { describe, expect, it } from 'vitest';
import { AgeGateSettings } from '../../../../src-shared/contracts/age-gate';
import type { Engine } from '../../db/engine';
import { ENGINES, testEngines, together } from '../../test/engines';
import { ManualClock } from '../clock';
import { createSelfieChecks } from './selfie-checks';
import { createAgeGateStores } from './stores';

const clock = new ManualClock(Date.parse('2026-12-04T09:00:00.000Z'));
const engines = testEngines();

async function org(engine: Engine): Promise<number> {
  return (await engine.q.insertInto('organizations').values({ name: 'Acme', plan: 'pro', created_at: '2026-12-04T08:00:00.000Z' }).returning('id').executeTakeFirstOrThrow()).id;
}

describe.each(ENGINES)('the age gate on $dialect', ({ dialect, skip }) => {
  const why = skip ? ` (skipped: ${skip})` : '';
  const many = dialect === 'postgres' ? 'three instances' : 'one instance';

  it.skipIf(skip)(`first saves at once through ${many} make one store, whose id never changes${why}`, async () => {
    const t = await engines.open(dialect);
    const orgId = await org(t.engine);
    const instances = engines.instances(t, 3, 2);
    const racing = dialect === 'postgres' ? together(instances, 4) : instances;
    const saved = await Promise.all(Array.from({ length: 4 }, (_, i) => {
      const engine = racing[i % racing.length]!;
      return engine.transaction((tx) => createAgeGateStores(engine, clock).save(orgId, 'live', AgeGateSettings.parse({ min_age: 18 + i }), tx));
    }));
    expect(new Set(saved.map((s) => s.id)).size).toBe(1);
    const stores = createAgeGateStores(t.engine, clock);
    const store = (await stores.of(orgId, 'live'))!;
    expect(store.id).toBe(saved[0]!.id);
    expect(await stores.byId(store.id)).toEqual(store);
    expect(await stores.of(orgId, 'test')).toBeUndefined();
    expect(await stores.byId('x'.repeat(65))).toBeUndefined();
  });

  it.skipIf(skip)(`selfie checks charged at once through ${many} stop at the store's daily cap${why}`, async () => {
    const t = await engines.open(dialect);
    const orgId = await org(t.engine);
    const store = await t.engine.transaction((tx) => createAgeGateStores(t.engine, clock).save(orgId, 'live', AgeGateSettings.parse({}), tx));
    const cap = 3;
    const instances = engines.instances(t, 3, 3);
    // Commits held too: a link's count then never sees another's commit unless the store's lock made them take turns.
    const racing = dialect === 'postgres' ? together(instances, 8, { commitsWaitMs: 100 }) : instances;
    // The charged rows, written beforehand: the ledger's own report counters would make their
    // charging transactions take turns, and the cap must hold without that.
    await t.engine.q.insertInto('verifications').values(Array.from({ length: 8 }, (_, i) => (
      { id: `age_${i}`, org_id: orgId, product: 'age' as const, env: 'live' as const, status: 'PASS', credits: 10, created_at: '2026-12-04T09:00:00.000Z' }
    ))).execute();
    // Each linked as billing links it, in the charging transaction, rolled back when refused.
    const checks = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => {
      const engine = racing[i % racing.length]!;
      const checks = createSelfieChecks(engine, clock);
      return engine.transaction(async (tx) => {
        const linked = await checks.link(store.id, `age_${i}`, clock.now(), tx, cap);
        if (!linked.allowed) throw new Error('cap reached');
      });
    }));
    expect(checks.filter((c) => c.status === 'fulfilled')).toHaveLength(cap);
    const checksNow = createSelfieChecks(t.engine, clock);
    expect(await checksNow.today(store.id)).toBe(cap);
    expect(await checksNow.room(store.id, cap)).toMatchObject({ allowed: false, retryAfter: 15 * 3600 });
    expect((await checksNow.hold(store.id, cap)).allowed).toBe(false);
    expect((await checksNow.hold(store.id, cap + 1)).allowed).toBe(true);
    // A test store's checks are linked, free and never capped.
    await t.engine.transaction(async (tx) => {
      await tx.insertInto('verifications').values({ id: 'age_test', org_id: orgId, product: 'age', env: 'test', status: 'PASS', credits: 0, created_at: '2026-12-04T09:00:00.000Z' }).execute();
      expect((await checksNow.link(store.id, 'age_test', clock.now(), tx)).allowed).toBe(true);
    });
    expect(await checksNow.today(store.id)).toBe(cap);
  });
});
