// Report export jobs held on a lease (issue 40): the instance running a job renews `lease_until`
// while it works; a job whose lease ran out is its dead instance's, and any instance queues it
// again (or fails it as interrupted after its tries). Times as ISO text, as every other column.
import type Database from 'better-sqlite3';
import { sql } from 'kysely';
import type { Q } from '../engine';

export const version = 27;
export const name = 'export-leases';

export function up(db: Database.Database): void {
  db.exec('ALTER TABLE report_exports ADD COLUMN lease_until TEXT');
}

export async function postgres(q: Q): Promise<void> {
  await sql`ALTER TABLE report_exports ADD COLUMN lease_until TEXT COLLATE "C"`.execute(q);
}
