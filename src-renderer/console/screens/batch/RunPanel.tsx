// Step 2: where the rows are screened (the console's Test/Live choice), what it costs, Run, and
// while it runs: rows done of all, rows per second, elapsed, time left, Cancel.
import { useEffect, useMemo, useRef, useState } from 'react';
import { href } from '../../app/router';
import { useResource } from '../../api/use-resource';
import { Alert } from '../../components/Alert';
import { Badge } from '../../components/Badge';
import { formatNumber } from '../../components/format';
import { useLists } from '../../stores/lists';
import { useBatch } from '../../stores/batch';
import { useEnv } from '../../stores/env';
import { usePlan } from '../../stores/session';
import { batchApi } from './batch-api';
import { ConfirmLiveDialog } from './ConfirmLiveDialog';
import { Progress } from './Progress';
import { runBatch } from './run-batch';
import { countEntries, formatDuration } from '../../components/batch/summary';
import { planIncludes } from '../../../../src-shared/policy';

const RATE_WINDOW_MS = 5000;

/** Re-renders every `ms` while `on`, for the elapsed time and the rate. */
function useTick(on: boolean, ms: number): void {
  const [, setN] = useState(0);
  useEffect(() => {
    if (!on) return;
    const t = setInterval(() => setN((n) => n + 1), ms);
    return () => clearInterval(t);
  }, [on, ms]);
}

interface RunPanelProps {
  /** Asks before a new run throws away unsaved dispositions; calls `go` when it may. */
  guard: (action: string, go: () => void) => void;
  onSave: () => void;
  saving: boolean;
}

