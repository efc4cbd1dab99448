// The PDF of a report export: what a compliance officer hands to an auditor. A header with the
// organisation's name and logo, the report's title, period, environment and when it was made;
// summary tiles; vector charts laid out by the shared chart module (src-shared/charts: the
// console's dashboard draws the same geometry); breakdown tables. V2.1 reports add the compliance
// effectiveness score, the risk severity breakdown, the period-over-period comparison and the
// health-check alerts. Every figure is an aggregate of ledger rows: no subject data is in a
// report. Figures are printed as the reporting API gives them, under the names of
// src-shared/counting.ts (the console's too); a rate the API does not give is made with its rule. This file holds the content; pages, blocks, tables, charts and footers are the shared
// writer's (core/pdf/writer.ts).
import type { PDFImage, RGB } from 'pdf-lib';
import { barChart, codeLabel, countLabel, donutChart, trendChart, type Tone, type TrendPoint } from '../../../../src-shared/charts/charts';
import type { Band, HealthCheck, ReportBundle, ReportType, ScreeningFigures } from '../../../../src-shared/contracts/reports';
import {
  AWAITING_APPROVAL_LABEL, coverageText, DISPOSITION_LABEL, durationLabel, FIGURE_LABEL, listKindLabel, operationLabel, passRate, PRODUCT_LABEL, rate,
  screeningVolumeText,
} from '../../../../src-shared/counting';
import { DISPOSITIONS } from '../../../../src-shared/contracts/review';
import type { Environment } from '../../../../src-shared/catalog';
import { LIST_CHECKSUM_PREFIX, type ListVersion } from '../../../../src-shared/contracts/screening';
import { isoDateText, periodLabel, utcInstantText } from '../../../../src-shared/dates';
import { CONTENT_WIDTH as WIDTH, INK as C, PAGE, PdfWriter, TABLE, toneColor, type Tile } from '../pdf/writer';

export interface ReportPdfInput {
  exportId: number;
  reportType: ReportType;
  env: Environment;
  /** YYYY-MM-DD, both included. */
  from: string;
  to: string;
  /** ISO 8601; also the PDF's creation date. */
  generatedAt: string;
  organisation: { name: string; logo_png: Uint8Array | null };
  bundle: ReportBundle;
  /** The lists loaded when the export was made, with the organisation's stale flags then (absent: not stated). */
  lists?: ListVersion[] | undefined;
}

export const REPORT_TITLES: Record<ReportType, string> = {
  overview: 'Verification overview',
  volume: 'Verification volume',
  usage: 'Usage by product and API key',
  'risk-summary': 'Risk summary',
  'widget-performance': 'Widget performance',
  full: 'Full analytics report',
  'verification-v21': 'Verification analytics (V2.1)',
  'full-v21': 'Enterprise analytics report (V2.1)',
};

const MARGIN = PAGE.margin;
const RIGHT = PAGE.width - PAGE.margin;
/** Tables of figures: compact rows. */
const FIGURES = { style: TABLE.compact, empty: 'No data in this period.' } as const;

const pct = (n: number | null | undefined): string => (n === null || n === undefined ? '-' : `${n.toFixed(1)}%`);
const num = (n: number | null | undefined, digits = 1): string => (n === null || n === undefined ? '-' : Number.isInteger(n) ? countLabel(n) : n.toFixed(digits));
const signed = (n: number | null, unit = ''): string => (n === null ? '-' : `${n > 0 ? '+' : ''}${Number.isInteger(n) ? countLabel(n) : n.toFixed(1)}${unit}`);


// ---------------------------------------------------------------------------------------------
// Sections

function trendOf(b: ReportBundle): TrendPoint[] | null {
  if (b.volume) return b.volume.series.map((p) => ({ date: p.date, pass: p.pass, fail: p.fail }));
  if (b.v21_verification) return b.v21_verification.daily_trend.map((p) => ({ date: p.date, pass: p.pass, fail: p.fail }));
  return null;
}

