// SQL for the reports: the daily rollups (migration 0011), the confidence histogram and the key
// names. Every query is bound to one organisation.
import type { Environment } from '../../../../src-shared/catalog';
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

export function reportsRepo(db: Db) {
  const s = {
    daily: db.prepare<[number, string, string, string], DailyRow>(
      `SELECT day, product, api_key_id, status, error_code, screened, hits, n, conf_n, conf_sum, lat_n, lat_sum, credits,
         c_lt50, c_50_69, c_70_84, c_85_up
       FROM report_daily WHERE org_id = ? AND env = ? AND day >= ? AND day <= ? AND n > 0`,
    ),
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
    daily: (orgId: number, env: Environment, from: string, to: string) => s.daily.all(orgId, env, from, to),
    /** Confidence histogram, ascending: value = conf10 / 10. */
    confidence: (orgId: number, env: Environment, from: string, to: string) => s.confidence.all(orgId, env, from, to),
    /** Credits charged for the ledger rows of both environments in the range. */
    creditsCharged: (orgId: number, from: string, to: string) => s.credits.get(orgId, from, to, orgId, from, to)?.c ?? 0,
    keyNames: (orgId: number) => new Map(s.keyNames.all(orgId).map((k) => [k.id, k.name])),
  };
}
export type ReportsRepo = ReturnType<typeof reportsRepo>;