export function RunPanel({ guard, onSave, saving }: RunPanelProps) {
  const env = useEnv((s) => s.env);
  const canScreen = planIncludes(usePlan(), 'compliance');
  const parse = useBatch((s) => s.parse);
  const validRows = useBatch((s) => s.rows.length);
  const run = useBatch((s) => s.run);
  const entries = useBatch((s) => s.entries);
  const discard = useBatch((s) => s.discard);
  const [confirming, setConfirming] = useState(false);

  const progressRef = useRef<HTMLDivElement>(null);
  const ready = parse.status === 'done' && validRows > 0;
  const running = run !== null && (run.status === 'starting' || run.status === 'running' || run.status === 'cancelling');
  useTick(running, 500);

  const lists = useLists();
  const listsState = lists.data?.state ?? 'loading';

  const preview = useResource(
    (signal) => (ready ? batchApi.preview(env, validRows, signal) : Promise.resolve(null)),
    [env, validRows, ready, run?.status === 'done'],
  );
  const cost = preview.data ?? null;

  const finishedRun = run !== null && !['starting', 'running', 'cancelling'].includes(run.status);
  // Counted once the run is over: not on every repaint of a 100,000-row run.
  const counts = useMemo(() => (finishedRun ? countEntries(entries) : null), [entries, finishedRun]);

  // A run just started: bring its progress into view (Run sits at the bottom of the window).
  useEffect(() => {
    if (run?.status === 'starting') progressRef.current?.scrollIntoView({ block: 'nearest' });
  }, [run?.status]);

  const start = () => {
    if (!cost) return;
    if (env === 'live') setConfirming(true);
    else guard(run ? 'Run again' : 'Run', () => void runBatch('test'));
  };

  const blocked = !canScreen || !ready || listsState !== 'ready' || running || !cost || (env === 'live' && !cost.sufficient);
  let why: string | null = null;
  if (!canScreen) why = 'Batch rescreening needs the Pro or Enterprise plan.';
  else if (!ready) why = parse.status === 'parsing' ? 'Reading the file…' : 'Import a file with at least one valid row first.';
  else if (listsState === 'loading') why = 'The watchlists are still loading on this computer…';
  else if (listsState === 'failed') why = 'The watchlists could not be loaded. Restart the app, then try again.';
  else if (env === 'live' && cost && !cost.sufficient) why = 'Your credit balance does not cover this run.';

  const elapsed = run ? (run.endedAt ?? performance.now()) - run.startedAt : 0;
  // While running: the rate over the last few seconds (the first rows wait for the service to
  // warm up, which would skew the time left); once finished: the average over the whole run.
  const samples = useRef<{ at: number; processed: number }[]>([]);
  if (!running) samples.current = [];
  else if (run) {
    const now = performance.now();
    const last = samples.current.at(-1);
    if (!last || last.processed !== run.processed) samples.current.push({ at: now, processed: run.processed });
    while (samples.current.length > 2 && now - samples.current[0]!.at > RATE_WINDOW_MS) samples.current.shift();
  }
  const first = samples.current[0];
  const latest = samples.current.at(-1);
  const windowRate = first && latest && latest.at - first.at > 1000 ? ((latest.processed - first.processed) * 1000) / (latest.at - first.at) : 0;
  const rate = running ? windowRate : run && elapsed > 500 ? run.processed / (elapsed / 1000) : 0;
  const remaining = run ? run.total - run.processed : 0;
  const eta = rate > 0 ? (remaining / rate) * 1000 : null;
  const percent = run && run.total > 0 ? (run.processed / run.total) * 100 : 0;
  const finished = run !== null && !running;
  const envLabel = env === 'live' ? 'Live' : 'Test';

  return (
    <section className="panel" aria-labelledby="batch-run-heading" data-testid="batch-run">
      <div className="panel-header">
        <h2 id="batch-run-heading">2. Rescreen</h2>
        <span className="muted">Against the watchlists on this computer, {validRows > 0 ? `${formatNumber(validRows)} rows` : 'every valid row'}.</span>
      </div>
      <div className="bat-body">
        {!canScreen ? (
          <Alert tone="info" testId="batch-plan">
            Batch rescreening is part of the Pro and Enterprise plans. <a href={href('plan')}>See your plan</a>.
          </Alert>
        ) : null}

        <div className="bat-run-line">
          <dl className="bat-facts">
            <div>
              <dt>Environment</dt>
              <dd data-testid="batch-env" data-env={env}>
                <Badge tone={env}>{envLabel}</Badge>
                <span className="muted bat-small">{env === 'test' ? ' change it with Test/Live at the top' : ' real customers, credits are spent'}</span>
              </dd>
            </div>
            <div>
              <dt>Cost</dt>
              <dd data-testid="batch-cost">
                {!ready ? (
                  <span className="muted">—</span>
                ) : preview.error ? (
                  <span className="text-warning">{preview.error}</span>
                ) : !cost ? (
                  <span className="muted">…</span>
                ) : cost.credits_per_row === 0 ? (
                  'Free in Test mode'
                ) : (
                  <>
                    {formatNumber(cost.rows)} × {cost.credits_per_row} = <strong>{formatNumber(cost.total_credits)} credits</strong>
                    <span className="muted"> · balance {formatNumber(cost.balance)}</span>
                  </>
                )}
              </dd>
            </div>
            <div>
              <dt>Watchlists</dt>
              <dd data-testid="batch-lists" data-state={listsState}>
                {listsState === 'ready' ? 'Loaded' : listsState === 'failed' ? 'Not available' : 'Loading…'}
              </dd>
            </div>
          </dl>
          <div className="bat-run-actions">
            {running ? (
              <button
                type="button"
                className="btn btn-danger-quiet"
                onClick={() => useBatch.getState().stop?.()}
                disabled={run?.status === 'cancelling'}
                data-testid="batch-cancel"
              >
                {run?.status === 'cancelling' ? 'Cancelling…' : 'Cancel run'}
              </button>
            ) : (
              <button type="button" className="btn btn-primary" onClick={start} disabled={blocked} data-testid="batch-run-button">
                {run ? `Run again in ${envLabel}` : `Run in ${envLabel}`}
              </button>
            )}
          </div>
        </div>
        {why && !running ? <p className="muted bat-small" data-testid="batch-run-why">{why}</p> : null}

        {run ? (
          <div ref={progressRef} className="bat-progress-block" data-testid="batch-progress-block" data-status={run.status}>
            <Progress
              label="Rescreen progress"
              value={percent}
              text={`${Math.floor(percent)}%`}
              testId="batch-progress"
            />
            <dl className="bat-facts bat-facts-run" aria-live="off">
              <div>
                <dt>Rows</dt>
                <dd data-testid="batch-progress-rows" data-processed={run.processed} data-total={run.total}>
                  {formatNumber(run.processed)} / {formatNumber(run.total)}
                </dd>
              </div>
              <div>
                <dt>Throughput</dt>
                <dd data-testid="batch-rate">{rate > 0 ? `${formatNumber(Math.round(rate))} rows/s` : '—'}</dd>
              </div>
              <div>
                <dt>Elapsed</dt>
                <dd data-testid="batch-elapsed" data-ms={Math.round(elapsed)}>{formatDuration(elapsed)}</dd>
              </div>
              <div>
                <dt>{finished ? 'Status' : 'Time left'}</dt>
                <dd data-testid="batch-eta">
                  {finished
                    ? run.status === 'done' ? 'Finished' : run.status === 'cancelled' ? 'Cancelled' : 'Stopped by an error'
                    : run.status === 'cancelling' ? 'Cancelling…' : eta === null ? '—' : `about ${formatDuration(eta)}`}
                </dd>
              </div>
              {run.env === 'live' ? (
                <div>
                  <dt>Credits spent</dt>
                  <dd data-testid="batch-credits">{formatNumber(run.creditsCharged)}</dd>
                </div>
              ) : null}
            </dl>
            <p className="visually-hidden" role="status">
              {finished ? `Rescreen ${run.status === 'done' ? 'finished' : run.status}: ${run.processed} of ${run.total} rows.` : ''}
            </p>
          </div>
        ) : null}

        {run?.status === 'failed' && run.error ? (
          <Alert testId="batch-run-error" title="The run stopped.">
            {run.error}
          </Alert>
        ) : null}
        {run?.status === 'cancelled' ? (
          <Alert tone="warning" testId="batch-cancelled">
            {run.error ?? `Cancelled after ${formatNumber(run.processed)} of ${formatNumber(run.total)} rows.`} The rows screened so far are below
            and in the saved results; the others are marked as not screened.
          </Alert>
        ) : null}

        {finished && counts && run.processed > 0 ? (
          <div className="bat-outcome" data-testid="batch-outcome">
            <ul className="bat-counts">
              <li data-testid="count-increased"><strong>{formatNumber(counts.increased)}</strong> risk increased</li>
              <li data-testid="count-decreased"><strong>{formatNumber(counts.decreased)}</strong> decreased</li>
              <li data-testid="count-new"><strong>{formatNumber(counts.newMatches)}</strong> with new matches</li>
              <li><strong>{formatNumber(counts.unchanged)}</strong> unchanged</li>
              {counts.unknown > 0 ? <li><strong>{formatNumber(counts.unknown)}</strong> without a previous result</li> : null}
              {counts.errors > 0 ? <li data-testid="count-errors"><strong>{formatNumber(counts.errors)}</strong> not screened</li> : null}
            </ul>
            <div className="bat-outcome-actions">
              <a className="btn btn-primary" href={href('review')} data-testid="batch-open-review">
                Review risk changes
              </a>
              <button type="button" className="btn" onClick={onSave} disabled={saving} data-testid="batch-save">
                {saving ? 'Saving…' : 'Save results…'}
              </button>
              <button
                type="button"
                className="btn btn-danger-quiet"
                onClick={() => guard('Discard results', discard)}
                data-testid="batch-discard"
              >
                Discard results
              </button>
            </div>
          </div>
        ) : null}
      </div>

      {confirming && cost ? (
        <ConfirmLiveDialog
          rows={cost.rows}
          perRow={cost.credits_per_row}
          total={cost.total_credits}
          balance={cost.balance}
          onClose={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            guard(run ? 'Run again' : 'Run', () => void runBatch('live', cost.total_credits));
          }}
        />
      ) : null}
    </section>
  );
}
