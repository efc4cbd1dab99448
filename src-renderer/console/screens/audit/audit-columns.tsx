// Columns of the audit log table.
import type { ColumnDef } from '@tanstack/react-table';
import type { AuditEntry } from '../../../../src-shared/contracts/audit';
import { Badge } from '../../components/Badge';
import { formatDateTime } from '../../components/format';
import { ACTION_LABEL, actorText, auditDetail } from './audit-labels';

export const auditColumns: ColumnDef<AuditEntry>[] = [
  {
    id: 'seq',
    header: 'Row',
    accessorFn: (e) => e.seq,
    meta: { numeric: true, nowrap: true },
    cell: ({ row }) => <span data-testid="audit-seq">{row.original.seq}</span>,
  },
  {
    id: 'at',
    header: 'Time',
    accessorFn: (e) => e.at,
    meta: { nowrap: true },
    cell: ({ row }) => <time dateTime={row.original.at}>{formatDateTime(row.original.at)}</time>,
  },
  {
    id: 'actor',
    header: 'Who',
    accessorFn: (e) => actorText(e),
    cell: ({ row }) => (
      <span className="cell-stack">
        <span className="cell-strong" data-testid="audit-actor">{actorText(row.original)}</span>
        {row.original.actor.role ? <span className="muted">{row.original.actor.role}</span> : null}
      </span>
    ),
  },
  {
    id: 'action',
    header: 'Action',
    accessorFn: (e) => e.action,
    meta: { nowrap: true },
    cell: ({ row }) => (
      <span data-testid="audit-action" data-action={row.original.action}>
        <Badge tone={row.original.action.startsWith('clearance') ? 'warning' : 'neutral'}>{ACTION_LABEL[row.original.action]}</Badge>
      </span>
    ),
  },
  {
    id: 'detail',
    header: 'Details',
    accessorFn: (e) => auditDetail(e),
    cell: ({ row }) => <span className="audit-detail" data-testid="audit-detail">{auditDetail(row.original)}</span>,
  },
  {
    id: 'hash',
    header: 'Hash',
    accessorFn: (e) => e.hash,
    meta: { nowrap: true },
    cell: ({ row }) => <code className="mono muted" title={row.original.hash}>{row.original.hash.slice(0, 10)}…</code>,
  },
];
