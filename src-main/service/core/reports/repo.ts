// SQL for the reports: the daily rollups (migration 0010), the confidence histogram, the key
// names and the review decisions on screenings (audit rows). Every query is bound to one
// organisation.
import type { Environment } from '../../../../src-shared/catalog';
import { COVERAGE_OPERATIONS, DECISION_ACTIONS, SCREENING_OPERATIONS, VERIFICATION_PRODUCTS, type DecisionEvent } from '../../../../src-shared/counting';
import { addDays } from '../../../../src-shared/dates';
import { sql } from 'kysely';
import type { Dialect, Q } from '../../db/engine';

export interface DailyRow {
  day: string;
  product: string;
  /** '' = no key (console or hosted page). */
  api_key_id: string;
  status: string;
  /** '' = none. */
  error_code: string;
  screened: number;
  hits: string;
  n: number;
  conf_n: number;
  conf_sum: number;
  lat_n: number;
  lat_sum: number;
  credits: number;
  c_lt50: number;
  c_50_69: number;
  c_70_84: number;
  c_85_up: number;
}

/** Dimensions a report groups by; status and error code always (the outcome mapping needs both). */
export type Dimension = 'day' | 'product' | 'api_key_id' | 'screened' | 'hits';
const DIMENSIONS: readonly Dimension[] = ['day', 'product', 'api_key_id', 'screened', 'hits'];

/** Which operations a report reads (src-shared/counting.ts). */
export const PRODUCT_SETS: Record<'verifications' | 'coverage' | 'screening' | 'all', readonly string[] | null> = {
  verifications: VERIFICATION_PRODUCTS,
  coverage: COVERAGE_OPERATIONS,
  screening: SCREENING_OPERATIONS,
  all: null,
};
export type ProductSet = keyof typeof PRODUCT_SETS;

/** One review decision on a screening of the range, with the time of the screening's result. */
export interface DecisionRow extends DecisionEvent {
  screening_id: string;
  result_at: string;
}

/** A REAL or BIGINT sum as a number (PostgreSQL's SUM of BIGINT is NUMERIC, read as a number by the engine). */
const num = (v: unknown) => Number(v ?? 0);

