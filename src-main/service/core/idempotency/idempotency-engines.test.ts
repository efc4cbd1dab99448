// Idempotency-Keys on both engines: one key begins one attempt, whichever instance the requests
// reach; its retries are refused while it runs and replayed once it is done.
import { describe, expect, it } from 'vitest';
import type { Engine } from '../../db/engine';
import { ENGINES, testEngines } from '../../test/engines';
import { ManualClock } from '../clock';
import type { InstallSecret } from '../install-secret';
import { createIdempotency } from './idempotency';

const AT = '2026-12-04T09:00:00.000Z';
const clock = new ManualClock(Date.parse(AT));
const secret = { raw: () => Buffer.alloc(32, 7) } as unknown as InstallSecret;
const engines = testEngines();

async function apiKey(engine: Engine): Promise<string> {
  const org = await engine.q.insertInto('organizations').values({ name: 'Acme', plan: 'pro', created_at: AT }).returning('id').executeTakeFirstOrThrow();
  await engine.q.insertInto('api_keys').values({
    id: 'key_1', org_id: org.id, name: 'k', key_hash: 'h', secret_hash: 's', prefix: 'p', env: 'live', scopes: '[]', created_at: AT,
  }).execute();
  return 'key_1';
}

describe.each(ENGINES)('Idempotency-Keys on $dialect', ({ dialect, skip }) => {
  it.skipIf(skip)(`one key begins one attempt among 30 sent at once${dialect === 'postgres' ? ' to three instances' : ''}, then replays${skip ? ` (skipped: ${skip})` : ''}`, async () => {
    const t = await engines.open(dialect);
    const key = await apiKey(t.engine);
    const idem = engines.instances(t, 3, 5).map((e) => createIdempotency(e, clock, secret));
    const fp = idem[0]!.fingerprint('POST', '/api/compliance/v1/screen', '{}');
    const begun = await Promise.allSettled(Array.from({ length: 30 }, (_, i) => idem[i % idem.length]!.begin(key, 'order-1', fp)));
    expect(begun.filter((b) => b.status === 'fulfilled').map((b) => (b as PromiseFulfilledResult<unknown>).value)).toEqual([{ kind: 'new' }]);
    expect(begun.filter((b) => b.status === 'rejected').map((b) => (b as PromiseRejectedResult).reason.code))
      .toEqual(Array.from({ length: 29 }, () => 'idempotency_in_progress'));

    await t.engine.transaction((tx) => idem[0]!.completeInTransaction(tx, key, 'order-1', 'scr_1', 200));
    for (const i of idem) expect(await i.begin(key, 'order-1', fp)).toEqual({ kind: 'replay', verificationId: 'scr_1', statusCode: 200 });
    await expect(idem[1 % idem.length]!.begin(key, 'order-1', idem[0]!.fingerprint('POST', '/p', '{"other":1}'))).rejects.toMatchObject({ code: 'idempotency_conflict' });
  });

  it.skipIf(skip)(`at start-up, ${dialect === 'postgres' ? 'leaves other instances\' attempts in progress alone; a cut-off one is released by its age' : 'releases the attempts the last run left in progress'}${skip ? ` (skipped: ${skip})` : ''}`, async () => {
    const t = await engines.open(dialect);
    const key = await apiKey(t.engine);
    const clock = new ManualClock(Date.parse(AT));
    const running = createIdempotency(t.engine, clock, secret);
    const fp = running.fingerprint('POST', '/p', '{}');
    expect(await running.begin(key, 'order-1', fp)).toEqual({ kind: 'new' });
    // Another instance (or this one, restarted) starts.
    const starting = createIdempotency(t.engine, clock, secret);
    expect(await starting.releaseInProgress()).toBe(dialect === 'postgres' ? 0 : 1);
    if (dialect === 'postgres') {
      await expect(starting.begin(key, 'order-1', fp)).rejects.toMatchObject({ code: 'idempotency_in_progress' });
      clock.advance(5 * 60_000 + 1);
    }
    expect(await starting.begin(key, 'order-1', fp)).toEqual({ kind: 'new' });
  });
});
