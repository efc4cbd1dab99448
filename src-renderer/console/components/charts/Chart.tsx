// The console's one chart renderer: draws the geometry the shared chart module lays out
// (src-shared/charts/charts.ts: the same paths and rectangles the PDF exports draw) as SVG. No
// scale maths here. Each chart is one image for assistive technology (role="img" with a summary)
// and its figures are one "Show data" press away as a table.
import { useEffect, useId, useRef, useState, type ReactNode, type RefObject } from 'react';
import type { Box, ChartModel, Tone } from '../../../../src-shared/charts/charts';
import { DataGrid, type GridColumn } from '../DataGrid';
import './charts.css';

const SERIES_COLOURS = 6;

/** The CSS class of a tone; series beyond the palette take its colours again. */
export function toneClass(tone: Tone): string {
  const m = /^series-(\d+)$/.exec(tone);
  return `chart-tone-${m ? `series-${Number(m[1]) % SERIES_COLOURS}` : tone}`;
}

export function ChartSvg({ model, title, summary, valueLabel }: { model: ChartModel; title: string; summary: string; valueLabel?: (v: number) => string }) {
  const { plot } = model;
  const bars = model.rects.length > 0;
  const donut = model.paths.some((p) => p.kind === 'arc');
  const bottom = plot.y + plot.height;
  return (
    <svg className="chart" width={model.width} height={model.height} viewBox={`0 0 ${model.width} ${model.height}`} role="img" aria-label={summary}>
      <title>{title}</title>
      {donut ? null : (
        <g className="chart-grid">
          {bars
            ? model.xTicks.map((t) => <line key={`gx${t.pos}`} x1={t.pos} x2={t.pos} y1={plot.y} y2={bottom} />)
            : model.yTicks.map((t) => <line key={`gy${t.pos}`} x1={plot.x} x2={plot.x + plot.width} y1={t.pos} y2={t.pos} />)}
        </g>
      )}
      {model.paths.map((p) => (
        <path
          key={p.key}
          d={p.d}
          className={`chart-${p.kind} ${toneClass(p.tone)}`}
          transform={p.kind === 'arc' ? `translate(${plot.x},${plot.y})` : undefined}
        />
      ))}
      {model.rects.map((r) => (
        <g key={r.key}>
          <rect x={r.x} y={r.y} width={r.width} height={r.height} rx={2} className={`chart-bar ${toneClass(r.tone)}`} />
          {valueLabel ? (
            <text x={r.x + r.width + 6} y={r.y + r.height / 2} dominantBaseline="central" className="chart-value">
              {valueLabel(r.value)}
            </text>
          ) : null}
        </g>
      ))}
      {donut ? null : (
        <g className="chart-axis">
          {bars ? null : <line x1={plot.x} x2={plot.x + plot.width} y1={bottom} y2={bottom} />}
          {model.xTicks.map((t) => (
            <text key={`x${t.pos}`} x={t.pos} y={bottom + 16} textAnchor="middle">
              {t.label}
            </text>
          ))}
          {model.yTicks.map((t) => (
            <text key={`y${t.pos}`} x={plot.x - 8} y={t.pos} textAnchor="end" dominantBaseline="central">
              {t.label}
            </text>
          ))}
        </g>
      )}
    </svg>
  );
}

export function ChartLegend({ model }: { model: ChartModel }) {
  if (model.legend.length === 0) return null;
  return (
    <ul className="chart-legend" aria-hidden="true">
      {model.legend.map((l) => (
        <li key={l.label}>
          <span className={`chart-swatch ${toneClass(l.tone)}`} />
          {l.label}
        </li>
      ))}
    </ul>
  );
}

/** The width of an element, followed as it resizes. */
function useWidth(initial: number): [RefObject<HTMLDivElement | null>, number] {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(initial);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => {
      const w = Math.floor(el.getBoundingClientRect().width);
      if (w > 0) setWidth(w);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

export interface ChartData<R> {
  columns: readonly GridColumn<R>[];
  rows: readonly R[];
  getRowKey: (row: R) => string;
}

interface ChartFigureProps<R> {
  title: string;
  /** The chart's figures in words, read out in place of the picture. */
  summary: string;
  build: (box: Box) => ChartModel;
  height: number;
  data: ChartData<R>;
  testId: string;
  /** Said instead of the chart when there is nothing to draw. */
  empty?: ReactNode;
  valueLabel?: (v: number) => string;
  /** Beside the title (a granularity choice, say). */
  actions?: ReactNode;
  /** Width of the chart's box when it should not fill the figure (a donut). */
  fixedWidth?: number;
}

/** A titled chart with its legend and a "Show data" table. */
export function ChartFigure<R>({ title, summary, build, height, data, testId, empty, valueLabel, actions, fixedWidth }: ChartFigureProps<R>) {
  const [ref, measured] = useWidth(560);
  const [showData, setShowData] = useState(false);
  const tableId = useId();
  const width = fixedWidth ?? measured;
  const model = build({ width, height });
  return (
    <figure className="chart-figure" data-testid={testId}>
      <figcaption className="chart-caption">
        <span className="chart-title">{title}</span>
        <span className="chart-actions">
          {actions}
          <button
            type="button"
            className="link-button"
            aria-expanded={showData}
            aria-controls={tableId}
            onClick={() => setShowData((v) => !v)}
            data-testid={`${testId}-toggle-data`}
          >
            {showData ? 'Hide data' : 'Show data'}
          </button>
        </span>
      </figcaption>
      <div ref={ref} className="chart-box">
        {empty ? (
          <p className="chart-empty muted" data-testid={`${testId}-empty`}>{empty}</p>
        ) : (
          <>
            <ChartSvg model={model} title={title} summary={summary} valueLabel={valueLabel} />
            <ChartLegend model={model} />
          </>
        )}
      </div>
      {showData ? (
        <div id={tableId} className="chart-data">
          <DataGrid
            label={`${title}: data`}
            rows={data.rows}
            columns={data.columns}
            getRowKey={data.getRowKey}
            testId={`${testId}-data`}
            rowTestId={`${testId}-data-row`}
            maxHeight={320}
            empty="No data in this range."
          />
        </div>
      ) : null}
    </figure>
  );
}
