// The reporting API (account spec; issue 13) through the HTTP app: every endpoint's figures on
// known ledger rows, the spec's error texts with schema_version, plan limits, the credits role
// gate, organisation and environment isolation, the feature flag and the cache's honesty.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Plan } from '../../../../src-shared/catalog';
import { closeAll, testService, type OtherOrg, type TestService } from '../harness';
import { insertLedgerRows, type LedgerRow } from '../fixtures/ledger-history';
import * as fx from '../face-fixtures';
import { ORIGIN } from '../harness';
import { addDays, isoDayOf } from '../../../../src-shared/dates';

afterAll(closeAll);

interface Row {
  product: string; status: string; day: string; env?: string; key?: string | null; confidence?: number | null;
  error?: string | null; latency?: number | null; credits?: number; hits?: string | null; org?: number;
}

let seq = 0;
function insert(t: TestService, rows: Row[]): Promise<void> {
  return insertLedgerRows(t, rows.map((r) => {
    const at = `${r.day}T12:00:00.000Z`;
    return {
      id: `t_${++seq}`, org_id: r.org ?? t.orgId, api_key_id: r.key ?? null, product: r.product as LedgerRow['product'], env: (r.env ?? 'test') as LedgerRow['env'], status: r.status,
      confidence: r.confidence ?? null, credits: r.credits ?? 0, error_code: r.error ?? null, latency_ms: r.latency ?? null, created_at: at, completed_at: at, hit_categories: r.hits ?? null,
    };
  }), r0(rows).org ?? t.orgId);
}
const r0 = (rows: Row[]) => rows[0] ?? ({} as Row);

const RANGE = 'env=test&from=2026-03-02&to=2026-03-08';

let t: TestService;
let owner: string;
let other: OtherOrg;
let keyA: string;
let keyB: string;

beforeAll(async () => {
  t = await testService({ plan: 'pro' });
  owner = await t.login();
  keyA = (await t.s.keys.create({ orgId: t.orgId, plan: 'pro', name: 'Shop widget', env: 'test', scopes: ['human'], demo: false, createdBy: null })).key.id;
  keyB = (await t.s.keys.create({ orgId: t.orgId, plan: 'pro', name: 'Backend', env: 'test', scopes: ['age'], demo: false, createdBy: null })).key.id;
  other = await t.addOrg();
  await t.grant(1000);
  await insert(t, [
    { product: 'human', status: 'PASS', day: '2026-03-02', key: keyA, confidence: 90, latency: 100, credits: 1 },
    { product: 'human', status: 'FAIL', day: '2026-03-02', key: keyA, confidence: 40, error: 'no_face_detected', latency: 200, credits: 1 },
    { product: 'age', status: 'success', day: '2026-03-03', key: keyB, confidence: 80, latency: 300, credits: 10 },
    { product: 'age', status: 'failed', day: '2026-03-04', key: keyB, confidence: 60, error: 'below_minimum_age', latency: 400, credits: 10 },
    { product: 'age', status: 'id_required', day: '2026-03-04', key: keyB, confidence: 65, error: 'estimated_age_below_threshold', latency: 500 },
    { product: 'identity', status: 'PASS', day: '2026-03-05', confidence: 95, latency: 1000, credits: 30 },
    { product: 'identity', status: 'FAIL', day: '2026-03-05', error: 'document_unreadable', latency: 500 },
    { product: 'compliance', status: 'FAIL', day: '2026-03-06', key: keyA, confidence: 88, error: 'screening_hit', hits: 'pep,sanctions', latency: 1500, credits: 50 },
    { product: 'screen', status: 'completed', day: '2026-03-06', key: keyA, confidence: 20, hits: '', latency: 50, credits: 60 },
    { product: 'screen', status: 'completed', day: '2026-03-07', key: keyA, confidence: 75, error: 'screening_hit', hits: 'sanctions', latency: 60, credits: 60 },
    { product: 'screen', status: 'failed', day: '2026-03-07', key: keyA, error: 'compliance_provider_unavailable', latency: 5 },
    // The previous period (one row), the other environment and the other organisation: never in this range's figures.
    { product: 'human', status: 'PASS', day: '2026-03-01', key: keyA, confidence: 70, latency: 100 },
    { product: 'human', status: 'PASS', day: '2026-03-02', env: 'live', confidence: 10, latency: 100, credits: 1 },
    { product: 'human', status: 'FAIL', day: '2026-03-03', org: other.orgId, confidence: 5, error: 'spoof_suspected', credits: 1 },
  ]);
});

