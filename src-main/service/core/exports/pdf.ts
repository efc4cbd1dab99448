// The PDF of a report export (A4, pdf-lib): what a compliance officer hands to an auditor. A header
// with the organisation's name and logo, the report's title, period, environment and when it was
// made; summary tiles; vector charts laid out by the shared chart module (src-shared/charts: the
// console's dashboard draws the same geometry); breakdown tables whose header row repeats on every
// page they run over; "Page n of m" in every footer. V2.1 reports add the compliance effectiveness
// score, the risk severity breakdown, the period-over-period comparison and the health-check
// alerts. Every figure is an aggregate of ledger rows: no subject data is in a report.
import { PDFDocument, type PDFImage, type PDFPage, type RGB, StandardFonts, rgb } from 'pdf-lib';
import { barChart, codeLabel, countLabel, donutChart, trendChart, type ChartModel, type Tone, type TrendPoint } from '../../../../src-shared/charts/charts';
import type { Band, HealthCheck, ReportBundle, ReportType } from '../../../../src-shared/contracts/reports';
import type { Environment } from '../../../../src-shared/catalog';
import { LIST_CHECKSUM_PREFIX, type ListVersion } from '../../../../src-shared/contracts/screening';
import { fit, printable, wrap, type Fonts } from '../pdf/text';
import { partialDateLabel, periodLabel, utcInstantText as instant } from '../../../../src-shared/dates';

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

// ---------------------------------------------------------------------------------------------
// Print palette and layout

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 44;
const WIDTH = A4[0] - 2 * MARGIN;
const BODY_BOTTOM = 62;

const C = {
  ink: rgb(0.12, 0.14, 0.17),
  muted: rgb(0.42, 0.45, 0.5),
  rule: rgb(0.82, 0.84, 0.87),
  grid: rgb(0.9, 0.91, 0.93),
  band: rgb(0.11, 0.2, 0.33),
  bandText: rgb(0.78, 0.84, 0.92),
  tile: rgb(0.965, 0.972, 0.98),
  tileEdge: rgb(0.86, 0.88, 0.91),
  tableHead: rgb(0.92, 0.93, 0.95),
  zebra: rgb(0.975, 0.978, 0.985),
  testBand: rgb(0.99, 0.8, 0.25),
  testText: rgb(0.35, 0.22, 0),
  good: rgb(0.1, 0.5, 0.27),
  goodFill: rgb(0.87, 0.95, 0.9),
  warn: rgb(0.66, 0.4, 0),
  warnFill: rgb(1, 0.94, 0.82),
  bad: rgb(0.72, 0.14, 0.14),
  badFill: rgb(0.99, 0.89, 0.89),
};

const SERIES = [rgb(0.16, 0.38, 0.63), rgb(0.2, 0.6, 0.56), rgb(0.93, 0.6, 0.18), rgb(0.55, 0.4, 0.7), rgb(0.85, 0.33, 0.4), rgb(0.45, 0.52, 0.6)];

function toneColor(t: Tone): RGB {
  switch (t) {
    case 'pass': return rgb(0.24, 0.65, 0.42);
    case 'fail': return rgb(0.86, 0.36, 0.34);
    case 'total': return C.band;
    case 'neutral': return rgb(0.6, 0.64, 0.69);
    case 'critical': return rgb(0.7, 0.1, 0.13);
    case 'high': return rgb(0.9, 0.42, 0.16);
    case 'medium': return rgb(0.95, 0.73, 0.2);
    case 'low': return rgb(0.3, 0.66, 0.43);
    default: return SERIES[Number(t.slice('series-'.length)) % SERIES.length] ?? C.muted;
  }
}

interface Column { title: string; width: number; align?: 'left' | 'right' }

const pct = (n: number | null | undefined): string => (n === null || n === undefined ? '-' : `${n.toFixed(1)}%`);
const num = (n: number | null | undefined, digits = 1): string => (n === null || n === undefined ? '-' : Number.isInteger(n) ? countLabel(n) : n.toFixed(digits));
const signed = (n: number | null, unit = ''): string => (n === null ? '-' : `${n > 0 ? '+' : ''}${Number.isInteger(n) ? countLabel(n) : n.toFixed(1)}${unit}`);

