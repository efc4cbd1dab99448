// Credits: no overspend under concurrency (in one process and across processes), idempotent
// retries never double-charge, test and demo keys never pay, balance = sum of entries.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../src-shared/errors';
import type { ResolvedKey } from '../core/keys/keys';
import type { Outcome } from '../core/verification/billing';
import { fixtureCommand } from './fixture-bundle';
import { closeAll, testService, type TestService } from './harness';

afterAll(closeAll);
const run = promisify(execFile);

async function resolve(t: TestService, apiKey: string): Promise<ResolvedKey> {
  const f = await t.s.keys.lookup(apiKey);
  if (!f.ok) throw new Error('key');
  return f.key;
}

const pass = async (): Promise<Outcome<null>> => {
  await new Promise((r) => setTimeout(r, 2));
  return { status: 'PASS', confidence: 88, billable: true, httpStatus: 200, result: null };
};

describe('charging', () => {
  it('charges a live key the product price and records both rows in one go', async () => {
    const t = await testService();
    await t.grant(100);
    const key = await resolve(t, (await t.key({ env: 'live' })).api_key);
    const b = await t.s.billing.run({ key, operation: 'identity', idPrefix: 'ver' }, pass);
    expect(b).toMatchObject({ charged: 30, creditsRemaining: 70, replayed: false });
    const entry = t.s.db.prepare('SELECT * FROM credit_entries WHERE verification_id = ?').get(b.verificationId);
    expect(entry).toMatchObject({ amount: -30, kind: 'charge', product: 'identity', env: 'live' });
    expect((await t.s.ledger.get(b.verificationId))).toMatchObject({ credits: 30, status: 'PASS', env: 'live' });
  });

  it('a live key with a short balance gets the insufficient body; an empty one the exhausted body', async () => {
    const t = await testService();
    const key = await resolve(t, (await t.key({ env: 'live' })).api_key);
    await expect(t.s.billing.run({ key, operation: 'age', idPrefix: 'ver' }, pass)).rejects.toMatchObject({ code: 'credits_exhausted' });
    await t.grant(5);
    const err = await t.s.billing.run({ key, operation: 'age', idPrefix: 'ver' }, pass).catch((e: AppError) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('insufficient_credits');
    expect((err as AppError).details).toMatchObject({ credits_remaining: 5, credits_required: 10 });
    expect(t.s.db.prepare('SELECT COUNT(*) AS n FROM verifications').get()).toEqual({ n: 0 });
  });

  it('test keys and demo keys never pay and never get 402', async () => {
    const t = await testService();
    const test = await resolve(t, (await t.key({ env: 'test' })).api_key);
    const demo = await resolve(t, (await t.key({ env: 'live', demo: true })).api_key);
    for (const key of [test, demo]) {
      const b = await t.s.billing.run({ key, operation: 'compliance', idPrefix: 'ver' }, pass);
      expect(b.charged).toBe(0);
    }
    expect((await t.s.credits.balance(t.orgId))).toBe(0);
  });

  it('non-billable outcomes (provider unavailable) are recorded but not charged', async () => {
    const t = await testService();
    await t.grant(60);
    const key = await resolve(t, (await t.key({ env: 'live' })).api_key);
    const b = await t.s.billing.run({ key, operation: 'screen', idPrefix: 'scr' }, async () => ({
      status: 'failed', confidence: null, billable: false, errorCode: 'compliance_provider_unavailable', httpStatus: 503, result: null,
    }));
    expect(b.charged).toBe(0);
    expect((await t.s.ledger.get(b.verificationId))).toMatchObject({ billable: 0, credits: 0, error_code: 'compliance_provider_unavailable' });
    expect((await t.s.credits.balance(t.orgId))).toBe(60);
  });

  it('a failing work function charges nothing and records nothing', async () => {
    const t = await testService();
    await t.grant(60);
    const key = await resolve(t, (await t.key({ env: 'live' })).api_key);
    await expect(t.s.billing.run({ key, operation: 'screen', idPrefix: 'scr' }, async () => { throw new Error('boom'); })).rejects.toThrow('boom');
    expect((await t.s.credits.balance(t.orgId))).toBe(60);
  });
});

describe('concurrency', () => {
  it('50 concurrent requests in one process never overspend', async () => {
    const t = await testService();
    await t.grant(300); // 10 identity checks
    const key = await resolve(t, (await t.key({ env: 'live' })).api_key);
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () => t.s.billing.run({ key, operation: 'identity', idPrefix: 'ver' }, pass)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
    // 300 granted, 10 identity checks at 30 charged.
    expect((await t.s.credits.balance(t.orgId))).toBe(0);
    expect(t.s.db.prepare("SELECT COUNT(*) AS n FROM credit_entries WHERE kind = 'charge' AND amount = -30").get()).toEqual({ n: 10 });
  });

  it('4 processes charging one data directory at once never overspend', async () => {
    const t = await testService();
    await t.grant(600); // 20 identity checks
    const k = await t.key({ env: 'live' });
    const fixture = fixtureCommand('charge-worker.ts');
    const outs = await Promise.all(
      Array.from({ length: 4 }, () => run(process.execPath, [...fixture, t.dataDir, k.api_key, '10'])),
    );
    const totals = outs.map((o) => JSON.parse(o.stdout) as { ok: number; refused: number });
    expect(totals.reduce((a, b) => a + b.ok, 0)).toBe(20);
    expect(totals.reduce((a, b) => a + b.refused, 0)).toBe(20);
    expect((await t.s.credits.balance(t.orgId))).toBe(0);
    const charges = t.s.db.prepare("SELECT COUNT(*) AS n FROM credit_entries WHERE kind = 'charge'").get();
    expect(charges).toEqual({ n: 20 });
  }, 60_000);
});

describe('acts paid for once (the recordings of one hosted session)', () => {
  const session = async (t: TestService, keyId: string) =>
    (await t.s.hosted.create({ orgId: t.orgId, env: 'live', keyId }, { product: 'human', expiresInHours: 1 })).row;
  const rows = (t: TestService) => t.s.db.prepare('SELECT id, credits, billable FROM verifications ORDER BY rowid').all() as { id: string; credits: number; billable: number }[];

  it('10 recordings finishing at once: one charge, by the row the session names; the rest are rows of 0 credits, not billable', async () => {
    const t = await testService();
    await t.grant(1);
    const k = await t.key({ env: 'live' });
    const key = await resolve(t, k.api_key);
    const row = await session(t, k.id);
    // All ten pass the balance check before any has finished: only the transaction can tell them apart.
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => t.s.billing.run({ key, operation: 'human', idPrefix: 'ver', paidOnce: t.s.hosted.paidOnce(row) }, pass)),
    );
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    expect((await t.s.credits.balance(t.orgId))).toBe(0);
    const charged = rows(t).filter((r) => r.credits > 0);
    expect(charged).toEqual([{ id: (await t.s.hosted.byId(row.id))!.billed_verification_id, credits: 1, billable: 1 }]);
    expect(rows(t).filter((r) => r.credits === 0 && r.billable === 0)).toHaveLength(9);
    expect(t.s.db.prepare("SELECT verification_id FROM credit_entries WHERE kind = 'charge'").all()).toEqual([{ verification_id: charged[0]!.id }]);

    // The balance is spent: a later recording of the paid session is still recorded, free; another session is refused.
    const later = await t.s.billing.run({ key, operation: 'human', idPrefix: 'ver', paidOnce: t.s.hosted.paidOnce(row) }, pass);
    expect(later).toMatchObject({ charged: 0, creditsRemaining: 0 });
    await expect(t.s.billing.run({ key, operation: 'human', idPrefix: 'ver', paidOnce: t.s.hosted.paidOnce(await session(t, k.id)) }, pass))
      .rejects.toMatchObject({ code: 'credits_exhausted' });
    expect((await t.s.credits.reconcile(t.orgId))).toMatchObject({ balance: 0, sum: 0 });
  });

  it('a test key\'s session names its first row too, charging nothing', async () => {
    const t = await testService();
    const k = await t.key({ env: 'test' });
    const row = (await t.s.hosted.create({ orgId: t.orgId, env: 'test', keyId: k.id }, { product: 'human', expiresInHours: 1 })).row;
    const first = await t.s.billing.run({ key: await resolve(t, k.api_key), operation: 'human', idPrefix: 'ver', paidOnce: t.s.hosted.paidOnce(row) }, pass);
    await t.s.billing.run({ key: await resolve(t, k.api_key), operation: 'human', idPrefix: 'ver', paidOnce: t.s.hosted.paidOnce(row) }, pass);
    expect((await t.s.hosted.byId(row.id))!.billed_verification_id).toBe(first.verificationId);
    expect(rows(t).map((r) => [r.credits, r.billable])).toEqual([[0, 1], [0, 0]]);
  });

  it('4 processes recording for one session at once: one charge in all', async () => {
    const t = await testService();
    await t.grant(100);
    const k = await t.key({ env: 'live' });
    const row = await session(t, k.id);
    const fixture = fixtureCommand('charge-worker.ts');
    const startAt = String(Date.now() + 8_000);
    const outs = await Promise.all(
      Array.from({ length: 4 }, () => run(process.execPath, [...fixture, t.dataDir, k.api_key, '5', row.id, startAt])),
    );
    expect(outs.map((o) => JSON.parse(o.stdout) as { ok: number; refused: number })).toEqual(Array(4).fill({ ok: 5, refused: 0 }));
    expect(rows(t)).toHaveLength(20);
    expect((await t.s.credits.balance(t.orgId))).toBe(99);
    expect(t.s.db.prepare("SELECT verification_id FROM credit_entries WHERE kind = 'charge'").all())
      .toEqual([{ verification_id: (await t.s.hosted.byId(row.id))!.billed_verification_id }]);
  }, 60_000);
});

