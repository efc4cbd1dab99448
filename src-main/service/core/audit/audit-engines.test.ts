// The audit log on both engines: rows appended, paged with filters and verified the same way on
// SQLite and PostgreSQL; appends from three instances at once (three pools on one database, as
// three services behind a load balancer) make one chain in one order that verifies; an act that
// fails takes its audit row with it; and the chain's walk sees a snapshot, not rows appended during it.
import { sql, type KyselyPlugin } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Engine } from '../../db/engine';
import { ENGINES, TEST_SECRET, testEngines } from '../../test/engines';
import { ManualClock } from '../clock';
import { createAudit, SYSTEM, type AuditEvent } from './audit';

const AT = '2026-12-04T09:00:00.000Z';
const clock = new ManualClock(Date.parse(AT));
const nobody = { byId: async () => undefined, ofOrg: async () => [] };
const engines = testEngines();

const audit = (engine: Engine) => createAudit(engine, clock, TEST_SECRET, nobody);

/** Runs `hook` once, after the first query's result arrives and before the caller sees it. */
function afterFirstQuery(hook: () => Promise<void>): KyselyPlugin {
  let first = true;
  return {
    transformQuery: (args) => args.node,
    async transformResult(args) {
      if (first) {
        first = false;
        await hook();
      }
      return args.result;
    },
  };
}

async function org(engine: Engine): Promise<number> {
  const r = await engine.q.insertInto('organizations').values({ name: 'Acme', plan: 'pro', created_at: AT }).returning('id').executeTakeFirstOrThrow();
  return r.id;
}

const event = (orgId: number, n: number): AuditEvent => ({ orgId, actor: SYSTEM, action: 'key.created', keyId: `key_${n}`, env: 'test' });

describe.each(ENGINES)('the audit log on $dialect', ({ dialect, skip }) => {
  const why = skip ? ` (skipped: ${skip})` : '';

  it.skipIf(skip)(`appends, pages with filters, verifies, and names an edited row${why}`, async () => {
    const t = await engines.open(dialect);
    const orgId = await org(t.engine);
    const log = audit(t.engine);
    expect(await log.verify()).toEqual({ ok: true, rows: 0, head_seq: 0, head_hash: '0'.repeat(64) });
    for (let n = 1; n <= 5; n++) await log.record(event(orgId, n));
    await log.record({ orgId, actor: { kind: 'cli' }, action: 'plan.changed', from: 'free', to: 'pro', clientReference: 'ref-1' });
    const all = await log.page(orgId, { page: 1, per_page: 4 });
    expect(all.total).toBe(6);
    expect(all.pages).toBe(2);
    expect(all.entries.map((e) => e.seq)).toEqual([6, 5, 4, 3]);
    expect((await log.page(orgId, { action: 'plan.changed', page: 1, per_page: 10 })).entries.map((e) => [e.actor.kind, e.to_value])).toEqual([['cli', 'pro']]);
    expect((await log.page(orgId, { actor: 'system', page: 1, per_page: 10 })).total).toBe(5);
    expect((await log.page(orgId, { client_reference: 'ref-1', page: 1, per_page: 10 })).total).toBe(1);
    expect((await log.page(orgId + 1, { page: 1, per_page: 10 })).total).toBe(0);
    const ok = await log.verify();
    expect(ok).toMatchObject({ ok: true, rows: 6, head_seq: 6 });

    // Edited outside the service (the append-only trigger dropped for it, as an attacker with the file would):
    // found at that row.
    if (dialect === 'sqlite') {
      t.db!.exec('DROP TRIGGER audit_log_no_update');
      t.db!.prepare("UPDATE audit_log SET key_id = 'key_x' WHERE seq = 3").run();
    } else {
      await t.engine.transaction(async (tx) => {
        await sql`ALTER TABLE audit_log DISABLE TRIGGER USER`.execute(tx);
        await tx.updateTable('audit_log').set({ key_id: 'key_x' }).where('seq', '=', 3).execute();
      });
    }
    expect(await log.verify()).toEqual({ ok: false, rows: 2, first_bad_seq: 3, reason: 'row 3 was changed after it was written' });
  });

  it.skipIf(skip)(`appends from ${dialect === 'postgres' ? 'three instances' : 'one instance'} at once make one chain that verifies${why}`, async () => {
    const t = await engines.open(dialect);
    const orgId = await org(t.engine);
    const logs = engines.instances(t, 3, 5).map(audit);
    const rows = await Promise.all(Array.from({ length: 90 }, (_, n) => logs[n % logs.length]!.record(event(orgId, n))));
    expect(new Set(rows.map((r) => r.seq)).size).toBe(90);
    expect(await audit(t.engine).verify()).toMatchObject({ ok: true, rows: 90, head_seq: 90 });
  });

  it.skipIf(skip)(`an act that fails takes its audit row with it; the next row follows the last kept one${why}`, async () => {
    const t = await engines.open(dialect);
    const orgId = await org(t.engine);
    const log = audit(t.engine);
    await log.record(event(orgId, 1));
    await expect(log.atomically(async (tx) => {
      await log.record(event(orgId, 2), tx);
      throw new Error('the act failed');
    })).rejects.toThrow('the act failed');
    const next = await log.atomically((tx) => log.record(event(orgId, 3), tx));
    expect(next.seq).toBe(2);
    expect(await log.verify()).toMatchObject({ ok: true, rows: 2 });
  });

  it.skipIf(skip)(`the walk reads one snapshot: rows appended while it runs are not a broken end${why}`, async () => {
    const t = await engines.open(dialect);
    const orgId = await org(t.engine);
    const [a, b = a] = engines.instances(t, 2, 3);
    const walker = audit(a!);
    // Longer than one page of the walk.
    await walker.atomically(async (tx) => {
      for (let n = 0; n < 2_500; n++) await walker.record(event(orgId, n), tx);
    });
    let appended = 0;
    const appendMore = async () => {
      const other = audit(b!);
      for (let n = 0; n < 20; n++) await other.record(event(orgId, 10_000 + n));
      appended = 20;
    };
    // On PostgreSQL another instance appends right after the walk has read the head, before it
    // reads any row; on SQLite (one connection, its transaction holds the file) they wait for it.
    const during: Engine = b === a ? a! : { ...a!, snapshot: (work) => a!.snapshot((tx) => work(tx.withPlugin(afterFirstQuery(appendMore)))) };
    const [verified] = await Promise.all([audit(during).verify(), b === a ? appendMore() : Promise.resolve()]);
    expect(appended).toBe(20);
    expect(verified).toMatchObject({ ok: true, rows: 2_500 });
    expect(await walker.verify()).toMatchObject({ ok: true, rows: 2_520 });
  }, 60_000);
});
