// The balance is the checkpoint alone (issue 40: "a charge at 1M rows as fast as on SQLite").
// Every entry moves its organisation's checkpoint in its own statement (the AFTER INSERT trigger of
// migration 0009, on every writer), so "the entries after the checkpoint" were always none; reading
// them still cost PostgreSQL a plan of two statements a call (migration 0032's functions planned
// each statement for its values, since a plan made for any value read a third of a 1M-row ledger).
// Without that read the charge's statements are single-row lookups whose kept plans are right for
// any value: the functions plan once per connection, and the balance is one primary-key read on
// either engine (core/credits/repo.ts), so credit_balance goes. Measured with
// `npm run bench:credits -- --postgres` (docs/scale.md). SQLite's schema does not change: its repository
// reads the checkpoint's row.
import type Database from 'better-sqlite3';
import { sql } from 'kysely';
import type { Q } from '../engine';

export const version = 33;
export const name = 'credit-checkpoint-only';

export function up(_db: Database.Database): void {}

export async function postgres(q: Q): Promise<void> {
  await sql.raw(`
    DROP FUNCTION credit_balance(BIGINT);

    -- Locks the organisation's balance until the caller's transaction ends (the checkpoint row,
    -- made if it has none, so a first charge locks too) and reads it: the row's upsert waits for a
    -- concurrent charge's commit and returns the row as that commit left it. When it covers p_cost
    -- for each of p_ids, writes one charge entry per id, in their order (each moves the checkpoint
    -- through the trigger). Answers the balance read under the lock, before the charge: the caller
    -- knows nothing was written when it is short.
    CREATE OR REPLACE FUNCTION credit_charge(p_org BIGINT, p_cost BIGINT, p_product TEXT, p_ids TEXT[], p_env TEXT, p_at TEXT)
    RETURNS BIGINT LANGUAGE plpgsql VOLATILE AS $$
    DECLARE
      locked BIGINT;
    BEGIN
      INSERT INTO credit_balances (org_id, balance, last_entry_id) VALUES (p_org, 0, 0)
        ON CONFLICT (org_id) DO UPDATE SET org_id = excluded.org_id
        RETURNING balance INTO locked;
      IF locked >= p_cost * cardinality(p_ids) THEN
        INSERT INTO credit_entries (org_id, amount, kind, product, verification_id, env, note, created_at)
          SELECT p_org, -p_cost, 'charge', p_product, u.id, p_env, NULL, p_at
          FROM unnest(p_ids) WITH ORDINALITY AS u(id, n) ORDER BY u.n;
      END IF;
      RETURN locked;
    END $$;
  `).execute(q);
}