async function get<T = Record<string, unknown>>(path: string, cookie = owner) {
  return t.json<T & { data: Record<string, unknown>; meta: Record<string, unknown> }>('GET', path, { cookie });
}

describe('V1 reports: figures', () => {
  it('overview: the four products, outcome classes, pass rate over decided checks, confidence', async () => {
    const { status, body } = await get(`/api/reports/overview?${RANGE}`);
    expect(status).toBe(200);
    expect(body.schema_version).toBe('1.0');
    expect(body.data).toEqual({
      total_verifications: 8, pass_count: 3, fail_count: 3, pass_rate: 50, avg_confidence: 74,
      by_product: { human: 2, age: 3, identity: 2, compliance: 1 },
      by_status: { PASS: 3, FAIL: 3, ERROR: 1 },
      // Screenings beside the products (issue 26): three, one the provider could not do, one hit of two completed.
      screening: {
        screenings: 3, rescreenings: 0, total: 3, completed: 2, errors: 1, with_hit: 1, hit_rate: 50,
        dispositions: { cleared_false_positive: 0, escalated: 0, needs_info: 0 }, awaiting_approval: 0, decided: 0, median_time_to_decision_ms: null,
      },
    });
    expect(body.meta).toMatchObject({ from: '2026-03-02', to: '2026-03-08', env: 'test', cached: false });
    expect(new Date(body.meta.generated_at as string).toISOString()).toBe(body.meta.generated_at);
  });

  it('volume: every day present, zeros included; ISO weeks start Monday; months by their first day', async () => {
    const day = await get(`/api/reports/volume?${RANGE}`);
    expect(day.body.data).toEqual({
      series: [
        { date: '2026-03-02', total: 2, pass: 1, fail: 1 }, { date: '2026-03-03', total: 1, pass: 1, fail: 0 },
        { date: '2026-03-04', total: 2, pass: 0, fail: 1 }, { date: '2026-03-05', total: 2, pass: 1, fail: 0 },
        { date: '2026-03-06', total: 1, pass: 0, fail: 1 }, { date: '2026-03-07', total: 0, pass: 0, fail: 0 },
        { date: '2026-03-08', total: 0, pass: 0, fail: 0 },
      ],
      totals: { total: 8, pass: 3, fail: 3 },
    });
    expect(day.body.meta.granularity).toBe('day');
    const week = await get('/api/reports/volume?env=test&from=2026-03-01&to=2026-03-09&granularity=week');
    expect(week.body.data.series).toEqual([
      { date: '2026-02-23', total: 1, pass: 1, fail: 0 }, { date: '2026-03-02', total: 8, pass: 3, fail: 3 },
      { date: '2026-03-09', total: 0, pass: 0, fail: 0 },
    ]);
    expect(week.body.meta.granularity).toBe('week');
    const month = await get('/api/reports/volume?env=test&from=2026-02-20&to=2026-03-08&granularity=month');
    expect(month.body.data.series).toEqual([
      { date: '2026-02-01', total: 0, pass: 0, fail: 0 }, { date: '2026-03-01', total: 9, pass: 4, fail: 3 },
    ]);
  });

  it('usage: products with percentages, keys with names (no key = console and hosted pages), credits per operation', async () => {
    const { body } = await get(`/api/reports/usage?${RANGE}`);
    expect(body.data).toEqual({
      by_product: [
        { product: 'age', count: 3, percentage: 37.5 }, { product: 'human', count: 2, percentage: 25 },
        { product: 'identity', count: 2, percentage: 25 }, { product: 'compliance', count: 1, percentage: 12.5 },
      ],
      by_api_key: [
        { api_key_id: keyB, name: 'Backend', count: 3, pass_rate: 50 },
        { api_key_id: keyA, name: 'Shop widget', count: 3, pass_rate: 33.3 },
        { api_key_id: null, name: 'Console and hosted pages', count: 2, pass_rate: 100 },
      ],
      credits_consumed: { human: 2, age: 20, identity: 30, compliance: 50, screen: 120, rescreen: 0, total: 222 },
    });
    expect(body.meta).toMatchObject({ limit: 100, pagination: { page: 1, per_page: 10, total: 3, pages: 1 } });
  });

  it('risk summary: confidence bands, failure reasons of failed checks, average and median', async () => {
    const { body } = await get(`/api/reports/risk-summary?${RANGE}`);
    expect(body.data).toEqual({
      confidence_distribution: {
        high: { min: 85, max: 100, count: 3, percentage: 42.9 },
        medium: { min: 70, max: 84, count: 1, percentage: 14.3 },
        low: { min: 0, max: 69, count: 3, percentage: 42.9 },
      },
      failure_reasons: [
        { reason: 'below_minimum_age', count: 1, percentage: 33.3 },
        { reason: 'no_face_detected', count: 1, percentage: 33.3 },
        { reason: 'screening_hit', count: 1, percentage: 33.3 },
      ],
      avg_confidence: 74,
      median_confidence: 80,
    });
  });

  it('widget performance: per key totals, pass rate, confidence and latency', async () => {
    const { body } = await get(`/api/reports/widget-performance?${RANGE}`);
    expect(body.data.widgets).toEqual([
      { api_key_id: keyB, name: 'Backend', total: 3, pass: 1, fail: 1, pass_rate: 50, avg_confidence: 68.3, avg_latency_ms: 400 },
      { api_key_id: keyA, name: 'Shop widget', total: 3, pass: 1, fail: 2, pass_rate: 33.3, avg_confidence: 72.7, avg_latency_ms: 600 },
      { api_key_id: null, name: 'Console and hosted pages', total: 2, pass: 1, fail: 0, pass_rate: 100, avg_confidence: 95, avg_latency_ms: 750 },
    ]);
  });

  it('regulatory coverage: KYC-plus and screenings, hit rate over screened checks, hits by kind of list', async () => {
    const { body } = await get(`/api/reports/regulatory-coverage?${RANGE}`);
    expect(body.data).toEqual({
      compliance_verifications: 4, compliance_pass_rate: 33.3, hit_rate: 66.7,
      categories: [{ category: 'sanctions', hits: 2 }, { category: 'pep', hits: 1 }, { category: 'rca', hits: 0 }, { category: 'wanted', hits: 0 }],
    });
  });

  it('limits: the plan\'s, no meta', async () => {
    const { status, body } = await get('/api/reports/limits');
    expect(status).toBe(200);
    expect(body).toEqual({
      schema_version: '1.0',
      data: { plan: 'pro', max_date_range_days: 90, max_breakdown_items: 100, can_access_advanced_reports: true, can_export_reports: true },
    });
  });

  it('the other organisation sees only its own row; the live environment only its own', async () => {
    const cookie = await other.login();
    const { body } = await get(`/api/reports/overview?${RANGE}`, cookie);
    expect(body.data).toMatchObject({ total_verifications: 1, pass_count: 0, fail_count: 1, avg_confidence: 5 });
    const live = await get('/api/reports/overview?env=live&from=2026-03-02&to=2026-03-08');
    expect(live.body.data).toMatchObject({ total_verifications: 1, pass_count: 1, avg_confidence: 10 });
  });
});

