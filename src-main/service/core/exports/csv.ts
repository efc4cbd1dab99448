// The CSV of a report export: the raw data points of the report, no charts (account spec). One
// column set for every report type, one row per data point, so that a spreadsheet or a script
// reads any export the same way; which sections a report type has is documented in
// docs/exports.md. Written with papaparse's unparse. Text cells that a spreadsheet would run as a
// formula (an API key's name, a failure reason) get a leading apostrophe (src-shared/csv-guard.ts);
// numbers are written as numbers and never escaped (-3.2 is a number, not a formula). Products,
// operations, list kinds and dispositions are named as everywhere else (src-shared/counting.ts):
// the name in `item`, the code in `item_id`.
import Papa from 'papaparse';
import type { ReportBundle } from '../../../../src-shared/contracts/reports';
import { FORMULA_START } from '../../../../src-shared/csv-guard';
import { DISPOSITIONS } from '../../../../src-shared/contracts/review';
import { DISPOSITION_LABEL, listKindLabel, operationLabel } from '../../../../src-shared/counting';
import { LIST_CHECKSUM_PREFIX, type ListVersion } from '../../../../src-shared/contracts/screening';

export const CSV_COLUMNS = ['section', 'item', 'item_id', 'date', 'metric', 'value'] as const;
type Cell = string | number | null;
type Row = [section: string, item: string, itemId: string, date: string, metric: string, value: Cell];