function summaryTiles(w: PdfWriter, b: ReportBundle): void {
  const v21 = b.v21_verification?.summary ?? b.v21_full?.verification.summary;
  const score = b.v21_verification?.compliance_effectiveness_score ?? b.v21_full?.verification.compliance_effectiveness_score;
  const tiles: Tile[] = [];
  if (score !== undefined) {
    tiles.push({ label: 'Compliance score', value: `${score.toFixed(1)}`, sub: 'effectiveness, out of 100', accent: score >= 80 ? C.good : score >= 60 ? C.warn : C.bad });
  }
  if (v21) {
    tiles.push({ label: 'Verifications', value: countLabel(v21.total), sub: `${countLabel(v21.pass)} passed, ${countLabel(v21.fail)} failed` });
    tiles.push({ label: 'Pass rate', value: pct(v21.pass_rate), accent: C.good });
    tiles.push({ label: 'Average confidence', value: num(v21.avg_confidence), sub: 'on a 0-100 scale' });
  } else if (b.overview) {
    const o = b.overview;
    tiles.push({ label: FIGURE_LABEL.verifications, value: countLabel(o.total_verifications), sub: `${countLabel(o.by_status.ERROR)} errors` });
    tiles.push({ label: 'Passed', value: countLabel(o.pass_count), sub: `pass rate ${pct(o.pass_rate)}`, accent: C.good });
    tiles.push({ label: 'Failed', value: countLabel(o.fail_count), accent: C.bad });
    tiles.push({ label: 'Average confidence', value: num(o.avg_confidence), sub: 'on a 0-100 scale' });
  } else if (b.volume) {
    const t = b.volume.totals;
    tiles.push({ label: 'Verifications', value: countLabel(t.total) });
    tiles.push({ label: 'Passed', value: countLabel(t.pass), accent: C.good });
    tiles.push({ label: 'Failed', value: countLabel(t.fail), accent: C.bad });
    tiles.push({ label: 'Pass rate', value: pct(passRate(t.pass, t.fail)) });
  } else if (b.usage) {
    const total = b.usage.by_product.reduce((n, p) => n + p.count, 0);
    tiles.push({ label: 'Verifications', value: countLabel(total) });
    tiles.push({ label: 'API keys used', value: countLabel(b.usage.by_api_key.length) });
    tiles.push({ label: 'Credits consumed', value: countLabel(b.usage.credits_consumed.total ?? 0) });
  } else if (b.risk_summary) {
    tiles.push({ label: 'Average confidence', value: num(b.risk_summary.avg_confidence) });
    tiles.push({ label: 'Median confidence', value: num(b.risk_summary.median_confidence) });
    tiles.push({ label: 'High confidence', value: pct(b.risk_summary.confidence_distribution.high.percentage), accent: C.good });
    tiles.push({ label: 'Low confidence', value: pct(b.risk_summary.confidence_distribution.low.percentage), accent: C.bad });
  } else if (b.widget_performance) {
    const ws = b.widget_performance.widgets;
    const total = ws.reduce((n, x) => n + x.total, 0);
    const pass = ws.reduce((n, x) => n + x.pass, 0);
    tiles.push({ label: 'Widgets', value: countLabel(ws.length) });
    const fail = ws.reduce((n, x) => n + x.fail, 0);
    tiles.push({ label: 'Verifications', value: countLabel(total) });
    tiles.push({ label: 'Pass rate', value: pct(passRate(pass, fail)), accent: C.good });
  }
  if (tiles.length > 0) {
    w.section('Summary', 70);
    w.tiles(tiles);
  }
}

function volumeSection(w: PdfWriter, points: TrendPoint[]): void {
  const h = 190;
  w.section('Verification volume', h + 24, points.length ? `${points.length} data points` : undefined);
  if (points.length === 0) {
    w.note('No verifications in this period.');
    return;
  }
  const top = w.y;
  const m = trendChart(points, { width: WIDTH, height: h, margin: { left: 42, right: 8, top: 8 } });
  w.chart(m, MARGIN, top);
  w.y = top - h - 6;
  w.legend(m.legend, MARGIN + 42, w.y);
  w.y -= 22;
}

function bandItems(bands: Record<string, Band>, order: [key: string, label: string, tone: Tone][]) {
  return order.map(([k, label, tone]) => ({ key: k, label: `${label} (${bands[k]?.min ?? 0}-${bands[k]?.max ?? 0})`, value: bands[k]?.percentage ?? 0, tone, count: bands[k]?.count ?? 0 }));
}

