// The reporting API's figures (account spec, V1 and V2.1 data shapes; issue 13): aggregates of
// one organisation's ledger rows in one environment over an inclusive range of UTC days, read
// from the daily rollups. What is counted (which rows are verifications, screening checks,
// coverage; outcome classes; rates) is src-shared/counting.ts, which the exports and the console
// use too; the score, health checks, KPIs, risk score and pages are in docs/reports.md.
// "Verifications" are the four products; screenings (screen, rescreen) have figures of their own
// in the overview (`screening`) and count in regulatory coverage and credits: their `confidence`
// column holds a risk score, which is no verification confidence.
import { planIncludes } from '../../../../src-shared/policy';
import { BILLABLE, PLAN_INFO, type Environment, type Plan, type Product } from '../../../../src-shared/catalog';
import {
  ADVANCED_REPORTS, REPORT_PAGE, type Band, type CreditsSnapshot, type HealthCheck, type Limits, type Overview,
  type RegulatoryCoverage, type ReportBundle, type ReportPagination, type ReportType, type RiskSeverity, type RiskSummary,
  type ScreeningFigures, type Summary, type Usage, type V1Report, type V21Full, type V21Verification, type Volume, type VolumePoint, type WidgetPerformance,
} from '../../../../src-shared/contracts/reports';
import { LIST_KINDS } from '../../../../src-shared/contracts/screening';
import { AppError } from '../../../../src-shared/errors';
import type { Engine } from '../../db/engine';
import type { Clock } from '../clock';
import type { ReportFlagSwitch } from './flags';
import {
  emptyDispositions, median as middle, outcomeOf, passRate as passShare, rate, round1, SCREENING_OPERATIONS, standingDecision, VERIFICATION_PRODUCTS as COUNTED,
  type DecisionEvent,
} from '../../../../src-shared/counting';
import { addDays, daysInclusive, mondayOf } from '../../../../src-shared/dates';
import { checkRange, type ReportParams, type SchemaVersion } from './params';
import { reportsRepo, type DailyRow, type Dimension } from './repo';

/** Who asks: the organisation, its plan, and whether the caller may see credits (owner, admin, billing flag). */
export interface Who {
  orgId: number;
  plan: Plan;
  canViewCredits: boolean;
}

/** A report's figures, with the page of its breakdown list when it has one. */
export interface Computed<T> {
  data: T;
  pagination?: ReportPagination;
}

export interface CachedResult<T> extends Computed<T> {
  cached: boolean;
  generatedAt: string;
}

/** The data of each V1 report. */
export interface V1Data {
  overview: Overview;
  volume: Volume;
  usage: Usage;
  'risk-summary': RiskSummary;
  'widget-performance': WidgetPerformance;
  'regulatory-coverage': RegulatoryCoverage;
}

/** The name shown for ledger rows made without an API key. */
export const CONSOLE_KEY_NAME = 'Console and hosted pages';
/** V1 aggregates are kept this long unless the organisation's ledger changes first. */
export const CACHE_TTL_MS = 30_000;
const CACHE_MAX = 500;

const VERIFICATION_PRODUCTS: ReadonlySet<string> = new Set(COUNTED);

const pct = rate;

interface Agg {
  total: number; PASS: number; FAIL: number; ERROR: number; PENDING: number;
  confN: number; confSum: number; latN: number; latSum: number; credits: number;
  lt50: number; b50: number; b70: number; b85: number;
}

function emptyAgg(): Agg {
  return { total: 0, PASS: 0, FAIL: 0, ERROR: 0, PENDING: 0, confN: 0, confSum: 0, latN: 0, latSum: 0, credits: 0, lt50: 0, b50: 0, b70: 0, b85: 0 };
}

function add(a: Agg, r: DailyRow): Agg {
  a.total += r.n;
  a[outcomeOf(r.status, r.error_code || null)] += r.n;
  a.confN += r.conf_n;
  a.confSum += r.conf_sum;
  a.latN += r.lat_n;
  a.latSum += r.lat_sum;
  a.credits += r.credits;
  a.lt50 += r.c_lt50;
  a.b50 += r.c_50_69;
  a.b70 += r.c_70_84;
  a.b85 += r.c_85_up;
  return a;
}