describe('idempotency', () => {
  it('a retry with the same key and body returns the first result, uncharged', async () => {
    const t = await testService();
    await t.grant(100);
    const key = await resolve(t, (await t.key({ env: 'live' })).api_key);
    const fp = t.s.idempotency.fingerprint('POST', '/api/identity/v1/submit', '{"a":1}');
    const req = { key, operation: 'identity' as const, idPrefix: 'ver', idempotency: { key: 'retry-1', fingerprint: fp } };
    const first = await t.s.billing.run(req, pass);
    t.clock.advance(60_000);
    const again = await t.s.billing.run(req, pass);
    expect(again).toMatchObject({ verificationId: first.verificationId, createdAt: first.createdAt, charged: 0, replayed: true, creditsRemaining: 70 });
    expect((await t.s.credits.balance(t.orgId))).toBe(70);
  });

  it('the same key with a different body is refused', async () => {
    const t = await testService();
    await t.grant(100);
    const key = await resolve(t, (await t.key({ env: 'live' })).api_key);
    const fp1 = t.s.idempotency.fingerprint('POST', '/p', '{"a":1}');
    const fp2 = t.s.idempotency.fingerprint('POST', '/p', '{"a":2}');
    await t.s.billing.run({ key, operation: 'identity', idPrefix: 'ver', idempotency: { key: 'k', fingerprint: fp1 } }, pass);
    await expect(
      t.s.billing.run({ key, operation: 'identity', idPrefix: 'ver', idempotency: { key: 'k', fingerprint: fp2 } }, pass),
    ).rejects.toMatchObject({ code: 'idempotency_conflict' });
    expect((await t.s.credits.balance(t.orgId))).toBe(70);
  });

  it('concurrent duplicates: one runs, the other is told it is in progress; never two charges', async () => {
    const t = await testService();
    await t.grant(100);
    const key = await resolve(t, (await t.key({ env: 'live' })).api_key);
    const fp = t.s.idempotency.fingerprint('POST', '/p', '{}');
    const req = { key, operation: 'identity' as const, idPrefix: 'ver', idempotency: { key: 'dup', fingerprint: fp } };
    const [a, b] = await Promise.allSettled([t.s.billing.run(req, pass), t.s.billing.run(req, pass)]);
    expect([a.status, b.status].sort()).toEqual(['fulfilled', 'rejected']);
    const rejected = (a.status === 'rejected' ? a : b) as PromiseRejectedResult;
    expect(rejected.reason).toMatchObject({ code: 'idempotency_in_progress' });
    expect((await t.s.credits.balance(t.orgId))).toBe(70);
  });

  it('a failed attempt frees the key; after 24 hours the key starts afresh', async () => {
    const t = await testService();
    await t.grant(100);
    const key = await resolve(t, (await t.key({ env: 'live' })).api_key);
    const fp = t.s.idempotency.fingerprint('POST', '/p', '{}');
    const req = { key, operation: 'identity' as const, idPrefix: 'ver', idempotency: { key: 'x', fingerprint: fp } };
    await expect(t.s.billing.run(req, async () => { throw new Error('fault'); })).rejects.toThrow();
    const first = await t.s.billing.run(req, pass);
    expect(first.charged).toBe(30);
    t.clock.advance(24 * 3600_000 + 1);
    const later = await t.s.billing.run(req, pass);
    expect(later.verificationId).not.toBe(first.verificationId);
    expect(later.charged).toBe(30);
  });

  it('the fingerprint is keyed: the stored value is not a plain hash of the body', async () => {
    const t = await testService();
    const { createHash } = await import('node:crypto');
    const fp = t.s.idempotency.fingerprint('POST', '/p', '{"name":"x"}');
    expect(fp).not.toBe(createHash('sha256').update('POST /p\n{"name":"x"}').digest('hex'));
  });
});