/** Product mix (donut) beside the confidence bands or risk severity (bars). */
function mixAndBands(w: PdfWriter, b: ReportBundle): void {
  const products = b.usage
    ? b.usage.by_product.map((p) => ({ key: p.product, label: PRODUCT_LABEL[p.product], value: p.count }))
    : b.overview ? Object.entries(b.overview.by_product).map(([k, v]) => ({ key: k, label: operationLabel(k), value: v })) : null;
  const conf = b.risk_summary?.confidence_distribution;
  if (!products && !conf) return;
  const h = 150;
  w.section(products && conf ? 'Product mix and confidence' : products ? 'Product mix' : 'Confidence distribution', h + 10);
  const top = w.y;
  const half = (WIDTH - 20) / 2;
  let x = MARGIN;
  if (products) {
    const labelled = products;
    const m = donutChart(labelled, { width: 130, height: 130 });
    w.chart(m, x, top - 6);
    const total = labelled.reduce((n, p) => n + p.value, 0);
    w.legend(m.legend.map((l, i) => ({ ...l, value: `${countLabel(labelled[i]?.value ?? 0)}${total ? ` (${pct(rate(labelled[i]?.value ?? 0, total))})` : ''}` })), x + 142, top - 30, true);
    if (total === 0) w.text('No verifications', x + 30, top - 74, 8, { color: C.muted });
    x += half + 20;
  }
  if (conf) {
    const items = bandItems(conf, [['high', 'High', 'low'], ['medium', 'Medium', 'medium'], ['low', 'Low', 'critical']]);
    const m = barChart(items, { width: products ? half : WIDTH, height: 120, margin: { left: 96, right: 12 } }, { max: 100, percent: true });
    w.text('Confidence bands (share of verifications)', x, top - 4, 8, { bold: true, color: C.muted });
    w.chart(m, x, top - 12);
    items.forEach((it, i) => {
      const r = m.rects[i];
      if (r) w.text(`${pct(it.value)} \u00b7 ${countLabel(it.count)}`, x + r.x + r.width + 4, top - 12 - r.y - r.height / 2 - 2.8, 7.5, { color: C.ink });
    });
  }
  w.y = top - h - 4;
}

function severitySection(w: PdfWriter, sev: Record<string, Band>): void {
  const h = 118;
  w.section('Risk severity', h + 10, 'bands of confidence: lower confidence, higher risk');
  const top = w.y;
  const items = bandItems(sev, [['critical', 'Critical', 'critical'], ['high', 'High', 'high'], ['medium', 'Medium', 'medium'], ['low', 'Low', 'low']]);
  const m = barChart(items, { width: WIDTH * 0.62, height: h, margin: { left: 100, right: 10 } }, { max: 100, percent: true });
  w.chart(m, MARGIN, top);
  items.forEach((it, i) => {
    const r = m.rects[i];
    if (r) w.text(`${pct(it.value)} \u00b7 ${countLabel(it.count)}`, MARGIN + r.x + r.width + 4, top - r.y - r.height / 2 - 2.8, 7.5);
  });
  // The counts beside the chart, as a compact key.
  const kx = MARGIN + WIDTH * 0.66;
  w.text('Verifications by band', kx, top - 10, 8, { bold: true, color: C.muted });
  items.forEach((it, i) => {
    const y = top - 28 - i * 18;
    w.rect(kx, y - 1, 8, 8, toneColor(it.tone));
    w.text(it.label, kx + 13, y, 8);
    w.right(countLabel(it.count), RIGHT, y, 8, { bold: true });
  });
  w.y = top - h - 8;
}

function comparisonSection(w: PdfWriter, b: NonNullable<ReportBundle['v21_verification']>): void {
  const pc = b.period_comparison;
  w.section('Period comparison', 60, 'against the period of the same length just before');
  const cells: [string, number | null, string, boolean][] = [
    ['Verifications', pc.total_delta, '', true],
    ['Pass rate', pc.pass_rate_delta, ' pts', true],
    ['Average confidence', pc.avg_confidence_delta, ' pts', true],
  ];
  w.tiles(cells.map(([label, v, unit, upIsGood]) => {
    const good = v === null || v === 0 ? null : (v > 0) === upIsGood;
    return {
      label, value: signed(v, unit), accent: good === null ? C.muted : good ? C.good : C.bad,
      trend: v === null || v === 0 ? undefined : v > 0 ? 'up' as const : 'down' as const,
    };
  }), 3);
}

