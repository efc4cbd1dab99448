// Columns of the Open batches table (owners and admins): whose batch, where it runs, how far it
// got, when it last moved, and End. The End column is the grid's one control per row.
import type { OpenBatch } from '../../../../src-shared/contracts/batch';
import { Badge } from '../../components/Badge';
import type { GridColumn } from '../../components/DataGrid';
import { formatDateTime, formatNumber, formatTime } from '../../components/format';

/** "Mo Member", or their e-mail, or their id when they are no longer on record. */
export const analystName = (b: OpenBatch) => b.user.name ?? b.user.email ?? `user ${b.user.user_id}`;

/** `onEnd` asks first (the panel's confirmation); the viewer's own batch is marked You. */
export function openBatchColumns(viewerId: number, onEnd: (batch: OpenBatch) => void): GridColumn<OpenBatch>[] {
  return [
    {
      id: 'analyst',
      header: 'Analyst',
      width: 'minmax(180px, 1.6fr)',
      cell: (b) => (
        <span className="cell-stack">
          <span className="cell-strong" data-testid="open-batch-analyst">
            {analystName(b)} {b.user.user_id === viewerId ? <Badge tone="info">You</Badge> : null}
          </span>
          {b.user.email && b.user.name ? <span className="muted">{b.user.email}</span> : null}
        </span>
      ),
    },
    {
      id: 'env',
      header: 'Mode',
      width: '72px',
      nowrap: true,
      cell: (b) => <Badge tone={b.env === 'live' ? 'live' : 'test'}>{b.env === 'live' ? 'Live' : 'Test'}</Badge>,
    },
    {
      id: 'started',
      header: 'Started',
      width: 'minmax(140px, 1fr)',
      nowrap: true,
      cell: (b) => <time dateTime={b.created_at} title={b.created_at}>{formatDateTime(b.created_at)}</time>,
    },
    {
      id: 'progress',
      header: 'Rows screened',
      width: 'minmax(150px, 1fr)',
      numeric: true,
      cell: (b) => (
        <span className="cell-stack" data-testid="open-batch-progress" data-processed={b.processed} data-total={b.total_rows}>
          <span>{formatNumber(b.processed)} / {formatNumber(b.total_rows)}</span>
          {b.errors > 0 ? <span className="muted">{formatNumber(b.errors)} not screened</span> : null}
        </span>
      ),
    },
    {
      id: 'activity',
      header: 'Last activity',
      width: 'minmax(170px, 1.1fr)',
      cell: (b) => (
        <span className="cell-stack">
          <time dateTime={b.last_activity_at} title={b.last_activity_at}>{formatDateTime(b.last_activity_at)}</time>
          <span className="muted" data-testid="open-batch-state">
            {b.screening ? 'Screening now' : <>Ends by itself at <time dateTime={b.expires_at} title={b.expires_at}>{formatTime(b.expires_at)}</time></>}
          </span>
        </span>
      ),
    },
    {
      id: 'end',
      header: <span className="visually-hidden">End</span>,
      width: '96px',
      nowrap: true,
      cell: (b) => (
        <button
          type="button" className="btn btn-small btn-danger-quiet" onClick={() => onEnd(b)}
          aria-label={`End the batch of ${analystName(b)}`} data-testid="open-batch-end"
        >
          End
        </button>
      ),
    },
  ];
}
