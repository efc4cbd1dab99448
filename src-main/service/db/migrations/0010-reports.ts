// Reporting (issue 13).
//
// 1. `verifications.hit_categories`: which kinds of list (sanctions, pep, rca, wanted) an
//    uncleared screening match was on, comma-separated in LIST_KINDS order; '' = screened, no
//    hit; NULL = not screened (other products, unreadable documents, provider unavailable) or
//    written before this version. A classification of the result, not subject data.
// 2. Daily rollups kept by triggers, so a report reads a few thousand rows instead of a million
//    ledger rows (measured on 1M rows: a covering index scan with GROUP BY took ~1 s, bare
//    conditional sums ~230 ms; see docs/reports.md). `report_daily` keeps status and error code
//    as written, so the one outcome mapping (core/reports/outcome.ts) stays in TypeScript.
//    `report_confidence` is a histogram of confidences (one decimal) for the median.
import type Database from 'better-sqlite3';

export const version = 10;
export const name = 'reports';

export const VERIFICATION_PRODUCTS = "('human','age','identity','compliance')";

/** The rollup key and contribution of one ledger row (R = NEW or OLD), signed by `sign`. */
export function dailyValues(r: 'NEW' | 'OLD', sign: 1 | -1): string {
  const s = sign === 1 ? '' : '-';
  return `(${r}.org_id, ${r}.env, substr(${r}.created_at, 1, 10), ${r}.product, coalesce(${r}.api_key_id, ''), ${r}.status,
    coalesce(${r}.error_code, ''), ${r}.hit_categories IS NOT NULL, coalesce(${r}.hit_categories, ''),
    ${s}1, ${s}(${r}.confidence IS NOT NULL), ${s}coalesce(${r}.confidence, 0), ${s}(${r}.latency_ms IS NOT NULL), ${s}coalesce(${r}.latency_ms, 0),
    ${s}${r}.credits,
    ${s}(${r}.confidence IS NOT NULL AND ${r}.confidence < 50),
    ${s}(${r}.confidence IS NOT NULL AND ${r}.confidence >= 50 AND ${r}.confidence < 70),
    ${s}(${r}.confidence IS NOT NULL AND ${r}.confidence >= 70 AND ${r}.confidence < 85),
    ${s}(${r}.confidence IS NOT NULL AND ${r}.confidence >= 85))`;
}

export const DAILY_UPSERT = `ON CONFLICT DO UPDATE SET
    n = n + excluded.n, conf_n = conf_n + excluded.conf_n, conf_sum = conf_sum + excluded.conf_sum,
    lat_n = lat_n + excluded.lat_n, lat_sum = lat_sum + excluded.lat_sum, credits = credits + excluded.credits,
    c_lt50 = c_lt50 + excluded.c_lt50, c_50_69 = c_50_69 + excluded.c_50_69,
    c_70_84 = c_70_84 + excluded.c_70_84, c_85_up = c_85_up + excluded.c_85_up`;

function confidenceInsert(r: 'NEW' | 'OLD', sign: 1 | -1): string {
  return `INSERT INTO report_confidence (org_id, env, day, conf10, n)
    SELECT ${r}.org_id, ${r}.env, substr(${r}.created_at, 1, 10), CAST(round(${r}.confidence * 10) AS INTEGER), ${sign}
    WHERE ${r}.confidence IS NOT NULL AND ${r}.product IN ${VERIFICATION_PRODUCTS}
    ON CONFLICT DO UPDATE SET n = n + excluded.n;`;
}

export function up(db: Database.Database): void {
  db.exec(`
    ALTER TABLE verifications ADD COLUMN hit_categories TEXT CHECK (hit_categories IS NULL OR length(hit_categories) <= 64);

    -- One row per organisation, environment, UTC day, product, key ('' = console or hosted page,
    -- no key), status, error code ('' = none) and screening result; sums of what the reports show.
    CREATE TABLE report_daily (
      org_id INTEGER NOT NULL,
      env TEXT NOT NULL,
      day TEXT NOT NULL,
      product TEXT NOT NULL,
      api_key_id TEXT NOT NULL,
      status TEXT NOT NULL,
      error_code TEXT NOT NULL,
      screened INTEGER NOT NULL,
      hits TEXT NOT NULL,
      n INTEGER NOT NULL,
      conf_n INTEGER NOT NULL,
      conf_sum REAL NOT NULL,
      lat_n INTEGER NOT NULL,
      lat_sum INTEGER NOT NULL,
      credits INTEGER NOT NULL,
      c_lt50 INTEGER NOT NULL,
      c_50_69 INTEGER NOT NULL,
      c_70_84 INTEGER NOT NULL,
      c_85_up INTEGER NOT NULL,
      PRIMARY KEY (org_id, env, day, product, api_key_id, status, error_code, screened, hits)
    ) STRICT, WITHOUT ROWID;

    -- Confidences of the verification products (not screening risk scores), per tenth of a point.
    CREATE TABLE report_confidence (
      org_id INTEGER NOT NULL,
      env TEXT NOT NULL,
      day TEXT NOT NULL,
      conf10 INTEGER NOT NULL,
      n INTEGER NOT NULL,
      PRIMARY KEY (org_id, env, day, conf10)
    ) STRICT, WITHOUT ROWID;

    INSERT INTO report_daily
      SELECT org_id, env, substr(created_at, 1, 10), product, coalesce(api_key_id, ''), status, coalesce(error_code, ''), 0, '',
        count(*), count(confidence), coalesce(sum(confidence), 0), count(latency_ms), coalesce(sum(latency_ms), 0), sum(credits),
        CAST(total(confidence < 50) AS INTEGER), CAST(total(confidence >= 50 AND confidence < 70) AS INTEGER),
        CAST(total(confidence >= 70 AND confidence < 85) AS INTEGER), CAST(total(confidence >= 85) AS INTEGER)
      FROM verifications GROUP BY 1, 2, 3, 4, 5, 6, 7;
    INSERT INTO report_confidence
      SELECT org_id, env, substr(created_at, 1, 10), CAST(round(confidence * 10) AS INTEGER), count(*)
      FROM verifications WHERE confidence IS NOT NULL AND product IN ${VERIFICATION_PRODUCTS} GROUP BY 1, 2, 3, 4;

    CREATE TRIGGER verifications_report_insert AFTER INSERT ON verifications BEGIN
      INSERT INTO report_daily VALUES ${dailyValues('NEW', 1)} ${DAILY_UPSERT};
      ${confidenceInsert('NEW', 1)}
    END;
    CREATE TRIGGER verifications_report_update
      AFTER UPDATE OF org_id, env, created_at, product, api_key_id, status, confidence, error_code, latency_ms, credits, hit_categories
      ON verifications BEGIN
      INSERT INTO report_daily VALUES ${dailyValues('OLD', -1)} ${DAILY_UPSERT};
      ${confidenceInsert('OLD', -1)}
      INSERT INTO report_daily VALUES ${dailyValues('NEW', 1)} ${DAILY_UPSERT};
      ${confidenceInsert('NEW', 1)}
    END;
    CREATE TRIGGER verifications_report_delete AFTER DELETE ON verifications BEGIN
      INSERT INTO report_daily VALUES ${dailyValues('OLD', -1)} ${DAILY_UPSERT};
      ${confidenceInsert('OLD', -1)}
    END;
  `);
}
