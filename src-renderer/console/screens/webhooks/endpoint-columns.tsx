// Columns of the webhook endpoints table. Each action has its own column: the grid focuses one
// control per cell, so three buttons in one cell would leave two out of keyboard reach.
import type { GridColumn, GridColumnLayout } from '../../components/DataGrid';
import { WEBHOOK_EVENTS, type WebhookEndpoint } from '../../../../src-shared/contracts/webhooks';
import { formatDateTime } from '../../components/format';
import { eventLabel } from './events';

export interface EndpointActions {
  canManage: boolean;
  /** The endpoint whose test event is being queued, if any. */
  sendingId: string | null;
  /** The endpoint whose deliveries are open, if any. */
  openId: string | null;
  onDeliveries: (endpoint: WebhookEndpoint) => void;
  onTest: (endpoint: WebhookEndpoint) => void;
  onRemove: (endpoint: WebhookEndpoint) => void;
  onRotate: (endpoint: WebhookEndpoint) => void;
  rotatingId: string | null;
}

const hidden = (text: string) => <span className="visually-hidden">{text}</span>;

export function endpointColumns(a: EndpointActions): GridColumn<WebhookEndpoint>[] {
  const nowrap: GridColumnLayout = { nowrap: true };
  const columns: GridColumn<WebhookEndpoint>[] = [
    {
      id: 'url',
      header: 'Endpoint',
      width: 'minmax(0, 2fr)',
      cell: (row) => (
        <span className="cell-stack">
          <span className="cell-strong wh-url" data-testid="webhook-url">{row.url}</span>
          {row.description ? (
            <span className="muted" data-testid="webhook-description">{row.description}</span>
          ) : null}
        </span>
      ),
    },
    {
      id: 'events',
      header: 'Events',
      width: 'minmax(0, 1.5fr)',
      cell: (row) => {
        const events = row.events;
        if (events.length === WEBHOOK_EVENTS.length) {
          return (
            <span className="chip" title={events.join('\n')} data-testid="webhook-events">
              All {events.length} events
            </span>
          );
        }
        return (
          <span className="chips" data-testid="webhook-events">
            {events.map((e) => (
              <span key={e} className="chip" title={eventLabel(e)}>
                {e}
              </span>
            ))}
          </span>
        );
      },
    },
    {
      id: 'secret',
      header: 'Signing secret',
      width: '140px',
      ...nowrap,
      cell: (row) => <code className="mono" data-testid="webhook-secret-prefix">{row.secret_prefix}…</code>,
    },
    {
      id: 'created',
      header: 'Added',
      width: 'minmax(0, 1fr)',
      ...nowrap,
      cell: (row) => <time dateTime={row.created_at}>{formatDateTime(row.created_at)}</time>,
    },
    {
      id: 'deliveries',
      header: hidden('Deliveries'),
      width: '116px',
      ...nowrap,
      cell: (row) => (
        <button
          type="button"
          className="btn btn-small"
          onClick={() => a.onDeliveries(row)}
          aria-label={`Deliveries to ${row.url}`}
          aria-expanded={a.openId === row.id}
          aria-controls={a.openId === row.id ? 'webhook-deliveries' : undefined}
          data-testid="webhook-deliveries"
        >
          Deliveries
        </button>
      ),
    },
  ];
  if (!a.canManage) return columns;
  return [
    ...columns,
    {
      id: 'test',
      header: hidden('Send test event'),
      width: '152px',
      ...nowrap,
      cell: (row) => (
        <button
          type="button"
          className="btn btn-small"
          onClick={() => a.onTest(row)}
          disabled={a.sendingId === row.id}
          aria-label={`${a.sendingId === row.id ? 'Sending…' : 'Send test event'} to ${row.url}`}
          data-testid="test-webhook"
        >
          {a.sendingId === row.id ? 'Sending…' : 'Send test event'}
        </button>
      ),
    },
    {
      id: 'rotate',
      header: hidden('Rotate secret'),
      width: '136px',
      ...nowrap,
      cell: (row) => (
        <button
          type="button"
          className="btn btn-small"
          onClick={() => a.onRotate(row)}
          disabled={a.rotatingId === row.id || row.previous_secret_until !== null}
          title={row.previous_secret_until ? `The previous secret signs until ${new Date(row.previous_secret_until).toLocaleString()}` : undefined}
          aria-label={`${a.rotatingId === row.id ? 'Rotating…' : row.previous_secret_until ? 'Rotating (24 h)' : 'Rotate secret'} of ${row.url}`}
          data-testid="rotate-webhook"
        >
          {a.rotatingId === row.id ? 'Rotating…' : row.previous_secret_until ? 'Rotating (24 h)' : 'Rotate secret'}
        </button>
      ),
    },
    {
      id: 'remove',
      header: hidden('Remove'),
      width: '104px',
      ...nowrap,
      cell: (row) => (
        <button
          type="button"
          className="btn btn-small btn-danger-quiet"
          onClick={() => a.onRemove(row)}
          aria-label={`Remove ${row.url}`}
          data-testid="remove-webhook"
        >
          Remove
        </button>
      ),
    },
  ];
}
