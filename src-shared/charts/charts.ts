// One chart module for the console's report dashboard and the PDF exports. It lays a chart out
// with d3-scale and d3-shape and returns plain geometry in SVG coordinates (y grows downwards):
// SVG paths, rectangles, ticks and labels. The console renders it as <svg>; the PDF draws the
// same paths with pdf-lib's drawSvgPath and the rectangles with drawRectangle, so both show the
// same chart. Colours are tones (`pass`, `fail`, `series-0`...), mapped by each renderer to its
// own palette (CSS tokens in the console, print colours in the PDF).
import { scaleBand, scaleLinear, scaleUtc } from 'd3-scale';
import { arc, area, line, pie, stack, curveMonotoneX } from 'd3-shape';
import { DAY_MS, dayOf, formatDayMonth, utcDayStartOf } from '../dates';

export interface Box {
  width: number;
  height: number;
  margin?: Partial<Margin>;
}
interface Margin { top: number; right: number; bottom: number; left: number }

export type Tone = 'pass' | 'fail' | 'total' | 'neutral' | `series-${number}` | 'critical' | 'high' | 'medium' | 'low';

export interface Tick { pos: number; label: string }
export interface PathMark { key: string; label: string; d: string; tone: Tone; kind: 'area' | 'line' | 'arc' }
export interface RectMark { key: string; label: string; value: number; x: number; y: number; width: number; height: number; tone: Tone }

export interface ChartModel {
  width: number;
  height: number;
  /** The plotting area inside the margins. */
  plot: { x: number; y: number; width: number; height: number };
  xTicks: Tick[];
  yTicks: Tick[];
  paths: PathMark[];
  rects: RectMark[];
  /** The legend, in drawing order. */
  legend: { label: string; tone: Tone }[];
}

const DEFAULT_MARGIN: Margin = { top: 12, right: 16, bottom: 28, left: 44 };

function frame(box: Box): { m: Margin; plot: ChartModel['plot'] } {
  const m = { ...DEFAULT_MARGIN, ...box.margin };
  return { m, plot: { x: m.left, y: m.top, width: Math.max(1, box.width - m.left - m.right), height: Math.max(1, box.height - m.top - m.bottom) } };
}

/** 'YYYY-MM-DD' as a UTC date. */
export function utcDay(date: string): Date {
  return new Date(utcDayStartOf(date.slice(0, 10)) ?? Number.NaN);
}

/** A short, locale-independent day label ("3 Nov"): the console and the PDF print the same. */
export function dayLabel(d: Date): string {
  return formatDayMonth(dayOf(d));
}

