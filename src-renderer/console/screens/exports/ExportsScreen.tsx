// Exports: PDF and CSV files of the reports, made in the background. A queued or running job is
// watched by polling its own view (spec rule 7) until it is done or the screen goes away; a ready
// file downloads (a browser download, or the desktop shell's save dialog) until it is removed 24
// hours after it was made. Plans below Growth have no exports: they see why, not a failed request.
import { useEffect, useMemo, useState } from 'react';
import type { ExportJob, Limits } from '../../../../src-shared/contracts/reports';
import { EXPORT_PAGE } from '../../../../src-shared/contracts/reports';
import { href } from '../../app/router';
import { errorText } from '../../api/client';
import { exportsApi, reportsApi } from '../../api/reports';
import { saveFile, serviceUrl, shell } from '../../api/shell';
import { useResource } from '../../api/use-resource';
import { Alert } from '../../components/Alert';
import { DataGrid } from '../../components/DataGrid';
import { LoadError } from '../../components/LoadError';
import { Pager } from '../../components/Pager';
import { UpgradeNote } from '../../components/reports/UpgradeNote';
import { ScreenHeader } from '../../components/ScreenHeader';
import { useEnv } from '../../stores/env';
import { useSession } from '../../stores/session';
import { defaultRange } from '../../components/reports/range';
import { todayUtc } from '../../../../src-shared/dates';
import { CreateExportDialog } from '../../components/reports/CreateExportDialog';
import { exportColumns, type ExportRow } from './export-columns';
import { isActive, REPORT_TYPE_LABEL, STATUS_LABEL } from '../../components/reports/export-labels';
import { pollJob } from './poll-job';
import { may } from '../../../../src-shared/policy';

const SUMMARY = 'PDF and CSV files of your reports. Each file is kept for 24 hours after it is ready.';
/** The expiry countdown moves on every 30 seconds. */
const CLOCK_MS = 30_000;

export function ExportsScreen() {
  const limits = useResource((signal) => reportsApi.limits(signal), []);
  const l = limits.data?.data;
  if (!l) {
    return (
      <>
        <ScreenHeader title="Exports" summary={SUMMARY} />
        <LoadError testId="exports-limits-error" title="Could not load your plan's limits." error={limits.error} onRetry={limits.reload} />
        {limits.error ? null : <p className="muted">Loading…</p>}
      </>
    );
  }
  return l.can_export_reports ? <Exports limits={l} /> : <ExportsUpgrade limits={l} />;
}

function ExportsUpgrade({ limits }: { limits: Limits }) {
  const isOwner = useSession((s) => may(s.session?.user.role, 'plan.change'));
  return (
    <>
      <ScreenHeader title="Exports" summary={SUMMARY} />
      <UpgradeNote title="Export functionality requires Growth plan or higher" plan={limits.plan} canChangePlan={isOwner} testId="exports-upgrade">
        PDF reports with charts and CSV files of the data points are part of the Growth, Pro and Enterprise plans. Your reports are on
        the <a href={href('reports')}>Reports</a> screen.
      </UpgradeNote>
    </>
  );
}

type Notice = { tone: 'success' | 'error' | 'info'; text: string };