const cap = (s: string): string => (s ? s[0]!.toUpperCase() + s.slice(1) : s);


// ---------------------------------------------------------------------------------------------
// The writer: a cursor over the pages

class Writer {
  page!: PDFPage;
  y = 0;
  readonly pages: PDFPage[] = [];

  constructor(readonly doc: PDFDocument, readonly fonts: Fonts, readonly input: ReportPdfInput, readonly logo: PDFImage | null) {}

  text(s: string, x: number, y: number, size: number, o: { bold?: boolean; color?: RGB } = {}): void {
    this.page.drawText(printable(s), { x, y, size, font: o.bold ? this.fonts.bold : this.fonts.regular, color: o.color ?? C.ink });
  }
  width(s: string, size: number, bold = false): number {
    return (bold ? this.fonts.bold : this.fonts.regular).widthOfTextAtSize(printable(s), size);
  }
  right(s: string, xRight: number, y: number, size: number, o: { bold?: boolean; color?: RGB } = {}): void {
    this.text(s, xRight - this.width(s, size, o.bold), y, size, o);
  }
  rule(y: number, color = C.rule, thickness = 0.6): void {
    this.page.drawLine({ start: { x: MARGIN, y }, end: { x: A4[0] - MARGIN, y }, thickness, color });
  }

  newPage(): void {
    this.page = this.doc.addPage(A4);
    this.pages.push(this.page);
    const top = A4[1];
    const { input } = this;
    const title = REPORT_TITLES[input.reportType];
    if (this.pages.length === 1) {
      const h = 96;
      this.page.drawRectangle({ x: 0, y: top - h, width: A4[0], height: h, color: C.band });
      let textRight = A4[0] - MARGIN;
      if (this.logo) {
        const scale = Math.min(150 / this.logo.width, 52 / this.logo.height);
        const w = this.logo.width * scale;
        const lh = this.logo.height * scale;
        // A light plate keeps a dark logo readable on the band.
        this.page.drawRectangle({ x: A4[0] - MARGIN - w - 12, y: top - h / 2 - lh / 2 - 6, width: w + 12, height: lh + 12, color: rgb(1, 1, 1) });
        this.page.drawImage(this.logo, { x: A4[0] - MARGIN - w - 6, y: top - h / 2 - lh / 2, width: w, height: lh });
        textRight = A4[0] - MARGIN - w - 24;
      }
      this.text('REPORT', MARGIN, top - 28, 8, { bold: true, color: C.bandText });
      this.text(fit(title, this.fonts.bold, 20, textRight - MARGIN), MARGIN, top - 52, 20, { bold: true, color: rgb(1, 1, 1) });
      this.text(fit(input.organisation.name, this.fonts.regular, 11.5, textRight - MARGIN), MARGIN, top - 74, 11.5, { color: C.bandText });
      this.y = top - h;
    } else {
      this.text(fit(`${title} \u2014 ${input.organisation.name}`, this.fonts.bold, 9.5, WIDTH - 150), MARGIN, top - 34, 9.5, { bold: true, color: C.band });
      this.right(periodLabel(input.from, input.to), A4[0] - MARGIN, top - 34, 8.5, { color: C.muted });
      this.rule(top - 42);
      this.y = top - 42;
    }
    if (input.env === 'test') {
      const h = 20;
      this.page.drawRectangle({ x: 0, y: this.y - h, width: A4[0], height: h, color: C.testBand });
      const label = 'TEST ENVIRONMENT';
      this.text(label, MARGIN, this.y - 14, 9.5, { bold: true, color: C.testText });
      this.text('Figures from test keys only: not live verifications.', MARGIN + this.width(label, 9.5, true) + 10, this.y - 14, 8.5, { color: C.testText });
      this.y -= h;
    }
    this.y -= 20;
  }

  ensure(height: number): void {
    if (this.y - height < BODY_BOTTOM) this.newPage();
  }

  section(title: string, keep: number, note?: string): void {
    this.ensure(30 + keep);
    this.text(title, MARGIN, this.y - 12, 12.5, { bold: true, color: C.band });
    if (note) this.right(note, A4[0] - MARGIN, this.y - 11, 8, { color: C.muted });
    this.rule(this.y - 18, C.band, 0.8);
    this.y -= 30;
  }