export function reportsRepo(dialect: Dialect) {
  return {
    /**
     * Rollup sums over the range, grouped by the dimensions given (others blank), status and error
     * code. Summed in SQL over the rollup rows (tens of thousands for a million ledger rows), so
     * only a few dozen rows reach JavaScript.
     */
    async daily(q: Q, orgId: number, env: Environment, from: string, to: string, dims: readonly Dimension[], set: ProductSet): Promise<DailyRow[]> {
      const products = PRODUCT_SETS[set];
      let query = q.selectFrom('report_daily')
        .select((e) => [
          ...DIMENSIONS.map((d) => (dims.includes(d) ? e.ref(d).as(d) : d === 'screened' ? sql<number>`0`.as(d) : sql<string>`''`.as(d))),
          'status', 'error_code',
          e.fn.sum<number>('n').as('n'), e.fn.sum<number>('conf_n').as('conf_n'), e.fn.sum<number>('conf_sum').as('conf_sum'),
          e.fn.sum<number>('lat_n').as('lat_n'), e.fn.sum<number>('lat_sum').as('lat_sum'), e.fn.sum<number>('credits').as('credits'),
          e.fn.sum<number>('c_lt50').as('c_lt50'), e.fn.sum<number>('c_50_69').as('c_50_69'), e.fn.sum<number>('c_70_84').as('c_70_84'), e.fn.sum<number>('c_85_up').as('c_85_up'),
        ])
        .where('org_id', '=', orgId).where('env', '=', env).where('day', '>=', from).where('day', '<=', to);
      if (products) query = query.where('product', 'in', products);
      const rows = await query.groupBy([...dims, 'status', 'error_code']).having((e) => e.fn.sum('n'), '>', 0).execute();
      return rows.map((r) => ({
        day: String(r.day), product: String(r.product), api_key_id: String(r.api_key_id), status: r.status, error_code: r.error_code, screened: num(r.screened), hits: String(r.hits),
        n: num(r.n), conf_n: num(r.conf_n), conf_sum: num(r.conf_sum), lat_n: num(r.lat_n), lat_sum: num(r.lat_sum), credits: num(r.credits),
        c_lt50: num(r.c_lt50), c_50_69: num(r.c_50_69), c_70_84: num(r.c_70_84), c_85_up: num(r.c_85_up),
      }));
    },
    /** Confidence histogram, ascending: value = conf10 / 10. */
    async confidence(q: Q, orgId: number, env: Environment, from: string, to: string): Promise<{ conf10: number; n: number }[]> {
      const rows = await q.selectFrom('report_confidence').select((e) => ['conf10', e.fn.sum<number>('n').as('n')])
        .where('org_id', '=', orgId).where('env', '=', env).where('day', '>=', from).where('day', '<=', to)
        .groupBy('conf10').having((e) => e.fn.sum('n'), '>', 0).orderBy('conf10').execute();
      return rows.map((r) => ({ conf10: num(r.conf10), n: num(r.n) }));
    },
    /** Credits charged for the ledger rows of both environments in the range. */
    async creditsCharged(q: Q, orgId: number, from: string, to: string): Promise<number> {
      const r = await q.selectFrom('report_daily').select((e) => e.fn.coalesce(e.fn.sum<number>('credits'), sql<number>`0`).as('c'))
        .where('org_id', '=', orgId).where('env', 'in', ['test', 'live']).where('day', '>=', from).where('day', '<=', to).executeTakeFirst();
      return num(r?.c);
    },
    async keyNames(q: Q, orgId: number): Promise<Map<string, string>> {
      return new Map((await q.selectFrom('api_keys').select(['id', 'name']).where('org_id', '=', orgId).execute()).map((k) => [k.id, k.name]));
    },
    /**
     * Decisions on the screenings and rescreenings made in the range (days inclusive), in the order
     * recorded. The audit rows lead (few, by org and action); each finds its ledger row by primary
     * key. On SQLite a CROSS JOIN keeps that order (its planner otherwise leads with the ledger's
     * date index and reads every row of the range: 190 ms at 1M rows instead of under 1 ms);
     * PostgreSQL's planner needs no such hint.
     */
    decisions: (q: Q, orgId: number, env: Environment, from: string, to: string): Promise<DecisionRow[]> =>
      sql<DecisionRow>`SELECT a.screening_id AS screening_id, a.action AS action, a.disposition AS disposition, a.at AS at,
          coalesce(v.completed_at, v.created_at) AS result_at
        FROM audit_log a ${sql.raw(dialect === 'sqlite' ? 'CROSS JOIN' : 'JOIN')} verifications v ON v.id = a.screening_id
        WHERE a.org_id = ${orgId} AND a.action IN (${sql.join([...DECISION_ACTIONS])})
          AND v.org_id = ${orgId} AND v.env = ${env} AND v.created_at >= ${from} AND v.created_at < ${addDays(to, 1)}
          AND v.product IN (${sql.join([...SCREENING_OPERATIONS])})
        ORDER BY a.seq`.execute(q).then((r) => r.rows),
    /** The audit log's last sequence number: a new decision changes the screening figures. */
    async auditSeq(q: Q): Promise<number> {
      return num((await q.selectFrom('audit_log').select((e) => e.fn.max('seq').as('seq')).executeTakeFirst())?.seq);
    },
    /**
     * A number that changes when another connection (the CLI, another process) wrote the database:
     * SQLite's data_version. PostgreSQL has none to ask cheaply: null (figures cached there are
     * replaced by this instance's own writes and by their age).
     */
    async dataVersion(q: Q): Promise<number | null> {
      if (dialect !== 'sqlite') return null;
      return num((await sql<{ data_version: number }>`PRAGMA data_version`.execute(q)).rows[0]?.data_version);
    },
  };
}
export type ReportsRepo = ReturnType<typeof reportsRepo>;
