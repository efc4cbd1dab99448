// V2.1 analytics: the compliance effectiveness score, risk severity bands, this range against the
// one before it, KPIs, health checks, widget risk scores, and the credits snapshot for those
// allowed to see credits (owners, admins, billing).
import type { RiskSeverity, V21Full, V21Verification } from '../../../../src-shared/contracts/reports';
import { barChart } from '../../../../src-shared/charts/charts';
import type { Resource } from '../../api/use-resource';
import { Badge } from '../../components/Badge';
import { ChartFigure } from '../../components/charts/Chart';
import { DataGrid } from '../../components/DataGrid';
import { LoadError } from '../../components/LoadError';
import { HEALTH_LABEL, HEALTH_TONE, count, delta, depletion, emptyText, millis, percent, reasonLabel, score, type Delta } from './figures';
import { labelledColumns, widgetRiskColumns, type LabelledRow } from './report-columns';

const SEVERITY_LABEL = { critical: 'Critical (0–49)', high: 'High (50–69)', medium: 'Medium (70–84)', low: 'Low (85–100)' } as const;

function DeltaFigure({ label, value, testId }: { label: string; value: Delta | null; testId: string }) {
  return (
    <div className="rep-delta" data-testid={testId} data-direction={value?.direction ?? 'none'}>
      <dt>{label}</dt>
      <dd>
        {value ? (
          <>
            <span aria-hidden="true" className={`rep-delta-mark rep-delta-${value.direction}`}>
              {value.direction === 'up' ? '▲' : value.direction === 'down' ? '▼' : '■'}
            </span>
            <span aria-hidden="true">{value.text}</span>
            <span className="visually-hidden">{value.spoken}</span>
          </>
        ) : (
          '—'
        )}
      </dd>
    </div>
  );
}

export function ScorePanel({ v21 }: { v21: Resource<{ data: V21Verification } | undefined> }) {
  const d = v21.data?.data;
  const pc = d?.period_comparison;
  return (
    <section className="panel rep-panel" aria-labelledby="rep-score-heading" aria-busy={v21.loading} data-testid="rep-v21">
      <div className="panel-header">
        <h2 id="rep-score-heading">Compliance effectiveness</h2>
        <span className="muted">Changes against the days just before.</span>
      </div>
      <LoadError testId="rep-v21-error" title="Could not load the V2.1 analytics." error={v21.error} onRetry={v21.reload} />
      <div className="rep-score-row">
        <div className="rep-score">
          <span className="big-number" data-testid="rep-score">{d ? score(d.compliance_effectiveness_score) : '…'}</span>
          <span className="muted">out of 100</span>
        </div>
        <dl className="rep-deltas" aria-label="Change from the previous period">
          <DeltaFigure label="Verifications" value={pc ? delta(pc.total_delta, 'count') : null} testId="rep-delta-total" />
          <DeltaFigure label="Pass rate" value={pc ? delta(pc.pass_rate_delta, 'points') : null} testId="rep-delta-pass-rate" />
          <DeltaFigure label="Average confidence" value={pc ? delta(pc.avg_confidence_delta, 'points') : null} testId="rep-delta-confidence" />
        </dl>
      </div>
      <h3 className="card-title rep-subtitle">Key figures</h3>
      <dl className="facts rep-facts" data-testid="rep-kpis">
        <div>
          <dt>Verification volume</dt>
          <dd>{d ? count(d.kpis.verification_volume) : '…'}</dd>
        </div>
        <div>
          <dt>Success rate</dt>
          <dd>{d ? percent(d.kpis.success_rate) : '…'}</dd>
        </div>
        <div>
          <dt>Average response time</dt>
          <dd>{d ? millis(d.kpis.avg_response_time_ms) : '…'}</dd>
        </div>
        <div>
          <dt>Credit efficiency</dt>
          <dd>{d ? score(d.kpis.credit_efficiency) : '…'}</dd>
        </div>
      </dl>
    </section>
  );
}

