// Notifications between instances (Engine.listen / notify) on PostgreSQL: an instance follows any
// number of channels on one listening connection of its own; a payload reaches the followers of its
// channel only; a connection that drops is made again and every follower hears null (changes may
// have been missed); the connection ends with the last follower. On SQLite nothing is heard.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Engine } from './engine';
import { POSTGRES, testEngines } from '../test/engines';

const engines = testEngines();
const why = POSTGRES.url ? '' : ` (skipped: ${POSTGRES.why})`;

/** Polls until `done` holds, at most 10 s. */
async function until(done: () => boolean | Promise<boolean>): Promise<void> {
  const start = Date.now();
  while (!(await done())) {
    if (Date.now() - start > 10_000) throw new Error('not seen within 10 s');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The backends of this database that LISTEN: the instances' listening connections. */
async function listeners(e: Engine): Promise<number[]> {
  return (await sql<{ pid: number }>`
    SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %' AND pid <> pg_backend_pid()`.execute(e.q)).rows.map((r) => r.pid);
}

describe('on SQLite', () => {
  it('hears nothing and sends nothing', async () => {
    const t = await engines.open('sqlite');
    const heard: (string | null)[] = [];
    const stop = await t.engine.listen('console_test', (p) => heard.push(p));
    await t.engine.notify(t.engine.q, 'console_test', 'x');
    await stop();
    expect(heard).toEqual([]);
  });
});

describe.skipIf(!POSTGRES.url)(`on PostgreSQL${why}`, () => {
  it('follows several channels on one connection; each payload reaches its channel\'s followers only', async () => {
    const t = await engines.open('postgres');
    const [a, b] = engines.instances(t, 2) as [Engine, Engine];
    const lists: (string | null)[] = [];
    const reports: (string | null)[] = [];
    const reports2: (string | null)[] = [];
    const stops = [
      await a.listen('console_lists', (p) => lists.push(p)),
      await a.listen('console_reports', (p) => reports.push(p)),
      await a.listen('console_reports', (p) => reports2.push(p)),
    ];
    expect(await listeners(t.engine)).toHaveLength(1);
    await b.notify(b.q, 'console_reports', '7');
    await b.notify(b.q, 'console_lists', '3');
    await until(() => lists.length === 1 && reports.length === 1 && reports2.length === 1);
    expect([lists, reports, reports2]).toEqual([['3'], ['7'], ['7']]);
    // One follower stops: the others still hear; the last one's stop ends the connection.
    await stops[2]!();
    await b.notify(b.q, 'console_reports', '8');
    await until(() => reports.length === 2);
    expect(reports2).toEqual(['7']);
    await stops[0]!();
    await stops[1]!();
    await until(async () => (await listeners(t.engine)).length === 0);
  });

  it('a dropped connection is made again: every follower hears null, then notifications again', async () => {
    const t = await engines.open('postgres');
    const [a, b] = engines.instances(t, 2) as [Engine, Engine];
    const heard: Record<string, (string | null)[]> = { console_lists: [], console_reports: [] };
    for (const ch of Object.keys(heard)) await a.listen(ch, (p) => heard[ch]!.push(p));
    const [pid] = await listeners(t.engine);
    await sql`SELECT pg_terminate_backend(${pid})`.execute(t.engine.q);
    await until(() => heard.console_lists!.includes(null) && heard.console_reports!.includes(null));
    await b.notify(b.q, 'console_lists', 'again');
    await until(() => heard.console_lists!.includes('again'));
    expect(await listeners(t.engine)).toHaveLength(1);
    expect(heard.console_reports).toEqual([null]);
  });
});
