// Columns of the API keys table.
import type { ColumnDef } from '@tanstack/react-table';
import type { ApiKey } from '../../../../src-shared/contracts/accounts';
import { Badge } from '../../components/Badge';
import type { DataGridColumnMeta } from '../../components/DataGrid';
import { formatDate, formatDateTime } from '../../components/format';
import { SCOPE_INFO } from './scopes';

function trialText(trial: NonNullable<ApiKey['trial']>): string {
  const used = `${trial.verifications_used} of ${trial.verifications_limit} used`;
  return trial.active ? `${used}, ends ${formatDate(trial.ends_at)}` : `Ended (${used})`;
}

export function keyColumns(onRevoke: (key: ApiKey) => void): ColumnDef<ApiKey>[] {
  const nowrap: DataGridColumnMeta = { nowrap: true };
  return [
    {
      id: 'name',
      header: 'Name',
      accessorFn: (k) => k.name,
      meta: nowrap,
      cell: ({ row }) => <span className="cell-strong" data-testid="key-name">{row.original.name}</span>,
    },
    {
      id: 'prefix',
      header: 'Key',
      accessorFn: (k) => k.prefix,
      meta: nowrap,
      cell: ({ row }) => <code className="mono" data-testid="key-prefix">{row.original.prefix}…</code>,
    },
    {
      id: 'env',
      header: 'Env',
      accessorFn: (k) => k.env,
      meta: nowrap,
      cell: ({ row }) => <Badge tone={row.original.env}>{row.original.env === 'test' ? 'Test' : 'Live'}</Badge>,
    },
    {
      id: 'scopes',
      header: 'Scopes',
      accessorFn: (k) => k.scopes.join(' '),
      meta: nowrap,
      cell: ({ row }) => (
        <span className="chips">
          {row.original.scopes.map((s) => (
            <span key={s} className="chip" title={SCOPE_INFO[s].description}>
              {s}
            </span>
          ))}
        </span>
      ),
    },
    {
      id: 'demo',
      header: 'Demo',
      accessorFn: (k) => k.demo,
      meta: nowrap,
      cell: ({ row }) =>
        row.original.demo ? <Badge tone="info" title="Simulated results, no credits">Demo</Badge> : <span className="muted">No</span>,
    },
    {
      id: 'created',
      header: 'Created',
      accessorFn: (k) => k.created_at,
      cell: ({ row }) => (
        <span className="cell-stack">
          <time dateTime={row.original.created_at} className="nowrap">{formatDateTime(row.original.created_at)}</time>
          {row.original.created_by ? (
            <span className="muted" data-testid="key-created-by">by {row.original.created_by}</span>
          ) : null}
        </span>
      ),
    },
    {
      id: 'last_used',
      header: 'Last used',
      accessorFn: (k) => k.last_used_at ?? '',
      meta: nowrap,
      cell: ({ row }) =>
        row.original.last_used_at ? (
          <time dateTime={row.original.last_used_at}>{formatDateTime(row.original.last_used_at)}</time>
        ) : (
          <span className="muted">Never</span>
        ),
    },
    {
      id: 'status',
      header: 'Status',
      accessorFn: (k) => (k.revoked_at ? 'revoked' : 'active'),
      meta: nowrap,
      cell: ({ row }) =>
        row.original.revoked_at ? (
          <span data-testid="key-status" data-status="revoked">
            <Badge tone="negative" title={`Revoked ${formatDateTime(row.original.revoked_at)}`}>Revoked</Badge>
          </span>
        ) : (
          <span data-testid="key-status" data-status="active">
            <Badge tone="positive">Active</Badge>
          </span>
        ),
    },
    {
      id: 'trial',
      header: 'Trial',
      accessorFn: (k) => (k.trial ? trialText(k.trial) : ''),
      cell: ({ row }) =>
        row.original.trial ? (
          <span className={row.original.trial.active ? undefined : 'text-warning'}>{trialText(row.original.trial)}</span>
        ) : (
          <span className="muted">—</span>
        ),
    },
    {
      id: 'actions',
      header: () => <span className="visually-hidden">Actions</span>,
      enableSorting: false,
      meta: nowrap,
      cell: ({ row }) =>
        row.original.revoked_at ? null : (
          <button
            type="button"
            className="btn btn-small btn-danger-quiet"
            onClick={() => onRevoke(row.original)}
            aria-label={`Revoke ${row.original.name}`}
            data-testid="revoke-key"
          >
            Revoke
          </button>
        ),
    },
  ];
}
