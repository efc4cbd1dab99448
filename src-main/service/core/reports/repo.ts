// SQL for the reports: the daily rollups (migration 0010), the confidence histogram and the key
// names. Every query is bound to one organisation.
import type { Environment } from '../../../../src-shared/catalog';
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

/** Which products a report reads. */
export const PRODUCT_SETS = {
  verifications: ['human', 'age', 'identity', 'compliance'],
  coverage: ['compliance', 'screen', 'rescreen'],
  all: null,
} as const;
export type ProductSet = keyof typeof PRODUCT_SETS;

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
  };
}
export type ReportsRepo = ReturnType<typeof reportsRepo>;
