import type { GridColumn } from '../../components/DataGrid';
import type { LedgerEntry } from '../../../../src-shared/contracts/accounts';
import { Badge, type BadgeTone } from '../../components/Badge';
import { formatDateTime, formatSigned } from '../../components/format';

const KIND: Record<LedgerEntry['kind'], { label: string; tone: BadgeTone }> = {
  grant: { label: 'Grant', tone: 'positive' },
  charge: { label: 'Charge', tone: 'neutral' },
  adjustment: { label: 'Adjustment', tone: 'info' },
};

export const ledgerColumns: GridColumn<LedgerEntry>[] = [
  {
    id: 'created',
    header: 'Date',
    // The longest date and time ("Dec 12, 2026, 11:45 PM") whole.
    width: 'minmax(200px, 1fr)',
    nowrap: true,
    cell: (row) => <time dateTime={row.created_at}>{formatDateTime(row.created_at)}</time>,
  },
  {
    id: 'kind',
    header: 'Type',
    width: 'minmax(0, 1fr)',
    nowrap: true,
    cell: (row) => <Badge tone={KIND[row.kind].tone}>{KIND[row.kind].label}</Badge>,
  },
  {
    id: 'amount',
    header: 'Credits',
    width: '96px',
    numeric: true, nowrap: true,
    cell: (row) => (
      <span className={row.amount >= 0 ? 'amount-plus' : 'amount-minus'} data-testid="ledger-amount">
        {formatSigned(row.amount)}
      </span>
    ),
  },
  {
    id: 'product',
    header: 'Product',
    width: 'minmax(0, 1fr)',
    cell: (row) => row.product ?? <span className="muted">—</span>,
  },
  {
    id: 'env',
    header: 'Environment',
    width: '132px',
    nowrap: true,
    cell: (row) =>
      row.env ? (
        <Badge tone={row.env}>{row.env === 'test' ? 'Test' : 'Live'}</Badge>
      ) : (
        <span className="muted">—</span>
      ),
  },
  {
    id: 'reference',
    header: 'Verification',
    width: 'minmax(0, 1.2fr)',
    cell: (row) =>
      row.verification_id ? <code className="mono">{row.verification_id}</code> : <span className="muted">—</span>,
  },
  {
    id: 'note',
    header: 'Note',
    width: 'minmax(0, 1.5fr)',
    cell: (row) => row.note ?? <span className="muted">—</span>,
  },
];
