// Columns of the webhook endpoints table. Each action has its own column: the grid focuses one
// control per cell, so three buttons in one cell would leave two out of keyboard reach.
import type { ColumnDef } from '@tanstack/react-table';
import { WEBHOOK_EVENTS, type WebhookEndpoint } from '../../../../src-shared/contracts/webhooks';
import type { DataGridColumnMeta } from '../../components/DataGrid';
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
}

const hidden = (text: string) => () => <span className="visually-hidden">{text}</span>;

export function endpointColumns(a: EndpointActions): ColumnDef<WebhookEndpoint>[] {
  const nowrap: DataGridColumnMeta = { nowrap: true };
  const columns: ColumnDef<WebhookEndpoint>[] = [
    {
      id: 'url',
      header: 'Endpoint',
      accessorFn: (e) => e.url,
      cell: ({ row }) => (
        <span className="cell-stack">
          <span className="cell-strong wh-url" data-testid="webhook-url">{row.original.url}</span>
          {row.original.description ? (
            <span className="muted" data-testid="webhook-description">{row.original.description}</span>
          ) : null}
        </span>
      ),
    },
    {
      id: 'events',
      header: 'Events',
      accessorFn: (e) => e.events.join(' '),
      cell: ({ row }) => {
        const events = row.original.events;
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
      accessorFn: (e) => e.secret_prefix,
      meta: nowrap,
      cell: ({ row }) => <code className="mono" data-testid="webhook-secret-prefix">{row.original.secret_prefix}…</code>,
    },
    {
      id: 'created',
      header: 'Added',
      accessorFn: (e) => e.created_at,
      meta: nowrap,
      cell: ({ row }) => <time dateTime={row.original.created_at}>{formatDateTime(row.original.created_at)}</time>,
    },
    {
      id: 'deliveries',
      header: hidden('Deliveries'),
      meta: nowrap,
      cell: ({ row }) => (
        <button
          type="button"
          className="btn btn-small"
          onClick={() => a.onDeliveries(row.original)}
          aria-label={`Deliveries to ${row.original.url}`}
          aria-expanded={a.openId === row.original.id}
          aria-controls={a.openId === row.original.id ? 'webhook-deliveries' : undefined}
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
      meta: nowrap,
      cell: ({ row }) => (
        <button
          type="button"
          className="btn btn-small"
          onClick={() => a.onTest(row.original)}
          disabled={a.sendingId === row.original.id}
          aria-label={`Send a test event to ${row.original.url}`}
          data-testid="test-webhook"
        >
          {a.sendingId === row.original.id ? 'Sending…' : 'Send test event'}
        </button>
      ),
    },
    {
      id: 'remove',
      header: hidden('Remove'),
      meta: nowrap,
      cell: ({ row }) => (
        <button
          type="button"
          className="btn btn-small btn-danger-quiet"
          onClick={() => a.onRemove(row.original)}
          aria-label={`Remove ${row.original.url}`}
          data-testid="remove-webhook"
        >
          Remove
        </button>
      ),
    },
  ];
}
