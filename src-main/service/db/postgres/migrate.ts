// Migrations on PostgreSQL: the schema's version in a one-row table, a new database brought to the
// baseline (SQLite's schema at migration 26) in one statement batch, and every later migration by
// its PostgreSQL form, all in one transaction under an advisory lock, so that several instances
// starting together migrate once and the others wait and find the work done. A database written by
// a newer version is refused, as on SQLite.
import { sql } from 'kysely';
import { DatabaseTooNewError, latestVersion } from '../migrate';
import { MIGRATIONS } from '../migrations';
import type { Engine } from '../engine';
import { BASELINE_SQL, BASELINE_VERSION } from './baseline';

/** Any fixed number: the advisory lock every instance's migration takes. */
const MIGRATION_LOCK = 4_310_026;

export async function migratePostgres(engine: Engine): Promise<{ from: number; to: number }> {
  if (engine.dialect !== 'postgres') throw new Error('migratePostgres runs on PostgreSQL only');
  const to = latestVersion();
  return engine.transaction(async (tx) => {
    await engine.exclusive(tx, MIGRATION_LOCK);
    await sql`CREATE TABLE IF NOT EXISTS schema_version (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)`.execute(tx);
    const row = await sql<{ version: number }>`SELECT version FROM schema_version WHERE id = 1`.execute(tx);
    const from = row.rows[0]?.version ?? 0;
    if (from > to) throw new DatabaseTooNewError(from, to);
    if (from === to) return { from, to };
    if (from !== 0 && from < BASELINE_VERSION) throw new Error(`a PostgreSQL schema at version ${from}, before the baseline (${BASELINE_VERSION}), was not made by this app`);
    if (from === 0) await sql.raw(BASELINE_SQL).execute(tx);
    for (let v = Math.max(from, BASELINE_VERSION); v < to; v++) {
      const m = MIGRATIONS[v];
      if (!m?.postgres) throw new Error(`migration ${v + 1} has no PostgreSQL form`);
      await m.postgres(tx);
    }
    await sql`INSERT INTO schema_version (id, version) VALUES (1, ${to}) ON CONFLICT (id) DO UPDATE SET version = excluded.version`.execute(tx);
    return { from, to };
  });
}
