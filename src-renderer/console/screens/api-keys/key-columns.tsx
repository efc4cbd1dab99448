// Columns of the API keys table.
import type { GridColumn, GridColumnLayout } from '../../components/DataGrid';
import type { ApiKey } from '../../../../src-shared/contracts/accounts';
import { Badge } from '../../components/Badge';

import { formatDate, formatDateTime } from '../../components/format';
import { SCOPE_INFO } from './scopes';

function trialText(trial: NonNullable<ApiKey['trial']>): string {
  const used = `${trial.verifications_used} of ${trial.verifications_limit} used`;
  return trial.active ? `${used}, ends ${formatDate(trial.ends_at)}` : `Ended (${used})`;
}

export function keyColumns(onRevoke: (key: ApiKey) => void): GridColumn<ApiKey>[] {
  const nowrap: GridColumnLayout = { nowrap: true };
  return [
    {
      id: 'name',
      header: 'Name',
      width: 'minmax(0, 1.8fr)',
      ...nowrap,
      cell: (row) => <span className="cell-strong" data-testid="key-name">{row.name}</span>,
    },
    {
      id: 'prefix',
      header: 'Key',
      width: 'minmax(0, 1.3fr)',
      ...nowrap,
      cell: (row) => <code className="mono" data-testid="key-prefix">{row.prefix}…</code>,
    },
    {
      id: 'env',
      header: 'Env',
      width: '84px',
      ...nowrap,
      cell: (row) => <Badge tone={row.env}>{row.env === 'test' ? 'Test' : 'Live'}</Badge>,
    },
    {
      id: 'scopes',
      header: 'Scopes',
      width: 'minmax(0, 1.2fr)',
      ...nowrap,
      cell: (row) => (
        <span className="chips">
          {row.scopes.map((s) => (
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
      width: '92px',
      ...nowrap,
      cell: (row) =>
        row.demo ? <Badge tone="info" title="Simulated results, no credits">Demo</Badge> : <span className="muted">No</span>,
    },
    {
      id: 'created',
      header: 'Created',
      // The date and time whole on one line (the creator's e-mail wraps under it).
      width: 'minmax(184px, 1.5fr)',
      cell: (row) => (
        <span className="cell-stack">
          <time dateTime={row.created_at} className="nowrap">{formatDateTime(row.created_at)}</time>
          {row.created_by ? (
            <span className="muted" data-testid="key-created-by">by {row.created_by}</span>
          ) : null}
        </span>
      ),
    },
    {
      id: 'last_used',
      header: 'Last used',
      width: 'minmax(104px, 0.9fr)',
      ...nowrap,
      cell: (row) =>
        row.last_used_at ? (
          <time dateTime={row.last_used_at}>{formatDateTime(row.last_used_at)}</time>
        ) : (
          <span className="muted">Never</span>
        ),
    },
    {
      id: 'status',
      header: 'Status',
      width: '112px',
      ...nowrap,
      cell: (row) =>
        row.revoked_at ? (
          <span data-testid="key-status" data-status="revoked">
            <Badge tone="negative" title={`Revoked ${formatDateTime(row.revoked_at)}`}>Revoked</Badge>
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
      width: 'minmax(0, 0.8fr)',
      cell: (row) =>
        row.trial ? (
          <span className={row.trial.active ? undefined : 'text-warning'}>{trialText(row.trial)}</span>
        ) : (
          <span className="muted">—</span>
        ),
    },
    {
      id: 'actions',
      header: <span className="visually-hidden">Actions</span>,
      width: '104px',
      ...nowrap,
      cell: (row) =>
        row.revoked_at ? null : (
          <button
            type="button"
            className="btn btn-small btn-danger-quiet"
            onClick={() => onRevoke(row)}
            aria-label={`Revoke ${row.name}`}
            data-testid="revoke-key"
          >
            Revoke
          </button>
        ),
    },
  ];
}