describe('V2.1 reports', () => {
  it('verification: summary, score, severity, comparison, KPIs, trend, health checks (credit runway for owners)', async () => {
    const { status, body } = await get(`/api/reports/v21/verification?${RANGE}`);
    expect(status).toBe(200);
    expect(body.schema_version).toBe('2.1');
    expect(body.meta).toEqual({ from: '2026-03-02', to: '2026-03-08', env: 'test', generated_at: expect.any(String) });
    const d = body.data;
    expect(d.summary).toEqual({ total: 8, pass: 3, fail: 3, pass_rate: 50, avg_confidence: 74 });
    // 0.4 × 50 + 0.3 × 74 + 0.2 × (100 − 12.5) + 0.1 × 100 (average 562.5 ms)
    expect(d.compliance_effectiveness_score).toBe(69.7);
    expect(d.risk_severity).toEqual({
      critical: { min: 0, max: 49, count: 1, percentage: 14.3 }, high: { min: 50, max: 69, count: 2, percentage: 28.6 },
      medium: { min: 70, max: 84, count: 1, percentage: 14.3 }, low: { min: 85, max: 100, count: 3, percentage: 42.9 },
    });
    expect(d.period_comparison).toEqual({ total_delta: 7, pass_rate_delta: -50, avg_confidence_delta: 4 });
    expect(d.kpis).toEqual({ verification_volume: 8, success_rate: 42.9, avg_response_time_ms: 563, credit_efficiency: 34 });
    expect((d.daily_trend as unknown[]).length).toBe(7);
    expect((d.daily_trend as unknown[])[0]).toEqual({ date: '2026-03-02', count: 2, pass: 1, fail: 1 });
    expect(d.health_checks).toEqual([
      { check: 'traffic', status: 'ok', message: '8 verifications (previous period 1)' },
      { check: 'error_rate', status: 'critical', message: '12.5% of verifications ended in a service error' },
      { check: 'failure_rate', status: 'ok', message: 'Failure rate 50% (too little history to compare)' },
      { check: 'response_time', status: 'ok', message: 'Average response time 563 ms' },
      { check: 'low_confidence', status: 'warning', message: '14.3% of confidences are below 50' },
      { check: 'credit_runway', status: 'ok', message: 'Credits last about 31 days at this period\'s rate' },
    ]);
  });

  it('full: verification part, credits snapshot for the owner, per-key risk scores', async () => {
    const { body } = await get(`/api/reports/v21/full?${RANGE}`);
    expect(body.data.verification).toMatchObject({ summary: { total: 8 }, compliance_effectiveness_score: 69.7 });
    // 223 credits over 7 days (both environments), balance 1000.
    expect(body.data.credits).toEqual({
      available: true,
      snapshot: {
        subscription_credits: 0, prepaid_credits: 1000, total_available: 1000, consumed_this_period: 223,
        projected_monthly_usage: 956, days_until_depletion: 31,
      },
    });
    expect(body.data.widgets).toEqual([
      { api_key_id: keyB, name: 'Backend', total: 3, risk_score: 56.7 },
      { api_key_id: keyA, name: 'Shop widget', total: 3, risk_score: 53.3 },
      { api_key_id: null, name: 'Console and hosted pages', total: 2, risk_score: 0 },
    ]);
  });

  it('credits: owner, admin and a member with the billing flag see them; a plain member does not', async () => {
    const add = async (email: string, role: 'admin' | 'member', billing: boolean) => {
      await t.s.accounts.addUser({ orgId: t.orgId, email, name: email, password: 'long enough password', role, billing });
      return t.login(email, 'long enough password');
    };
    const admin = await add('admin@example.test', 'admin', false);
    const biller = await add('biller@example.test', 'member', true);
    const member = await add('member@example.test', 'member', false);
    for (const cookie of [owner, admin, biller]) {
      const { body } = await get(`/api/reports/v21/full?${RANGE}`, cookie);
      expect((body.data.credits as { available: boolean }).available).toBe(true);
    }
    const { status, body } = await get(`/api/reports/v21/full?${RANGE}`, member);
    expect(status).toBe(200);
    expect(body.data.credits).toEqual({ available: false, snapshot: null });
    // Members read every report; the credit runway check is the billing roles'.
    const v = await get(`/api/reports/v21/verification?${RANGE}`, member);
    expect((v.body.data.health_checks as { check: string }[]).map((h) => h.check)).not.toContain('credit_runway');
    expect((await get(`/api/reports/risk-summary?${RANGE}`, member)).status).toBe(200);
  });
});

