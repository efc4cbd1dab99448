// PRAGMA user_version migrations: one file per version, all pending ones in one transaction,
// and a database written by a newer version is refused rather than guessed at.
import type Database from 'better-sqlite3';
import { MIGRATIONS } from './migrations';

export class DatabaseTooNewError extends Error {
  constructor(found: number, supported: number) {
    super(`The database is at schema version ${found}, newer than this app supports (${supported}). Update the app.`);
    this.name = 'DatabaseTooNewError';
  }
}

export function latestVersion(): number {
  return MIGRATIONS.length;
}

export function migrate(db: Database.Database): { from: number; to: number } {
  const from = db.pragma('user_version', { simple: true }) as number;
  const to = latestVersion();
  if (from > to) throw new DatabaseTooNewError(from, to);
  if (from === to) return { from, to };
  db.transaction(() => {
    for (let v = from; v < to; v++) {
      const m = MIGRATIONS[v];
      if (!m || m.version !== v + 1) throw new Error(`migration ${v + 1} missing or out of order`);
      m.up(db);
    }
    db.pragma(`user_version = ${to}`);
  }).immediate();
  return { from, to };
}
