// Moving an installation's ledger from its SQLite file to PostgreSQL (issue 40, item 3:
// `npm run cli -- db copy --from DIR --to postgres://…`). Every stored row is copied as it is, ids
// included, in one PostgreSQL transaction from one SQLite snapshot, into a database this version
// migrated and that holds nothing yet. The tables the triggers keep (credit balances, the reports'
// daily rollups) are not copied but rebuilt by PostgreSQL's own triggers as the rows arrive, and
// then compared with the file's: the same balances and the same report figures, or the copy fails.
// The audit chain is copied with its key (meta) and verified on PostgreSQL by the caller.
import { sql } from 'kysely';
import type { Engine, Q } from './engine';
import type { Db } from './open';
import type { Tables } from './tables';

/** Kept by triggers from other tables' rows: rebuilt on the target, then compared. */
export const DERIVED = ['credit_balances', 'report_daily', 'report_confidence'] as const;
/** Rows per INSERT (PostgreSQL takes at most 65,535 parameters in one statement; audit_log has 36 columns). */
const BATCH = 500;

export interface CopyReport {
  /** Rows copied per table. */
  rows: Record<string, number>;
  /** Derived tables found equal on both sides. */
  derived: string[];
}

export class CopyRefused extends Error {}

const tablesOf = (db: Db): string[] =>
  (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string }[]).map((r) => r.name);

/** Tables in an order in which every foreign key's target comes first (PostgreSQL's catalogue). */
async function dependencyOrder(q: Q, tables: string[]): Promise<string[]> {
  const edges = (await sql<{ child: string; parent: string }>`
    SELECT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent
    FROM pg_constraint c WHERE c.contype = 'f' AND c.connamespace = 'public'::regnamespace`.execute(q)).rows;
  const out: string[] = [];
  const seen = new Set<string>();
  const visit = (t: string, path: Set<string>) => {
    if (seen.has(t)) return;
    if (path.has(t)) throw new Error(`foreign keys form a cycle at ${t}`);
    path.add(t);
    for (const e of edges) if (e.child === t && e.parent !== t && tables.includes(e.parent)) visit(e.parent, path);
    path.delete(t);
    seen.add(t);
    out.push(t);
  };
  for (const t of tables) visit(t, new Set());
  return out;
}

/**
 * A derived table's rows in a fixed order. Sums of confidences are floating point, added up in
 * another order on the target (the file's rows were changed over time, the copy inserts them
 * final): equal to a millionth.
 */
function sortedRows(rows: Record<string, unknown>[]): string {
  const value = (v: unknown) => (typeof v === 'number' && !Number.isInteger(v) ? Math.round(v * 1e6) / 1e6 : v);
  return rows.map((r) => JSON.stringify(Object.fromEntries(Object.keys(r).sort().map((k) => [k, value(r[k])])))).sort().join('\n');
}

export async function copyToPostgres(source: Db, target: Engine): Promise<CopyReport> {
  if (target.dialect !== 'postgres') throw new Error('the target of a copy is PostgreSQL');
  const derived = new Set<string>(DERIVED);
  const tables = tablesOf(source);
  const copied = tables.filter((t) => !derived.has(t));
  // One snapshot of the file for the whole copy (the service must not be writing it: the CLI holds its data lock).
  source.prepare('BEGIN').run();
  try {
    const report = await target.transaction(async (tx) => {
      const targetTables = (await sql<{ name: string }>`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'`.execute(tx)).rows.map((r) => r.name);
      const missing = tables.filter((t) => !targetTables.includes(t));
      if (missing.length) throw new CopyRefused(`the PostgreSQL database has no table ${missing.join(', ')}: is it this version's schema?`);
      for (const t of [...copied, ...DERIVED]) {
        const n = Number((await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(t)}`.execute(tx)).rows[0]!.n);
        if (n > 0) throw new CopyRefused(`the PostgreSQL database is not empty (${t} has ${n} rows): a copy goes into a new database only`);
      }
      const rows: Record<string, number> = {};
      for (const t of await dependencyOrder(tx, copied)) {
        // The ledger's receipt numbers are SQLite's implicit rowid, a column of its own on PostgreSQL.
        const select = t === 'verifications' ? 'SELECT rowid AS rowid, * FROM verifications ORDER BY rowid' : `SELECT * FROM "${t}" ORDER BY rowid`;
        let batch: Record<string, unknown>[] = [];
        let n = 0;
        const flush = async () => {
          if (batch.length === 0) return;
          await tx.insertInto(t as keyof Tables).values(batch as never).execute();
          n += batch.length;
          batch = [];
        };
        for (const row of source.prepare(select).iterate() as IterableIterator<Record<string, unknown>>) {
          batch.push(row);
          if (batch.length >= BATCH) await flush();
        }
        await flush();
        rows[t] = n;
      }
      // Identity columns continue after the copied ids.
      const identities = (await sql<{ t: string; c: string }>`
        SELECT table_name AS t, column_name AS c FROM information_schema.columns WHERE table_schema = 'public' AND is_identity = 'YES'`.execute(tx)).rows;
      for (const { t, c } of identities) {
        await sql`SELECT setval(pg_get_serial_sequence(${t}, ${c}), coalesce((SELECT max(${sql.ref(c)}) FROM ${sql.table(t)}), 0) + 1, false)`.execute(tx);
      }
      // The triggers rebuilt what they keep: it must be what the file has.
      for (const t of DERIVED) {
        const mine = sortedRows(source.prepare(`SELECT * FROM "${t}"`).all() as Record<string, unknown>[]);
        const theirs = sortedRows((await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(t)}`.execute(tx)).rows);
        if (mine !== theirs) throw new CopyRefused(`${t} differs after the copy: nothing was written`);
      }
      return { rows, derived: [...DERIVED] };
    });
    // The rollups were rewritten once per ledger row as the triggers rebuilt them (a million
    // updates of a few thousand rows): rewritten compactly, and the planner told every table's
    // size. Without it a report over a million rows read a block per rollup row.
    for (const t of DERIVED) await sql`VACUUM (FULL) ${sql.table(t)}`.execute(target.q);
    await sql`VACUUM (ANALYZE)`.execute(target.q);
    return report;
  } finally {
    source.prepare('ROLLBACK').run();
  }
}
