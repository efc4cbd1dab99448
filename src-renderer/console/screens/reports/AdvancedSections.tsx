// Advanced reports (Growth plan or higher): risk summary, widget performance and regulatory
// coverage. Lower plans see what the reports hold and how to get them, not a failed request.
import type { Plan } from '../../../../src-shared/catalog';
import type { Overview, RegulatoryCoverage, RiskSummary, WidgetPerformance } from '../../../../src-shared/contracts/reports';
import { barChart } from '../../../../src-shared/charts/charts';
import { coverageText, FIGURE_LABEL, listKindLabel } from '../../../../src-shared/counting';
import type { Resource } from '../../api/use-resource';
import { ChartFigure } from '../../components/charts/Chart';
import { DataGrid } from '../../components/DataGrid';
import { LoadError } from '../../components/LoadError';
import { UpgradeNote } from '../../components/reports/UpgradeNote';
import { count, emptyText, percent, reasonLabel, score } from './figures';
import { labelledColumns, widgetColumns, type LabelledRow } from './report-columns';

export function AdvancedUpgrade({ plan, canChangePlan }: { plan: Plan; canChangePlan: boolean }) {
  return (
    <UpgradeNote title="Advanced reports require Growth plan or higher" plan={plan} canChangePlan={canChangePlan} testId="rep-advanced-upgrade">
      Risk summary (confidence bands and failure reasons), widget performance per API key and regulatory coverage are part of the Growth,
      Pro and Enterprise plans.
    </UpgradeNote>
  );
}

const BAND_LABEL = { high: 'High (85–100)', medium: 'Medium (70–84)', low: 'Low (0–69)' } as const;
const BAND_TONE = { high: 'low', medium: 'medium', low: 'high' } as const;

export function RiskSummaryPanel({ risk }: { risk: Resource<{ data: RiskSummary } | undefined> }) {
  const r = risk.data?.data;
  const bands: LabelledRow[] = r
    ? (['high', 'medium', 'low'] as const).map((b) => ({ key: b, label: BAND_LABEL[b], value: r.confidence_distribution[b].count, share: r.confidence_distribution[b].percentage }))
    : [];
  const reasons: LabelledRow[] = (r?.failure_reasons ?? []).map((f) => ({ key: f.reason, label: reasonLabel(f.reason), value: f.count, share: f.percentage }));
  const banded = bands.reduce((n, b) => n + b.value, 0);
  return (
    <section className="panel rep-panel" aria-labelledby="rep-risk-heading" aria-busy={risk.loading} data-testid="rep-risk">
      <div className="panel-header">
        <h2 id="rep-risk-heading">Risk summary</h2>
        <span className="muted" data-testid="rep-risk-confidence">
          Average confidence {score(r?.avg_confidence ?? null)}, median {score(r?.median_confidence ?? null)}
        </span>
      </div>
      <LoadError testId="rep-risk-error" title="Could not load the risk summary." error={risk.error} onRetry={risk.reload} />
      <div className="rep-two">
        <ChartFigure
          title="Confidence bands"
          summary={`Confidence bands: ${bands.map((b) => `${b.label} ${count(b.value)} (${percent(b.share ?? 0)})`).join(', ')}.`}
          testId="rep-bands-chart"
          height={150}
          build={(box) => barChart(bands.map((b) => ({ ...b, value: b.share ?? 0, tone: BAND_TONE[b.key as keyof typeof BAND_TONE] })), { ...box, margin: { right: 56 } }, { max: 100, percent: true })}
          valueLabel={(v) => percent(v)}
          empty={emptyText(risk, banded === 0)}
          data={{ columns: labelledColumns('Verifications', 'Share'), rows: bands, getRowKey: (b) => b.key }}
        />
        <ChartFigure
          title="Failure reasons"
          summary={reasons.length ? `Failure reasons: ${reasons.map((f) => `${f.label} ${count(f.value)}`).join(', ')}.` : 'No failures.'}
          testId="rep-reasons-chart"
          height={Math.max(120, reasons.length * 28 + 30)}
          build={(box) => barChart(reasons.map((f) => ({ ...f, tone: 'fail' as const })), { ...box, margin: { left: 170, right: 56 } })}
          valueLabel={count}
          empty={risk.data === undefined ? emptyText(risk, false) : reasons.length === 0 ? 'No failures in this range.' : null}
          data={{ columns: labelledColumns('Failures', 'Share'), rows: reasons, getRowKey: (f) => f.key }}
        />
      </div>
    </section>
  );
}

