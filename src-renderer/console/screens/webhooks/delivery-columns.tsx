// Columns of the delivery log. Times carry seconds: retries are seconds apart at first.
import type { GridColumn, GridColumnLayout } from '../../components/DataGrid';
import type { WebhookDelivery } from '../../../../src-shared/contracts/webhooks';
import { Badge, type BadgeTone } from '../../components/Badge';

import { formatNumber } from '../../components/format';
import { eventLabel } from './events';

const timeOnly = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' });
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** Seconds-precise time; the date only when it is not today. */
export function formatInstant(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toDateString() === new Date().toDateString() ? timeOnly.format(d) : dateTime.format(d);
}

function fromNow(iso: string, now: number): string {
  const s = Math.round((Date.parse(iso) - now) / 1000);
  if (Number.isNaN(s)) return '';
  if (s <= 0) return 'due now';
  if (s < 90) return `in ${s} s`;
  if (s < 90 * 60) return `in ${Math.round(s / 60)} min`;
  return `in ${Math.round(s / 3600)} h`;
}

function stateBadge(d: WebhookDelivery): { tone: BadgeTone; text: string; title: string } {
  switch (d.state) {
    case 'succeeded':
      return { tone: 'positive', text: 'Delivered', title: 'The receiver answered with a 2xx status.' };
    case 'failed':
      return { tone: 'negative', text: 'Failed', title: 'No more attempts will be made.' };
    case 'pending':
      return d.attempts === 0
        ? { tone: 'info', text: 'Queued', title: 'Waiting for its first attempt.' }
        : { tone: 'warning', text: 'Retrying', title: 'The last attempt failed; another is scheduled.' };
  }
}

/** A failed delivery can be tried again now by owners and admins. */
export interface RetryAction {
  onRetry: (d: WebhookDelivery) => void;
  retryingId: string | null;
}

export function deliveryColumns(now: number, retry: RetryAction | null = null): GridColumn<WebhookDelivery>[] {
  const nowrap: GridColumnLayout = { nowrap: true };
  const numeric: GridColumnLayout = { nowrap: true, numeric: true };
  return [
    {
      id: 'state',
      header: 'Status',
      width: '112px',
      ...nowrap,
      cell: (row) => {
        const b = stateBadge(row);
        return (
          <span data-testid="delivery-state" data-state={row.state}>
            <Badge tone={b.tone} title={b.title}>{b.text}</Badge>
          </span>
        );
      },
    },
    {
      id: 'event',
      header: 'Event',
      width: 'minmax(0, 1.6fr)',
      cell: (row) => (
        <span className="cell-stack">
          <span className="cell-strong" title={row.event}>{eventLabel(row.event)}</span>
          <code className="mono muted" title="Delivery id, sent as X-Service-Delivery" data-testid="delivery-id">{row.id}</code>
        </span>
      ),
    },
    {
      id: 'attempts',
      header: 'Attempts',
      width: '88px',
      ...numeric,
      cell: (row) => <span data-testid="delivery-attempts">{formatNumber(row.attempts)}</span>,
    },
    {
      id: 'status',
      header: 'Response',
      width: 'minmax(0, 1.2fr)',
      ...nowrap,
      cell: (row) => {
        const { last_status: status, last_error: error } = row;
        if (status !== null) {
          const ok = status >= 200 && status < 300;
          return <span className={ok ? 'wh-http-ok' : 'wh-http-bad'} data-testid="delivery-http">HTTP {status}</span>;
        }
        if (error) return <span className="wh-http-bad" data-testid="delivery-http">{error}</span>;
        return <span className="muted" data-testid="delivery-http">—</span>;
      },
    },
    {
      id: 'latency',
      header: 'Latency',
      width: '88px',
      ...numeric,
      cell: (row) =>
        row.last_latency_ms === null ? <span className="muted">—</span> : `${formatNumber(row.last_latency_ms)} ms`,
    },
    {
      id: 'created',
      header: 'Created',
      width: 'minmax(0, 1fr)',
      ...nowrap,
      cell: (row) => <time dateTime={row.created_at}>{formatInstant(row.created_at)}</time>,
    },
    {
      id: 'next',
      header: 'Next retry',
      width: 'minmax(0, 1fr)',
      ...nowrap,
      cell: (row) => {
        const d = row;
        if (d.state === 'pending' && d.next_attempt_at) {
          return (
            <span className="cell-stack" data-testid="delivery-next">
              <time dateTime={d.next_attempt_at}>{formatInstant(d.next_attempt_at)}</time>
              <span className="muted">{fromNow(d.next_attempt_at, now)}</span>
            </span>
          );
        }
        if (d.state === 'failed' && retry) {
          return (
            <button
              type="button" className="btn btn-small" onClick={() => retry.onRetry(d)} disabled={retry.retryingId !== null}
              data-testid="delivery-retry" aria-label={`${retry.retryingId === d.id ? 'Retrying…' : 'Retry now'}: delivery ${d.id}`}
            >
              {retry.retryingId === d.id ? 'Retrying…' : 'Retry now'}
            </button>
          );
        }
        return <span className="muted" data-testid="delivery-next">—</span>;
      },
    },
    {
      id: 'finished',
      header: 'Finished',
      width: 'minmax(0, 1fr)',
      ...nowrap,
      cell: (row) =>
        row.completed_at ? (
          <time dateTime={row.completed_at}>{formatInstant(row.completed_at)}</time>
        ) : (
          <span className="muted">—</span>
        ),
    },
  ];
}
