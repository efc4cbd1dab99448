// SQL for the reports: the daily rollups (migration 0010), the confidence histogram, the key
// names and the review decisions on screenings (audit rows). Every query is bound to one
// organisation.
import type { Environment } from '../../../../src-shared/catalog';
import { COVERAGE_OPERATIONS, DECISION_ACTIONS, SCREENING_OPERATIONS, VERIFICATION_PRODUCTS, type DecisionEvent } from '../../../../src-shared/counting';
import { addDays } from '../../../../src-shared/dates';
import type { Statement } from 'better-sqlite3';
import type { Db } from '../../db/open';

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

const list = (xs: readonly string[]) => xs.map((x) => `'${x}'`).join(', ');

export function reportsRepo(db: Db) {
  // Summed in SQL over the rollup rows (tens of thousands for a million ledger rows), so only a
  // few dozen rows reach JavaScript; one prepared statement per shape.
  const grouped = new Map<string, Statement<[number, string, string, string], DailyRow>>();
  function groupedStatement(dims: readonly Dimension[], set: ProductSet) {
    const key = `${dims.join(',')}|${set}`;
    let st = grouped.get(key);
    if (!st) {
      const cols = DIMENSIONS.map((d) => (dims.includes(d) ? d : d === 'screened' ? '0 AS screened' : `'' AS ${d}`));
      const products = PRODUCT_SETS[set];
      st = db.prepare<[number, string, string, string], DailyRow>(
        `SELECT ${cols.join(', ')}, status, error_code, SUM(n) AS n, SUM(conf_n) AS conf_n, SUM(conf_sum) AS conf_sum,
           SUM(lat_n) AS lat_n, SUM(lat_sum) AS lat_sum, SUM(credits) AS credits,
           SUM(c_lt50) AS c_lt50, SUM(c_50_69) AS c_50_69, SUM(c_70_84) AS c_70_84, SUM(c_85_up) AS c_85_up
         FROM report_daily WHERE org_id = ? AND env = ? AND day >= ? AND day <= ?
           ${products ? `AND product IN (${products.map((p) => `'${p}'`).join(', ')})` : ''}
         GROUP BY ${[...dims, 'status', 'error_code'].join(', ')} HAVING SUM(n) > 0`,
      );
      grouped.set(key, st);
    }
    return st;
  }
  const s = {
    confidence: db.prepare<[number, string, string, string], { conf10: number; n: number }>(
      `SELECT conf10, SUM(n) AS n FROM report_confidence WHERE org_id = ? AND env = ? AND day >= ? AND day <= ?
       GROUP BY conf10 HAVING SUM(n) > 0 ORDER BY conf10`,
    ),
    credits: db.prepare<[number, string, string, number, string, string], { c: number }>(
      `SELECT COALESCE(SUM(credits), 0) AS c FROM report_daily
       WHERE (org_id = ? AND env = 'test' AND day >= ? AND day <= ?) OR (org_id = ? AND env = 'live' AND day >= ? AND day <= ?)`,
    ),
    keyNames: db.prepare<[number], { id: string; name: string }>('SELECT id, name FROM api_keys WHERE org_id = ?'),
    // The audit rows lead (few, by org and action); each finds its ledger row by primary key.
    // CROSS JOIN keeps that order: SQLite's planner otherwise leads with the ledger's date index
    // and reads every row of the range (190 ms at 1M rows instead of under 1 ms).
    decisions: db.prepare<[number, number, string, string, string], DecisionRow>(
      `SELECT a.screening_id AS screening_id, a.action AS action, a.disposition AS disposition, a.at AS at,
         coalesce(v.completed_at, v.created_at) AS result_at
       FROM audit_log a CROSS JOIN verifications v ON v.id = a.screening_id
       WHERE a.org_id = ? AND a.action IN (${list(DECISION_ACTIONS)})
         AND v.org_id = ? AND v.env = ? AND v.created_at >= ? AND v.created_at < ? AND v.product IN (${list(SCREENING_OPERATIONS)})
       ORDER BY a.seq`,
    ),
    auditSeq: db.prepare<[], { seq: number }>('SELECT coalesce(max(seq), 0) AS seq FROM audit_log'),
  };
  return {
    /** Rollup sums over the range, grouped by the dimensions given (others blank), status and error code. */
    daily: (orgId: number, env: Environment, from: string, to: string, dims: readonly Dimension[], set: ProductSet) =>
      groupedStatement(dims, set).all(orgId, env, from, to),
    /** Confidence histogram, ascending: value = conf10 / 10. */
    confidence: (orgId: number, env: Environment, from: string, to: string) => s.confidence.all(orgId, env, from, to),
    /** Credits charged for the ledger rows of both environments in the range. */
    creditsCharged: (orgId: number, from: string, to: string) => s.credits.get(orgId, from, to, orgId, from, to)?.c ?? 0,
    keyNames: (orgId: number) => new Map(s.keyNames.all(orgId).map((k) => [k.id, k.name])),
    /** Decisions on the screenings and rescreenings made in the range (days inclusive), in the order recorded. */
    decisions: (orgId: number, env: Environment, from: string, to: string) => s.decisions.all(orgId, orgId, env, from, addDays(to, 1)),
    /** The audit log's last sequence number: a new decision changes the screening figures. */
    auditSeq: () => s.auditSeq.get()?.seq ?? 0,
  };
}
export type ReportsRepo = ReturnType<typeof reportsRepo>;
