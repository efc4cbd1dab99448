// Reports leave demo-key traffic out (issue 38): a demo key's answers are simulated, so its ledger
// rows stay in the ledger (each is a call that was made, and `GET /api/status/:id` answers
// it) but not in the figures. The rollups 0010 keeps by trigger skip rows whose key is a demo key
// (a key's `demo` never changes after it is made), and are rebuilt once from the ledger without
// them (which also gives rows written before 0010 their screening result).
import type Database from 'better-sqlite3';
import { DAILY_UPSERT, dailyValues, VERIFICATION_PRODUCTS } from './0010-reports';

export const version = 25;
export const name = 'reports-without-demo';

/** The ledger row `r` (NEW, OLD or a table alias) is not a demo key's. */
const notDemo = (r: string) => `NOT EXISTS (SELECT 1 FROM api_keys k WHERE k.id = ${r}.api_key_id AND k.demo = 1)`;

/** 0010's rollup of one ledger row, for rows that are not a demo key's. */
function rollup(r: 'NEW' | 'OLD', sign: 1 | -1): string {
  return `INSERT INTO report_daily SELECT * FROM (VALUES ${dailyValues(r, sign)}) WHERE ${notDemo(r)} ${DAILY_UPSERT};
    INSERT INTO report_confidence (org_id, env, day, conf10, n)
    SELECT ${r}.org_id, ${r}.env, substr(${r}.created_at, 1, 10), CAST(round(${r}.confidence * 10) AS INTEGER), ${sign}
    WHERE ${r}.confidence IS NOT NULL AND ${r}.product IN ${VERIFICATION_PRODUCTS} AND ${notDemo(r)}
    ON CONFLICT DO UPDATE SET n = n + excluded.n;`;
}

export function up(db: Database.Database): void {
  db.exec(`
    DROP TRIGGER verifications_report_insert;
    DROP TRIGGER verifications_report_update;
    DROP TRIGGER verifications_report_delete;

    DELETE FROM report_daily;
    DELETE FROM report_confidence;
    INSERT INTO report_daily
      SELECT org_id, env, substr(created_at, 1, 10), product, coalesce(api_key_id, ''), status, coalesce(error_code, ''),
        hit_categories IS NOT NULL, coalesce(hit_categories, ''),
        count(*), count(confidence), coalesce(sum(confidence), 0), count(latency_ms), coalesce(sum(latency_ms), 0), sum(credits),
        CAST(total(confidence < 50) AS INTEGER), CAST(total(confidence >= 50 AND confidence < 70) AS INTEGER),
        CAST(total(confidence >= 70 AND confidence < 85) AS INTEGER), CAST(total(confidence >= 85) AS INTEGER)
      FROM verifications v
      WHERE ${notDemo('v')}
      GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9;
    INSERT INTO report_confidence
      SELECT org_id, env, substr(created_at, 1, 10), CAST(round(confidence * 10) AS INTEGER), count(*)
      FROM verifications v
      WHERE confidence IS NOT NULL AND product IN ${VERIFICATION_PRODUCTS}
        AND ${notDemo('v')}
      GROUP BY 1, 2, 3, 4;

    CREATE TRIGGER verifications_report_insert AFTER INSERT ON verifications BEGIN
      ${rollup('NEW', 1)}
    END;
    CREATE TRIGGER verifications_report_update
      AFTER UPDATE OF org_id, env, created_at, product, api_key_id, status, confidence, error_code, latency_ms, credits, hit_categories
      ON verifications BEGIN
      ${rollup('OLD', -1)}
      ${rollup('NEW', 1)}
    END;
    CREATE TRIGGER verifications_report_delete AFTER DELETE ON verifications BEGIN
      ${rollup('OLD', -1)}
    END;
  `);
}