  note(s: string): void {
    const lines = wrap(s, this.fonts.regular, 8, WIDTH);
    this.ensure(lines.length * 10.5);
    for (const line of lines) {
      this.text(line, MARGIN, this.y - 8, 8, { color: C.muted });
      this.y -= 10.5;
    }
    this.y -= 4;
  }

  /** Label/value cells across the width (the report's facts under the header). */
  facts(cells: [string, string][]): void {
    const widths = [0.4, 0.14, 0.26, 0.2];
    let x = MARGIN;
    cells.forEach(([label, value], i) => {
      const w = WIDTH * (widths[i] ?? 0.2);
      this.text(label, x, this.y - 8, 7.5, { color: C.muted });
      this.text(fit(value, this.fonts.bold, 9.5, w - 10), x, this.y - 21, 9.5, {
        bold: true, color: label === 'Environment' && this.input.env === 'test' ? C.warn : C.ink,
      });
      x += w;
    });
    this.y -= 32;
    this.rule(this.y);
    this.y -= 18;
  }

  /** Summary tiles, four to a row: a figure, its label and an optional line under it. */
  tiles(items: { label: string; value: string; sub?: string; accent?: RGB }[]): void {
    const perRow = 4;
    const gap = 10;
    const w = (WIDTH - gap * (perRow - 1)) / perRow;
    const h = 58;
    for (let i = 0; i < items.length; i += perRow) {
      this.ensure(h + 8);
      items.slice(i, i + perRow).forEach((t, k) => {
        const x = MARGIN + k * (w + gap);
        this.page.drawRectangle({ x, y: this.y - h, width: w, height: h, color: C.tile, borderColor: C.tileEdge, borderWidth: 0.6 });
        this.page.drawRectangle({ x, y: this.y - h, width: 3, height: h, color: t.accent ?? C.band });
        this.text(fit(t.label.toUpperCase(), this.fonts.bold, 7, w - 18), x + 11, this.y - 15, 7, { bold: true, color: C.muted });
        this.text(fit(t.value, this.fonts.bold, 18, w - 18), x + 11, this.y - 37, 18, { bold: true, color: t.accent ?? C.ink });
        if (t.sub) this.text(fit(t.sub, this.fonts.regular, 7.5, w - 18), x + 11, this.y - 50, 7.5, { color: C.muted });
      });
      this.y -= h + 10;
    }
    this.y -= 6;
  }

  /** Draws a chart model (SVG coordinates, y down) with its top-left corner at (x, top). */
  chart(m: ChartModel, x: number, top: number, o: { lineTotal?: boolean } = {}): void {
    const page = this.page;
    const px = (sx: number) => x + sx;
    const py = (sy: number) => top - sy;
    for (const t of m.yTicks) {
      if (m.rects.length === 0) {
        page.drawLine({ start: { x: px(m.plot.x), y: py(t.pos) }, end: { x: px(m.plot.x + m.plot.width), y: py(t.pos) }, thickness: 0.4, color: C.grid });
        this.right(t.label, px(m.plot.x) - 4, py(t.pos) - 2.5, 7, { color: C.muted });
      } else {
        this.right(fit(t.label, this.fonts.regular, 7.5, m.plot.x - 8), px(m.plot.x) - 5, py(t.pos) - 2.7, 7.5, { color: C.ink });
      }
    }
    if (m.rects.length > 0) {
      for (const t of m.xTicks) {
        page.drawLine({ start: { x: px(t.pos), y: py(m.plot.y) }, end: { x: px(t.pos), y: py(m.plot.y + m.plot.height) }, thickness: 0.4, color: C.grid });
        this.text(t.label, px(t.pos) - this.width(t.label, 6.5) / 2, py(m.plot.y + m.plot.height) - 9, 6.5, { color: C.muted });
      }
    } else {
      for (const t of m.xTicks) this.text(t.label, px(t.pos) - this.width(t.label, 7) / 2, py(m.plot.y + m.plot.height) - 11, 7, { color: C.muted });
    }
    for (const p of m.paths) {
      if (!p.d) continue;
      const at = p.kind === 'arc' ? { x: px(m.plot.x), y: py(m.plot.y) } : { x, y: top };
      if (p.kind === 'line') {
        if (o.lineTotal !== false) page.drawSvgPath(p.d, { ...at, borderColor: toneColor(p.tone), borderWidth: 1.3 });
      } else {
        page.drawSvgPath(p.d, { ...at, color: toneColor(p.tone), ...(p.kind === 'area' ? { opacity: 0.85 } : {}) });
      }
    }
    for (const r of m.rects) {
      page.drawRectangle({ x: px(r.x), y: py(r.y + r.height), width: Math.max(0.01, r.width), height: r.height, color: toneColor(r.tone) });
    }
    if (m.rects.length === 0 && m.paths.length > 0 && m.paths[0]?.kind !== 'arc') {
      page.drawLine({ start: { x: px(m.plot.x), y: py(m.plot.y + m.plot.height) }, end: { x: px(m.plot.x + m.plot.width), y: py(m.plot.y + m.plot.height) }, thickness: 0.6, color: C.muted });
    }
  }

