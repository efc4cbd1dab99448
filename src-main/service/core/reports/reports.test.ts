// Core reporting pieces through their module interfaces: the outcome mapping, the flags, the
// rollups the triggers keep (inserts, a flow's later step, deletes, and the history generator's
// bulk path must all agree with the ledger itself), and the bundle exports are made from.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../db/open';
import { ManualClock } from '../clock';
import { createReportFlags } from './flags';
import { generateHistory } from './history';
import { outcomeOf } from '../../../../src-shared/counting';
import { sqliteEngine } from '../../db/engine';
import { createReports } from './reports';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function freshDb(): Db {
  const d = mkdtempSync(join(tmpdir(), 'cc-reports-'));
  dirs.push(d);
  const db = openDatabase(d);
  db.prepare("INSERT INTO organizations (name, plan, created_at) VALUES ('Org', 'pro', '2026-01-01T00:00:00.000Z')").run();
  db.prepare("INSERT INTO organizations (name, plan, created_at) VALUES ('Other', 'pro', '2026-01-01T00:00:00.000Z')").run();
  return db;
}

describe('outcome classes', () => {
  it.each([
    ['PASS', null, 'PASS'], ['passed', null, 'PASS'], ['success', null, 'PASS'], ['completed', null, 'PASS'],
    ['completed', 'screening_hit', 'FAIL'], ['FAIL', 'face_mismatch', 'FAIL'], ['failed', 'below_minimum_age', 'FAIL'],
    ['FAIL', 'screening_hit', 'FAIL'], ['FAIL', 'document_unreadable', 'ERROR'], ['failed', 'document_unreadable', 'ERROR'],
    ['failed', 'compliance_provider_unavailable', 'ERROR'], ['id_required', 'estimated_age_below_threshold', 'PENDING'],
    ['pending_approval', null, 'PENDING'], ['something_new', null, 'ERROR'],
  ])('%s / %s → %s', (status, code, expected) => {
    expect(outcomeOf(status, code)).toBe(expected);
  });
});

describe('flags', () => {
  it('on by default; 0, false, off, no switch them off; exports need reporting too; set pins', () => {
    expect(createReportFlags({}, {}).reportingEnabled()).toBe(true);
    expect(createReportFlags({}, {}).exportsEnabled()).toBe(true);
    for (const v of ['0', 'false', 'OFF', ' no ']) expect(createReportFlags({}, { REPORTING_ENABLED: v }).reportingEnabled()).toBe(false);
    expect(createReportFlags({}, { REPORTING_ENABLED: '1' }).reportingEnabled()).toBe(true);
    expect(createReportFlags({}, { REPORT_EXPORTS_ENABLED: 'false' }).exportsEnabled()).toBe(false);
    expect(createReportFlags({}, { REPORTING_ENABLED: 'false' }).exportsEnabled()).toBe(false);
    const f = createReportFlags({ reporting: false }, { REPORTING_ENABLED: 'true' });
    expect(f.reportingEnabled()).toBe(false);
    f.set({ reporting: true });
    expect(f.reportingEnabled()).toBe(true);
  });
});