function kpiSection(w: PdfWriter, b: NonNullable<ReportBundle['v21_verification']>): void {
  const k = b.kpis;
  // Kept with its table: a heading alone at the foot of a page reads badly.
  w.section('Key performance indicators', 120);
  w.table('Key performance indicators', [{ title: 'Indicator', width: WIDTH - 160 }, { title: 'Value', width: 160, align: 'right' }], [
    ['Verification volume', countLabel(k.verification_volume)],
    ['Success rate', pct(k.success_rate)],
    ['Average response time', k.avg_response_time_ms === null ? '-' : `${countLabel(k.avg_response_time_ms)} ms`],
    ['Credit efficiency', num(k.credit_efficiency, 2)],
  ], FIGURES);
}

const HEALTH: Record<HealthCheck['status'], { label: string; fill: RGB; color: RGB }> = {
  ok: { label: 'OK', fill: C.goodFill, color: C.good },
  warning: { label: 'WARNING', fill: C.warnFill, color: C.warn },
  critical: { label: 'CRITICAL', fill: C.badFill, color: C.bad },
};

function healthSection(w: PdfWriter, checks: HealthCheck[]): void {
  const alerts = checks.filter((c) => c.status !== 'ok').length;
  w.section('Health checks', 40, alerts ? `${alerts} ${alerts === 1 ? 'alert' : 'alerts'}` : 'no alerts');
  if (checks.length === 0) {
    w.note('No health checks for this period.');
    return;
  }
  // Alerts first, the most severe on top.
  const rank = { critical: 0, warning: 1, ok: 2 } as const;
  for (const c of [...checks].sort((a, b) => rank[a.status] - rank[b.status])) {
    const lines = w.wrap(c.message, 8.5, WIDTH - 190);
    const h = Math.max(22, lines.length * 11 + 10);
    w.ensure(h);
    const s = HEALTH[c.status];
    w.rect(MARGIN, w.y - h, 3, h, s.color);
    w.pill(s.label, MARGIN + 10, w.y - 14, 7.5, s.fill, s.color);
    w.text(w.fit(codeLabel(c.check), 8.5, 100, true), MARGIN + 80, w.y - 14, 8.5, { bold: true });
    lines.forEach((line, i) => w.text(line, MARGIN + 190, w.y - 14 - i * 11, 8.5));
    w.y -= h + 4;
    w.rule(w.y + 2, C.rule, 0.3);
  }
  w.y -= 10;
}

/** The screening checks beside the verification products: volume, hits, dispositions, time to decision. */
function screeningSection(w: PdfWriter, s: ScreeningFigures): void {
  w.section(FIGURE_LABEL.screeningChecks, 150, 'screenings and rescreenings; dispositions from the review audit trail');
  w.tiles([
    { label: FIGURE_LABEL.screeningChecks, value: countLabel(s.total), sub: screeningVolumeText(s) },
    { label: FIGURE_LABEL.hitRate, value: pct(s.hit_rate), sub: `${countLabel(s.with_hit)} of ${countLabel(s.completed)} with a match`, accent: C.warn },
    { label: FIGURE_LABEL.decided, value: countLabel(s.decided), sub: `${countLabel(s.errors)} could not be done` },
    { label: FIGURE_LABEL.medianDecision, value: durationLabel(s.median_time_to_decision_ms), sub: 'from result to disposition' },
  ]);
  w.table('Dispositions', [{ title: 'Disposition', width: WIDTH - 120 }, { title: 'Screenings', width: 120, align: 'right' }], [
    ...DISPOSITIONS.map((d) => [DISPOSITION_LABEL[d], countLabel(s.dispositions[d])]),
    [AWAITING_APPROVAL_LABEL, countLabel(s.awaiting_approval)],
  ], FIGURES);
}

