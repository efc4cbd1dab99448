// The credits ledger on both engines: the same balance, grants and ledger pages, and charges made
// at once never overspend, on SQLite (one instance) and on PostgreSQL with three instances (three
// pools, as three services behind a load balancer would have) charging one organisation.
import { describe, expect, it } from 'vitest';
import type { Engine } from '../../db/engine';
import { ENGINES, testEngines } from '../../test/engines';
import { ManualClock } from '../clock';
import { createCredits } from './credits';

const AT = '2026-12-04T09:00:00.000Z';
const clock = new ManualClock(Date.parse(AT));
const engines = testEngines();

async function org(engine: Engine): Promise<number> {
  const r = await engine.q.insertInto('organizations').values({ name: 'Acme', plan: 'pro', created_at: AT }).returning('id').executeTakeFirstOrThrow();
  return r.id;
}

/** One charge of `cost` for a new verification row, in one transaction, as billing does it. */
async function chargeOne(engine: Engine, orgId: number, n: number, cost: number): Promise<boolean> {
  const credits = createCredits(engine, clock);
  try {
    await engine.transaction(async (tx) => {
      const id = `ver_${n}`;
      // Each on a day of its own: rows of one day share a report rollup row, whose lock (taken by
      // the row's trigger) would make these transactions take turns by itself and hide a charge
      // that does not lock the balance.
      const day = new Date(Date.parse(AT) + n * 86_400_000).toISOString();
      await tx.insertInto('verifications').values({ id, org_id: orgId, product: 'human', env: 'live', status: 'PASS', created_at: day }).execute();
      await credits.chargeInTransaction(tx, orgId, cost, 'human', [id], 'live');
    });
    return true;
  } catch (e) {
    if ((e as { code?: string }).code === 'credits_exhausted' || (e as { code?: string }).code === 'insufficient_credits') return false;
    throw e;
  }
}

describe.each(ENGINES)('credits on $dialect', ({ dialect, skip }) => {
  it.skipIf(skip)(`grants, pages and reconciles the ledger${skip ? ` (skipped: ${skip})` : ''}`, async () => {
    const t = await engines.open(dialect);
    const credits = createCredits(t.engine, clock);
    const orgId = await org(t.engine);
    expect(await credits.balance(orgId)).toBe(0);
    await expect(credits.grant(orgId, 0)).rejects.toMatchObject({ code: 'account_validation' });
    for (const n of [100, 20, 3]) await credits.grant(orgId, n, `grant ${n}`);
    expect(await chargeOne(t.engine, orgId, 1, 30)).toBe(true);
    expect(await credits.balance(orgId)).toBe(93);
    const page = await credits.ledger(orgId, 1, 2);
    expect(page.total).toBe(4);
    expect(page.entries.map((e) => [e.amount, e.kind])).toEqual([[-30, 'charge'], [3, 'grant']]);
    expect(await credits.reconcile(orgId)).toMatchObject({ balance: 93, sum: 93, checkpoint: { balance: 93 } });
    // A charge outside a transaction is refused: it could not be written with what it pays for.
    await expect(credits.chargeInTransaction(t.engine.q, orgId, 1, 'human', ['x'], 'live')).rejects.toThrow(/outside a transaction/);
  });

  it.skipIf(skip)(`never overspends: 100 charges at once on a balance of 10${dialect === 'postgres' ? ', over three instances' : ''}${skip ? ` (skipped: ${skip})` : ''}`, async () => {
    const t = await engines.open(dialect);
    const orgId = await org(t.engine);
    await createCredits(t.engine, clock).grant(orgId, 10);
    const instances = engines.instances(t, 3, 5);
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => chargeOne(instances[i % instances.length]!, orgId, i, 1)));
    expect(results.filter(Boolean)).toHaveLength(10);
    const after = await createCredits(t.engine, clock).reconcile(orgId);
    expect(after).toMatchObject({ balance: 0, sum: 0 });
    const rows = await t.engine.q.selectFrom('verifications').select((v) => v.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    // The refused charges' rows went with their transactions.
    expect(Number(rows.n)).toBe(10);
  });

  it.skipIf(skip)(`a query on the engine from inside a transaction throws at once, naming the fix; work it starts runs after it${skip ? ` (skipped: ${skip})` : ''}`, async () => {
    const t = await engines.open(dialect);
    const orgId = await org(t.engine);
    const credits = createCredits(t.engine, clock);
    // On SQLite it would wait for the connection the transaction holds, for ever.
    await expect(t.engine.transaction(async () => credits.balance(orgId))).rejects.toThrow(/run it on the transaction \(tx\)/);
    expect(await t.engine.transaction(async (tx) => credits.balance(orgId, tx))).toBe(0);
    // Work a transaction starts in the background (a job queue's next turn) uses the engine once it has ended.
    let ended!: () => void;
    const after = new Promise<void>((r) => (ended = r));
    let later: Promise<number> | undefined;
    await t.engine.transaction(async (tx) => {
      later = after.then(() => credits.balance(orgId));
      return credits.balance(orgId, tx);
    });
    ended();
    expect(await later).toBe(0);
  }, 5_000);
});
