import type { ColumnDef } from '@tanstack/react-table';
import type { LedgerEntry } from '../../../../src-shared/contracts/accounts';
import { Badge, type BadgeTone } from '../../components/Badge';
import { formatDateTime, formatSigned } from '../../components/format';

const KIND: Record<LedgerEntry['kind'], { label: string; tone: BadgeTone }> = {
  grant: { label: 'Grant', tone: 'positive' },
  charge: { label: 'Charge', tone: 'neutral' },
  adjustment: { label: 'Adjustment', tone: 'info' },
};

export const ledgerColumns: ColumnDef<LedgerEntry>[] = [
  {
    id: 'created',
    header: 'Date',
    accessorFn: (e) => e.created_at,
    meta: { nowrap: true },
    cell: ({ row }) => <time dateTime={row.original.created_at}>{formatDateTime(row.original.created_at)}</time>,
  },
  {
    id: 'kind',
    header: 'Type',
    accessorFn: (e) => e.kind,
    meta: { nowrap: true },
    cell: ({ row }) => <Badge tone={KIND[row.original.kind].tone}>{KIND[row.original.kind].label}</Badge>,
  },
  {
    id: 'amount',
    header: 'Credits',
    accessorFn: (e) => e.amount,
    meta: { numeric: true, nowrap: true },
    cell: ({ row }) => (
      <span className={row.original.amount >= 0 ? 'amount-plus' : 'amount-minus'} data-testid="ledger-amount">
        {formatSigned(row.original.amount)}
      </span>
    ),
  },
  {
    id: 'product',
    header: 'Product',
    accessorFn: (e) => e.product ?? '',
    cell: ({ row }) => row.original.product ?? <span className="muted">—</span>,
  },
  {
    id: 'env',
    header: 'Environment',
    accessorFn: (e) => e.env ?? '',
    meta: { nowrap: true },
    cell: ({ row }) =>
      row.original.env ? (
        <Badge tone={row.original.env}>{row.original.env === 'test' ? 'Test' : 'Live'}</Badge>
      ) : (
        <span className="muted">—</span>
      ),
  },
  {
    id: 'reference',
    header: 'Verification',
    accessorFn: (e) => e.verification_id ?? '',
    cell: ({ row }) =>
      row.original.verification_id ? <code className="mono">{row.original.verification_id}</code> : <span className="muted">—</span>,
  },
  {
    id: 'note',
    header: 'Note',
    accessorFn: (e) => e.note ?? '',
    cell: ({ row }) => row.original.note ?? <span className="muted">—</span>,
  },
];