  legend(items: { label: string; tone: Tone; value?: string }[], x: number, top: number, vertical = false): void {
    let cx = x;
    let cy = top;
    for (const it of items) {
      this.page.drawRectangle({ x: cx, y: cy - 7, width: 8, height: 8, color: toneColor(it.tone) });
      const label = it.value ? `${it.label}  ${it.value}` : it.label;
      this.text(label, cx + 12, cy - 6.5, 8, { color: C.ink });
      if (vertical) cy -= 14;
      else cx += 12 + this.width(label, 8) + 16;
    }
  }

  /** A table of one-line cells; on a new page its title says "(continued)" and the header row repeats. */
  table(title: string, columns: Column[], rows: string[][], empty = 'No data in this period.'): void {
    const size = 8.5;
    const rowH = 16;
    const pad = 5;
    const head = () => {
      this.page.drawRectangle({ x: MARGIN, y: this.y - 17, width: WIDTH, height: 17, color: C.tableHead });
      let x = MARGIN;
      for (const c of columns) {
        const t = fit(c.title, this.fonts.bold, 7.5, c.width - 2 * pad);
        if (c.align === 'right') this.right(t, x + c.width - pad, this.y - 11.5, 7.5, { bold: true, color: C.muted });
        else this.text(t, x + pad, this.y - 11.5, 7.5, { bold: true, color: C.muted });
        x += c.width;
      }
      this.y -= 17;
    };
    this.ensure(17 + rowH * Math.min(3, Math.max(1, rows.length)));
    head();
    if (rows.length === 0) {
      this.text(empty, MARGIN + pad, this.y - 11.5, size, { color: C.muted });
      this.y -= rowH + 12;
      return;
    }
    rows.forEach((cells, r) => {
      if (this.y - rowH < BODY_BOTTOM) {
        this.newPage();
        this.text(`${title} (continued)`, MARGIN, this.y - 10, 10, { bold: true, color: C.band });
        this.y -= 18;
        head();
      }
      if (r % 2 === 1) this.page.drawRectangle({ x: MARGIN, y: this.y - rowH, width: WIDTH, height: rowH, color: C.zebra });
      let x = MARGIN;
      columns.forEach((c, i) => {
        const t = fit(cells[i] ?? '', this.fonts.regular, size, c.width - 2 * pad);
        if (c.align === 'right') this.right(t, x + c.width - pad, this.y - 11, size);
        else this.text(t, x + pad, this.y - 11, size);
        x += c.width;
      });
      this.y -= rowH;
      this.page.drawLine({ start: { x: MARGIN, y: this.y }, end: { x: A4[0] - MARGIN, y: this.y }, thickness: 0.3, color: C.rule });
    });
    this.y -= 14;
  }

  pill(label: string, x: number, y: number, fill: RGB, color: RGB): number {
    const w = this.width(label, 7.5, true) + 12;
    this.page.drawRectangle({ x, y: y - 4, width: w, height: 13, color: fill, borderColor: color, borderWidth: 0.6 });
    this.text(label, x + 6, y, 7.5, { bold: true, color });
    return w;
  }