const aggOf = (rows: readonly DailyRow[]) => rows.reduce(add, emptyAgg());
const passRate = (a: Agg) => passShare(a.PASS, a.FAIL);
const avgConfidence = (a: Agg) => (a.confN > 0 ? round1(a.confSum / a.confN) : null);
const avgLatency = (a: Agg) => (a.latN > 0 ? Math.round(a.latSum / a.latN) : null);

function groupBy<K>(rows: readonly DailyRow[], key: (r: DailyRow) => K): Map<K, Agg> {
  const out = new Map<K, Agg>();
  for (const r of rows) {
    const k = key(r);
    const a = out.get(k) ?? emptyAgg();
    out.set(k, add(a, r));
  }
  return out;
}

function band(min: number, max: number, count: number, whole: number): Band {
  return { min, max, count, percentage: pct(count, whole) };
}

/** The breakdown rule: ranked items, cut to the limit, then the page asked for. */
function paginate<T>(ranked: readonly T[], p: Pick<ReportParams, 'limit' | 'page' | 'perPage'>): { items: T[]; pagination: ReportPagination } {
  const limited = ranked.slice(0, p.limit);
  const start = (p.page - 1) * p.perPage;
  return {
    items: limited.slice(start, start + p.perPage),
    pagination: { page: p.page, per_page: p.perPage, total: limited.length, pages: Math.max(1, Math.ceil(limited.length / p.perPage)) },
  };
}

/** The effectiveness score and its parts (docs/reports.md, "Compliance effectiveness score"). */
export function effectivenessScore(a: Agg): number {
  if (a.total === 0) return 0;
  const parts: [number, number][] = [];
  if (a.PASS + a.FAIL > 0) parts.push([0.4, (a.PASS / (a.PASS + a.FAIL)) * 100]);
  if (a.confN > 0) parts.push([0.3, a.confSum / a.confN]);
  parts.push([0.2, 100 - (a.ERROR / a.total) * 100]);
  const latency = a.latN > 0 ? a.latSum / a.latN : null;
  if (latency !== null) parts.push([0.1, Math.min(100, Math.max(0, ((10_000 - latency) / 9_000) * 100))]);
  const weight = parts.reduce((s, [w]) => s + w, 0);
  return round1(parts.reduce((s, [w, v]) => s + w * v, 0) / weight);
}

/** A key's risk score: 0.6 × failure rate + 0.4 × share of confidences below 70 (docs/reports.md). */
export function riskScore(a: Agg): number {
  const failRate = a.PASS + a.FAIL > 0 ? (a.FAIL / (a.PASS + a.FAIL)) * 100 : 0;
  const lowShare = a.confN > 0 ? ((a.lt50 + a.b50) / a.confN) * 100 : 0;
  return round1(0.6 * failRate + 0.4 * lowShare);
}

function bucketOf(day: string, granularity: ReportParams['granularity']): string {
  if (granularity === 'day') return day;
  if (granularity === 'month') return `${day.slice(0, 7)}-01`;
  return mondayOf(day); // ISO weeks start on Monday
}

/** Every bucket of the range, in order, including empty ones. */
function bucketsOf(from: string, to: string, granularity: ReportParams['granularity']): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) {
    const b = bucketOf(d, granularity);
    if (out[out.length - 1] !== b) out.push(b);
  }
  return out;
}

function series(rows: readonly DailyRow[], from: string, to: string, granularity: ReportParams['granularity']): VolumePoint[] {
  const by = groupBy(rows, (r) => bucketOf(r.day, granularity));
  return bucketsOf(from, to, granularity).map((date) => {
    const a = by.get(date);
    return { date, total: a?.total ?? 0, pass: a?.PASS ?? 0, fail: a?.FAIL ?? 0 };
  });
}

export interface ReportsDeps {
  flags: ReportFlagSwitch;
  /** The organisation's credit balance (all environments). */
  balance(orgId: number): Promise<number>;
}