describe('errors: exact texts and schema_version', () => {
  it.each([
    ['overview', 'from=2026-03-02&to=2026-03-08', 400, { error: "'env' must be 'test' or 'live'", field: 'env' }],
    ['overview', 'env=prod&from=2026-03-02&to=2026-03-08', 400, { error: "'env' must be 'test' or 'live'", field: 'env' }],
    ['overview', 'env=test&to=2026-03-08', 400, { error: "'from' date is required", field: 'from' }],
    ['overview', 'env=test&from=2026-03-02', 400, { error: "'to' date is required", field: 'to' }],
    ['overview', 'env=test&from=2026-02-30&to=2026-03-08', 400, { error: "'from' must be a date in YYYY-MM-DD format", field: 'from' }],
    ['overview', 'env=test&from=2026-03-02&to=03/08/2026', 400, { error: "'to' must be a date in YYYY-MM-DD format", field: 'to' }],
    ['overview', 'env=test&from=2026-03-09&to=2026-03-08', 400, { error: "'from' must not be after 'to'", field: 'date_range' }],
    ['overview', 'env=test&from=2026-01-01&to=2026-04-01', 400, { error: 'Date range exceeds plan limit of 90 days', field: 'date_range' }],
    ['volume', `${RANGE}&granularity=year`, 400, { error: "'granularity' must be 'day', 'week' or 'month'", field: 'granularity' }],
    ['usage', `${RANGE}&per_page=101`, 400, { error: "'per_page' must be at most 100", field: 'per_page' }],
    ['usage', `${RANGE}&limit=0`, 400, { error: "'limit' must be a positive integer", field: 'limit' }],
    ['usage', `${RANGE}&page=x`, 400, { error: "'page' must be a positive integer", field: 'page' }],
  ])('%s?%s → %i', async (report, query, status, body) => {
    const res = await get(`/api/reports/${report}?${query}`);
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ ...body, schema_version: '1.0' });
  });

  it('V2.1 errors say 2.1', async () => {
    const res = await get('/api/reports/v21/verification?env=test&to=2026-03-08');
    expect(res.body).toEqual({ error: "'from' date is required", field: 'from', schema_version: '2.1' });
  });

  it('without a session: 401 with schema_version; an API key is no session', async () => {
    const res = await t.json('GET', `/api/reports/overview?${RANGE}`);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Authentication required', schema_version: '1.0' });
    const k = await t.key();
    const v21 = await t.json('GET', `/api/reports/v21/full?${RANGE}`, { key: k.api_key });
    expect(v21.status).toBe(401);
    expect(v21.body).toEqual({ error: 'Authentication required', schema_version: '2.1' });
  });
});

