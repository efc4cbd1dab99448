// The reports every plan has: overview tiles (the verification products, then the screening
// checks beside them), volume over time, product mix, usage by API key and the credits consumed.
// Each part loads and fails on its own. Names and counting rules: src-shared/counting.ts.
import { GRANULARITIES, type Granularity, type Overview, type ScreeningFigures, type Usage, type Volume } from '../../../../src-shared/contracts/reports';
import { DISPOSITIONS } from '../../../../src-shared/contracts/review';
import {
  AWAITING_APPROVAL_LABEL, DISPOSITION_LABEL, durationLabel, FIGURE_LABEL, operationLabel, PRODUCT_LABEL, screeningVolumeText,
} from '../../../../src-shared/counting';
import { barChart, donutChart, trendChart } from '../../../../src-shared/charts/charts';
import type { Resource } from '../../api/use-resource';
import { ChartFigure } from '../../components/charts/Chart';
import { DataGrid } from '../../components/DataGrid';
import { LoadError } from '../../components/LoadError';
import { count, emptyText, percent, score } from './figures';
import { labelledColumns, trendColumns, usageByKeyColumns, type LabelledRow } from './report-columns';

const GRANULARITY_LABEL: Record<Granularity, string> = { day: 'Daily', week: 'Weekly', month: 'Monthly' };

function Tile({ label, value, detail, testId }: { label: string; value: string; detail?: string; testId: string }) {
  return (
    <div className="rep-tile" data-testid={testId}>
      <span className="rep-tile-label">{label}</span>
      <span className="rep-tile-value" data-testid={`${testId}-value`}>{value}</span>
      {detail ? <span className="rep-tile-detail muted">{detail}</span> : null}
    </div>
  );
}

export function OverviewTiles({ overview }: { overview: Resource<{ data: Overview } | undefined> }) {
  const o = overview.data?.data;
  const dash = overview.loading && !o ? '…' : '—';
  return (
    <section className="panel rep-section" aria-labelledby="rep-overview-heading" aria-busy={overview.loading} data-testid="rep-overview">
      <h2 id="rep-overview-heading" className="visually-hidden">Overview</h2>
      <LoadError testId="rep-overview-error" title="Could not load the overview." error={overview.error} onRetry={overview.reload} />
      <div className="rep-tiles">
        <Tile testId="rep-total" label={FIGURE_LABEL.verifications} value={o ? count(o.total_verifications) : dash} detail={o ? `${count(o.pass_count)} passed, ${count(o.fail_count)} failed` : undefined} />
        <Tile testId="rep-pass-rate" label="Pass rate" value={o ? percent(o.pass_rate) : dash} />
        <Tile testId="rep-avg-confidence" label="Average confidence" value={o ? score(o.avg_confidence) : dash} detail="0–100" />
        <div className="rep-tile" data-testid="rep-by-status">
          <span className="rep-tile-label">By status</span>
          <dl className="rep-status">
            {(['PASS', 'FAIL', 'ERROR'] as const).map((s) => (
              <div key={s} data-testid={`rep-status-${s}`}>
                <dt>{s === 'PASS' ? 'Pass' : s === 'FAIL' ? 'Fail' : 'Error'}</dt>
                <dd>{o ? count(o.by_status[s]) : dash}</dd>
              </div>
            ))}
          </dl>
        </div>
      </div>
      <ScreeningTiles screening={o?.screening} dash={dash} />
    </section>
  );
}

/** The screening checks beside the verification products: volume, hit rate, dispositions, time to decision. */
function ScreeningTiles({ screening: s, dash }: { screening: ScreeningFigures | undefined; dash: string }) {
  return (
    <div className="rep-screening" data-testid="rep-screening">
      <h3 className="rep-screening-title">
        {FIGURE_LABEL.screeningChecks} <span className="muted">screenings and rescreenings, beside the {PRODUCT_LABEL.human}, {PRODUCT_LABEL.age}, {PRODUCT_LABEL.identity} and {PRODUCT_LABEL.compliance} verifications above</span>
      </h3>
      <div className="rep-tiles">
        <Tile testId="rep-screening-total" label={FIGURE_LABEL.screeningChecks} value={s ? count(s.total) : dash} detail={s ? screeningVolumeText(s) : undefined} />
        <Tile
          testId="rep-screening-hit-rate" label={FIGURE_LABEL.hitRate} value={s ? percent(s.hit_rate) : dash}
          detail={s ? `${count(s.with_hit)} of ${count(s.completed)} with a match${s.errors ? `; ${count(s.errors)} could not be done` : ''}` : undefined}
        />
        <div className="rep-tile" data-testid="rep-screening-dispositions">
          <span className="rep-tile-label">Dispositions</span>
          <dl className="rep-status rep-dispositions">
            {DISPOSITIONS.map((d) => (
              <div key={d} data-testid={`rep-screening-${d}`}>
                <dt>{DISPOSITION_LABEL[d]}</dt>
                <dd>{s ? count(s.dispositions[d]) : dash}</dd>
              </div>
            ))}
          </dl>
          {s && s.awaiting_approval > 0 ? (
            <span className="rep-tile-detail muted" data-testid="rep-screening-awaiting">{AWAITING_APPROVAL_LABEL}: {count(s.awaiting_approval)}</span>
          ) : null}
        </div>
        <Tile
          testId="rep-screening-median" label={FIGURE_LABEL.medianDecision} value={s ? durationLabel(s.median_time_to_decision_ms) : dash}
          detail={s ? `from result to disposition, over ${count(s.decided)} decided` : undefined}
        />
      </div>
    </div>
  );
}