/** The rollups rebuilt from the ledger itself: what the triggers and the generator must equal. */
function fromLedger(db: Db) {
  const daily = db.prepare(
    `SELECT org_id, env, substr(created_at, 1, 10) AS day, product, coalesce(api_key_id, '') AS k, status, coalesce(error_code, '') AS e,
       hit_categories IS NOT NULL AS screened, coalesce(hit_categories, '') AS hits, count(*) AS n, count(confidence) AS conf_n,
       round(coalesce(sum(confidence), 0), 3) AS conf_sum, count(latency_ms) AS lat_n, coalesce(sum(latency_ms), 0) AS lat_sum, sum(credits) AS credits,
       coalesce(sum(confidence < 50), 0) AS a, coalesce(sum(confidence >= 50 AND confidence < 70), 0) AS b, coalesce(sum(confidence >= 70 AND confidence < 85), 0) AS c, coalesce(sum(confidence >= 85), 0) AS d
     FROM verifications GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9`,
  ).all();
  const hist = db.prepare(
    `SELECT org_id, env, substr(created_at, 1, 10) AS day, CAST(round(confidence * 10) AS INTEGER) AS c, count(*) AS n FROM verifications
     WHERE confidence IS NOT NULL AND product IN ('human','age','identity','compliance') GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
  ).all();
  return { daily, hist };
}

function rollups(db: Db) {
  const daily = db.prepare(
    `SELECT org_id, env, day, product, api_key_id AS k, status, error_code AS e, screened, hits, n, conf_n, round(conf_sum, 3) AS conf_sum,
       lat_n, lat_sum, credits, c_lt50 AS a, c_50_69 AS b, c_70_84 AS c, c_85_up AS d
     FROM report_daily WHERE n <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9`,
  ).all();
  const hist = db.prepare('SELECT org_id, env, day, conf10 AS c, n FROM report_confidence WHERE n <> 0 ORDER BY 1, 2, 3, 4').all();
  return { daily, hist };
}

describe('rollups', () => {
  it('the triggers keep them equal to the ledger through inserts, a later step\'s update and a delete', () => {
    const db = freshDb();
    const ins = db.prepare(
      `INSERT INTO verifications (id, org_id, api_key_id, product, env, status, confidence, credits, billable, error_code, latency_ms, created_at, completed_at, hit_categories)
       VALUES (?, 1, NULL, ?, 'test', ?, ?, 0, 1, ?, 100, ?, ?, ?)`,
    );
    ins.run('a', 'age', 'id_required', 64.5, 'estimated_age_below_threshold', '2026-03-02T10:00:00.000Z', null, null);
    ins.run('b', 'human', 'PASS', 91.25, null, '2026-03-02T11:00:00.000Z', null, null);
    ins.run('c', 'screen', 'completed', 12, null, '2026-03-03T11:00:00.000Z', null, '');
    ins.run('d', 'screen', 'completed', 80, 'screening_hit', '2026-03-03T12:00:00.000Z', null, 'pep,sanctions');
    // Age step 3 moves the step-2 row out of its waiting status.
    db.prepare("UPDATE verifications SET status = 'success', confidence = 88, error_code = NULL, latency_ms = 400 WHERE id = 'a'").run();
    db.prepare("DELETE FROM verifications WHERE id = 'b'").run();
    expect(rollups(db)).toEqual(fromLedger(db));
    expect(rollups(db).daily).toHaveLength(3);
  });

  it('the history generator\'s bulk path gives the same rollups, puts the triggers back, and is deterministic', () => {
    const db = freshDb();
    db.prepare(`INSERT INTO api_keys (id, org_id, name, key_hash, secret_hash, prefix, env, scopes, created_at)
      VALUES ('key_a', 1, 'A', 'h1', 's1', 'svk-a', 'live', 'human', '2026-01-01'), ('key_b', 1, 'B', 'h2', 's2', 'svk-b', 'live', 'human', '2026-01-01')`).run();
    const end = Date.parse('2026-03-31T12:00:00.000Z');
    const r = generateHistory(db, { orgId: 1, rows: 5000, env: 'live', days: 30, endMs: end, seed: 7 });
    generateHistory(db, { orgId: 2, rows: 500, env: 'test', days: 30, endMs: end, seed: 8 });
    expect(r).toMatchObject({ from: '2026-03-02', to: '2026-03-31' });
    expect(r.rows).toBe(5000);
    // Exactly the rows asked for whichever weekday the history ends on (a test that asks for 3,000 once got 2,998).
    for (let day = 1; day <= 7; day++) {
      const other = freshDb();
      const ending = Date.parse(`2026-12-0${day}T01:20:00.000Z`);
      expect(generateHistory(other, { orgId: 1, rows: 3000, env: 'test', days: 80, endMs: ending, seed: 5 }).rows).toBe(3000);
    }
    expect(rollups(db)).toEqual(fromLedger(db));
    const triggers = db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'verifications_report_%' ORDER BY name").all();
    expect(triggers).toHaveLength(3);
    // Live history is charged like billing would: one charge per billable row, covered by a grant.
    const c = db.prepare("SELECT (SELECT COALESCE(SUM(credits), 0) FROM verifications WHERE org_id = 1) AS rows_credits, (SELECT -SUM(amount) FROM credit_entries WHERE org_id = 1 AND kind = 'charge') AS charged, (SELECT SUM(amount) FROM credit_entries WHERE org_id = 1) AS balance").get();
    expect(c).toMatchObject({ balance: 0 });
    expect((c as { rows_credits: number; charged: number }).rows_credits).toBe((c as { charged: number }).charged);
    // Test history is never charged.
    expect(db.prepare('SELECT COUNT(*) AS n FROM credit_entries WHERE org_id = 2').get()).toEqual({ n: 0 });
    // Same seed, same history.
    const again = freshDb();
    again.prepare(`INSERT INTO api_keys (id, org_id, name, key_hash, secret_hash, prefix, env, scopes, created_at)
      VALUES ('key_a', 1, 'A', 'h1', 's1', 'svk-a', 'live', 'human', '2026-01-01'), ('key_b', 1, 'B', 'h2', 's2', 'svk-b', 'live', 'human', '2026-01-01')`).run();
    generateHistory(again, { orgId: 1, rows: 5000, env: 'live', days: 30, endMs: end, seed: 7 });
    const sample = (d: Db) => d.prepare('SELECT * FROM verifications WHERE org_id = 1 ORDER BY id LIMIT 50').all();
    expect(sample(again)).toEqual(sample(db));
  });

  it('generated history reads as plausible reports (pass rates, screening hit rate, bimodal confidence)', async () => {
    const db = freshDb();
    const end = Date.parse('2026-03-31T12:00:00.000Z');
    generateHistory(db, { orgId: 1, rows: 20000, days: 90, endMs: end, seed: 3 });
    const reports = createReports(sqliteEngine(db), new ManualClock(end), { flags: createReportFlags({}, {}), balance: async () => 0 });
    const who = { orgId: 1, plan: 'pro' as const, canViewCredits: true };
    const p = { env: 'test' as const, from: '2026-01-01', to: '2026-03-31', granularity: 'week' as const, limit: 100, page: 1, perPage: 100 };
    const o = (await reports.v1<{ pass_rate: number; by_status: { ERROR: number }; total_verifications: number }>('overview', who, p)).data;
    expect(o.pass_rate).toBeGreaterThan(75);
    expect(o.pass_rate).toBeLessThan(95);
    expect(o.by_status.ERROR).toBeGreaterThan(0);
    const rc = (await reports.v1<{ hit_rate: number }>('regulatory-coverage', who, p)).data;
    expect(rc.hit_rate).toBeGreaterThan(5);
    expect(rc.hit_rate).toBeLessThan(25);
    const risk = (await reports.v1<{ confidence_distribution: { high: { count: number }; medium: { count: number }; low: { count: number } } }>('risk-summary', who, p)).data;
    const { high, medium, low } = risk.confidence_distribution;
    expect(high.count).toBeGreaterThan(medium.count);
    expect(low.count).toBeGreaterThan(medium.count / 2);
    const bundle = await reports.bundle('full-v21', who, { env: 'test', from: '2026-03-01', to: '2026-03-31' });
    expect(Object.keys(bundle).sort()).toEqual(['overview', 'regulatory_coverage', 'risk_summary', 'usage', 'v21_full', 'v21_verification', 'volume', 'widget_performance']);
    expect(Object.keys(await reports.bundle('full', { ...who, plan: 'starter' }, { env: 'test', from: '2026-03-01', to: '2026-03-30' })).sort()).toEqual(['overview', 'usage', 'volume']);
    await expect(reports.bundle('risk-summary', { ...who, plan: 'starter' }, { env: 'test', from: '2026-03-01', to: '2026-03-02' }))
      .rejects.toThrow('Advanced reports require Growth plan or higher');
    await expect(reports.bundle('overview', { ...who, plan: 'free' }, { env: 'test', from: '2026-03-01', to: '2026-03-31' }))
      .rejects.toThrow('Date range exceeds plan limit of 7 days');
    // An export's bundle lets the event loop go before each of its eight parts: other requests
    // wait for one aggregate at most, never for all of them (a synchronous bundle gives 0-1 turns).
    let turns = 0;
    let spinning = true;
    const spin = () => {
      if (!spinning) return;
      turns += 1;
      setImmediate(spin);
    };
    setImmediate(spin);
    await reports.bundle('full-v21', who, { env: 'test', from: '2026-03-01', to: '2026-03-31' });
    spinning = false;
    expect(turns).toBeGreaterThanOrEqual(7);
  });
});