describe('plan limits', () => {
  let p: TestService;
  let cookie: string;
  beforeAll(async () => {
    p = await testService({ plan: 'free' });
    cookie = await p.login();
    const keys: string[] = [];
    for (let i = 0; i < 12; i++) keys.push(
      (await p.s.keys.create({ orgId: p.orgId, plan: 'free', name: `Key ${String(i + 1).padStart(2, '0')}`, env: 'test', scopes: ['human'], demo: false, createdBy: null })).key.id);
    await insert(p, keys.flatMap((key, i) => Array.from({ length: 12 - i }, () => ({ product: 'human', status: 'PASS', day: '2026-03-02', key }))));
  });
  const ask = (path: string) => p.json<{ data: Record<string, unknown>; meta: Record<string, unknown> }>('GET', path, { cookie });

  it.each<[Plan, number, number, boolean, boolean]>([
    ['free', 7, 5, false, false], ['starter', 30, 10, false, false], ['growth', 90, 25, true, true], ['pro', 90, 100, true, true],
    ['enterprise', 90, 100, true, true],
  ])('%s: %i days, %i items, advanced %s, exports %s', async (plan, days, items, advanced, exports) => {
    await p.setPlan(plan);
    expect((await ask('/api/reports/limits')).body.data).toEqual({
      plan, max_date_range_days: days, max_breakdown_items: items, can_access_advanced_reports: advanced, can_export_reports: exports,
    });
    const to = addDays('2026-01-01', days - 1);
    expect((await ask(`/api/reports/overview?env=test&from=2026-01-01&to=${to}`)).status).toBe(200);
    const over = await ask(`/api/reports/overview?env=test&from=2026-01-01&to=${addDays(to, 1)}`);
    expect(over.status).toBe(400);
    expect(over.body).toEqual({ error: `Date range exceeds plan limit of ${days} days`, field: 'date_range', schema_version: '1.0' });
    const usage = await ask('/api/reports/usage?env=test&from=2026-03-02&to=2026-03-02&per_page=100');
    expect((usage.body.data.by_api_key as unknown[]).length).toBe(Math.min(items, 12));
    for (const report of ['risk-summary', 'widget-performance', 'regulatory-coverage']) {
      const r = await ask(`/api/reports/${report}?env=test&from=2026-03-02&to=2026-03-02`);
      if (advanced) expect(r.status).toBe(200);
      else expect([r.status, r.body]).toEqual([403, { error: 'Advanced reports require Growth plan or higher', schema_version: '1.0' }]);
    }
  });

  it('limit above the plan is clamped (meta.limit says so); page and per_page window the limited list', async () => {
    await p.setPlan('starter');
    const r = await ask('/api/reports/usage?env=test&from=2026-03-02&to=2026-03-02&limit=50&per_page=4&page=3');
    expect(r.status).toBe(200);
    expect(r.body.meta).toMatchObject({ limit: 10, pagination: { page: 3, per_page: 4, total: 10, pages: 3 } });
    expect((r.body.data.by_api_key as { name: string; count: number }[]).map((k) => [k.name, k.count])).toEqual([['Key 09', 4], ['Key 10', 3]]);
    const three = await ask('/api/reports/usage?env=test&from=2026-03-02&to=2026-03-02&limit=3');
    expect((three.body.data.by_api_key as { name: string }[]).map((k) => k.name)).toEqual(['Key 01', 'Key 02', 'Key 03']);
    const beyond = await ask('/api/reports/usage?env=test&from=2026-03-02&to=2026-03-02&page=9');
    expect(beyond.body.data.by_api_key).toEqual([]);
  });
});