describe('ledger integrity', () => {
  it('the balance is the grants minus the charges made, after every charge, and entries cannot be changed', async () => {
    const t = await testService();
    await t.grant(1000);
    await t.grant(25);
    const key = await resolve(t, (await t.key({ env: 'live' })).api_key);
    // The spec's prices, written out here rather than read from the catalogue under test.
    const charges = [['human', 1], ['age', 10], ['identity', 30], ['compliance', 50], ['screen', 60], ['rescreen', 30]] as const;
    let expected = 1025;
    for (const [op, price] of charges) {
      const b = await t.s.billing.run({ key, operation: op, idPrefix: 'ver' }, pass);
      expected -= price;
      expect(b.charged).toBe(price);
      expect(b.creditsRemaining).toBe(expected);
      expect((await t.s.credits.balance(t.orgId))).toBe(expected);
    }
    expect(expected).toBe(1025 - 181);
    expect((await t.s.credits.balance(t.orgId))).toBe(844);
    expect(() => t.s.db.prepare('UPDATE credit_entries SET amount = 0').run()).toThrow(/append-only/);
    expect(() => t.s.db.prepare('DELETE FROM credit_entries').run()).toThrow(/append-only/);
    expect((await t.s.credits.balance(t.orgId))).toBe(844);
  });
});

