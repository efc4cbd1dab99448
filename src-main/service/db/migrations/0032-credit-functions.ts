// A charge on PostgreSQL in one round trip (issue 40: "a charge at 1M rows as fast as on
// SQLite"). The balance read and the charge were statements sent one by one, each parsed and
// planned again by the server: the balance's correlated subquery cost more to plan (~180 µs) than
// to run. As PL/pgSQL functions they are parsed once per connection (each statement still planned
// for its values: see below), and the charge's lock, re-read, check and entries are one call
// instead of two statements. Measured with
// `npm run bench:credits -- --postgres` (docs/scale.md). SQLite has nothing to change: its
// statements run in this process, with no round trip and no server to plan them.
import type Database from 'better-sqlite3';
import { sql } from 'kysely';
import type { Q } from '../engine';

export const version = 32;
export const name = 'credit-functions';

export function up(_db: Database.Database): void {}

export async function postgres(q: Q): Promise<void> {
  await sql.raw(`
    -- The checkpoint's last entry only moves forward. An entry's number is taken before its
    -- trigger waits for the checkpoint's lock: a grant numbered 3 that waited for a charge
    -- (taking 4 under the lock) set it back to 3 when it went on, and the balance then counted
    -- entry 4 twice (once in the checkpoint, once after it) until the next entry. SQLite writes
    -- one transaction at a time, so its entries are numbered in the order they are written.
    CREATE OR REPLACE FUNCTION credit_entries_checkpoint() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO credit_balances (org_id, balance, last_entry_id) VALUES (NEW.org_id, NEW.amount, NEW.id)
        ON CONFLICT (org_id) DO UPDATE SET balance = credit_balances.balance + excluded.balance,
          last_entry_id = greatest(credit_balances.last_entry_id, excluded.last_entry_id);
      RETURN NULL;
    END $$;

    -- The organisation's balance: its checkpoint (credit_balances, kept by the entries' trigger)
    -- plus any entries after it. STABLE: both reads see the calling statement's snapshot.
    -- Both functions plan each statement for its values (force_custom_plan): a plan made for any
    -- value takes "entries after the checkpoint" for a third of the organisation's rows and reads
    -- them all (40 ms a balance at 1M rows, measured), and PostgreSQL may keep such a plan once a
    -- small ledger made it look cheap. The parse and rewrite are still done once per connection.
    CREATE FUNCTION credit_balance(p_org BIGINT) RETURNS BIGINT LANGUAGE plpgsql STABLE
    SET plan_cache_mode = force_custom_plan AS $$
    DECLARE
      cp_balance BIGINT;
      cp_last BIGINT;
    BEGIN
      SELECT balance, last_entry_id INTO cp_balance, cp_last FROM credit_balances WHERE org_id = p_org;
      RETURN coalesce(cp_balance, 0)
        + coalesce((SELECT sum(amount) FROM credit_entries WHERE org_id = p_org AND id > coalesce(cp_last, 0)), 0);
    END $$;

    -- Locks the organisation's balance until the caller's transaction ends (the checkpoint row,
    -- made if it has none, so a first charge locks too), reads it after the lock, and when it
    -- covers p_cost for each of p_ids writes one charge entry per id, in their order. Answers the
    -- balance read under the lock, before the charge: the caller knows nothing was written when it
    -- is short. The entries' sum is read after the lock in a snapshot of its own (a VOLATILE
    -- function's statement): what a concurrent charge committed is in it or in the checkpoint.
    CREATE FUNCTION credit_charge(p_org BIGINT, p_cost BIGINT, p_product TEXT, p_ids TEXT[], p_env TEXT, p_at TEXT)
    RETURNS BIGINT LANGUAGE plpgsql VOLATILE
    SET plan_cache_mode = force_custom_plan AS $$
    DECLARE
      cp_balance BIGINT;
      cp_last BIGINT;
      locked BIGINT;
    BEGIN
      INSERT INTO credit_balances (org_id, balance, last_entry_id) VALUES (p_org, 0, 0)
        ON CONFLICT (org_id) DO UPDATE SET org_id = excluded.org_id
        RETURNING balance, last_entry_id INTO cp_balance, cp_last;
      locked := cp_balance + coalesce((SELECT sum(amount) FROM credit_entries WHERE org_id = p_org AND id > cp_last), 0);
      IF locked >= p_cost * cardinality(p_ids) THEN
        INSERT INTO credit_entries (org_id, amount, kind, product, verification_id, env, note, created_at)
          SELECT p_org, -p_cost, 'charge', p_product, u.id, p_env, NULL, p_at
          FROM unnest(p_ids) WITH ORDINALITY AS u(id, n) ORDER BY u.n;
      END IF;
      RETURN locked;
    END $$;
  `).execute(q);
}
