// `npm run cli -- db copy --from DIR --to postgres://…` (issue 40, item 3): an installation used
// for a while (keys, credits granted and charged, idempotent retries, settings, review decisions
// in the audit log, three months of ledger history written the way the demo writes it) moved to
// an empty PostgreSQL database. After the move the audit chain verifies with the same head, the
// credit balance and every report figure are the same, and a key made before the move still
// charges. A second copy into the same database, a URL that is not PostgreSQL's and a data
// directory whose service still runs are refused, and nothing is written.
import { afterAll, describe, expect, it } from 'vitest';
import { generateHistory } from '../core/reports/history';
import { lockDataDir } from '../data-lock';
import { privateDir } from '../paths';
import { cli } from './cli-command';
import { POSTGRES, testEngines } from './engines';
import { closeAll, testService, type TestService } from './harness';

afterAll(closeAll);
const engines = testEngines();
const CLEAR = { type: 'individual', first_name: 'Ingeborg', last_name: 'Abrahamsen', date_of_birth: '1972-11-21' };

async function figures(t: TestService, orgId: number) {
  const who = { orgId, plan: 'enterprise' as const, canViewCredits: true };
  const end = new Date(t.clock.now()).toISOString().slice(0, 10);
  const from = new Date(t.clock.now() - 85 * 86_400_000).toISOString().slice(0, 10);
  return {
    balance: await t.s.credits.balance(orgId),
    audit: await t.s.audit.verify(),
    test: await t.s.reports.bundle('full-v21', who, { env: 'test', from, to: end }),
    live: await t.s.reports.bundle('full-v21', who, { env: 'live', from, to: end }),
  };
}

describe.skipIf(!POSTGRES.url)(`db copy to PostgreSQL${POSTGRES.url ? '' : ` (skipped: ${POSTGRES.why})`}`, () => {
  it('moves the installation: the same audit chain, balance and report figures; a key made before still charges', async () => {
    const t = await testService({ plan: 'enterprise' });
    const cookie = await t.login();
    const live = await t.json<{ api_key: string }>('POST', '/api/keys', { cookie, body: { name: 'Backend', env: 'live', scopes: ['compliance'] } });
    await t.key({ env: 'test' });
    await t.grant(1000);
    for (const k of ['a', 'b', 'a']) {
      expect((await t.json('POST', '/api/compliance/v1/screen', { key: live.body.api_key, body: { subject: CLEAR }, headers: { 'Idempotency-Key': k } })).status).toBe(200);
    }
    await t.json('PATCH', '/api/settings', { cookie, body: { four_eyes: true } });
    const history = generateHistory(t.s.db, { orgId: t.orgId, rows: 3000, env: 'test', days: 80, endMs: t.clock.now(), seed: 5 });
    expect(history.rows).toBe(3000);
    const screened = t.s.db.prepare("SELECT id FROM verifications WHERE product = 'screen' AND hit_categories != '' ORDER BY id LIMIT 6").all() as { id: string }[];
    for (const [i, { id }] of screened.entries()) {
      await t.s.audit.record({ orgId: t.orgId, actor: { kind: 'user', userId: 1, role: 'owner' }, action: i % 2 ? 'disposition.set' : 'clearance.requested', screeningId: id, env: 'test', disposition: i % 3 ? 'escalated' : 'cleared_false_positive' });
    }
    const orgId = t.orgId;
    const before = await figures(t, orgId);
    expect(before.balance).toBe(880);
    expect(before.audit.ok).toBe(true);
    t.s.close();

    const db = await engines.open('postgres');
    const copied = await cli('db', 'copy', '--from', t.dataDir, '--to', db.url!, '--json');
    expect(copied.stderr).toBe('');
    expect(copied.status).toBe(0);
    const out = JSON.parse(copied.stdout) as { rows: Record<string, number>; rebuilt: string[]; audit: { ok: boolean; head_hash: string } };
    expect(out.rows.verifications).toBe(3002);
    expect(out.rebuilt).toEqual(['credit_balances', 'report_daily', 'report_confidence']);
    expect(out.audit).toMatchObject({ ok: true, head_hash: (before.audit as { head_hash: string }).head_hash });

    const moved = await testService({ plan: 'enterprise', setup: false, database: db.url! });
    moved.clock.set(t.clock.now());
    expect(await figures(moved, orgId)).toEqual(before);
    // A key made before the move charges after it; ids continue after the copied ones.
    expect((await moved.json('POST', '/api/compliance/v1/screen', { key: live.body.api_key, body: { subject: CLEAR } })).status).toBe(200);
    expect(await moved.s.credits.balance(orgId)).toBe(820);
    expect((await moved.s.audit.verify()).ok).toBe(true);
    // The admin CLI works on the moved ledger too.
    const balance = await cli('credits', 'balance', '--data-dir', moved.dataDir, '--database', db.url!);
    expect(balance.stdout).toMatch(/\b820\b/);

    // Into a database that is not empty: refused (exit 2), nothing written.
    const again = await cli('db', 'copy', '--from', t.dataDir, '--to', db.url!);
    expect(again.status).toBe(2);
    expect(again.stderr).toMatch(/not empty/);
    expect(await moved.s.credits.balance(orgId)).toBe(820);
  }, 120_000);

  it('refuses a URL that is not PostgreSQL\'s (without echoing it) and a data directory whose service runs', async () => {
    const t = await testService();
    t.s.close();
    const bad = await cli('db', 'copy', '--from', t.dataDir, '--to', 'mysql://root:s3cret@db/x');
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toMatch(/--database must be a postgres:\/\/ URL/);
    expect(bad.stderr).not.toContain('s3cret');
    const release = lockDataDir(privateDir(t.dataDir));
    try {
      const db = await engines.open('postgres');
      const busy = await cli('db', 'copy', '--from', t.dataDir, '--to', db.url!);
      expect(busy.status).not.toBe(0);
      expect(busy.stderr).toMatch(/already|running|in use/i);
    } finally {
      release();
    }
  }, 60_000);
});
