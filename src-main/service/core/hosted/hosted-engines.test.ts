// Hosted sessions and published flows on both engines. One session, one charge, whichever
// instances its acts reach: the acts' charging transactions read the session's claim under its
// row lock (PostgreSQL), so the first claims it and the others find it claimed, with no act
// failing. Failed attempts recorded at once are numbered 1, 2, 3… without a gap or a repeat; a
// session completes once.
import { describe, expect, it } from 'vitest';
import type { Engine } from '../../db/engine';
import { ENGINES, testEngines, together } from '../../test/engines';
import { ManualClock } from '../clock';
import { createPublishedFlows } from './flows';
import { createHostedSessions, type FailedAttempt } from './sessions';

const clock = new ManualClock(Date.parse('2026-12-04T09:00:00.000Z'));
const engines = testEngines();
const failed: FailedAttempt = { verificationId: null, reason: 'challenge_failed', rule: 'head_turn', checks: [] };

async function org(engine: Engine): Promise<number> {
  return (await engine.q.insertInto('organizations').values({ name: 'Acme', plan: 'pro', created_at: '2026-12-04T08:00:00.000Z' }).returning('id').executeTakeFirstOrThrow()).id;
}

/** Ledger rows the sessions may name (a session's bill and verification are ledger rows). */
async function ledger(engine: Engine, orgId: number, ids: string[]): Promise<void> {
  await engine.q.insertInto('verifications').values(ids.map((id) => ({ id, org_id: orgId, product: 'human' as const, env: 'test' as const, status: 'PASS', created_at: '2026-12-04T08:30:00.000Z' }))).execute();
}

describe.each(ENGINES)('hosted sessions on $dialect', ({ dialect, skip }) => {
  const why = skip ? ` (skipped: ${skip})` : '';
  const many = dialect === 'postgres' ? 'three instances' : 'one instance';

  it.skipIf(skip)(`one charge for acts claiming at once through ${many}, none failing${why}`, async () => {
    const t = await engines.open(dialect);
    const orgId = await org(t.engine);
    const { row } = await createHostedSessions(t.engine, clock).create({ orgId, env: 'live', keyId: null }, { product: 'human', expiresInHours: 1 });
    await ledger(t.engine, orgId, Array.from({ length: 6 }, (_, i) => `ver_${i}`));
    const instances = engines.instances(t, 3, 3);
    const racing = dialect === 'postgres' ? together(instances, 6) : instances;
    // Each act as billing runs it: in its charging transaction, claimed unless already covered.
    const acts = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => {
      const engine = racing[i % racing.length]!;
      const paid = createHostedSessions(engine, clock).paidOnce(row);
      return engine.transaction(async (tx) => {
        if (await paid.covered(tx)) return false;
        await paid.claim(tx, `ver_${i}`);
        return true;
      });
    }));
    expect(acts.filter((a) => a.status === 'rejected')).toEqual([]);
    expect(acts.filter((a) => a.status === 'fulfilled' && a.value)).toHaveLength(1);
    expect((await createHostedSessions(t.engine, clock).byId(row.id))?.billed_verification_id).toMatch(/^ver_\d$/);
  });

  it.skipIf(skip)(`failed attempts recorded at once through ${many} are numbered without a gap; a session completes once${why}`, async () => {
    const t = await engines.open(dialect);
    const orgId = await org(t.engine);
    const hosted = createHostedSessions(t.engine, clock);
    const { row, token } = await hosted.create({ orgId, env: 'test', keyId: null }, { product: 'human', expiresInHours: 1 });
    expect((await hosted.byToken(token))?.id).toBe(row.id);
    await hosted.open(row);
    await ledger(t.engine, orgId, ['ver_0', 'ver_1', 'ver_2']);
    const instances = engines.instances(t, 3, 3).map((e) => createHostedSessions(e, clock));
    const misses = await Promise.all(Array.from({ length: 8 }, (_, i) => instances[i % instances.length]!.miss(row, 5, failed)));
    expect(misses.filter(Boolean)).toHaveLength(5);
    expect((await hosted.failedAttempts(row.id)).map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5]);
    const done = await Promise.all(instances.map((h, i) => h.complete(row, `ver_${i}`, 'failed', failed)));
    expect(done.filter(Boolean)).toHaveLength(1);
    expect((await hosted.failedAttempts(row.id)).map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(await hosted.failedSince(orgId, '2026-12-04T00:00:00.000Z')).toEqual({ test: 1, live: 0 });
    expect(hosted.stateOf((await hosted.byId(row.id))!)).toBe('completed');
  });

  it.skipIf(skip)(`a published flow counts the sessions it started and completed${why}`, async () => {
    const t = await engines.open(dialect);
    const orgId = await org(t.engine);
    const flows = createPublishedFlows(t.engine, clock);
    const hosted = createHostedSessions(t.engine, clock);
    const flow = await flows.create({ orgId, env: 'test' }, { name: 'Front desk', product: 'human' });
    await ledger(t.engine, orgId, ['ver_x']);
    for (let i = 0; i < 3; i++) {
      const { row } = await hosted.create({ orgId, env: 'test', keyId: null, flowId: flow.id }, { product: 'human', expiresInHours: 1 });
      if (i === 0) await hosted.complete(row, 'ver_x', 'passed');
    }
    expect(await flows.byId(flow.id, orgId)).toMatchObject({ name: 'Front desk', started: 3, completed: 1, enabled: 1 });
    expect(await flows.byId(flow.id, orgId + 1)).toBeUndefined();
    expect((await flows.bySlug(flow.slug))?.id).toBe(flow.id);
    expect(await flows.setEnabled(flow.id, orgId, false)).toMatchObject({ enabled: 0 });
    expect(await flows.update(flow.id, orgId + 1, { name: 'Moved', product: 'age' })).toBeUndefined();
    expect((await flows.list(orgId, 'test')).map((f) => [f.name, f.started])).toEqual([['Front desk', 3]]);
  });
});
