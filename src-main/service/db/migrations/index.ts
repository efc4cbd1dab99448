// Ordered list of migrations; a migration's version is its position + 1.
import type Database from 'better-sqlite3';
import * as m0001 from './0001-foundation';

export interface Migration {
  version: number;
  name: string;
  up(db: Database.Database): void;
}

export const MIGRATIONS: Migration[] = [m0001];