interface VolumeProps {
  volume: Resource<{ data: Volume } | undefined>;
  granularity: Granularity;
  onGranularity: (g: Granularity) => void;
}

export function VolumePanel({ volume, granularity, onGranularity }: VolumeProps) {
  const v = volume.data?.data;
  const series = v?.series ?? [];
  const busiest = series.reduce((best, p) => (p.total > (best?.total ?? -1) ? p : best), series[0]);
  const summary = v
    ? `${count(v.totals.total)} verifications, ${count(v.totals.pass)} passed and ${count(v.totals.fail)} failed, over ${series.length} ${granularity === 'day' ? 'days' : granularity === 'week' ? 'weeks' : 'months'}${busiest && busiest.total > 0 ? `; busiest ${busiest.date} with ${count(busiest.total)}` : ''}.`
    : 'Loading';
  return (
    <section className="panel rep-panel rep-volume" aria-labelledby="rep-volume-heading" aria-busy={volume.loading}>
      <h2 id="rep-volume-heading" className="visually-hidden">Volume</h2>
      <LoadError testId="rep-volume-error" title="Could not load the volume." error={volume.error} onRetry={volume.reload} />
      <ChartFigure
        title="Verification volume"
        summary={summary}
        testId="rep-volume-chart"
        height={240}
        build={(box) => trendChart(series, box)}
        empty={emptyText(volume, v?.totals.total === 0)}
        actions={
          <label className="rep-inline-select">
            <span className="visually-hidden">Granularity</span>
            <select value={granularity} onChange={(e) => onGranularity(e.target.value as Granularity)} data-testid="rep-granularity">
              {GRANULARITIES.map((g) => (
                <option key={g} value={g}>{GRANULARITY_LABEL[g]}</option>
              ))}
            </select>
          </label>
        }
        data={{ columns: trendColumns, rows: series, getRowKey: (r) => r.date }}
      />
    </section>
  );
}

export function ProductMixPanel({ usage }: { usage: Resource<{ data: Usage } | undefined> }) {
  const u = usage.data?.data;
  const rows: LabelledRow[] = (u?.by_product ?? []).map((p) => ({ key: p.product, label: PRODUCT_LABEL[p.product], value: p.count, share: p.percentage }));
  const total = rows.reduce((n, r) => n + r.value, 0);
  const summary = rows.filter((r) => r.value > 0).map((r) => `${r.label} ${count(r.value)} (${percent(r.share ?? 0)})`).join(', ') || 'No verifications';
  return (
    <section className="panel rep-panel" aria-labelledby="rep-mix-heading" aria-busy={usage.loading}>
      <h2 id="rep-mix-heading" className="visually-hidden">Product mix</h2>
      <ChartFigure
        title="Product mix"
        summary={`Product mix: ${summary}.`}
        testId="rep-mix-chart"
        height={200}
        fixedWidth={200}
        build={(box) => donutChart(rows, box)}
        empty={emptyText(usage, total === 0)}
        data={{ columns: labelledColumns('Verifications', 'Share'), rows, getRowKey: (r) => r.key }}
      />
    </section>
  );
}

/** Billable operations in the order the plan screen lists them; anything else after them. */
function creditRows(consumed: Record<string, number>): { key: string; label: string; value: number }[] {
  return Object.entries(consumed)
    .filter(([k]) => k !== 'total')
    .map(([k, value]) => ({ key: k, label: operationLabel(k), value }));
}

export function UsagePanel({ usage }: { usage: Resource<{ data: Usage } | undefined> }) {
  const u = usage.data?.data;
  const credits = u ? creditRows(u.credits_consumed) : [];
  return (
    <section className="panel rep-panel" aria-labelledby="rep-usage-heading" aria-busy={usage.loading} data-testid="rep-usage">
      <div className="panel-header">
        <h2 id="rep-usage-heading">Usage</h2>
        <span className="muted">By API key, and the credits the range consumed.</span>
      </div>
      <LoadError testId="rep-usage-error" title="Could not load the usage." error={usage.error} onRetry={usage.reload} />
      <div className="rep-usage-body">
        <DataGrid
          label="Usage by API key"
          rows={u?.by_api_key ?? []}
          columns={usageByKeyColumns}
          getRowKey={(r) => r.api_key_id ?? `none:${r.name}`}
          testId="rep-usage-keys"
          rowTestId="rep-usage-key-row"
          maxHeight={320}
          empty={usage.loading && !u ? 'Loading…' : 'No verifications in this range.'}
        />
        <div className="rep-credits" data-testid="rep-credits-consumed">
          <h3 className="card-title">Credits consumed</h3>
          <p className="big-number" data-testid="rep-credits-total">{u ? count(u.credits_consumed.total ?? 0) : '…'}</p>
          {credits.some((c) => c.value > 0) ? (
            <ChartFigure
              title="Credits by operation"
              summary={`Credits consumed: ${credits.map((c) => `${c.label} ${count(c.value)}`).join(', ')}.`}
              testId="rep-credits-chart"
              height={Math.max(90, credits.length * 30 + 30)}
              build={(box) => barChart(credits, { ...box, margin: { right: 56 } })}
              valueLabel={count}
              data={{ columns: labelledColumns('Credits'), rows: credits, getRowKey: (r) => r.key }}
            />
          ) : null}
          <p className="muted rep-footnote">Test keys and demo keys consume no credits.</p>
        </div>
      </div>
    </section>
  );
}
