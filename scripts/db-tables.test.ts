import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { renderTables, TABLES_FILE } from './db-tables';

it('db/tables.ts is the schema the migrations make (npm run db:tables after a migration)', () => {
  expect(readFileSync(TABLES_FILE, 'utf8')).toBe(renderTables());
});
