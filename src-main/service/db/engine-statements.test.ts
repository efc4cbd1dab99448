// The SQLite engine prepares each statement once (db/engine.ts keptStatements): Kysely's driver
// would compile it again on every query, which was a fifth of the HTTP thread's busy time under load.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { keptStatements, sqliteEngine } from './engine';
import { openDatabase, type Db } from './open';

const dirs: string[] = [];
function counted(): { db: Db; prepared: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'cc-statements-'));
  dirs.push(dir);
  const db = openDatabase(dir);
  const prepared: string[] = [];
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => (prepared.push(sql), prepare(sql))) as Db['prepare'];
  return { db, prepared };
}
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('the SQLite engine\'s statements', () => {
  it('are prepared once and run again, in and out of transactions, with their own parameters each time', async () => {
    const { db, prepared } = counted();
    const engine = sqliteEngine(db);
    const add = (name: string) => engine.q.insertInto('organizations').values({ name, plan: 'pro', created_at: '2026-12-06T00:00:00.000Z' }).execute();
    await add('One');
    await add('Two');
    await engine.transaction(async (tx) => {
      await tx.insertInto('organizations').values({ name: 'Three', plan: 'pro', created_at: '2026-12-06T00:00:00.000Z' }).execute();
    });
    await engine.transaction(async (tx) => {
      await tx.insertInto('organizations').values({ name: 'Four', plan: 'pro', created_at: '2026-12-06T00:00:00.000Z' }).execute();
    });
    const names = await engine.q.selectFrom('organizations').select('name').orderBy('id').execute();
    expect(names.map((r) => r.name)).toEqual(['One', 'Two', 'Three', 'Four']);
    const inserts = prepared.filter((s) => s.startsWith('insert into "organizations"'));
    expect(inserts).toHaveLength(1);
    expect(prepared.filter((s) => s === 'begin immediate')).toHaveLength(1);
    db.close();
  });

  it('are kept up to a bound, the least recently used let go first', () => {
    const { db, prepared } = counted();
    const kept = keptStatements(db, 2);
    const [a, b, c] = ['SELECT 1', 'SELECT 2', 'SELECT 3'];
    kept.prepare(a);
    kept.prepare(b);
    kept.prepare(a); // a is now the most recently used
    kept.prepare(c); // b goes
    kept.prepare(a);
    kept.prepare(b);
    expect(prepared).toEqual([a, b, c, b]);
    db.close();
  });
});
