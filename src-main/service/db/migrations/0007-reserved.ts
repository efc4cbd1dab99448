// Version 7 is reserved for a migration being written on another branch in parallel; at the
// merge this placeholder is replaced by that file (or dropped, and 0008 renumbered to 7).
import type Database from 'better-sqlite3';

export const version = 7;
export const name = 'reserved';

export function up(_db: Database.Database): void {
  // Nothing: a placeholder keeps the team migration at its agreed number (8).
}
