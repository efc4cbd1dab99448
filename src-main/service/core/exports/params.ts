// The report parameters of an export (env, from, to), checked with the reporting API's rules and
// texts (account spec, Errors). TEMPORARY: the reports branch owns this validation; at its merge
// this file gives way to the reports module's own check, so the rules live in one place.
import { PLAN_INFO, type Environment, type Plan } from '../../../../src-shared/catalog';
import { AppError } from '../../../../src-shared/errors';

export interface ReportParams { env: Environment; from: string; to: string }

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function date(raw: string | undefined, field: 'from' | 'to'): string {
  if (raw === undefined || raw === '') throw new AppError('account_validation', { message: `'${field}' date is required`, field });
  const t = Date.parse(`${raw}T00:00:00Z`);
  if (!DATE.test(raw) || Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== raw) {
    throw new AppError('account_validation', { message: `'${field}' must be a date in YYYY-MM-DD format`, field });
  }
  return raw;
}

export function checkReportParams(q: { env?: string | undefined; from?: string | undefined; to?: string | undefined }, plan: Plan): ReportParams {
  if (q.env !== 'test' && q.env !== 'live') throw new AppError('account_validation', { message: "'env' must be 'test' or 'live'", field: 'env' });
  const from = date(q.from, 'from');
  const to = date(q.to, 'to');
  if (to < from) throw new AppError('account_validation', { message: "'to' must not be before 'from'", field: 'date_range' });
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000 + 1;
  const max = PLAN_INFO[plan].max_date_range_days;
  if (days > max) throw new AppError('account_validation', { message: `Date range exceeds plan limit of ${max} days`, field: 'date_range' });
  return { env: q.env, from, to };
}
