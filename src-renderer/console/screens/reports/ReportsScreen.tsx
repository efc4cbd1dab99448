// Reports: verification analytics for the console's environment over a date range the plan
// allows. Every figure comes from the reporting API (aggregates of ledger rows; no subject data
// exists to show). Advanced reports load only on plans that include them; lower plans see an
// upgrade note instead of a refused request.
import { useState } from 'react';
import type { Limits } from '../../../../src-shared/contracts/reports';
import type { Granularity } from '../../../../src-shared/contracts/reports';
import { href } from '../../app/router';
import { reportsApi, type ReportRange } from '../../api/reports';
import { useResource } from '../../api/use-resource';
import { Alert } from '../../components/Alert';
import { Badge } from '../../components/Badge';
import { LoadError } from '../../components/LoadError';
import { ScreenHeader } from '../../components/ScreenHeader';
import { useEnv } from '../../stores/env';
import { useSession } from '../../stores/session';
import { CreateExportDialog } from '../../components/reports/CreateExportDialog';
import { AdvancedUpgrade, CoveragePanel, RiskSummaryPanel, WidgetPanel } from './AdvancedSections';
import { OverviewTiles, ProductMixPanel, UsagePanel, VolumePanel } from './CoreSections';
import { RangePicker } from '../../components/reports/RangePicker';
import { defaultRange, rangeProblem, type DayRange } from '../../components/reports/range';
import { daysInclusive, isoDayLabel, todayUtc } from '../../../../src-shared/dates';
import { CreditsPanel, HealthPanel, ScorePanel, SeverityPanel, WidgetRiskPanel } from './V21Sections';
import './reports.css';
import { may } from '../../../../src-shared/policy';

export function ReportsScreen() {
  const limits = useResource((signal) => reportsApi.limits(signal), []);
  const l = limits.data?.data;
  return (
    <>
      {l ? (
        <Dashboard limits={l} />
      ) : (
        <>
          <ScreenHeader title="Reports" summary="Volumes, pass rates, risk and regulatory coverage over a date range." />
          <LoadError testId="rep-limits-error" title="Could not load your plan's reporting limits." error={limits.error} onRetry={limits.reload} />
          {limits.error ? null : <p className="muted" data-testid="rep-loading">Loading reports…</p>}
        </>
      )}
    </>
  );
}

const NONE = () => Promise.resolve(undefined);

function Dashboard({ limits }: { limits: Limits }) {
  const env = useEnv((s) => s.env);
  const role = useSession((s) => s.session?.user.role);
  const [today] = useState(() => todayUtc());
  const [range, setRange] = useState<DayRange>(() => defaultRange(limits.max_date_range_days, today));
  const [granularity, setGranularity] = useState<Granularity>('day');
  const [exporting, setExporting] = useState(false);
  const [created, setCreated] = useState<number | null>(null);

  const problem = rangeProblem(range, limits.plan, limits.max_date_range_days);
  const r: ReportRange = { env, from: range.from, to: range.to };
  const ok = problem === null;
  const advanced = limits.can_access_advanced_reports;
  // A range the service would refuse is not asked for: the picker says what is wrong.
  const key = [env, range.from, range.to, ok];
  const overview = useResource((s) => (ok ? reportsApi.overview(r, s) : NONE()), key);
  const volume = useResource((s) => (ok ? reportsApi.volume(r, granularity, s) : NONE()), [...key, granularity]);
  const usage = useResource((s) => (ok ? reportsApi.usage(r, s) : NONE()), key);
  const risk = useResource((s) => (ok && advanced ? reportsApi.riskSummary(r, s) : NONE()), [...key, advanced]);
  const widgets = useResource((s) => (ok && advanced ? reportsApi.widgetPerformance(r, s) : NONE()), [...key, advanced]);
  const coverage = useResource((s) => (ok && advanced ? reportsApi.regulatoryCoverage(r, s) : NONE()), [...key, advanced]);
  const v21 = useResource((s) => (ok ? reportsApi.v21Verification(r, s) : NONE()), key);
  const full = useResource((s) => (ok ? reportsApi.v21Full(r, s) : NONE()), key);

  const envLabel = env === 'test' ? 'Test' : 'Live';
  const canExport = limits.can_export_reports;

  return (
    <>
      <ScreenHeader
        title="Reports"
        summary="Volumes, pass rates, risk and regulatory coverage over a date range."
        actions={
          canExport ? (
            <button type="button" className="btn" onClick={() => setExporting(true)} disabled={!ok} data-testid="rep-export">
              Export…
            </button>
          ) : (
            <span className="muted rep-export-note" data-testid="rep-export-unavailable">Exports need the Growth plan or higher.</span>
          )
        }
      />
      {created !== null ? (
        <Alert tone="success" testId="rep-export-created">
          Export #{created} is being made. <a href={href('exports')} data-testid="rep-export-link">Follow it under Exports</a>, where it can be downloaded
          when it is ready.
        </Alert>
      ) : null}

      <section className="panel rep-toolbar" aria-label="Report range">
        <div className="rep-toolbar-env">
          <span className="muted">Environment</span>
          <Badge tone={env}>{envLabel}</Badge>
          <span className="muted rep-env-hint">Switch with Test / Live at the top.</span>
        </div>
        <RangePicker value={range} onChange={setRange} plan={limits.plan} maxDays={limits.max_date_range_days} today={today} testId="rep-range" />
        {ok ? (
          <p className="rep-range-text" data-testid="rep-range-text">
            {isoDayLabel(range.from)} – {isoDayLabel(range.to)} ({daysInclusive(range.from, range.to)} days, UTC)
          </p>
        ) : null}
      </section>

      {ok ? (
        <>
          <OverviewTiles overview={overview} />
          <div className="rep-grid rep-grid-wide">
            <VolumePanel volume={volume} granularity={granularity} onGranularity={setGranularity} />
            <ProductMixPanel usage={usage} />
          </div>
          <UsagePanel usage={usage} />

          <h2 className="rep-group-title">Advanced reports</h2>
          {advanced ? (
            <>
              <RiskSummaryPanel risk={risk} />
              <WidgetPanel widgets={widgets} />
              <CoveragePanel coverage={coverage} overview={overview.data?.data} />
            </>
          ) : (
            <AdvancedUpgrade plan={limits.plan} canChangePlan={may(role, 'plan.change')} />
          )}

          <h2 className="rep-group-title">Analytics (V2.1)</h2>
          <div className="rep-grid">
            <ScorePanel v21={v21} />
            <SeverityPanel severity={v21.data?.data.risk_severity} resource={v21} />
          </div>
          <div className="rep-grid">
            <HealthPanel v21={v21} />
            <WidgetRiskPanel full={full} />
          </div>
          <CreditsPanel full={full} />
        </>
      ) : null}

      {exporting ? (
        <CreateExportDialog
          initial={{ env, from: range.from, to: range.to, report_type: advanced ? 'full' : 'overview', format: 'pdf' }}
          plan={limits.plan}
          maxDays={limits.max_date_range_days}
          today={today}
          onClose={() => setExporting(false)}
          onCreated={(job) => {
            setExporting(false);
            setCreated(job.id);
          }}
        />
      ) : null}
    </>
  );
}