export function WidgetPanel({ widgets }: { widgets: Resource<{ data: WidgetPerformance } | undefined> }) {
  const w = widgets.data?.data;
  return (
    <section className="panel rep-panel" aria-labelledby="rep-widgets-heading" aria-busy={widgets.loading} data-testid="rep-widgets">
      <div className="panel-header">
        <h2 id="rep-widgets-heading">Widget performance</h2>
        <span className="muted">Each API key your pages and widgets call with.</span>
      </div>
      <LoadError testId="rep-widgets-error" title="Could not load widget performance." error={widgets.error} onRetry={widgets.reload} />
      <DataGrid
        label="Widget performance"
        rows={w?.widgets ?? []}
        columns={widgetColumns}
        getRowKey={(r) => r.api_key_id ?? `none:${r.name}`}
        testId="rep-widgets-table"
        rowTestId="rep-widget-row"
        maxHeight={360}
        empty={widgets.loading && !w ? 'Loading…' : 'No verifications in this range.'}
      />
    </section>
  );
}

export function CoveragePanel({ coverage, overview }: { coverage: Resource<{ data: RegulatoryCoverage } | undefined>; overview: Overview | undefined }) {
  const c = coverage.data?.data;
  const cats: LabelledRow[] = (c?.categories ?? []).map((k) => ({ key: k.category, label: listKindLabel(k.category), value: k.hits }));
  return (
    <section className="panel rep-panel" aria-labelledby="rep-coverage-heading" aria-busy={coverage.loading} data-testid="rep-coverage">
      <div className="panel-header">
        <h2 id="rep-coverage-heading">Regulatory coverage</h2>
        <span className="muted">Everything checked against the lists: KYC plus verifications, screenings and rescreenings, and their hits.</span>
      </div>
      <LoadError testId="rep-coverage-error" title="Could not load regulatory coverage." error={coverage.error} onRetry={coverage.reload} />
      <dl className="facts rep-facts">
        <div>
          <dt>{FIGURE_LABEL.coverage}</dt>
          <dd data-testid="rep-coverage-count">{c ? count(c.compliance_verifications) : '…'}</dd>
        </div>
        <div>
          <dt>{FIGURE_LABEL.clearRate}</dt>
          <dd data-testid="rep-coverage-clear">{c ? percent(c.compliance_pass_rate) : '…'}</dd>
        </div>
        <div>
          <dt>{FIGURE_LABEL.hitRate}</dt>
          <dd>{c ? percent(c.hit_rate) : '…'}</dd>
        </div>
      </dl>
      {overview ? <p className="muted rep-pad" data-testid="rep-coverage-parts">{coverageText(overview.by_product.compliance, overview.screening.total)}.</p> : null}
      <ChartFigure
        title="Hits by category"
        summary={cats.length ? `Hits by category: ${cats.map((k) => `${k.label} ${count(k.value)}`).join(', ')}.` : 'No hits.'}
        testId="rep-categories-chart"
        height={Math.max(110, cats.length * 28 + 30)}
        build={(box) => barChart(cats, { ...box, margin: { left: 150, right: 56 } })}
        valueLabel={count}
        empty={c === undefined ? emptyText(coverage, false) : cats.length === 0 ? 'No screening hits in this range.' : null}
        data={{ columns: labelledColumns('Hits'), rows: cats, getRowKey: (k) => k.key }}
      />
    </section>
  );
}