function Exports({ limits }: { limits: Limits }) {
  const env = useEnv((s) => s.env);
  const [page, setPage] = useState(1);
  const list = useResource((signal) => exportsApi.list(page, EXPORT_PAGE.default, signal), [page]);
  const [updates, setUpdates] = useState<Record<number, ExportJob>>({});
  const [creating, setCreating] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [announce, setAnnounce] = useState('');
  const [cancellingId, setCancellingId] = useState<number | null>(null);
  const [downloadingId, setDownloadingId] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const [today] = useState(() => todayUtc());

  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), CLOCK_MS);
    return () => clearInterval(timer);
  }, []);

  const rows: ExportRow[] = useMemo(
    () => (list.data?.exports ?? []).map((item) => updates[item.id] ?? item),
    [list.data, updates],
  );

  // Watch every job still queued or running; stop when it is done or the screen goes away.
  const activeKey = rows.filter((r) => isActive(r.status)).map((r) => r.id).join(',');
  useEffect(() => {
    if (!activeKey) return;
    const stops = activeKey.split(',').map(Number).map((id) =>
      pollJob(id, {
        get: exportsApi.get,
        onJob: (job) => {
          setUpdates((u) => ({ ...u, [job.id]: job }));
          if (!isActive(job.status)) {
            setAnnounce(`Export #${job.id}, ${REPORT_TYPE_LABEL[job.report_type]}: ${STATUS_LABEL[job.status]}.`);
            setNow(Date.now());
          }
        },
        onGiveUp: (e) => setNotice({ tone: 'error', text: `Stopped following export #${id}: ${errorText(e)} Reload the list to try again.` }),
      }),
    );
    return () => stops.forEach((stop) => stop());
  }, [activeKey]);

  const reload = () => {
    setUpdates({});
    list.reload();
  };

  const cancel = async (row: ExportRow) => {
    setCancellingId(row.id);
    setNotice(null);
    try {
      const res = await exportsApi.cancel(row.id);
      setNotice({ tone: 'success', text: `${res.message}: #${res.id}, ${REPORT_TYPE_LABEL[row.report_type]}.` });
    } catch (e) {
      setNotice({ tone: 'error', text: `Could not cancel export #${row.id}: ${errorText(e)}` });
    } finally {
      setCancellingId(null);
      reload();
    }
  };

  // In the desktop shell the file goes through the save dialog; in a browser it is a plain link.
  const inShell = shell() !== undefined;
  const download = async (row: ExportRow) => {
    setDownloadingId(row.id);
    setNotice(null);
    try {
      const file = await exportsApi.download(row.id);
      const name = file.filename ?? `report_${row.id}.${row.format}`;
      const saved = await saveFile({ defaultName: name, content: file.bytes, filters: [{ name: row.format.toUpperCase(), extensions: [row.format] }] });
      if (saved.saved) setNotice({ tone: 'success', text: `${name} ${saved.path ? `saved to ${saved.path}` : 'downloaded'}.` });
    } catch (e) {
      setNotice({ tone: 'error', text: `Could not download export #${row.id}: ${errorText(e)}` });
      reload();
    } finally {
      setDownloadingId(null);
    }
  };

  const columns = exportColumns({
    now,
    cancellingId,
    downloadingId,
    fileHref: (r) => (inShell ? null : `${serviceUrl()}${exportsApi.downloadPath(r.id)}`),
    onDownload: (r) => void download(r),
    onCancel: (r) => void cancel(r),
  });

  const range = defaultRange(limits.max_date_range_days, today);
  return (
    <>
      <ScreenHeader
        title="Exports"
        summary={SUMMARY}
        actions={
          <button type="button" className="btn btn-primary" onClick={() => setCreating(true)} data-testid="new-export">
            New export
          </button>
        }
      />
      {notice ? <Alert tone={notice.tone} testId="exports-notice">{notice.text}</Alert> : null}
      <p className="visually-hidden" aria-live="polite" data-testid="exports-announce">{announce}</p>
      <LoadError testId="exports-error" title="Could not load the exports." error={list.error} onRetry={reload} />

      <section className="panel" aria-labelledby="exports-heading" aria-busy={list.loading}>
        <div className="panel-header">
          <h2 id="exports-heading">Exports of your team</h2>
          <span className="muted">Everyone on the team sees them. Newest first; a queued export can be cancelled by whoever made it, an owner or an admin.</span>
        </div>
        <DataGrid
          label="Report exports"
          rows={rows}
          columns={columns}
          getRowKey={(r) => r.id}
          testId="exports-table"
          rowTestId="export-row"
          totalRows={list.data?.total}
          firstRowIndex={(page - 1) * EXPORT_PAGE.default}
          estimateRowHeight={52}
          empty={
            list.loading && !list.data ? (
              'Loading exports…'
            ) : (
              <>
                No exports yet.{' '}
                <button type="button" className="link-button" onClick={() => setCreating(true)}>
                  Create one
                </button>{' '}
                from any report and range your plan covers.
              </>
            )
          }
        />
        {list.data && list.data.total > 0 ? (
          <Pager page={list.data.page} pages={Math.max(1, list.data.pages)} total={list.data.total} noun={['exports', 'export']} onPage={setPage} disabled={list.loading} />
        ) : null}
      </section>

      {creating ? (
        <CreateExportDialog
          initial={{ env, ...range, report_type: 'full', format: 'pdf' }}
          plan={limits.plan}
          maxDays={limits.max_date_range_days}
          today={today}
          onClose={() => setCreating(false)}
          onCreated={(job) => {
            setCreating(false);
            setNotice({ tone: 'info', text: `Export #${job.id} (${REPORT_TYPE_LABEL[job.report_type]}, ${job.format.toUpperCase()}) was queued. This list follows it until the file is ready.` });
            if (page !== 1) setPage(1);
            else reload();
          }}
        />
      ) : null}
    </>
  );
}
