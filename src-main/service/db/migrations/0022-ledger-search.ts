// The ledger searched by client reference (issue 26). `verifications.client_ref_hmac` is the
// HMAC of the screening's `client_reference_id` under the key the audit log uses for the same
// references (core/audit/audit.ts `clientRefHmac`), never the reference: a search hashes the
// analyst's query the same way and finds exact matches only. No index of its own: a search is
// one organisation's rows in one environment (verifications_org_env_created), which the planner
// reads for it whatever else is indexed. NULL for products that take no
// reference, screenings sent without one, and every row written before this version.
import type Database from 'better-sqlite3';

export const version = 22;
export const name = 'ledger-search';

export function up(db: Database.Database): void {
  db.exec(`
    ALTER TABLE verifications ADD COLUMN client_ref_hmac TEXT CHECK (client_ref_hmac IS NULL OR length(client_ref_hmac) = 64);
  `);
}
