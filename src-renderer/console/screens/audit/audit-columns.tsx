// Columns of the audit log table.
import type { GridColumn } from '../../components/DataGrid';
import { AUDIT_ACTION_LABEL, type AuditEntry } from '../../../../src-shared/contracts/audit';
import { Badge } from '../../components/Badge';
import { formatDateTime } from '../../components/format';
import { actorText, auditDetail } from './audit-labels';

export const auditColumns: GridColumn<AuditEntry>[] = [
  {
    id: 'seq',
    header: 'Row',
    width: '72px',
    numeric: true, nowrap: true,
    cell: (row) => <span data-testid="audit-seq">{row.seq}</span>,
  },
  {
    id: 'at',
    header: 'Time',
    width: '180px',
    nowrap: true,
    cell: (row) => <time dateTime={row.at}>{formatDateTime(row.at)}</time>,
  },
  {
    id: 'actor',
    header: 'Who',
    width: 'minmax(0, 1fr)',
    cell: (row) => (
      <span className="cell-stack">
        <span className="cell-strong" data-testid="audit-actor">{actorText(row)}</span>
        {row.actor.role ? (
          <span className="muted">
            {row.actor.role}
            {row.source_address ? <span data-testid="audit-source"> · from {row.source_address}</span> : null}
          </span>
        ) : null}
      </span>
    ),
  },
  {
    id: 'action',
    header: 'Action',
    width: '224px',
    nowrap: true,
    cell: (row) => (
      <span data-testid="audit-action" data-action={row.action}>
        <Badge tone={row.action.startsWith('clearance') ? 'warning' : 'neutral'}>{AUDIT_ACTION_LABEL[row.action]}</Badge>
      </span>
    ),
  },
  {
    id: 'detail',
    header: 'Details',
    width: 'minmax(0, 2.5fr)',
    cell: (row) => <span className="audit-detail" data-testid="audit-detail">{auditDetail(row)}</span>,
  },
  {
    id: 'hash',
    header: 'Hash',
    width: '140px',
    nowrap: true,
    cell: (row) => <code className="mono muted" title={row.hash}>{row.hash.slice(0, 10)}…</code>,
  },
];
