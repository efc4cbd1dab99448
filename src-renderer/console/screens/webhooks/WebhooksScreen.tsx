// Webhooks: endpoints per environment, add (signing secret shown once), send a test event,
// watch the delivery log, remove with a confirm. Members look; owners and admins change.
import { useCallback, useMemo, useState } from 'react';
import type { CreatedWebhook, WebhookEndpoint } from '../../../../src-shared/contracts/webhooks';
import { errorText } from '../../api/client';
import { useResource } from '../../api/use-resource';
import { Alert } from '../../components/Alert';
import { DataGrid } from '../../components/DataGrid';
import { LoadError } from '../../components/LoadError';
import { ScreenHeader } from '../../components/ScreenHeader';
import { useEnv } from '../../stores/env';
import { useSession } from '../../stores/session';
import { AddEndpointDialog } from './AddEndpointDialog';
import { DeliveriesPanel } from './DeliveriesPanel';
import { endpointColumns } from './endpoint-columns';
import { NewSecretDialog } from './NewSecretDialog';
import { RemoveEndpointDialog } from './RemoveEndpointDialog';
import { SigningHelp } from './SigningHelp';
import { webhooksApi } from './webhooks-api';
import './webhooks.css';
import { may } from '../../../../src-shared/policy';

type Open =
  | { kind: 'none' }
  | { kind: 'add' }
  | { kind: 'created'; created: CreatedWebhook }
  | { kind: 'rotated'; created: CreatedWebhook }
  | { kind: 'remove'; endpoint: WebhookEndpoint };

type Notice = { tone: 'success' | 'error'; text: string };

function focusDeliveriesButton(id: string) {
  document
    .querySelector<HTMLElement>(`[data-testid="webhooks-table"] [data-row-id="${CSS.escape(id)}"] [data-testid="webhook-deliveries"]`)
    ?.focus();
}