/** Where each V1 report goes in an export's bundle. */
const BUNDLE_KEY: Record<V1Report, keyof ReportBundle> = {
  overview: 'overview', volume: 'volume', usage: 'usage', 'risk-summary': 'risk_summary',
  'widget-performance': 'widget_performance', 'regulatory-coverage': 'regulatory_coverage',
};

export function createReports(engine: Engine, clock: Clock, deps: ReportsDeps) {
  const repo = reportsRepo(engine.dialect);
  const { q } = engine;
  const versions = new Map<number, number>();
  const cache = new Map<string, { value: Computed<unknown>; at: number; version: number; dataVersion: number | null; auditSeq: number; generatedAt: string }>();

  const verificationRows = (who: Who, p: Pick<ReportParams, 'env' | 'from' | 'to'>, dims: readonly Dimension[]) =>
    repo.daily(q, who.orgId, p.env, p.from, p.to, dims, 'verifications');

  function keyName(names: Map<string, string>, id: string): string {
    return id === '' ? CONSOLE_KEY_NAME : (names.get(id) ?? id);
  }

  async function median(who: Who, p: Pick<ReportParams, 'env' | 'from' | 'to'>): Promise<number | null> {
    const hist = await repo.confidence(q, who.orgId, p.env, p.from, p.to);
    const n = hist.reduce((s, h) => s + h.n, 0);
    if (n === 0) return null;
    const at = (pos: number) => {
      let seen = 0;
      for (const h of hist) {
        seen += h.n;
        if (seen >= pos) return h.conf10 / 10;
      }
      return hist[hist.length - 1]!.conf10 / 10;
    };
    return n % 2 === 1 ? at((n + 1) / 2) : round1((at(n / 2) + at(n / 2 + 1)) / 2);
  }

  /** The screening checks of the range: volume, hits, and the decisions on them (src-shared/counting.ts). */
  async function screening(who: Who, p: Pick<ReportParams, 'env' | 'from' | 'to'>): Promise<ScreeningFigures> {
    const rows = await repo.daily(q, who.orgId, p.env, p.from, p.to, ['product', 'screened', 'hits'], 'screening');
    const by = Object.fromEntries(SCREENING_OPERATIONS.map((o) => [o, 0])) as Record<(typeof SCREENING_OPERATIONS)[number], number>;
    let completed = 0;
    let withHit = 0;
    let errors = 0;
    for (const r of rows) {
      by[r.product as keyof typeof by] += r.n;
      if (r.screened) completed += r.n;
      if (r.screened && r.hits) withHit += r.n;
      if (outcomeOf(r.status, r.error_code || null) === 'ERROR') errors += r.n;
    }
    const events = new Map<string, { resultAt: string; events: DecisionEvent[] }>();
    for (const d of await repo.decisions(q, who.orgId, p.env, p.from, p.to)) {
      const e = events.get(d.screening_id) ?? { resultAt: d.result_at, events: [] };
      e.events.push({ action: d.action, disposition: d.disposition, at: d.at });
      events.set(d.screening_id, e);
    }
    const dispositions = emptyDispositions();
    let awaiting = 0;
    const waits: number[] = [];
    for (const { resultAt, events: list } of events.values()) {
      const standing = standingDecision(list);
      if (standing.awaiting) awaiting++;
      if (standing.disposition === null) continue;
      dispositions[standing.disposition]++;
      if (standing.firstDecidedAt) waits.push(Math.max(0, Date.parse(standing.firstDecidedAt) - Date.parse(resultAt)));
    }
    const mid = middle(waits);
    return {
      screenings: by.screen, rescreenings: by.rescreen, total: by.screen + by.rescreen, completed, errors, with_hit: withHit,
      hit_rate: pct(withHit, completed), dispositions, awaiting_approval: awaiting, decided: Object.values(dispositions).reduce((x, y) => x + y, 0),
      median_time_to_decision_ms: mid === null ? null : Math.round(mid),
    };
  }

  const v1 = {
    async overview(who: Who, p: ReportParams): Promise<Computed<Overview>> {
      const rows = await verificationRows(who, p, ['product']);
      const a = aggOf(rows);
      const byProduct = groupBy(rows, (r) => r.product);
      return {
        data: {
          total_verifications: a.total, pass_count: a.PASS, fail_count: a.FAIL, pass_rate: passRate(a), avg_confidence: avgConfidence(a),
          by_product: Object.fromEntries(COUNTED.map((x) => [x, byProduct.get(x)?.total ?? 0])) as Record<Product, number>,
          by_status: { PASS: a.PASS, FAIL: a.FAIL, ERROR: a.ERROR },
          screening: await screening(who, p),
        },
      };
    },

    async volume(who: Who, p: ReportParams): Promise<Computed<Volume>> {
      const rows = await verificationRows(who, p, ['day']);
      const a = aggOf(rows);
      return { data: { series: series(rows, p.from, p.to, p.granularity), totals: { total: a.total, pass: a.PASS, fail: a.FAIL } } };
    },

    async usage(who: Who, p: ReportParams): Promise<Computed<Usage>> {
      const all = await repo.daily(q, who.orgId, p.env, p.from, p.to, ['product', 'api_key_id'], 'all');
      const rows = all.filter((r) => VERIFICATION_PRODUCTS.has(r.product));
      const total = aggOf(rows).total;
      const byProduct = groupBy(rows, (r) => r.product);
      const names = await repo.keyNames(q, who.orgId);
      const byKey = [...groupBy(rows, (r) => r.api_key_id)]
        .map(([id, a]) => ({ api_key_id: id === '' ? null : id, name: keyName(names, id), count: a.total, pass_rate: passRate(a) }))
        .sort((x, y) => y.count - x.count || x.name.localeCompare(y.name));
      const page = paginate(byKey, p);
      const credits = groupBy(all, (r) => r.product);
      const consumed: Record<string, number> = Object.fromEntries(BILLABLE.map((b) => [b, credits.get(b)?.credits ?? 0]));
      consumed.total = BILLABLE.reduce((s, b) => s + consumed[b]!, 0);
      return {
        data: {
          by_product: COUNTED.map((x) => ({ product: x, count: byProduct.get(x)?.total ?? 0, percentage: pct(byProduct.get(x)?.total ?? 0, total) }))
            .sort((x, y) => y.count - x.count),
          by_api_key: page.items,
          credits_consumed: consumed,
        },
        pagination: page.pagination,
      };
    },

    async 'risk-summary'(who: Who, p: ReportParams): Promise<Computed<RiskSummary>> {
      const rows = await verificationRows(who, p, []);
      const a = aggOf(rows);
      const failed = rows.filter((r) => outcomeOf(r.status, r.error_code || null) === 'FAIL');
      const reasons = [...groupBy(failed, (r) => r.error_code || 'unspecified')]
        .map(([reason, x]) => ({ reason, count: x.total, percentage: pct(x.total, a.FAIL) }))
        .sort((x, y) => y.count - x.count || x.reason.localeCompare(y.reason));
      const page = paginate(reasons, p);
      return {
        data: {
          confidence_distribution: {
            high: band(85, 100, a.b85, a.confN), medium: band(70, 84, a.b70, a.confN), low: band(0, 69, a.lt50 + a.b50, a.confN),
          },
          failure_reasons: page.items,
          avg_confidence: avgConfidence(a),
          median_confidence: await median(who, p),
        },
        pagination: page.pagination,
      };
    },

    async 'widget-performance'(who: Who, p: ReportParams): Promise<Computed<WidgetPerformance>> {
      const names = await repo.keyNames(q, who.orgId);
      const widgets = [...groupBy(await verificationRows(who, p, ['api_key_id']), (r) => r.api_key_id)]
        .map(([id, a]) => ({
          api_key_id: id === '' ? null : id, name: keyName(names, id), total: a.total, pass: a.PASS, fail: a.FAIL,
          pass_rate: passRate(a), avg_confidence: avgConfidence(a), avg_latency_ms: avgLatency(a),
        }))
        .sort((x, y) => y.total - x.total || x.name.localeCompare(y.name));
      const page = paginate(widgets, p);
      return { data: { widgets: page.items }, pagination: page.pagination };
    },

    async 'regulatory-coverage'(who: Who, p: ReportParams): Promise<Computed<RegulatoryCoverage>> {
      const rows = await repo.daily(q, who.orgId, p.env, p.from, p.to, ['screened', 'hits'], 'coverage');
      const a = aggOf(rows);
      let screened = 0;
      let withHit = 0;
      const hits = new Map<string, number>(LIST_KINDS.map((k) => [k, 0]));
      for (const r of rows) {
        if (!r.screened) continue;
        screened += r.n;
        if (!r.hits) continue;
        withHit += r.n;
        for (const k of r.hits.split(',')) hits.set(k, (hits.get(k) ?? 0) + r.n);
      }
      const categories = [...hits].map(([category, n]) => ({ category, hits: n }))
        .sort((x, y) => y.hits - x.hits || LIST_KINDS.indexOf(x.category as never) - LIST_KINDS.indexOf(y.category as never));
      const page = paginate(categories, p);
      return {
        data: { compliance_verifications: a.total, compliance_pass_rate: passRate(a), hit_rate: pct(withHit, screened), categories: page.items },
        pagination: page.pagination,
      };
    },
  } satisfies Record<V1Report, (who: Who, p: ReportParams) => Promise<Computed<unknown>>>;

  async function creditsSnapshot(who: Who, p: Pick<ReportParams, 'from' | 'to'>): Promise<CreditsSnapshot> {
    const balance = await deps.balance(who.orgId);
    const consumed = await repo.creditsCharged(q, who.orgId, p.from, p.to);
    const perDay = consumed / daysInclusive(p.from, p.to);
    return {
      // The catalogue gives no plan a monthly allowance: every credit was granted (prepaid).
      subscription_credits: 0,
      prepaid_credits: Math.max(0, balance),
      total_available: Math.max(0, balance),
      consumed_this_period: consumed,
      projected_monthly_usage: Math.round(perDay * 30),
      days_until_depletion: perDay > 0 ? Math.floor(Math.max(0, balance) / perDay) : null,
    };
  }

  function healthChecks(a: Agg, prev: Agg, credits: CreditsSnapshot | null): HealthCheck[] {
    const out: HealthCheck[] = [];
    // Traffic
    if (a.total === 0) out.push({ check: 'traffic', status: 'warning', message: 'No verifications in this period' });
    else if (prev.total >= 20 && a.total < prev.total / 2) {
      out.push({ check: 'traffic', status: 'warning', message: `Volume fell ${pct(prev.total - a.total, prev.total)}% against the previous period` });
    } else out.push({ check: 'traffic', status: 'ok', message: `${a.total} verifications (previous period ${prev.total})` });
    // Service errors
    const errorRate = pct(a.ERROR, a.total);
    out.push({
      check: 'error_rate', status: errorRate >= 5 ? 'critical' : errorRate >= 2 ? 'warning' : 'ok',
      message: a.total === 0 ? 'No verifications to judge' : `${errorRate}% of verifications ended in a service error`,
    });
    // Failure rate against the previous period
    const failNow = pct(a.FAIL, a.PASS + a.FAIL);
    const failBefore = pct(prev.FAIL, prev.PASS + prev.FAIL);
    const comparable = prev.PASS + prev.FAIL >= 20 && a.PASS + a.FAIL > 0;
    const rise = round1(failNow - failBefore);
    out.push({
      check: 'failure_rate', status: comparable && rise >= 15 ? 'critical' : comparable && rise >= 5 ? 'warning' : 'ok',
      message: comparable ? `Failure rate ${failNow}% (previous period ${failBefore}%)` : `Failure rate ${failNow}% (too little history to compare)`,
    });
    // Response time
    const latency = avgLatency(a);
    out.push({
      check: 'response_time', status: latency === null ? 'ok' : latency >= 8000 ? 'critical' : latency >= 3000 ? 'warning' : 'ok',
      message: latency === null ? 'No timings in this period' : `Average response time ${latency} ms`,
    });
    // Low confidence
    const low = pct(a.lt50, a.confN);
    out.push({
      check: 'low_confidence', status: low > 25 ? 'critical' : low > 10 ? 'warning' : 'ok',
      message: a.confN === 0 ? 'No confidences in this period' : `${low}% of confidences are below 50`,
    });
    // Credit runway: only for callers who may see credits.
    if (credits) {
      const days = credits.days_until_depletion;
      const status = days === null ? 'ok' : days < 7 ? 'critical' : days < 30 ? 'warning' : 'ok';
      out.push({
        check: 'credit_runway', status,
        message: days === null ? 'No credits consumed in this period' : `Credits last about ${days} days at this period's rate`,
      });
    }
    return out;
  }

  async function verificationCore(who: Who, p: Pick<ReportParams, 'env' | 'from' | 'to'>, dims: readonly Dimension[]) {
    const rows = await verificationRows(who, p, dims);
    const a = aggOf(rows);
    const summary: Summary = { total: a.total, pass: a.PASS, fail: a.FAIL, pass_rate: passRate(a), avg_confidence: avgConfidence(a) };
    const severity: RiskSeverity = {
      critical: band(0, 49, a.lt50, a.confN), high: band(50, 69, a.b50, a.confN), medium: band(70, 84, a.b70, a.confN), low: band(85, 100, a.b85, a.confN),
    };
    return { rows, a, summary, score: effectivenessScore(a), severity };
  }

  const v21 = {
    async verification(who: Who, p: ReportParams): Promise<Computed<V21Verification>> {
      const { rows, a, summary, score, severity } = await verificationCore(who, p, ['day']);
      const len = daysInclusive(p.from, p.to);
      const prev = aggOf(await verificationRows(who, { env: p.env, from: addDays(p.from, -len), to: addDays(p.from, -1) }, []));
      const prevConfidence = avgConfidence(prev);
      const confidence = avgConfidence(a);
      const credits = who.canViewCredits ? await creditsSnapshot(who, p) : null;
      return {
        data: {
          summary, compliance_effectiveness_score: score, risk_severity: severity,
          period_comparison: {
            total_delta: a.total - prev.total,
            pass_rate_delta: round1(passRate(a) - passRate(prev)),
            avg_confidence_delta: confidence !== null && prevConfidence !== null ? round1(confidence - prevConfidence) : null,
          },
          kpis: {
            verification_volume: a.total,
            success_rate: pct(a.PASS, a.PASS + a.FAIL + a.ERROR),
            avg_response_time_ms: avgLatency(a),
            credit_efficiency: a.PASS > 0 ? round1(a.credits / a.PASS) : null,
          },
          daily_trend: series(rows, p.from, p.to, 'day').map((x) => ({ date: x.date, count: x.total, pass: x.pass, fail: x.fail })),
          health_checks: healthChecks(a, prev, credits),
        },
      };
    },

    async full(who: Who, p: ReportParams): Promise<Computed<V21Full>> {
      const { rows, summary, score, severity } = await verificationCore(who, p, ['api_key_id']);
      const names = await repo.keyNames(q, who.orgId);
      const widgets = [...groupBy(rows, (r) => r.api_key_id)]
        .map(([id, x]) => ({ api_key_id: id === '' ? null : id, name: keyName(names, id), total: x.total, risk_score: riskScore(x) }))
        .sort((x, y) => y.total - x.total || x.name.localeCompare(y.name));
      const page = paginate(widgets, p);
      return {
        data: {
          verification: { summary, compliance_effectiveness_score: score, risk_severity: severity },
          credits: who.canViewCredits ? { available: true, snapshot: await creditsSnapshot(who, p) } : { available: false, snapshot: null },
          widgets: page.items,
        },
        pagination: page.pagination,
      };
    },
  };

  /** V1 figures through the cache: `cached` says whether they were computed for an earlier request. */
  async function cachedV1<T>(report: V1Report, who: Who, p: ReportParams): Promise<CachedResult<T>> {
    const key = [who.orgId, p.env, report, p.from, p.to, p.granularity, p.limit, p.page, p.perPage].join('|');
    const now = clock.now();
    const version = versions.get(who.orgId) ?? 0;
    const dv = await repo.dataVersion(q);
    // The overview's screening figures read review decisions (audit rows): a new one is a change.
    const seq = report === 'overview' ? await repo.auditSeq(q) : 0;
    const hit = cache.get(key);
    if (hit && hit.version === version && hit.dataVersion === dv && hit.auditSeq === seq && now - hit.at < CACHE_TTL_MS) {
      return { ...(hit.value as Computed<T>), cached: true, generatedAt: hit.generatedAt };
    }
    const value = (await v1[report](who, p)) as Computed<T>;
    const generatedAt = new Date(now).toISOString();
    cache.delete(key);
    cache.set(key, { value, at: now, version, dataVersion: dv, auditSeq: seq, generatedAt });
    if (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value!);
    return { ...value, cached: false, generatedAt };
  }

  function requireAdvanced(report: V1Report, plan: Plan, sv: SchemaVersion): void {
    if (ADVANCED_REPORTS.includes(report) && !planIncludes(plan, 'advanced_reports')) {
      throw new AppError('advanced_reports', { schema_version: sv });
    }
  }

  return {
    flags: deps.flags,

    /** V1 reports, cached; throws the plan refusal for advanced reports. */
    async v1<T>(report: V1Report, who: Who, p: ReportParams, opts: { cache?: boolean } = {}): Promise<CachedResult<T>> {
      requireAdvanced(report, who.plan, '1.0');
      if (opts.cache === false) return { ...((await v1[report](who, p)) as Computed<T>), cached: false, generatedAt: new Date(clock.now()).toISOString() };
      return cachedV1<T>(report, who, p);
    },
    requireAdvanced,
    v21,

    limits(plan: Plan): Limits {
      const info = PLAN_INFO[plan];
      return {
        plan, max_date_range_days: info.max_date_range_days, max_breakdown_items: info.max_breakdown_items,
        can_access_advanced_reports: planIncludes(plan, 'advanced_reports'), can_export_reports: planIncludes(plan, 'exports') && deps.flags.exportsEnabled(),
      };
    },

    /** The organisation's ledger changed: its cached figures are stale (null: every organisation's, changes may have been missed). */
    invalidate(orgId: number | null): void {
      if (orgId === null) {
        cache.clear();
        return;
      }
      versions.set(orgId, (versions.get(orgId) ?? 0) + 1);
    },

    /**
     * What an export of a report type contains (exports call this when a job runs): the data of
     * the endpoints it is made from, every breakdown item the plan allows. `full` = every V1
     * report the plan allows; `full-v21` = V2.1 verification and full, plus `full`.
     */
    /**
     * What an export of `type` contains. Each part is one aggregate over the rollups (tens of
     * milliseconds at 1M ledger rows); the event loop is let go before each part, so an export's
     * data holds other requests for one part at most, never for the sum of them. The range and
     * the plan are checked before anything is read.
     */
    async bundle(type: ReportType, who: Who, params: { env: Environment | string; from: string; to: string }): Promise<ReportBundle> {
      const sv: SchemaVersion = type === 'verification-v21' || type === 'full-v21' ? '2.1' : '1.0';
      const range = checkRange(params, who.plan, sv);
      const p: ReportParams = { ...range, granularity: 'day', limit: PLAN_INFO[who.plan].max_breakdown_items, page: 1, perPage: REPORT_PAGE.max };
      const advanced = planIncludes(who.plan, 'advanced_reports');
      const parts: V1Report[] = type === 'full' || type === 'full-v21'
        ? ['overview', 'volume', 'usage', ...(advanced ? (['risk-summary', 'widget-performance', 'regulatory-coverage'] as const) : [])]
        : type === 'verification-v21' ? [] : [type];
      for (const r of parts) requireAdvanced(r, who.plan, sv);
      const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
      const out: ReportBundle = {};
      if (type === 'verification-v21' || type === 'full-v21') {
        await turn();
        out.v21_verification = (await v21.verification(who, p)).data;
      }
      if (type === 'full-v21') {
        await turn();
        out.v21_full = (await v21.full(who, p)).data;
      }
      for (const r of parts) {
        await turn();
        const data = (await v1[r](who, p)).data;
        const key = BUNDLE_KEY[r];
        (out as Record<string, unknown>)[key] = data;
      }
      return out;
    },
  };
}
export type Reports = ReturnType<typeof createReports>;