describe('checkpointed balance (migration 0009)', () => {
  const equal = async (t: TestService, orgId = t.orgId) => {
    const r = await t.s.credits.reconcile(orgId);
    expect(r.balance).toBe(r.sum);
    expect(r.checkpoint?.balance ?? 0).toBe(r.sum);
    return r.sum;
  };

  it('equals the sum of the ledger after grants, charges, batches and concurrent charges, per organisation', async () => {
    const t = await testService();
    const other = await t.addOrg();
    await t.grant(5000);
    await other.grant(70);
    const key = await resolve(t, (await t.key({ env: 'live' })).api_key);
    await Promise.allSettled(Array.from({ length: 30 }, () => t.s.billing.run({ key, operation: 'identity', idPrefix: 'ver' }, pass)));
    await t.s.billing.recordMany({ id: null, orgId: t.orgId, env: 'live', demo: false }, 'rescreen',
      Array.from({ length: 20 }, (_, i) => ({ id: `rsc_${i}`, createdAt: t.clock.now(), status: 'CLEAR', confidence: null, latencyMs: 1 })));
    await t.grant(7);
    expect(await equal(t)).toBe(5000 - 30 * 30 - 20 * 30 + 7);
    expect(await equal(t, other.orgId)).toBe(70);
    const last = t.s.db.prepare('SELECT MAX(id) AS id FROM credit_entries WHERE org_id = ?').get(t.orgId) as { id: number };
    expect((await t.s.credits.reconcile(t.orgId)).checkpoint?.last_entry_id).toBe(last.id);
  });

  it('a transaction that fails after its charge leaves the checkpoint and the ledger as they were (rollback)', async () => {
    const t = await testService();
    await t.grant(100);
    const key = await resolve(t, (await t.key({ env: 'live' })).api_key);
    const crash = () => { throw new Error('crash after the charge'); };
    await expect(t.s.billing.run({ key, operation: 'identity', idPrefix: 'ver', alsoRecord: crash }, pass)).rejects.toThrow(/crash/);
    await expect(t.s.engine.transaction(async (tx) => {
      await tx.insertInto('credit_entries').values({ org_id: t.orgId, amount: 500, kind: 'grant', created_at: 'x' }).execute();
      t.s.db.prepare("INSERT INTO credit_entries (org_id, amount, kind, created_at) VALUES (?, -30, 'adjustment', 'x')").run(t.orgId);
      throw new Error('crash mid-transaction');
    })).rejects.toThrow(/crash/);
    expect(await equal(t)).toBe(100);
    expect(t.s.db.prepare('SELECT COUNT(*) AS n FROM credit_entries').get()).toEqual({ n: 1 });
  });

  it('a random sequence of grants, charges, refusals, batches and crashes keeps checkpoint = sum = model', async () => {
    const t = await testService();
    const key = await resolve(t, (await t.key({ env: 'live' })).api_key);
    let seed = 0x9e3779b9;
    const rnd = (n: number) => { seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0; return seed % n; };
    const ops = ['human', 'age', 'identity', 'compliance', 'screen', 'rescreen'] as const;
    const price = { human: 1, age: 10, identity: 30, compliance: 50, screen: 60, rescreen: 30 };
    let model = 0;
    for (let step = 0; step < 300; step++) {
      const r = rnd(10);
      if (r < 3) {
        const n = 1 + rnd(200);
        await t.grant(n);
        model += n;
      } else if (r < 8) {
        const op = ops[rnd(ops.length)]!;
        const crash = rnd(5) === 0;
        const done = await t.s.billing.run(
          { key, operation: op, idPrefix: 'ver', ...(crash ? { alsoRecord: () => { throw new Error('crash'); } } : {}) }, pass,
        ).then(() => true, () => false);
        if (done) model -= price[op];
        expect(done).toBe(!crash && model + (done ? price[op] : 0) >= price[op]);
      } else {
        const n = 1 + rnd(5);
        const items = Array.from({ length: n }, (_, i) => ({ id: `rsc_${step}_${i}`, createdAt: t.clock.now(), status: 'CLEAR', confidence: null, latencyMs: 1 }));
        const ok = await t.s.billing.recordMany({ id: null, orgId: t.orgId, env: 'live', demo: false }, 'rescreen', items).then(() => true, () => false);
        expect(ok).toBe(model >= n * 30);
        if (ok) model -= n * 30;
      }
      expect(await equal(t)).toBe(model);
    }
  });

  it('is kept by the database for every writer: a raw insert (another process, the CLI) moves it too', async () => {
    const t = await testService();
    await t.grant(10);
    t.s.db.prepare("INSERT INTO credit_entries (org_id, amount, kind, created_at) VALUES (?, -4, 'adjustment', 'x')").run(t.orgId);
    expect(await equal(t)).toBe(6);
  });
});