/** Whole-number labels with thousands separators ("12,400"). */
export function countLabel(n: number): string {
  return Math.round(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * Ticks on an axis of counts: whole numbers only, each once ("0, 1", never "0, 0, 0, 1, 1, 1" on a
 * day with one verification). d3 cuts a small domain into fractions; those are dropped, and the
 * axis keeps at least its two ends.
 */
export function countTicks(scale: { ticks(n: number): number[]; domain(): number[] }, n: number): number[] {
  const whole = scale.ticks(n).filter((v) => Number.isInteger(v));
  if (whole.length >= 2) return whole;
  const [lo = 0, hi = 1] = scale.domain();
  return [...new Set([Math.ceil(lo), Math.floor(hi)])];
}

export interface TrendPoint { date: string; pass: number; fail: number }

/**
 * Verification volume over time: passes stacked under failures as areas, with the total as a
 * line on top. One point per day, week or month (the series' own dates).
 */
export function trendChart(points: readonly TrendPoint[], box: Box): ChartModel {
  const { plot } = frame(box);
  const dates = points.map((p) => utcDay(p.date));
  const first = dates[0] ?? new Date(0);
  const last = dates[dates.length - 1] ?? first;
  const x = scaleUtc().domain([first, last.getTime() === first.getTime() ? new Date(first.getTime() + DAY_MS) : last]).range([plot.x, plot.x + plot.width]);
  const maxTotal = Math.max(1, ...points.map((p) => p.pass + p.fail));
  const y = scaleLinear().domain([0, maxTotal]).nice(4).range([plot.y + plot.height, plot.y]);

  const layers = stack<TrendPoint, 'pass' | 'fail'>().keys(['pass', 'fail'])(points as TrendPoint[]);
  const band = area<[number, number] & { data: TrendPoint }>()
    .x((d) => x(utcDay(d.data.date)))
    .y0((d) => y(d[0]))
    .y1((d) => y(d[1]))
    .curve(curveMonotoneX);
  const total = line<TrendPoint>().x((p) => x(utcDay(p.date))).y((p) => y(p.pass + p.fail)).curve(curveMonotoneX);

  const paths: PathMark[] = points.length === 0 ? [] : [
    { key: 'pass', label: 'Passed', d: band(layers[0] as never) ?? '', tone: 'pass', kind: 'area' },
    { key: 'fail', label: 'Failed', d: band(layers[1] as never) ?? '', tone: 'fail', kind: 'area' },
    { key: 'total', label: 'Total', d: total(points as TrendPoint[]) ?? '', tone: 'total', kind: 'line' },
  ];
  return {
    width: box.width, height: box.height, plot,
    xTicks: x.ticks(Math.max(2, Math.min(points.length, Math.floor(plot.width / 80)))).map((d) => ({ pos: x(d), label: dayLabel(d) })),
    yTicks: countTicks(y, 4).map((v) => ({ pos: y(v), label: countLabel(v) })),
    paths, rects: [],
    legend: [{ label: 'Passed', tone: 'pass' }, { label: 'Failed', tone: 'fail' }, { label: 'Total', tone: 'total' }],
  };
}

export interface BarItem { key: string; label: string; value: number; tone?: Tone }

/**
 * Horizontal bars, one per item, labelled on the left (product mix, confidence bands, risk
 * severity, failure reasons). `max` fixes the scale (e.g. 100 for percentages).
 */
export function barChart(items: readonly BarItem[], box: Box, opts: { max?: number; percent?: boolean } = {}): ChartModel {
  const { plot } = frame({ ...box, margin: { left: 110, bottom: 24, ...box.margin } });
  const yb = scaleBand<string>().domain(items.map((i) => i.key)).range([plot.y, plot.y + plot.height]).padding(0.28);
  const top = opts.max ?? Math.max(1, ...items.map((i) => i.value));
  const x = scaleLinear().domain([0, top]).nice(4).range([plot.x, plot.x + plot.width]);
  const rects = items.map((it, n): RectMark => ({
    key: it.key, label: it.label, value: it.value,
    x: plot.x, y: yb(it.key) ?? plot.y, width: Math.max(0, x(it.value) - plot.x), height: yb.bandwidth(),
    tone: it.tone ?? `series-${n}`,
  }));
  return {
    width: box.width, height: box.height, plot,
    xTicks: (opts.percent ? x.ticks(4) : countTicks(x, 4)).map((v) => ({ pos: x(v), label: opts.percent ? `${v}%` : countLabel(v) })),
    yTicks: items.map((it) => ({ pos: (yb(it.key) ?? 0) + yb.bandwidth() / 2, label: it.label })),
    paths: [], rects,
    legend: [],
  };
}

/** A ring of shares (product mix): arcs centred in the box; empty items are left out. */
export function donutChart(items: readonly BarItem[], box: Box): ChartModel {
  const size = Math.min(box.width, box.height);
  const outer = size / 2 - 4;
  const cx = box.width / 2;
  const cy = box.height / 2;
  const shown = items.filter((i) => i.value > 0);
  const slices = pie<BarItem>().value((i) => i.value).sort(null)(shown as BarItem[]);
  const ring = arc<(typeof slices)[number]>().innerRadius(outer * 0.58).outerRadius(outer).padAngle(shown.length > 1 ? 0.012 : 0);
  // Arcs are laid out around (0,0); the renderers translate by the plot's centre.
  return {
    width: box.width, height: box.height,
    plot: { x: cx, y: cy, width: 0, height: 0 },
    xTicks: [], yTicks: [],
    paths: slices.map((s, n) => ({
      key: s.data.key, label: s.data.label, d: ring(s) ?? '', tone: s.data.tone ?? `series-${items.indexOf(s.data) >= 0 ? items.indexOf(s.data) : n}`, kind: 'arc' as const,
    })),
    rects: [],
    legend: items.map((i, n) => ({ label: i.label, tone: i.tone ?? `series-${n}` })),
  };
}

/** A machine code as words ("no_face_detected" -> "No face detected"): failure reasons, health checks. */
export function codeLabel(code: string): string {
  const words = code.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
