// Columns of the hosted sessions table: settings and state only (the service keeps no subject
// data on a session). Revoke has its own column, shown to owners and admins.
import type { HostedSessionView } from '../../../../src-shared/contracts/hosted';
import { Badge } from '../../components/Badge';
import type { GridColumn, GridColumnLayout } from '../../components/DataGrid';
import { formatDateTime } from '../../components/format';
import { isOpen, OUTCOME_INFO, PRODUCT_INFO, STATE_INFO } from './labels';

const hidden = (text: string) => <span className="visually-hidden">{text}</span>;
const none = <span className="muted">—</span>;

export function sessionColumns(
  canManage: boolean, onRevoke: (s: HostedSessionView) => void, onAttempts: (s: HostedSessionView) => void,
): GridColumn<HostedSessionView>[] {
  const nowrap: GridColumnLayout = { nowrap: true };
  const columns: GridColumn<HostedSessionView>[] = [
    {
      id: 'created',
      header: 'Created',
      width: 'minmax(0, 1.2fr)',
      cell: (row) => (
        <span className="cell-stack">
          <time dateTime={row.created_at} className="nowrap">{formatDateTime(row.created_at)}</time>
          <span className="muted" data-testid="hosted-made-by">{row.api_key_id ? 'by an API key' : row.flow_id ? 'from a published flow' : 'in the console'}</span>
        </span>
      ),
    },
    {
      id: 'product',
      header: 'Product',
      width: 'minmax(0, 0.7fr)',
      ...nowrap,
      cell: (row) => <span data-testid="hosted-product">{PRODUCT_INFO[row.product].label}</span>,
    },
    {
      id: 'title',
      header: 'Page title',
      width: 'minmax(0, 1.3fr)',
      cell: (row) =>
        row.page_title ? <span className="cell-strong hs-title" data-testid="hosted-title">{row.page_title}</span> : <span className="muted">Default</span>,
    },
    {
      id: 'state',
      header: 'State',
      width: '112px',
      ...nowrap,
      cell: (row) => (
        <span data-testid="hosted-state" data-state={row.state}>
          <Badge tone={STATE_INFO[row.state].tone} title={STATE_INFO[row.state].description}>{STATE_INFO[row.state].label}</Badge>
        </span>
      ),
    },
    {
      id: 'outcome',
      header: 'Outcome',
      width: '96px',
      ...nowrap,
      cell: (row) =>
        row.outcome ? (
          <span data-testid="hosted-outcome" data-outcome={row.outcome}>
            <Badge tone={OUTCOME_INFO[row.outcome].tone}>{OUTCOME_INFO[row.outcome].label}</Badge>
          </span>
        ) : (
          none
        ),
    },
    {
      id: 'attempts',
      header: 'Attempts',
      width: '128px',
      ...nowrap,
      cell: (row) =>
        row.failed_attempts.length ? (
          <button
            type="button" className="btn btn-small" onClick={() => onAttempts(row)} data-testid="hosted-attempts-open"
            aria-label={`${row.failed_attempts.length} of ${row.attempts_allowed} failed: the ${PRODUCT_INFO[row.product].label.toLowerCase()} session made ${formatDateTime(row.created_at)}`}
          >
            {row.failed_attempts.length} of {row.attempts_allowed} failed
          </button>
        ) : (
          none
        ),
    },
    {
      id: 'expires',
      header: 'Expires',
      width: 'minmax(0, 1.2fr)',
      cell: (row) => <time dateTime={row.expires_at} data-testid="hosted-expires">{formatDateTime(row.expires_at)}</time>,
    },
    {
      id: 'verification',
      header: 'Verification',
      width: 'minmax(0, 1.1fr)',
      cell: (row) => (row.verification_id ? <code className="mono hs-id" data-testid="hosted-verification">{row.verification_id}</code> : none),
    },
  ];
  if (!canManage) return columns;
  return [
    ...columns,
    {
      id: 'revoke',
      header: hidden('Revoke'),
      width: '96px',
      ...nowrap,
      cell: (row) =>
        isOpen(row) ? (
          <button
            type="button"
            className="btn btn-small btn-danger-quiet"
            onClick={() => onRevoke(row)}
            aria-label={`Revoke the ${PRODUCT_INFO[row.product].label.toLowerCase()} session made ${formatDateTime(row.created_at)}`}
            data-testid="revoke-hosted"
          >
            Revoke
          </button>
        ) : null,
    },
  ];
}