function tables(w: PdfWriter, b: ReportBundle): void {
  const R = 'right' as const;
  if (b.overview || b.usage) {
    w.section('Breakdown by product', 50);
    const rows = b.usage
      ? b.usage.by_product.map((p) => [PRODUCT_LABEL[p.product], countLabel(p.count), pct(p.percentage)])
      : Object.entries(b.overview!.by_product).map(([p, n]) => [operationLabel(p), countLabel(n), pct(rate(n, b.overview!.total_verifications))]);
    w.table('Breakdown by product', [{ title: 'Product', width: WIDTH - 200 }, { title: 'Verifications', width: 100, align: R }, { title: 'Share', width: 100, align: R }], rows, FIGURES);
  }
  if (b.overview) {
    const s = b.overview.by_status;
    w.table('Outcomes', [{ title: 'Outcome', width: WIDTH - 100 }, { title: 'Verifications', width: 100, align: R }],
      [['Passed (PASS)', countLabel(s.PASS)], ['Failed (FAIL)', countLabel(s.FAIL)], ['Errors (ERROR)', countLabel(s.ERROR)]], FIGURES);
  }
  if (b.usage) {
    w.section('Usage by API key', 50);
    w.table('Usage by API key', [
      { title: 'API key', width: 170 }, { title: 'Key id', width: WIDTH - 170 - 160 }, { title: 'Verifications', width: 80, align: R }, { title: 'Pass rate', width: 80, align: R },
    ], b.usage.by_api_key.map((k) => [k.name, k.api_key_id ?? 'console / hosted', countLabel(k.count), pct(k.pass_rate)]), FIGURES);
    const credits = Object.entries(b.usage.credits_consumed).filter(([k]) => k !== 'total');
    w.table('Credits consumed', [{ title: 'Credits consumed by', width: WIDTH - 120 }, { title: 'Credits', width: 120, align: R }],
      [...credits.map(([k, n]) => [operationLabel(k), countLabel(n)]), ['Total', countLabel(b.usage.credits_consumed.total ?? credits.reduce((a, [, n]) => a + n, 0))]], FIGURES);
  }
  if (b.risk_summary) {
    w.section('Failure reasons', 50);
    w.table('Failure reasons', [{ title: 'Reason', width: WIDTH - 200 }, { title: 'Failures', width: 100, align: R }, { title: 'Share', width: 100, align: R }],
      b.risk_summary.failure_reasons.map((f) => [codeLabel(f.reason), countLabel(f.count), pct(f.percentage)]), { ...FIGURES, empty: 'No failures in this period.' });
  }
  if (b.widget_performance) {
    w.section('Widget performance', 50);
    w.table('Widget performance', [
      { title: 'Widget (API key)', width: WIDTH - 6 * 58 }, { title: 'Total', width: 58, align: R }, { title: 'Passed', width: 58, align: R }, { title: 'Failed', width: 58, align: R },
      { title: 'Pass rate', width: 58, align: R }, { title: 'Avg conf.', width: 58, align: R }, { title: 'Avg latency', width: 58, align: R },
    ], b.widget_performance.widgets.map((x) => [
      x.name, countLabel(x.total), countLabel(x.pass), countLabel(x.fail), pct(x.pass_rate), num(x.avg_confidence),
      x.avg_latency_ms === null ? '-' : `${countLabel(x.avg_latency_ms)} ms`,
    ]), FIGURES);
  }
  if (b.regulatory_coverage) {
    const c = b.regulatory_coverage;
    w.section('Regulatory coverage', 50);
    const s = b.overview?.screening;
    w.tiles([
      { label: FIGURE_LABEL.coverage, value: countLabel(c.compliance_verifications) },
      { label: FIGURE_LABEL.clearRate, value: pct(c.compliance_pass_rate), sub: 'of decided: no list hit, identity verified', accent: C.good },
      { label: FIGURE_LABEL.hitRate, value: pct(c.hit_rate), sub: 'of list checks with a result', accent: C.warn },
    ]);
    // The count is made of the overview's KYC plus verifications and screening checks: said so.
    if (s) w.note(`${coverageText(b.overview!.by_product.compliance, s.total)}.`);
    w.table('Categories', [{ title: 'Category', width: WIDTH - 120 }, { title: 'Hits', width: 120, align: R }], c.categories.map((x) => [listKindLabel(x.category), countLabel(x.hits)]), { ...FIGURES, empty: 'No list hits in this period.' });
  }
  if (b.v21_full) {
    const f = b.v21_full;
    w.section('Credits', 50);
    if (f.credits.snapshot) {
      const s = f.credits.snapshot;
      w.table('Credits', [{ title: 'Credits', width: WIDTH - 140 }, { title: 'Value', width: 140, align: R }], [
        ['Subscription credits', countLabel(s.subscription_credits)], ['Prepaid credits', countLabel(s.prepaid_credits)],
        ['Total available', countLabel(s.total_available)], ['Consumed this period', countLabel(s.consumed_this_period)],
        ['Projected monthly usage', countLabel(s.projected_monthly_usage)],
        ['Days until depletion', s.days_until_depletion === null ? 'Not being consumed' : num(s.days_until_depletion)],
      ], FIGURES);
    } else {
      w.note('The credits section is shown only in exports made by an owner, an admin or a member with the billing permission.');
      w.y -= 6;
    }
    w.section('Widget risk', 50);
    w.table('Widget risk', [{ title: 'Widget (API key)', width: WIDTH - 200 }, { title: 'Verifications', width: 100, align: R }, { title: 'Risk score', width: 100, align: R }],
      f.widgets.map((x) => [x.name, countLabel(x.total), num(x.risk_score)]), FIGURES);
  }
}