describe('cache', () => {
  it('a repeated query is served from the cache; a new verification makes it recompute with the new figures; a demo key\'s is left out', async () => {
    const c = await testService({ plan: 'growth' });
    const cookie = await c.login();
    const demo = await c.key({ scopes: ['human'], demo: true });
    const today = isoDayOf(c.clock.now());
    const path = `/api/reports/overview?env=test&from=${addDays(today, -6)}&to=${today}`;
    const ask = () => c.json<{ data: { total_verifications: number }; meta: { cached: boolean; generated_at: string } }>('GET', path, { cookie });
    const first = await ask();
    expect([first.body.meta.cached, first.body.data.total_verifications]).toEqual([false, 0]);
    c.clock.advance(1000);
    const second = await ask();
    expect([second.body.meta.cached, second.body.data.total_verifications]).toEqual([true, 0]);
    expect(second.body.meta.generated_at).toBe(first.body.meta.generated_at);
    // A demo key's verification is simulated: in the ledger, left out of the figures (issue 38).
    const d = await c.app.request(`${ORIGIN}/api/verify`, { method: 'POST', body: fx.form(await fx.noFace()), headers: { 'X-API-Key': demo.api_key } });
    expect(d.status).toBe(200);
    const demoId = ((await d.json()) as { verification_id: string }).verification_id;
    expect((await c.app.request(`${ORIGIN}/api/status/${demoId}`, { headers: { 'X-API-Key': demo.api_key } })).status).toBe(200);
    expect((await ask()).body.data.total_verifications).toBe(0);
    const real = await c.key({ scopes: ['human'] });
    const v = await c.app.request(`${ORIGIN}/api/verify`, { method: 'POST', body: fx.form(await fx.noFace()), headers: { 'X-API-Key': real.api_key } });
    expect(v.status).toBe(200);
    const third = await ask();
    expect([third.body.meta.cached, third.body.data.total_verifications]).toEqual([false, 1]);
    // A different query is its own entry; the cache forgets after its time-to-live.
    expect((await c.json<{ meta: { cached: boolean } }>('GET', `${path}&limit=3`, { cookie })).body.meta.cached).toBe(false);
    c.clock.advance(31_000);
    expect((await ask()).body.meta.cached).toBe(false);
  });
});

describe('feature flag REPORTING_ENABLED', () => {
  it('off: every reporting route answers 404 with the text and schema_version; on again: answers', async () => {
    t.s.reports.flags.set({ reporting: false });
    try {
      for (const path of ['/api/reports/overview', '/api/reports/limits', '/api/reports/v21/full']) {
        const r = await get(`${path}?${RANGE}`);
        expect(r.status).toBe(404);
        expect(r.body).toEqual({ error: 'Reporting is not enabled on this installation', schema_version: path.includes('v21') ? '2.1' : '1.0' });
      }
    } finally {
      t.s.reports.flags.set({ reporting: true });
    }
    expect((await get(`/api/reports/overview?${RANGE}`)).status).toBe(200);
  });

  it('REPORT_EXPORTS_ENABLED off: limits says exports cannot be made', async () => {
    t.s.reports.flags.set({ exports: false });
    try {
      expect((await get('/api/reports/limits')).body.data).toMatchObject({ can_export_reports: false });
    } finally {
      t.s.reports.flags.set({ exports: true });
    }
    expect((await get('/api/reports/limits')).body.data).toMatchObject({ can_export_reports: true });
  });
});
