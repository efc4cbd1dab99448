// The delivery log of one endpoint, below the endpoints table so a test event can be sent and
// watched arriving. While a delivery is queued or retrying it reads the log again 2 s after the
// last answer arrived (never cutting off a slow answer), and stops once none is; coming back to a
// hidden window reads it at once. Esc closes it.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { WebhookDelivery, WebhookEndpoint } from '../../../../src-shared/contracts/webhooks';
import { errorText } from '../../api/client';
import { useResource } from '../../api/use-resource';
import { Alert } from '../../components/Alert';
import { DataGrid } from '../../components/DataGrid';
import { deliveryColumns, formatInstant } from './delivery-columns';
import { webhooksApi } from './webhooks-api';

export const DELIVERIES_PANEL_ID = 'webhook-deliveries';
const POLL_MS = 2000;

interface DeliveriesPanelProps {
  endpoint: WebhookEndpoint;
  canManage: boolean;
  sending: boolean;
  /** Bumped by the screen after it queues a test event, to load at once. */
  refreshSignal: number;
  onTest: (endpoint: WebhookEndpoint) => void;
  onClose: () => void;
}

export function DeliveriesPanel({ endpoint, canManage, sending, refreshSignal, onTest, onClose }: DeliveriesPanelProps) {
  const deliveries = useResource((signal) => webhooksApi.deliveries(endpoint.id, signal), [endpoint.id, refreshSignal]);
  const { reload } = deliveries;
  const [updatedAt, setUpdatedAt] = useState<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  // A poll used to bump the load every 2 s whatever the last one was doing: each bump aborted the
  // read still in flight, so once an answer took over 2 s (a busy service, a retried GET) none ever
  // landed and the panel kept showing its first answer ("Queued"). Now the next read is set only
  // when the last has answered, and only while something is still on its way.
  const list = deliveries.data?.deliveries ?? [];
  const watching = list.some((d) => d.state === 'pending');
  const { loading } = deliveries;
  useEffect(() => {
    if (loading || !watching) return undefined;
    const timer = setTimeout(() => {
      if (document.visibilityState === 'visible') reload();
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [loading, watching, deliveries.data, reload]);

  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState === 'visible') reload();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [reload]);

  useEffect(() => {
    if (deliveries.data) setUpdatedAt(new Date().toISOString());
  }, [deliveries.data]);

  // Opening the panel takes the reader to it.
  useEffect(() => {
    headingRef.current?.focus();
  }, []);

  // Recomputed on each load, so "in 9 s" counts down with the polling.
  const [loadedAt, setLoadedAt] = useState(Date.now);
  useEffect(() => setLoadedAt(Date.now()), [deliveries.data]);
  const [retryingId, setRetryingId] = useState<string | null>(null);
  const [retryError, setRetryError] = useState<string | null>(null);
  const retry = useCallback(async (d: WebhookDelivery) => {
    setRetryingId(d.id);
    setRetryError(null);
    try {
      await webhooksApi.retry(endpoint.id, d.id);
      reload();
    } catch (e) {
      setRetryError(errorText(e));
    } finally {
      setRetryingId(null);
    }
  }, [endpoint.id, reload]);
  const columns = useMemo(
    () => deliveryColumns(loadedAt, canManage ? { onRetry: (d) => void retry(d), retryingId } : null),
    [loadedAt, canManage, retryingId, retry],
  );

  return (
    <section
      id={DELIVERIES_PANEL_ID}
      className="panel"
      aria-labelledby="deliveries-heading"
      data-testid="deliveries-panel"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          onClose();
        }
      }}
    >
      <div className="panel-header wh-panel-header">
        <div className="wh-panel-title">
          <h2 id="deliveries-heading" ref={headingRef} tabIndex={-1}>
            Deliveries
          </h2>
          <span className="muted wh-url" data-testid="deliveries-url">{endpoint.url}</span>
        </div>
        <div className="wh-panel-actions">
          <span className="muted wh-updated" aria-live="off" data-testid="deliveries-updated">
            {updatedAt ? `Updated ${formatInstant(updatedAt)}${watching ? ' · refreshes every 2 s while a delivery is on its way' : ''}` : 'Loading…'}
          </span>
          {canManage ? (
            <button type="button" className="btn btn-small" onClick={() => onTest(endpoint)} disabled={sending} data-testid="deliveries-test">
              {sending ? 'Sending…' : 'Send test event'}
            </button>
          ) : null}
          <button type="button" className="btn btn-small" onClick={reload} data-testid="deliveries-refresh">
            Refresh
          </button>
          <button type="button" className="btn btn-small" onClick={onClose} data-testid="deliveries-close">
            Close
          </button>
        </div>
      </div>
      {retryError ? (
        <Alert testId="deliveries-retry-error" title="Could not retry the delivery.">
          {retryError}
        </Alert>
      ) : null}
      {deliveries.error ? (
        <Alert testId="deliveries-error" title="Could not load the deliveries.">
          {deliveries.error}
        </Alert>
      ) : null}
      <DataGrid
        label={`Deliveries to ${endpoint.url}`}
        rows={list}
        columns={columns}
        getRowKey={(d) => d.id}
        testId="deliveries-table"
        rowTestId="delivery-row"
        empty={
          deliveries.loading && !deliveries.data
            ? 'Loading deliveries…'
            : canManage
              ? 'Nothing sent to this endpoint yet. Send a test event to try it.'
              : 'Nothing sent to this endpoint yet.'
        }
      />
      <p className="wh-panel-foot muted">
        The latest 50 deliveries, newest first. Only delivery outcomes are kept: request and response bodies are never stored.
      </p>
    </section>
  );
}
