// Columns of the exports table. Each action has its own column (the grid focuses one control per
// cell): Download for a ready, unexpired file; Cancel while queued.
import type { ExportJob, ExportListItem } from '../../../../src-shared/contracts/reports';
import { Badge } from '../../components/Badge';
import type { GridColumn } from '../../components/DataGrid';
import { formatDateTime } from '../../components/format';
import { expiryOf, expiryText, FAILURE_TEXT, formatBytes, FORMAT_LABEL, isExpired, REPORT_TYPE_LABEL, STATUS_LABEL, STATUS_TONE } from '../../components/reports/export-labels';

/** A list row, or the job view once polling has seen it (with expiry and, when failed, why). */
export type ExportRow = ExportListItem & Partial<Pick<ExportJob, 'expires_at' | 'download_url' | 'error_code'>>;

interface Options {
  now: number;
  cancellingId: number | null;
  downloadingId: number | null;
  /** The href of a file for the browser's own download; null in the desktop shell (save dialog). */
  fileHref: (row: ExportRow) => string | null;
  onDownload: (row: ExportRow) => void;
  onCancel: (row: ExportRow) => void;
}

function FileCell({ row, now }: { row: ExportRow; now: number }) {
  const expires = expiryOf(row);
  if (row.status === 'failed') {
    return (
      <span className="cell-stack" data-testid="export-failed">
        <span>No file</span>
        <span className="muted">{row.error_code ? FAILURE_TEXT[row.error_code] : 'Create a new export to try again'}</span>
      </span>
    );
  }
  if (!expires) return <span className="muted">Not ready yet</span>;
  if (isExpired(expires, now)) {
    return (
      <span className="cell-stack" data-testid="export-expired">
        <span className="cell-strong">Expired</span>
        <span className="muted">Create a new export</span>
      </span>
    );
  }
  return (
    <span className="cell-stack" title={new Date(expires).toISOString()}>
      <span>{formatBytes(row.file_size_bytes)}</span>
      <span className="muted" data-testid="export-expiry">{expiryText(expires, now)}</span>
    </span>
  );
}

export function exportColumns({ now, cancellingId, downloadingId, fileHref, onDownload, onCancel }: Options): GridColumn<ExportRow>[] {
  return [
    {
      id: 'report',
      header: 'Report',
      width: 'minmax(0, 2fr)',
      cell: (r) => (
        <span className="cell-stack">
          <span className="cell-strong">{REPORT_TYPE_LABEL[r.report_type]}</span>
          <span className="muted">Export #{r.id}</span>
        </span>
      ),
    },
    { id: 'format', header: 'Format', width: '80px', cell: (r) => FORMAT_LABEL[r.format] },
    {
      id: 'status',
      header: 'Status',
      width: '130px',
      cell: (r) => (
        <span data-testid="export-status" data-status={r.status}>
          <Badge tone={STATUS_TONE[r.status]}>{STATUS_LABEL[r.status]}</Badge>
        </span>
      ),
    },
    { id: 'created', header: 'Created', width: 'minmax(0, 1.3fr)', nowrap: true, cell: (r) => formatDateTime(r.created_at) },
    { id: 'file', header: 'File', width: 'minmax(0, 1.4fr)', cell: (r) => <FileCell row={r} now={now} /> },
    {
      id: 'download',
      header: <span className="visually-hidden">Download</span>,
      width: '110px',
      cell: (r) => {
        const expires = expiryOf(r);
        if (r.status !== 'succeeded' || !expires || isExpired(expires, now)) return null;
        const link = fileHref(r);
        return link ? (
          <a className="btn btn-small" href={link} download={`report_${r.id}.${r.format}`} data-testid="export-download">
            Download
          </a>
        ) : (
          <button type="button" className="btn btn-small" disabled={downloadingId === r.id} onClick={() => onDownload(r)} data-testid="export-download">
            {downloadingId === r.id ? 'Saving…' : 'Save…'}
          </button>
        );
      },
    },
    {
      id: 'cancel',
      header: <span className="visually-hidden">Cancel</span>,
      width: '96px',
      cell: (r) =>
        r.status === 'queued' ? (
          <button type="button" className="btn btn-small btn-danger-quiet" disabled={cancellingId === r.id} onClick={() => onCancel(r)} data-testid="export-cancel">
            {cancellingId === r.id ? 'Cancelling…' : 'Cancel'}
          </button>
        ) : null,
    },
  ];
}
