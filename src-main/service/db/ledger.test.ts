// The ledger's engine as the service opens it: CONSOLE_DATABASE_POOL read and checked, and an
// instance on PostgreSQL never holding more connections than it allows, however many requests
// arrive at once.
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { POSTGRES, testEngines } from '../test/engines';
import { closeAll, testService } from '../test/harness';
import { databasePoolOption } from './ledger';

afterAll(closeAll);
const engines = testEngines();

describe('CONSOLE_DATABASE_POOL', () => {
  it('takes a whole number from 1 to 100; unset or empty leaves the default; anything else is refused naming the variable', () => {
    expect(databasePoolOption(undefined)).toEqual({});
    expect(databasePoolOption('')).toEqual({});
    expect(databasePoolOption('1')).toEqual({ databasePool: 1 });
    expect(databasePoolOption('100')).toEqual({ databasePool: 100 });
    for (const bad of ['0', '101', '2.5', 'ten', '-3']) expect(() => databasePoolOption(bad)).toThrow(/CONSOLE_DATABASE_POOL must be a whole number from 1 to 100/);
  });

  it.skipIf(!POSTGRES.url)(`an instance keeps at most that many connections under 30 requests at once${POSTGRES.url ? '' : ` (skipped: ${POSTGRES.why})`}`, async () => {
    const db = await engines.open('postgres');
    const name = new URL(db.url!.replace(/^postgres:\/\/[^@]*@/, 'http://x@h')).pathname.slice(1);
    const t = await testService({ plan: 'pro', database: db.url!, databasePool: 2 });
    const owner = await t.login();
    const admin = new pg.Client({ connectionString: POSTGRES.url! });
    await admin.connect();
    try {
      // The test's own engine on this database (its migration's connection) and the service's lists listener are not the pool.
      const others = Number((await admin.query('SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1', [name])).rows[0].n);
      let most = 0;
      let sampling = true;
      const sample = (async () => {
        while (sampling) {
          most = Math.max(most, Number((await admin.query('SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1', [name])).rows[0].n));
          await new Promise((r) => setTimeout(r, 5));
        }
      })();
      const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => t.json('POST', '/api/keys', { cookie: owner, body: { name: `Key ${i}`, env: 'test', scopes: ['human'] } })));
      sampling = false;
      await sample;
      expect(answers.map((a) => a.status)).toEqual(Array(30).fill(201));
      expect(most - others).toBeLessThanOrEqual(2);
    } finally {
      await admin.end();
    }
  });
});
