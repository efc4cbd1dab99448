// Where the service keeps its ledger (issue 40): the embedded SQLite file in the data directory
// (the default: zero set-up), or PostgreSQL (`--database postgres://…`, CONSOLE_DATABASE_URL) for
// a team whose several instances share one ledger. Either way migrated to this version's schema
// before anything is served; a database written by a newer version is refused.
import { openDataDir } from '../paths';
import { postgresEngine, sqliteEngine, type Engine } from './engine';
import { openDatabase, type Db } from './open';
import { migratePostgres } from './postgres/migrate';

export interface Ledger {
  engine: Engine;
  /** The SQLite connection, when the ledger is the embedded file (null on PostgreSQL). */
  sqlite: Db | null;
}

/** A `--database` value: a postgres:// or postgresql:// URL, or an error that names the flag without echoing the URL (it may hold a password). */
export function parseDatabaseUrl(raw: string): string {
  // libpq's URL form, which the WHATWG URL parser refuses for a unix socket (`postgres://user@/db?host=/dir`).
  if (!/^postgres(ql)?:\/\/[^\s]*$/i.test(raw)) {
    throw new Error('--database must be a postgres:// URL (postgres://USER:PASSWORD@HOST:PORT/DATABASE, or postgres://USER@/DATABASE?host=/socket/dir)');
  }
  return raw;
}

/** CONSOLE_DATABASE_POOL: how many connections to PostgreSQL an instance keeps at most (1-100); unset, the default. */
export function databasePoolOption(raw: string | undefined): { databasePool?: number } {
  if (raw === undefined || raw === '') return {};
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 100) throw new Error(`CONSOLE_DATABASE_POOL must be a whole number from 1 to 100 (got ${raw.slice(0, 20)})`);
  return { databasePool: n };
}

export async function openLedger(dataDir: string, opts: { database?: string | undefined; pool?: number | undefined; nativeBinding?: string | undefined }): Promise<Ledger> {
  if (opts.database === undefined) {
    const sqlite = openDatabase(dataDir, opts.nativeBinding ? { nativeBinding: opts.nativeBinding } : {});
    return { engine: sqliteEngine(sqlite), sqlite };
  }
  // The data directory still holds the logs, the lists' index and the certificates.
  openDataDir(dataDir);
  const engine = postgresEngine(parseDatabaseUrl(opts.database), opts.pool !== undefined ? { max: opts.pool } : {});
  try {
    await migratePostgres(engine);
  } catch (e) {
    await engine.close();
    throw e;
  }
  return { engine, sqlite: null };
}