// ---------------------------------------------------------------------------------------------
// The report

/** What screening was done against when the report was made: each list, its date, checksum and freshness. */
function listsSection(w: PdfWriter, lists: readonly ListVersion[], generatedAt: string): void {
  const stale = lists.filter((v) => v.stale).length;
  // Kept on one page with its note where it fits (a short table split over pages reads badly).
  w.section('Lists loaded at export time', 60 + 16 * Math.min(lists.length, 10));
  w.note(`The screening lists as loaded on ${utcInstantText(generatedAt)}. ${stale === 0 ? 'None was' : `${stale} ${stale === 1 ? 'was' : 'were'}`} older than the organisation's freshness window (stale).`);
  w.table('Lists loaded at export time', [
    { title: 'List', width: WIDTH - 330 }, { title: 'Kind', width: 70 }, { title: 'Published', width: 90 },
    { title: 'SHA-256 (first 12)', width: 110 }, { title: 'Status', width: 60 },
  ], lists.map((v) => [
    v.source, listKindLabel(v.kind), v.published_at ? isoDateText(v.published_at) : 'undated', v.sha256.slice(0, LIST_CHECKSUM_PREFIX), v.stale ? 'Stale' : 'Current',
  ]), { ...FIGURES, empty: 'No lists were loaded when this report was made.' });
}

export async function renderReportPdf(input: ReportPdfInput): Promise<Uint8Array> {
  const title = REPORT_TITLES[input.reportType];
  const org = input.organisation.name;
  const period = periodLabel(input.from, input.to);
  let logo: PDFImage | null = null;
  const w = await PdfWriter.create({ title: `${title} \u2014 ${org}`, createdAt: input.generatedAt }, (p, n) => {
    if (n === 1) p.banner({ kicker: 'REPORT', title, subtitle: org, logo });
    else p.runningHead(`${title} \u2014 ${org}`, period);
    if (input.env === 'test') p.testBand('Figures from test keys only: not live verifications.');
  });
  // An unreadable logo is left out rather than failing the report.
  logo = await w.png(input.organisation.logo_png);
  const b = input.bundle;
  w.newPage();
  w.cells([[
    { label: 'Period', value: period, share: 0.34 },
    { label: 'Environment', value: input.env === 'test' ? 'Test' : 'Live', share: 0.12, color: input.env === 'test' ? C.warn : C.ink },
    { label: 'Generated', value: utcInstantText(input.generatedAt), share: 0.26 },
    { label: 'Export', value: `#${input.exportId} \u00b7 ${input.reportType}`, share: 0.28 },
  ]]);
  summaryTiles(w, b);
  if (b.overview) screeningSection(w, b.overview.screening);
  const trend = trendOf(b);
  if (trend) volumeSection(w, trend);
  mixAndBands(w, b);
  const sev = b.v21_verification?.risk_severity ?? b.v21_full?.verification.risk_severity;
  if (sev) severitySection(w, sev as unknown as Record<string, Band>);
  if (b.v21_verification) {
    comparisonSection(w, b.v21_verification);
    healthSection(w, b.v21_verification.health_checks);
    kpiSection(w, b.v21_verification);
  }
  tables(w, b);
  if (input.lists) listsSection(w, input.lists, input.generatedAt);
  return w.finish([
    `${org} \u00b7 Export #${input.exportId} \u00b7 Generated ${utcInstantText(input.generatedAt)}`,
    'Aggregated from the verification ledger: contains no personal data of verified people.',
  ]);
}