export function SeverityPanel({ severity, resource }: { severity: RiskSeverity | undefined; resource: Resource<unknown> }) {
  const rows: LabelledRow[] = severity
    ? (['critical', 'high', 'medium', 'low'] as const).map((k) => ({ key: k, label: SEVERITY_LABEL[k], value: severity[k].count, share: severity[k].percentage }))
    : [];
  const total = rows.reduce((n, r) => n + r.value, 0);
  return (
    <section className="panel rep-panel" aria-labelledby="rep-severity-heading" aria-busy={resource.loading}>
      <h2 id="rep-severity-heading" className="visually-hidden">Risk severity</h2>
      <ChartFigure
        title="Risk severity"
        summary={`Risk severity by confidence: ${rows.map((r) => `${r.label} ${count(r.value)} (${percent(r.share ?? 0)})`).join(', ')}.`}
        testId="rep-severity-chart"
        height={170}
        build={(box) => barChart(rows.map((r) => ({ ...r, value: r.share ?? 0, tone: r.key as 'critical' | 'high' | 'medium' | 'low' })), { ...box, margin: { right: 56 } }, { max: 100, percent: true })}
        valueLabel={(v) => percent(v)}
        empty={emptyText(resource, total === 0)}
        data={{ columns: labelledColumns('Verifications', 'Share'), rows, getRowKey: (r) => r.key }}
      />
    </section>
  );
}

export function HealthPanel({ v21 }: { v21: Resource<{ data: V21Verification } | undefined> }) {
  const checks = v21.data?.data.health_checks ?? [];
  return (
    <section className="panel rep-panel" aria-labelledby="rep-health-heading" aria-busy={v21.loading} data-testid="rep-health">
      <div className="panel-header">
        <h2 id="rep-health-heading">Health checks</h2>
      </div>
      {checks.length === 0 ? (
        <p className="muted rep-pad">{v21.loading ? 'Loading…' : 'No health checks for this range.'}</p>
      ) : (
        <ul className="rep-health">
          {checks.map((c) => (
            <li key={c.check} data-testid="rep-health-check" data-status={c.status}>
              <Badge tone={HEALTH_TONE[c.status]}>{HEALTH_LABEL[c.status]}</Badge>
              <span className="cell-stack">
                <span className="cell-strong">{reasonLabel(c.check)}</span>
                <span className="muted">{c.message}</span>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function CreditsPanel({ full }: { full: Resource<{ data: V21Full } | undefined> }) {
  const credits = full.data?.data.credits;
  if (!credits) return null;
  if (!credits.available || !credits.snapshot) {
    return (
      <p className="muted rep-credits-hidden" data-testid="rep-credits-hidden">
        The credits snapshot is shown to owners, admins and people with billing access.
      </p>
    );
  }
  const s = credits.snapshot;
  return (
    <section className="panel rep-panel" aria-labelledby="rep-snapshot-heading" data-testid="rep-credits-snapshot">
      <div className="panel-header">
        <h2 id="rep-snapshot-heading">Credits</h2>
        <span className="muted">The balance now and the rate it is used at.</span>
      </div>
      <dl className="facts rep-facts">
        <div>
          <dt>Total available</dt>
          <dd data-testid="rep-snapshot-available">{count(s.total_available)}</dd>
        </div>
        <div>
          <dt>Subscription credits</dt>
          <dd>{count(s.subscription_credits)}</dd>
        </div>
        <div>
          <dt>Prepaid credits</dt>
          <dd>{count(s.prepaid_credits)}</dd>
        </div>
        <div>
          <dt>Consumed this period</dt>
          <dd>{count(s.consumed_this_period)}</dd>
        </div>
        <div>
          <dt>Projected monthly usage</dt>
          <dd>{count(s.projected_monthly_usage)}</dd>
        </div>
        <div>
          <dt>Until the balance runs out</dt>
          <dd data-testid="rep-snapshot-depletion">{depletion(s.days_until_depletion)}</dd>
        </div>
      </dl>
    </section>
  );
}

export function WidgetRiskPanel({ full }: { full: Resource<{ data: V21Full } | undefined> }) {
  const rows = full.data?.data.widgets ?? [];
  return (
    <section className="panel rep-panel" aria-labelledby="rep-widget-risk-heading" aria-busy={full.loading} data-testid="rep-widget-risk">
      <div className="panel-header">
        <h2 id="rep-widget-risk-heading">Widget risk scores</h2>
        <span className="muted">Per API key, from the full V2.1 report.</span>
      </div>
      <LoadError testId="rep-full-error" title="Could not load the full V2.1 report." error={full.error} onRetry={full.reload} />
      <DataGrid
        label="Widget risk scores"
        rows={rows}
        columns={widgetRiskColumns}
        getRowKey={(r) => r.api_key_id ?? `none:${r.name}`}
        testId="rep-widget-risk-table"
        rowTestId="rep-widget-risk-row"
        maxHeight={300}
        empty={full.loading && !full.data ? 'Loading…' : 'No verifications in this range.'}
      />
    </section>
  );
}