  footers(): void {
    const { input } = this;
    const left = `${input.organisation.name} \u00b7 Export #${input.exportId} \u00b7 Generated ${instant(input.generatedAt)}`;
    this.pages.forEach((page, i) => {
      this.page = page;
      this.rule(42);
      this.text(fit(left, this.fonts.regular, 7.5, WIDTH - 90), MARGIN, 30, 7.5, { color: C.muted });
      this.text('Aggregated from the verification ledger: contains no personal data of verified people.', MARGIN, 19, 7, { color: C.muted });
      this.right(`Page ${i + 1} of ${this.pages.length}`, A4[0] - MARGIN, 30, 8, { bold: true });
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Sections

function trendOf(b: ReportBundle): TrendPoint[] | null {
  if (b.volume) return b.volume.series.map((p) => ({ date: p.date, pass: p.pass, fail: p.fail }));
  if (b.v21_verification) return b.v21_verification.daily_trend.map((p) => ({ date: p.date, pass: p.pass, fail: p.fail }));
  return null;
}

function summaryTiles(w: Writer, b: ReportBundle): void {
  const v21 = b.v21_verification?.summary ?? b.v21_full?.verification.summary;
  const score = b.v21_verification?.compliance_effectiveness_score ?? b.v21_full?.verification.compliance_effectiveness_score;
  const tiles: { label: string; value: string; sub?: string; accent?: RGB }[] = [];
  if (score !== undefined) {
    tiles.push({ label: 'Compliance score', value: `${score.toFixed(1)}`, sub: 'effectiveness, out of 100', accent: score >= 80 ? C.good : score >= 60 ? C.warn : C.bad });
  }
  if (v21) {
    tiles.push({ label: 'Verifications', value: countLabel(v21.total), sub: `${countLabel(v21.pass)} passed, ${countLabel(v21.fail)} failed` });
    tiles.push({ label: 'Pass rate', value: pct(v21.pass_rate), accent: C.good });
    tiles.push({ label: 'Average confidence', value: num(v21.avg_confidence), sub: 'on a 0-100 scale' });
  } else if (b.overview) {
    const o = b.overview;
    tiles.push({ label: 'Verifications', value: countLabel(o.total_verifications), sub: `${countLabel(o.by_status.ERROR)} errors` });
    tiles.push({ label: 'Passed', value: countLabel(o.pass_count), sub: `pass rate ${pct(o.pass_rate)}`, accent: C.good });
    tiles.push({ label: 'Failed', value: countLabel(o.fail_count), accent: C.bad });
    tiles.push({ label: 'Average confidence', value: num(o.avg_confidence), sub: 'on a 0-100 scale' });
  } else if (b.volume) {
    const t = b.volume.totals;
    tiles.push({ label: 'Verifications', value: countLabel(t.total) });
    tiles.push({ label: 'Passed', value: countLabel(t.pass), accent: C.good });
    tiles.push({ label: 'Failed', value: countLabel(t.fail), accent: C.bad });
    tiles.push({ label: 'Pass rate', value: pct(t.total ? (100 * t.pass) / t.total : 0) });
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
    tiles.push({ label: 'Verifications', value: countLabel(total) });
    tiles.push({ label: 'Pass rate', value: pct(total ? (100 * pass) / total : 0), accent: C.good });
  }
  if (tiles.length > 0) {
    w.section('Summary', 70);
    w.tiles(tiles);
  }
}

function volumeSection(w: Writer, points: TrendPoint[]): void {
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
function mixAndBands(w: Writer, b: ReportBundle): void {
  const products = b.usage
    ? b.usage.by_product.map((p) => ({ key: p.product, label: p.product, value: p.count }))
    : b.overview ? Object.entries(b.overview.by_product).map(([k, v]) => ({ key: k, label: k, value: v })) : null;
  const conf = b.risk_summary?.confidence_distribution;
  if (!products && !conf) return;
  const h = 150;
  w.section(products && conf ? 'Product mix and confidence' : products ? 'Product mix' : 'Confidence distribution', h + 10);
  const top = w.y;
  const half = (WIDTH - 20) / 2;
  let x = MARGIN;
  if (products) {
    const labelled = products.map((p) => ({ ...p, label: cap(p.label) }));
    const m = donutChart(labelled, { width: 130, height: 130 });
    w.chart(m, x, top - 6);
    const total = labelled.reduce((n, p) => n + p.value, 0);
    w.legend(m.legend.map((l, i) => ({ ...l, value: `${countLabel(labelled[i]?.value ?? 0)}${total ? ` (${((100 * (labelled[i]?.value ?? 0)) / total).toFixed(1)}%)` : ''}` })), x + 142, top - 30, true);
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

function severitySection(w: Writer, sev: Record<string, Band>): void {
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
    w.page.drawRectangle({ x: kx, y: y - 1, width: 8, height: 8, color: toneColor(it.tone) });
    w.text(it.label, kx + 13, y, 8);
    w.right(countLabel(it.count), A4[0] - MARGIN, y, 8, { bold: true });
  });
  w.y = top - h - 8;
}

function comparisonSection(w: Writer, b: NonNullable<ReportBundle['v21_verification']>): void {
  const pc = b.period_comparison;
  w.section('Period comparison', 60, 'against the period of the same length just before');
  const cells: [string, number | null, string, boolean][] = [
    ['Verifications', pc.total_delta, '', true],
    ['Pass rate', pc.pass_rate_delta, ' pts', true],
    ['Average confidence', pc.avg_confidence_delta, ' pts', true],
  ];
  const gap = 10;
  const cw = (WIDTH - 2 * gap) / 3;
  const h = 46;
  w.ensure(h + 8);
  cells.forEach(([label, v, unit, upIsGood], i) => {
    const x = MARGIN + i * (cw + gap);
    const good = v === null || v === 0 ? null : (v > 0) === upIsGood;
    const color = good === null ? C.muted : good ? C.good : C.bad;
    w.page.drawRectangle({ x, y: w.y - h, width: cw, height: h, color: C.tile, borderColor: C.tileEdge, borderWidth: 0.6 });
    w.text(label.toUpperCase(), x + 10, w.y - 14, 7, { bold: true, color: C.muted });
    const arrow = v === null || v === 0 ? '' : v > 0 ? '\u25b2 ' : '\u25bc ';
    // The arrow glyphs are not in WinAnsi: drawn as triangles instead.
    if (arrow) {
      const ax = x + 10;
      const ay = w.y - 34;
      const path = v! > 0 ? 'M 0 0 L 5 -8 L 10 0 Z' : 'M 0 -8 L 5 0 L 10 -8 Z';
      w.page.drawSvgPath(path, { x: ax, y: ay + 8 - 8, color });
    }
    w.text(`${signed(v, unit)}`, x + (arrow ? 24 : 10), w.y - 35, 15, { bold: true, color });
  });
  w.y -= h + 14;
}

function kpiSection(w: Writer, b: NonNullable<ReportBundle['v21_verification']>): void {
  const k = b.kpis;
  w.section('Key performance indicators', 40);
  w.table('Key performance indicators', [{ title: 'Indicator', width: WIDTH - 160 }, { title: 'Value', width: 160, align: 'right' }], [
    ['Verification volume', countLabel(k.verification_volume)],
    ['Success rate', pct(k.success_rate)],
    ['Average response time', k.avg_response_time_ms === null ? '-' : `${countLabel(k.avg_response_time_ms)} ms`],
    ['Credit efficiency', num(k.credit_efficiency, 2)],
  ]);
}

const HEALTH: Record<HealthCheck['status'], { label: string; fill: RGB; color: RGB }> = {
  ok: { label: 'OK', fill: C.goodFill, color: C.good },
  warning: { label: 'WARNING', fill: C.warnFill, color: C.warn },
  critical: { label: 'CRITICAL', fill: C.badFill, color: C.bad },
};

function healthSection(w: Writer, checks: HealthCheck[]): void {
  const alerts = checks.filter((c) => c.status !== 'ok').length;
  w.section('Health checks', 40, alerts ? `${alerts} ${alerts === 1 ? 'alert' : 'alerts'}` : 'no alerts');
  if (checks.length === 0) {
    w.note('No health checks for this period.');
    return;
  }
  // Alerts first, the most severe on top.
  const rank = { critical: 0, warning: 1, ok: 2 } as const;
  for (const c of [...checks].sort((a, b) => rank[a.status] - rank[b.status])) {
    const lines = wrap(c.message, w.fonts.regular, 8.5, WIDTH - 190);
    const h = Math.max(22, lines.length * 11 + 10);
    w.ensure(h);
    const s = HEALTH[c.status];
    w.page.drawRectangle({ x: MARGIN, y: w.y - h, width: 3, height: h, color: s.color });
    w.pill(s.label, MARGIN + 10, w.y - 14, s.fill, s.color);
    w.text(fit(codeLabel(c.check), w.fonts.bold, 8.5, 100), MARGIN + 80, w.y - 14, 8.5, { bold: true });
    lines.forEach((line, i) => w.text(line, MARGIN + 190, w.y - 14 - i * 11, 8.5));
    w.y -= h + 4;
    w.page.drawLine({ start: { x: MARGIN, y: w.y + 2 }, end: { x: A4[0] - MARGIN, y: w.y + 2 }, thickness: 0.3, color: C.rule });
  }
  w.y -= 10;
}

function tables(w: Writer, b: ReportBundle): void {
  const R = 'right' as const;
  if (b.overview || b.usage) {
    w.section('Breakdown by product', 50);
    const rows = b.usage
      ? b.usage.by_product.map((p) => [cap(p.product), countLabel(p.count), pct(p.percentage)])
      : Object.entries(b.overview!.by_product).map(([p, n]) => {
        const t = b.overview!.total_verifications;
        return [cap(p), countLabel(n), pct(t ? (100 * n) / t : 0)];
      });
    w.table('Breakdown by product', [{ title: 'Product', width: WIDTH - 200 }, { title: 'Verifications', width: 100, align: R }, { title: 'Share', width: 100, align: R }], rows);
  }
  if (b.overview) {
    const s = b.overview.by_status;
    w.table('Outcomes', [{ title: 'Outcome', width: WIDTH - 100 }, { title: 'Verifications', width: 100, align: R }],
      [['Passed (PASS)', countLabel(s.PASS)], ['Failed (FAIL)', countLabel(s.FAIL)], ['Errors (ERROR)', countLabel(s.ERROR)]]);
  }
  if (b.usage) {
    w.section('Usage by API key', 50);
    w.table('Usage by API key', [
      { title: 'API key', width: 170 }, { title: 'Key id', width: WIDTH - 170 - 160 }, { title: 'Verifications', width: 80, align: R }, { title: 'Pass rate', width: 80, align: R },
    ], b.usage.by_api_key.map((k) => [k.name, k.api_key_id ?? 'console / hosted', countLabel(k.count), pct(k.pass_rate)]));
    const credits = Object.entries(b.usage.credits_consumed).filter(([k]) => k !== 'total');
    w.table('Credits consumed', [{ title: 'Credits consumed by', width: WIDTH - 120 }, { title: 'Credits', width: 120, align: R }],
      [...credits.map(([k, n]) => [k, countLabel(n)]), ['Total', countLabel(b.usage.credits_consumed.total ?? credits.reduce((a, [, n]) => a + n, 0))]]);
  }
  if (b.risk_summary) {
    w.section('Failure reasons', 50);
    w.table('Failure reasons', [{ title: 'Reason', width: WIDTH - 200 }, { title: 'Failures', width: 100, align: R }, { title: 'Share', width: 100, align: R }],
      b.risk_summary.failure_reasons.map((f) => [codeLabel(f.reason), countLabel(f.count), pct(f.percentage)]), 'No failures in this period.');
  }
  if (b.widget_performance) {
    w.section('Widget performance', 50);
    w.table('Widget performance', [
      { title: 'Widget (API key)', width: WIDTH - 6 * 58 }, { title: 'Total', width: 58, align: R }, { title: 'Passed', width: 58, align: R }, { title: 'Failed', width: 58, align: R },
      { title: 'Pass rate', width: 58, align: R }, { title: 'Avg conf.', width: 58, align: R }, { title: 'Avg latency', width: 58, align: R },
    ], b.widget_performance.widgets.map((x) => [
      x.name, countLabel(x.total), countLabel(x.pass), countLabel(x.fail), pct(x.pass_rate), num(x.avg_confidence),
      x.avg_latency_ms === null ? '-' : `${countLabel(x.avg_latency_ms)} ms`,
    ]));
  }
  if (b.regulatory_coverage) {
    const c = b.regulatory_coverage;
    w.section('Regulatory coverage', 50);
    w.tiles([
      { label: 'Compliance checks', value: countLabel(c.compliance_verifications) },
      { label: 'Compliance pass rate', value: pct(c.compliance_pass_rate), accent: C.good },
      { label: 'Hit rate', value: pct(c.hit_rate), accent: C.warn },
    ]);
    w.table('Categories', [{ title: 'Category', width: WIDTH - 120 }, { title: 'Hits', width: 120, align: R }], c.categories.map((x) => [x.category, countLabel(x.hits)]), 'No list hits in this period.');
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
      ]);
    } else {
      w.note('The credits section is shown only in exports made by an owner, an admin or a member with the billing permission.');
      w.y -= 6;
    }
    w.section('Widget risk', 50);
    w.table('Widget risk', [{ title: 'Widget (API key)', width: WIDTH - 200 }, { title: 'Verifications', width: 100, align: R }, { title: 'Risk score', width: 100, align: R }],
      f.widgets.map((x) => [x.name, countLabel(x.total), num(x.risk_score)]));
  }
}

// ---------------------------------------------------------------------------------------------
// The report

/** What screening was done against when the report was made: each list, its date, checksum and freshness. */
function listsSection(w: Writer, lists: readonly ListVersion[], generatedAt: string): void {
  const stale = lists.filter((v) => v.stale).length;
  // Kept on one page with its note where it fits (a short table split over pages reads badly).
  w.section('Lists loaded at export time', 60 + 16 * Math.min(lists.length, 10));
  w.note(`The screening lists as loaded on ${instant(generatedAt)}. ${stale === 0 ? 'None was' : `${stale} ${stale === 1 ? 'was' : 'were'}`} older than the organisation's freshness window (stale).`);
  w.table('Lists loaded at export time', [
    { title: 'List', width: WIDTH - 330 }, { title: 'Kind', width: 70 }, { title: 'Published', width: 90 },
    { title: 'SHA-256 (first 12)', width: 110 }, { title: 'Status', width: 60 },
  ], lists.map((v) => [
    v.source, cap(v.kind), v.published_at ? partialDateLabel(v.published_at) : 'undated', v.sha256.slice(0, LIST_CHECKSUM_PREFIX), v.stale ? 'Stale' : 'Current',
  ]), 'No lists were loaded when this report was made.');
}

export async function renderReportPdf(input: ReportPdfInput): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const title = `${REPORT_TITLES[input.reportType]} \u2014 ${input.organisation.name}`;
  doc.setTitle(printable(title), { showInWindowTitleBar: true });
  doc.setProducer('Compliance Console');
  doc.setCreator('Compliance Console');
  doc.setLanguage('en');
  const generated = new Date(Date.parse(input.generatedAt));
  if (!Number.isNaN(generated.getTime())) {
    doc.setCreationDate(generated);
    doc.setModificationDate(generated);
  }
  const fonts = { regular: await doc.embedFont(StandardFonts.Helvetica), bold: await doc.embedFont(StandardFonts.HelveticaBold) };
  let logo: PDFImage | null = null;
  if (input.organisation.logo_png) {
    try {
      logo = await doc.embedPng(input.organisation.logo_png);
    } catch {
      // An unreadable logo is left out rather than failing the report.
      logo = null;
    }
  }
  const w = new Writer(doc, fonts, input, logo);
  const b = input.bundle;
  w.newPage();
  w.facts([
    ['Period', periodLabel(input.from, input.to)],
    ['Environment', input.env === 'test' ? 'Test' : 'Live'],
    ['Generated', instant(input.generatedAt)],
    ['Export', `#${input.exportId} \u00b7 ${input.reportType}`],
  ]);
  summaryTiles(w, b);
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
  w.footers();
  return doc.save();
}
