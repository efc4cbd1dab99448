// Reporting and report exports (account spec, "Resources and their fields"; issue 13). Every
// figure is an aggregate of ledger rows (ids, product, env, status, credits, timings, confidence,
// failure codes): no subject data exists to aggregate. Rates and percentages are on a 0-100 scale
// with one decimal, like `confidence` (service spec: "decimals on a 0-100 scale"). What the spec
// leaves open (the effectiveness score, the health checks, pagination of breakdowns) is defined in
// docs/reports.md and docs/decisions.md ("Reports (issue 13)").
import { z } from 'zod';
import { ENVIRONMENTS, PLANS, PRODUCTS } from '../catalog';
import { DISPOSITIONS } from './review';

/** The eight report types an export may be made of (spec, "Export job"), in the spec's order. */
export const REPORT_TYPES = [
  'overview', 'volume', 'usage', 'risk-summary', 'widget-performance', 'full', 'verification-v21', 'full-v21',
] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

export const EXPORT_FORMATS = ['pdf', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const GRANULARITIES = ['day', 'week', 'month'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

/** The V1 report endpoints; the advanced ones need Growth or higher (spec, Endpoints). */
export const V1_REPORTS = ['overview', 'volume', 'usage', 'risk-summary', 'widget-performance', 'regulatory-coverage'] as const;
export type V1Report = (typeof V1_REPORTS)[number];
export const ADVANCED_REPORTS: readonly V1Report[] = ['risk-summary', 'widget-performance', 'regulatory-coverage'];

/** Reporting `per_page`: default 10, maximum 100; export list: default 20, maximum 100 (spec, Limits). */
export const REPORT_PAGE = { default: 10, max: 100 } as const;
export const EXPORT_PAGE = { default: 20, max: 100 } as const;
/** Export files are removed 24 hours after the file was made (spec). */
export const EXPORT_FILE_HOURS = 24;

/**
 * The common reporting query as it arrives: strings, checked by the service so that each mistake
 * gets the spec's exact text (`'env' must be 'test' or 'live'`, `'from' date is required`, ...).
 */
export const ReportQuery = z.object({
  env: z.string().optional().describe('`test` or `live` (required)'),
  from: z.string().optional().describe('YYYY-MM-DD (required)'),
  to: z.string().optional().describe('YYYY-MM-DD (required)'),
  granularity: z.string().optional().describe('`day` (default), `week` or `month`'),
  limit: z.string().optional().describe('maximum items in a breakdown, limited by plan'),
  page: z.string().optional().describe('default 1'),
  per_page: z.string().optional().describe('default 10, maximum 100'),
});
export type ReportQuery = z.infer<typeof ReportQuery>;

const Rate = z.number().min(0).max(100);
const Count = z.number().int().min(0);

export const ProductCounts = z.object(Object.fromEntries(PRODUCTS.map((p) => [p, Count])) as Record<(typeof PRODUCTS)[number], typeof Count>);

/**
 * Added (issue 26; the spec's overview is silent on screening): the screening checks of the range
 * beside the verification products. Screenings and rescreenings are ledger rows of their own;
 * dispositions come from the review audit rows of those screenings (decided at any time); the
 * time to decision runs from the screening's result to the first disposition that took effect.
 * Counts and timings only. Definitions: docs/reports.md ("Screening checks").
 */
export const ScreeningFigures = z.object({
  screenings: Count,
  rescreenings: Count,
  /** screenings + rescreenings. */
  total: Count,
  /** Checks that got a result from the lists. */
  completed: Count,
  /** Checks the service could not do (outcome class ERROR). */
  errors: Count,
  /** Completed checks with at least one uncleared match. */
  with_hit: Count,
  /** with_hit / completed × 100. */
  hit_rate: Rate,
  /** The disposition in effect now, per screening of the range. */
  dispositions: z.object(Object.fromEntries(DISPOSITIONS.map((d) => [d, Count])) as Record<(typeof DISPOSITIONS)[number], typeof Count>),
  /** Clearings waiting for a second person's approval. */
  awaiting_approval: Count,
  /** Screenings with a disposition in effect (the sum of `dispositions`). */
  decided: Count,
  /** Median, over decided screenings, of result → first disposition in effect; null when none. */
  median_time_to_decision_ms: z.number().int().min(0).nullable(),
});
export type ScreeningFigures = z.infer<typeof ScreeningFigures>;

export const Overview = z.object({
  total_verifications: Count,
  pass_count: Count,
  fail_count: Count,
  pass_rate: Rate,
  /** Null when no verification in the range carries a confidence. */
  avg_confidence: z.number().nullable(),
  by_product: ProductCounts,
  by_status: z.object({ PASS: Count, FAIL: Count, ERROR: Count }),
  screening: ScreeningFigures,
});
export type Overview = z.infer<typeof Overview>;

export const VolumePoint = z.object({ date: z.string(), total: Count, pass: Count, fail: Count });
export type VolumePoint = z.infer<typeof VolumePoint>;
export const Volume = z.object({
  series: z.array(VolumePoint),
  totals: z.object({ total: Count, pass: Count, fail: Count }),
});
export type Volume = z.infer<typeof Volume>;

export const Usage = z.object({
  by_product: z.array(z.object({ product: z.enum(PRODUCTS), count: Count, percentage: Rate })),
  by_api_key: z.array(z.object({
    /** Null for checks made in the console or on hosted pages without a key. */
    api_key_id: z.string().nullable(),
    name: z.string(),
    count: Count,
    pass_rate: Rate,
  })),
  /** Credits per billable operation (human, age, identity, compliance, screen, rescreen) and `total`. */
  credits_consumed: z.record(z.string(), z.number().int()),
});
export type Usage = z.infer<typeof Usage>;

export const Band = z.object({ min: z.number(), max: z.number(), count: Count, percentage: Rate });
export type Band = z.infer<typeof Band>;

export const RiskSummary = z.object({
  confidence_distribution: z.object({ high: Band, medium: Band, low: Band }),
  failure_reasons: z.array(z.object({ reason: z.string(), count: Count, percentage: Rate })),
  avg_confidence: z.number().nullable(),
  median_confidence: z.number().nullable(),
});
export type RiskSummary = z.infer<typeof RiskSummary>;

export const WidgetRow = z.object({
  api_key_id: z.string().nullable(),
  name: z.string(),
  total: Count,
  pass: Count,
  fail: Count,
  pass_rate: Rate,
  avg_confidence: z.number().nullable(),
  avg_latency_ms: z.number().nullable(),
});
export type WidgetRow = z.infer<typeof WidgetRow>;
export const WidgetPerformance = z.object({ widgets: z.array(WidgetRow) });
export type WidgetPerformance = z.infer<typeof WidgetPerformance>;

export const RegulatoryCoverage = z.object({
  compliance_verifications: Count,
  compliance_pass_rate: Rate,
  hit_rate: Rate,
  categories: z.array(z.object({ category: z.string(), hits: Count })),
});
export type RegulatoryCoverage = z.infer<typeof RegulatoryCoverage>;

export const Limits = z.object({
  plan: z.enum(PLANS),
  max_date_range_days: z.number().int(),
  max_breakdown_items: z.number().int(),
  can_access_advanced_reports: z.boolean(),
  can_export_reports: z.boolean(),
});
export type Limits = z.infer<typeof Limits>;

export const Summary = z.object({ total: Count, pass: Count, fail: Count, pass_rate: Rate, avg_confidence: z.number().nullable() });
export type Summary = z.infer<typeof Summary>;

export const RiskSeverity = z.object({ critical: Band, high: Band, medium: Band, low: Band });
export type RiskSeverity = z.infer<typeof RiskSeverity>;

export const HEALTH_STATUSES = ['ok', 'warning', 'critical'] as const;
export const HealthCheck = z.object({ check: z.string(), status: z.enum(HEALTH_STATUSES), message: z.string() });
export type HealthCheck = z.infer<typeof HealthCheck>;

export const V21Verification = z.object({
  summary: Summary,
  /** 0-100; defined in docs/reports.md. */
  compliance_effectiveness_score: z.number().min(0).max(100),
  risk_severity: RiskSeverity,
  /** This range against the range of the same length just before it. */
  period_comparison: z.object({
    total_delta: z.number().int(),
    pass_rate_delta: z.number(),
    avg_confidence_delta: z.number().nullable(),
  }),
  kpis: z.object({
    verification_volume: Count,
    success_rate: Rate,
    avg_response_time_ms: z.number().nullable(),
    /** Defined in docs/reports.md. */
    credit_efficiency: z.number().nullable(),
  }),
  daily_trend: z.array(z.object({ date: z.string(), count: Count, pass: Count, fail: Count })),
  health_checks: z.array(HealthCheck),
});
export type V21Verification = z.infer<typeof V21Verification>;

export const CreditsSnapshot = z.object({
  subscription_credits: z.number(),
  prepaid_credits: z.number(),
  total_available: z.number(),
  consumed_this_period: z.number(),
  projected_monthly_usage: z.number(),
  /** Null when nothing is being consumed (the balance never runs out at this rate). */
  days_until_depletion: z.number().nullable(),
});
export type CreditsSnapshot = z.infer<typeof CreditsSnapshot>;

export const V21Full = z.object({
  verification: z.object({
    summary: Summary,
    compliance_effectiveness_score: z.number().min(0).max(100),
    risk_severity: RiskSeverity,
  }),
  /** `available` false and `snapshot` null unless the caller is an owner, an admin or has the billing flag. */
  credits: z.object({ available: z.boolean(), snapshot: CreditsSnapshot.nullable() }),
  widgets: z.array(z.object({ api_key_id: z.string().nullable(), name: z.string(), total: Count, risk_score: z.number().min(0).max(100) })),
});
export type V21Full = z.infer<typeof V21Full>;

/** The page of a report's breakdown list (docs/reports.md, "Breakdowns and pages"). */
export const ReportPagination = z.object({
  page: z.number().int().min(1),
  per_page: z.number().int().min(1).max(REPORT_PAGE.max),
  /** Items in the list after the breakdown limit. */
  total: z.number().int().min(0),
  pages: z.number().int().min(1),
});
export type ReportPagination = z.infer<typeof ReportPagination>;

const MetaV1 = z.object({
  from: z.string(),
  to: z.string(),
  env: z.enum(ENVIRONMENTS),
  cached: z.boolean(),
  generated_at: z.string(),
  /** Volume only. */
  granularity: z.enum(GRANULARITIES).optional(),
  /** Added, breakdown reports: the items a breakdown may hold (the caller's `limit`, at most the plan's). */
  limit: z.number().int().optional(),
  /** Added, breakdown reports: the page of the paginated list (docs/reports.md). */
  pagination: ReportPagination.optional(),
});
const MetaV21 = MetaV1.omit({ cached: true, granularity: true });

function v1<T extends z.ZodTypeAny>(data: T) {
  return z.object({ schema_version: z.literal('1.0'), data, meta: MetaV1 });
}
function v21<T extends z.ZodTypeAny>(data: T) {
  return z.object({ schema_version: z.literal('2.1'), data, meta: MetaV21 });
}

export const OverviewEnvelope = v1(Overview);
export const VolumeEnvelope = v1(Volume);
export const UsageEnvelope = v1(Usage);
export const RiskSummaryEnvelope = v1(RiskSummary);
export const WidgetPerformanceEnvelope = v1(WidgetPerformance);
export const RegulatoryCoverageEnvelope = v1(RegulatoryCoverage);
/** The limits endpoint returns no `meta` (spec). */
export const LimitsEnvelope = z.object({ schema_version: z.literal('1.0'), data: Limits });
export const V21VerificationEnvelope = v21(V21Verification);
export const V21FullEnvelope = v21(V21Full);
export type OverviewEnvelope = z.infer<typeof OverviewEnvelope>;
export type VolumeEnvelope = z.infer<typeof VolumeEnvelope>;
export type UsageEnvelope = z.infer<typeof UsageEnvelope>;
export type RiskSummaryEnvelope = z.infer<typeof RiskSummaryEnvelope>;
export type WidgetPerformanceEnvelope = z.infer<typeof WidgetPerformanceEnvelope>;
export type RegulatoryCoverageEnvelope = z.infer<typeof RegulatoryCoverageEnvelope>;
export type LimitsEnvelope = z.infer<typeof LimitsEnvelope>;
export type V21VerificationEnvelope = z.infer<typeof V21VerificationEnvelope>;
export type V21FullEnvelope = z.infer<typeof V21FullEnvelope>;

/**
 * What an export of each report type contains: the data of the endpoints it is made from.
 * `full` (V1) is every V1 report the plan allows; `full-v21` is V2.1 verification plus full.
 */
export const ReportBundle = z.object({
  overview: Overview.optional(),
  volume: Volume.optional(),
  usage: Usage.optional(),
  risk_summary: RiskSummary.optional(),
  widget_performance: WidgetPerformance.optional(),
  regulatory_coverage: RegulatoryCoverage.optional(),
  v21_verification: V21Verification.optional(),
  v21_full: V21Full.optional(),
});
export type ReportBundle = z.infer<typeof ReportBundle>;

// ---- Exports ----

/** As it arrives; the service checks each field so that mistakes get the spec's texts. */
export const CreateExportRequest = z.object({
  report_type: z.string().optional(),
  format: z.string().optional(),
  env: z.string().optional(),
  from: z.string().optional(),
  to: z.string().optional(),
});
export type CreateExportRequest = z.infer<typeof CreateExportRequest>;

export const EXPORT_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

export const EXPORT_ERROR_CODES = ['render_failed', 'timeout', 'interrupted', 'report_unavailable', 'insufficient_storage'] as const;
export type ExportErrorCode = (typeof EXPORT_ERROR_CODES)[number];

export const ExportParams = z.object({ env: z.enum(ENVIRONMENTS), from: z.string(), to: z.string() });

export const CreatedExport = z.object({
  id: z.number().int(),
  report_type: z.enum(REPORT_TYPES),
  format: z.enum(EXPORT_FORMATS),
  status: z.enum(EXPORT_STATUSES),
  params: ExportParams,
  created_at: z.string(),
});
export type CreatedExport = z.infer<typeof CreatedExport>;

export const ExportListItem = z.object({
  id: z.number().int(),
  report_type: z.enum(REPORT_TYPES),
  format: z.enum(EXPORT_FORMATS),
  status: z.enum(EXPORT_STATUSES),
  file_size_bytes: z.number().int().nullable(),
  created_at: z.string(),
  completed_at: z.string().nullable(),
  /**
   * Added: why a failed export failed (null otherwise): `render_failed`, `timeout` (the render ran
   * over its time), `interrupted` (the service stopped under it on every try), `report_unavailable`
   * (the report could not be made for these parameters), `insufficient_storage` (the disk had no
   * room for its file: issue 25). Codes only: never report or subject data.
   */
  error_code: z.enum(EXPORT_ERROR_CODES).nullable(),
});
export type ExportListItem = z.infer<typeof ExportListItem>;

export const ExportList = z.object({
  exports: z.array(ExportListItem),
  total: z.number().int(),
  page: z.number().int(),
  pages: z.number().int(),
});
export type ExportList = z.infer<typeof ExportList>;

export const ExportJob = ExportListItem.extend({
  params: ExportParams,
  /** `/api/reports/exports/{id}/download`; null until the file exists, and again once it expired. */
  download_url: z.string().nullable(),
  /** Added: when the file is removed (24 hours after it was made); null before success. */
  expires_at: z.string().nullable(),
});
export type ExportJob = z.infer<typeof ExportJob>;

export const ExportListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(EXPORT_PAGE.max).default(EXPORT_PAGE.default),
});

export const CancelledExport = z.object({ message: z.string(), id: z.number().int() });
export type CancelledExport = z.infer<typeof CancelledExport>;
