// The credits ledger on both engines: the same balance, grants and ledger pages, and charges made
// at once never overspend, on SQLite (one instance) and on PostgreSQL with three instances (three
// pools, as three services behind a load balancer would have) charging one organisation.
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Engine } from '../../db/engine';
import { ENGINES, testEngines } from '../../test/engines';
import { ManualClock } from '../clock';
import { createCredits } from './credits';
import { creditsRepo } from './repo';

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

  it.skipIf(skip)(`charges several verifications after one check: an entry each, in their order, or none with the 402's figures${skip ? ` (skipped: ${skip})` : ''}`, async () => {
    const t = await engines.open(dialect);
    const orgId = await org(t.engine);
    const credits = createCredits(t.engine, clock);
    await credits.grant(orgId, 7);
    const batch = async (ids: string[], cost: number) => t.engine.transaction(async (tx) => {
      for (const id of ids) await tx.insertInto('verifications').values({ id, org_id: orgId, product: 'screen', env: 'live', status: 'PASS', created_at: AT }).execute();
      return credits.chargeInTransaction(tx, orgId, cost, 'screen', ids, 'live');
    });
    expect(await batch(['ver_c', 'ver_a', 'ver_b'], 2)).toBe(1);
    const page = await credits.ledger(orgId, 1, 3);
    expect(page.entries.map((e) => [e.verification_id, e.amount, e.product, e.env])).toEqual([['ver_b', -2, 'screen', 'live'], ['ver_a', -2, 'screen', 'live'], ['ver_c', -2, 'screen', 'live']]);
    await expect(batch(['ver_d', 'ver_e'], 1)).rejects.toMatchObject({ code: 'insufficient_credits', details: { credits_remaining: 1, credits_required: 2 } });
    expect(await credits.reconcile(orgId)).toMatchObject({ balance: 1, sum: 1, checkpoint: { balance: 1 } });
    expect((await credits.ledger(orgId, 1, 10)).total).toBe(4);
    // The repository's charge writes nothing when short by itself, even in a transaction that goes
    // on to commit (the credits module's 402 rolls its caller's back as well).
    const locked = await t.engine.transaction(async (tx) => {
      for (const id of ['ver_d', 'ver_e']) await tx.insertInto('verifications').values({ id, org_id: orgId, product: 'screen', env: 'live', status: 'PASS', created_at: AT }).execute();
      return creditsRepo(dialect).charge(tx, orgId, 1, 'screen', ['ver_d', 'ver_e'], 'live', AT);
    });
    expect(locked).toBe(1);
    expect(await credits.reconcile(orgId)).toMatchObject({ balance: 1, sum: 1 });
  });

  it.skipIf(skip || dialect !== 'postgres')(`a grant numbered before a charge but written after it does not move the checkpoint back${dialect !== 'postgres' ? ' (PostgreSQL: on SQLite one transaction writes at a time)' : skip ? ` (skipped: ${skip})` : ''}`, async () => {
    const t = await engines.open(dialect);
    const orgId = await org(t.engine);
    const [one, two, watch] = engines.instances(t, 3, 2) as [Engine, Engine, Engine];
    await createCredits(one, clock).grant(orgId, 10);
    const charge = (tx: Parameters<Parameters<Engine['transaction']>[0]>[0], id: string) => tx.insertInto('verifications')
      .values({ id, org_id: orgId, product: 'human', env: 'live', status: 'PASS', created_at: AT }).execute()
      .then(() => createCredits(one, clock).chargeInTransaction(tx, orgId, 1, 'human', [id], 'live'));
    let charged!: () => void;
    const first = new Promise<void>((r) => (charged = r));
    let goOn!: () => void;
    const go = new Promise<void>((r) => (goOn = r));
    // One transaction charges twice, holding the balance lock between its charges; a grant made
    // meanwhile takes its entry's number, then waits for the lock to move the checkpoint.
    const charging = one.transaction(async (tx) => {
      await charge(tx, 'ver_first');
      charged();
      await go;
      await charge(tx, 'ver_second');
    });
    await first;
    const granting = createCredits(two, clock).grant(orgId, 5);
    for (let i = 0; i < 250; i++) {
      const r = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`.execute(watch.q);
      if (r.rows[0]!.n > 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    goOn();
    await charging;
    await granting;
    // The grant's entry is numbered before the second charge's and written after it.
    const entries = await t.engine.q.selectFrom('credit_entries').select(['id', 'kind']).where('org_id', '=', orgId).orderBy('id').execute();
    expect(entries.map((e) => e.kind)).toEqual(['grant', 'charge', 'grant', 'charge']);
    expect(await createCredits(t.engine, clock).reconcile(orgId)).toMatchObject({ balance: 13, sum: 13, checkpoint: { balance: 13, last_entry_id: entries.at(-1)!.id } });
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
