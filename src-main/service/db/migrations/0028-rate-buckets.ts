// Rate limits and throttles shared by every instance on one PostgreSQL (issue 40): one token bucket
// per row, named by a keyed hash of what it counts (a key and category, a client address, an
// account), never the address or the e-mail itself. A single SQLite process keeps its buckets in
// memory and leaves this table empty. On PostgreSQL the table is UNLOGGED (a crash empties it,
// which refills every bucket: harmless, and nothing of it reaches the write-ahead log) and one
// function takes a token under the row's lock.
import type Database from 'better-sqlite3';
import { sql } from 'kysely';
import type { Q } from '../engine';

export const version = 28;
export const name = 'rate-buckets';

export function up(db: Database.Database): void {
  db.exec(`
    CREATE TABLE rate_buckets (
      id TEXT PRIMARY KEY CHECK (length(id) <= 64),
      tokens REAL NOT NULL,
      at_ms INTEGER NOT NULL,
      rps REAL NOT NULL,
      burst REAL NOT NULL
    ) STRICT;
    CREATE INDEX rate_buckets_at ON rate_buckets(at_ms);
  `);
}

export async function postgres(q: Q): Promise<void> {
  await sql.raw(`
    CREATE UNLOGGED TABLE rate_buckets (
      id TEXT COLLATE "C" PRIMARY KEY CHECK (length(id) <= 64),
      tokens DOUBLE PRECISION NOT NULL,
      at_ms BIGINT NOT NULL,
      rps DOUBLE PRECISION NOT NULL,
      burst DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX rate_buckets_at ON rate_buckets(at_ms);
    -- One token taken from a bucket (made full if new; refilled at the limit's rate since its last
    -- use; a bucket whose limit changed starts full at the new size), under its row lock.
    CREATE FUNCTION rate_take(p_id TEXT, p_now BIGINT, p_rps DOUBLE PRECISION, p_burst DOUBLE PRECISION)
    RETURNS TABLE (tokens DOUBLE PRECISION, allowed BOOLEAN) LANGUAGE plpgsql AS $$
    DECLARE
      b rate_buckets%ROWTYPE;
      t DOUBLE PRECISION;
    BEGIN
      INSERT INTO rate_buckets AS r (id, tokens, at_ms, rps, burst) VALUES (p_id, p_burst, p_now, p_rps, p_burst) ON CONFLICT (id) DO NOTHING;
      SELECT * INTO b FROM rate_buckets AS r WHERE r.id = p_id FOR UPDATE;
      IF b.rps <> p_rps OR b.burst <> p_burst THEN
        t := p_burst;
      ELSE
        t := LEAST(p_burst, b.tokens + GREATEST(0, p_now - b.at_ms) / 1000.0 * p_rps);
      END IF;
      allowed := t >= 1;
      IF allowed THEN t := t - 1; END IF;
      UPDATE rate_buckets AS r SET tokens = t, at_ms = GREATEST(b.at_ms, p_now), rps = p_rps, burst = p_burst WHERE r.id = p_id;
      tokens := t;
      RETURN NEXT;
    END $$;
  `).execute(q);
}
