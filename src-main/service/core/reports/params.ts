// The reporting query, checked in one place so every mistake gets its one text (account spec,
// Errors; the texts the spec leaves open are in docs/decisions.md, "Reports (issue 13)").
import { ENVIRONMENTS, PLAN_INFO, type Environment, type Plan } from '../../../../src-shared/catalog';
import { GRANULARITIES, REPORT_PAGE, type Granularity, type ReportQuery } from '../../../../src-shared/contracts/reports';
import { daysInclusive, isIsoDate } from '../../../../src-shared/dates';
import { AppError } from '../../../../src-shared/errors';

export type SchemaVersion = '1.0' | '2.1';

export interface ReportParams {
  env: Environment;
  /** Inclusive UTC days, YYYY-MM-DD: the range is [from 00:00Z, to + 1 day 00:00Z). */
  from: string;
  to: string;
  granularity: Granularity;
  /** Items a breakdown may hold: the caller's `limit`, never more than the plan's (clamped). */
  limit: number;
  page: number;
  perPage: number;
}

function invalid(schemaVersion: SchemaVersion, field: string, message: string): AppError {
  return new AppError('report_invalid', { message, field, schema_version: schemaVersion });
}

function positiveInt(raw: string | undefined, name: string, sv: SchemaVersion): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) throw invalid(sv, name, `'${name}' must be a positive integer`);
  return Number(raw);
}

/** Checks env, from and to (and the plan's date range); what an export's parameters need too. */
export function checkRange(
  q: { env?: string | undefined; from?: string | undefined; to?: string | undefined }, plan: Plan, sv: SchemaVersion,
): { env: Environment; from: string; to: string } {
  if (!q.env || !(ENVIRONMENTS as readonly string[]).includes(q.env)) throw invalid(sv, 'env', "'env' must be 'test' or 'live'");
  if (!q.from) throw invalid(sv, 'from', "'from' date is required");
  if (!q.to) throw invalid(sv, 'to', "'to' date is required");
  if (!isIsoDate(q.from)) throw invalid(sv, 'from', "'from' must be a date in YYYY-MM-DD format");
  if (!isIsoDate(q.to)) throw invalid(sv, 'to', "'to' must be a date in YYYY-MM-DD format");
  if (q.from > q.to) throw invalid(sv, 'date_range', "'from' must not be after 'to'");
  const max = PLAN_INFO[plan].max_date_range_days;
  if (daysInclusive(q.from, q.to) > max) throw invalid(sv, 'date_range', `Date range exceeds plan limit of ${max} days`);
  return { env: q.env as Environment, from: q.from, to: q.to };
}

export function parseReportQuery(q: ReportQuery, plan: Plan, sv: SchemaVersion): ReportParams {
  const range = checkRange(q, plan, sv);
  const granularity = q.granularity === undefined || q.granularity === '' ? 'day' : q.granularity;
  if (!(GRANULARITIES as readonly string[]).includes(granularity)) {
    throw invalid(sv, 'granularity', "'granularity' must be 'day', 'week' or 'month'");
  }
  const max = PLAN_INFO[plan].max_breakdown_items;
  const limit = Math.min(positiveInt(q.limit, 'limit', sv) ?? max, max);
  const page = positiveInt(q.page, 'page', sv) ?? 1;
  const perPage = positiveInt(q.per_page, 'per_page', sv) ?? REPORT_PAGE.default;
  if (perPage > REPORT_PAGE.max) throw invalid(sv, 'per_page', `'per_page' must be at most ${REPORT_PAGE.max}`);
  return { ...range, granularity: granularity as Granularity, limit, page, perPage };
}