export function WebhooksScreen() {
  const env = useEnv((s) => s.env);
  const setEnv = useEnv((s) => s.setEnv);
  const role = useSession((s) => s.session?.user.role);
  const canManage = may(role, 'webhooks.manage');
  const endpoints = useResource((signal) => webhooksApi.list(signal), []);
  const [open, setOpen] = useState<Open>({ kind: 'none' });
  const [notice, setNotice] = useState<Notice | null>(null);
  const [deliveriesFor, setDeliveriesFor] = useState<string | null>(null);
  const [sendingId, setSendingId] = useState<string | null>(null);
  const [rotatingId, setRotatingId] = useState<string | null>(null);
  const [refreshSignal, setRefreshSignal] = useState(0);

  const all = endpoints.data?.endpoints ?? [];
  const list = all.filter((e) => e.env === env);
  const envLabel = env === 'test' ? 'Test' : 'Live';
  // Deliveries stay open only while their endpoint is in the list on screen.
  const shown = list.find((e) => e.id === deliveriesFor) ?? null;

  const sendTest = async (endpoint: WebhookEndpoint) => {
    setSendingId(endpoint.id);
    setNotice(null);
    try {
      await webhooksApi.sendTest(endpoint.id);
      setNotice({ tone: 'success', text: `Test event queued for ${endpoint.url}. It is usually delivered within a few seconds.` });
      setDeliveriesFor(endpoint.id);
      setRefreshSignal((n) => n + 1);
    } catch (e) {
      setNotice({ tone: 'error', text: `Could not send a test event: ${errorText(e)}` });
    } finally {
      setSendingId(null);
    }
  };

  const reloadEndpoints = endpoints.reload;
  const rotate = useCallback(async (endpoint: WebhookEndpoint) => {
    setRotatingId(endpoint.id);
    setNotice(null);
    try {
      const created = await webhooksApi.rotate(endpoint.id);
      setOpen({ kind: 'rotated', created });
      reloadEndpoints();
    } catch (e) {
      setNotice({ tone: 'error', text: `Could not rotate the secret: ${errorText(e)}` });
    } finally {
      setRotatingId(null);
    }
  }, [reloadEndpoints]);

  const columns = useMemo(
    () =>
      endpointColumns({
        canManage,
        sendingId,
        openId: shown?.id ?? null,
        onDeliveries: (e) => setDeliveriesFor((current) => (current === e.id ? null : e.id)),
        onTest: (e) => void sendTest(e),
        onRemove: (e) => setOpen({ kind: 'remove', endpoint: e }),
        onRotate: (e) => void rotate(e),
        rotatingId,
      }),
    // sendTest only uses setters and its argument.
    [canManage, sendingId, shown?.id, rotatingId, rotate],
  );

  const closeDeliveries = () => {
    const id = deliveriesFor;
    setDeliveriesFor(null);
    if (id) requestAnimationFrame(() => focusDeliveriesButton(id));
  };

  return (
    <>
      <ScreenHeader
        title="Webhooks"
        summary="Endpoints on your systems that receive signed events, such as a finished verification or a screening hit. Each endpoint belongs to one environment."
        actions={
          canManage ? (
            <button type="button" className="btn btn-primary" onClick={() => setOpen({ kind: 'add' })} data-testid="add-webhook">
              Add endpoint
            </button>
          ) : null
        }
      />

      {canManage ? null : (
        <Alert tone="info" testId="webhooks-read-only">
          You can see the endpoints and their deliveries. Owners and admins add, test and remove endpoints.
        </Alert>
      )}
      {notice ? (
        <Alert tone={notice.tone} testId="webhooks-notice">
          {notice.text}
        </Alert>
      ) : null}
      <LoadError testId="webhooks-error" title="Could not load the endpoints." error={endpoints.error} onRetry={endpoints.reload} />

      <section className="panel" aria-labelledby="webhooks-heading" aria-busy={endpoints.loading}>
        <div className="panel-header">
          <h2 id="webhooks-heading">{envLabel} endpoints</h2>
          <span className="muted" data-testid="webhooks-count">
            {endpoints.data ? `${list.length} ${list.length === 1 ? 'endpoint' : 'endpoints'}` : endpoints.loading ? 'Loading…' : ''}
          </span>
        </div>
        <DataGrid
          label={`${envLabel} webhook endpoints`}
          rows={list}
          columns={columns}
          getRowKey={(e) => e.id}
          testId="webhooks-table"
          rowTestId="webhook-row"
          rowClassName={(e) => (e.id === shown?.id ? 'wh-row-open' : undefined)}
          empty={
            endpoints.loading && !endpoints.data ? (
              'Loading endpoints…'
            ) : canManage ? (
              <>
                No {env} endpoints yet.{' '}
                <button type="button" className="link-button" onClick={() => setOpen({ kind: 'add' })}>
                  Add one
                </button>
                {' '}to receive {env} events.
              </>
            ) : (
              `No ${env} endpoints yet.`
            )
          }
        />
      </section>

      {shown ? (
        <DeliveriesPanel
          key={shown.id}
          endpoint={shown}
          canManage={canManage}
          sending={sendingId === shown.id}
          refreshSignal={refreshSignal}
          onTest={(e) => void sendTest(e)}
          onClose={closeDeliveries}
        />
      ) : null}

      <section className="panel wh-help-panel" aria-labelledby="signing-heading">
        <div className="panel-header">
          <h2 id="signing-heading">Checking a delivery</h2>
          <span className="muted">Every event is an HTTP POST with a JSON body and these headers.</span>
        </div>
        <SigningHelp />
      </section>

      {open.kind === 'add' ? (
        <AddEndpointDialog
          env={env}
          onClose={() => setOpen({ kind: 'none' })}
          onCreated={(created) => {
            setNotice(null);
            // Show the new endpoint in the list it belongs to.
            if (created.endpoint.env !== env) setEnv(created.endpoint.env);
            endpoints.reload();
            setOpen({ kind: 'created', created });
          }}
        />
      ) : null}
      {open.kind === 'created' ? <NewSecretDialog created={open.created} onClose={() => setOpen({ kind: 'none' })} /> : null}
      {open.kind === 'rotated' ? <NewSecretDialog rotated created={open.created} onClose={() => setOpen({ kind: 'none' })} /> : null}
      {open.kind === 'remove' ? (
        <RemoveEndpointDialog
          endpoint={open.endpoint}
          onClose={() => setOpen({ kind: 'none' })}
          onRemoved={(endpoint) => {
            setOpen({ kind: 'none' });
            if (deliveriesFor === endpoint.id) setDeliveriesFor(null);
            setNotice({ tone: 'success', text: `Removed ${endpoint.url}. It no longer receives events.` });
            endpoints.reload();
          }}
        />
      ) : null}
    </>
  );
}