function sectionsOf(b: ReportBundle): Row[] {
  const rows: Row[] = [];
  const add = (section: string, item: string, itemId: string | null, date: string, metric: string, value: Cell) =>
    rows.push([section, item, itemId ?? '', date, metric, value]);
  const o = b.overview;
  if (o) {
    add('summary', 'all', null, '', 'total_verifications', o.total_verifications);
    add('summary', 'all', null, '', 'pass_count', o.pass_count);
    add('summary', 'all', null, '', 'fail_count', o.fail_count);
    add('summary', 'all', null, '', 'pass_rate', o.pass_rate);
    add('summary', 'all', null, '', 'avg_confidence', o.avg_confidence);
    for (const [product, n] of Object.entries(o.by_product)) add('by_product', operationLabel(product), product, '', 'count', n);
    for (const [status, n] of Object.entries(o.by_status)) add('by_status', status, null, '', 'count', n);
    const s = o.screening;
    for (const m of ['screenings', 'rescreenings', 'total', 'completed', 'errors', 'with_hit', 'hit_rate', 'awaiting_approval', 'decided', 'median_time_to_decision_ms'] as const) {
      add('screening', 'all', null, '', m, s[m]);
    }
    for (const d of DISPOSITIONS) add('screening_disposition', DISPOSITION_LABEL[d], d, '', 'count', s.dispositions[d]);
  }
  const v = b.volume;
  if (v) {
    for (const p of v.series) for (const m of ['total', 'pass', 'fail'] as const) add('volume', 'all', null, p.date, m, p[m]);
    for (const m of ['total', 'pass', 'fail'] as const) add('volume_totals', 'all', null, '', m, v.totals[m]);
  }
  const u = b.usage;
  if (u) {
    for (const p of u.by_product) {
      add('usage_by_product', operationLabel(p.product), p.product, '', 'count', p.count);
      add('usage_by_product', operationLabel(p.product), p.product, '', 'percentage', p.percentage);
    }
    for (const k of u.by_api_key) {
      add('usage_by_api_key', k.name, k.api_key_id, '', 'count', k.count);
      add('usage_by_api_key', k.name, k.api_key_id, '', 'pass_rate', k.pass_rate);
    }
    for (const [op, n] of Object.entries(u.credits_consumed)) add('credits_consumed', op === 'total' ? 'all' : operationLabel(op), op === 'total' ? null : op, '', 'credits', n);
  }
  const r = b.risk_summary;
  if (r) {
    for (const [band, x] of Object.entries(r.confidence_distribution)) {
      add('confidence_band', band, null, '', 'min', x.min);
      add('confidence_band', band, null, '', 'max', x.max);
      add('confidence_band', band, null, '', 'count', x.count);
      add('confidence_band', band, null, '', 'percentage', x.percentage);
    }
    for (const f of r.failure_reasons) {
      add('failure_reason', f.reason, null, '', 'count', f.count);
      add('failure_reason', f.reason, null, '', 'percentage', f.percentage);
    }
    add('confidence', 'all', null, '', 'avg_confidence', r.avg_confidence);
    add('confidence', 'all', null, '', 'median_confidence', r.median_confidence);
  }
  const w = b.widget_performance;
  if (w) {
    for (const x of w.widgets) {
      for (const m of ['total', 'pass', 'fail', 'pass_rate', 'avg_confidence', 'avg_latency_ms'] as const) add('widget', x.name, x.api_key_id, '', m, x[m]);
    }
  }
  const c = b.regulatory_coverage;
  if (c) {
    add('regulatory', 'all', null, '', 'compliance_verifications', c.compliance_verifications);
    add('regulatory', 'all', null, '', 'compliance_pass_rate', c.compliance_pass_rate);
    add('regulatory', 'all', null, '', 'hit_rate', c.hit_rate);
    for (const x of c.categories) add('regulatory_category', listKindLabel(x.category), x.category, '', 'hits', x.hits);
  }
  const v21 = b.v21_verification;
  if (v21) {
    for (const m of ['total', 'pass', 'fail', 'pass_rate', 'avg_confidence'] as const) add('v21_summary', 'all', null, '', m, v21.summary[m]);
    add('v21_summary', 'all', null, '', 'compliance_effectiveness_score', v21.compliance_effectiveness_score);
    for (const [band, x] of Object.entries(v21.risk_severity)) {
      add('risk_severity', band, null, '', 'count', x.count);
      add('risk_severity', band, null, '', 'percentage', x.percentage);
    }
    for (const [m, x] of Object.entries(v21.period_comparison)) add('period_comparison', 'all', null, '', m, x);
    for (const [m, x] of Object.entries(v21.kpis)) add('kpi', 'all', null, '', m, x);
    for (const p of v21.daily_trend) for (const m of ['count', 'pass', 'fail'] as const) add('daily_trend', 'all', null, p.date, m, p[m]);
    for (const h of v21.health_checks) {
      add('health_check', h.check, null, '', 'status', h.status);
      add('health_check', h.check, null, '', 'message', h.message);
    }
  }
  const full = b.v21_full;
  if (full) {
    // The summary, score and severity repeat v21_verification's when both are present.
    if (!v21) {
      for (const m of ['total', 'pass', 'fail', 'pass_rate', 'avg_confidence'] as const) add('v21_summary', 'all', null, '', m, full.verification.summary[m]);
      add('v21_summary', 'all', null, '', 'compliance_effectiveness_score', full.verification.compliance_effectiveness_score);
      for (const [band, x] of Object.entries(full.verification.risk_severity)) {
        add('risk_severity', band, null, '', 'count', x.count);
        add('risk_severity', band, null, '', 'percentage', x.percentage);
      }
    }
    if (full.credits.snapshot) for (const [m, x] of Object.entries(full.credits.snapshot)) add('credits', 'all', null, '', m, x);
    for (const x of full.widgets) {
      add('widget_risk', x.name, x.api_key_id, '', 'total', x.total);
      add('widget_risk', x.name, x.api_key_id, '', 'risk_score', x.risk_score);
    }
  }
  return rows;
}

/** The CSV text (UTF-8, CRLF line ends, header row first). */
export function renderCsv(bundle: ReportBundle, lists?: readonly ListVersion[]): string {
  const rows = sectionsOf(bundle);
  // The lists loaded at export time: one row per list, item = source, item_id = the first
  // LIST_CHECKSUM_PREFIX characters of its SHA-256, date = published_at, metric stale (1 or 0).
  for (const v of lists ?? []) rows.push(['lists_loaded', v.source, v.sha256.slice(0, LIST_CHECKSUM_PREFIX), v.published_at ?? '', 'stale', v.stale ? 1 : 0]);
  return Papa.unparse({ fields: [...CSV_COLUMNS], data: rows }, { escapeFormulae: FORMULA_START, newline: '\r\n' });
}
