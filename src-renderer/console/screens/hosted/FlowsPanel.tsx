// Published flows: a stable verification link (and its QR code) that many people can open, each
// getting a fresh session from the flow's current settings. The list follows the console's
// environment. Everyone signed in sees the flows and their links; owners and admins publish,
// edit (the link stays the same) and switch them off and on.
import { useState } from 'react';
import type { Environment, Plan } from '../../../../src-shared/catalog';
import type { PublishedFlowView } from '../../../../src-shared/contracts/hosted';
import { errorText } from '../../api/client';
import { useResource } from '../../api/use-resource';
import { Alert } from '../../components/Alert';
import { Badge } from '../../components/Badge';
import { CopyField } from '../../components/CopyField';
import { DataGrid, type GridColumn } from '../../components/DataGrid';
import { Dialog } from '../../components/Dialog';
import { LinkReachNotice } from '../../components/LinkReachNotice';
import { LoadError } from '../../components/LoadError';
import { FlowDialog } from './FlowDialog';
import { flowsApi } from './hosted-api';
import { PRODUCT_INFO } from './labels';
import { CopyButton } from '../../components/ServerPanel';
import { QrCode } from './QrCode';

type Open = { kind: 'none' } | { kind: 'create' } | { kind: 'edit'; flow: PublishedFlowView } | { kind: 'qr'; flow: PublishedFlowView };

interface FlowsPanelProps {
  env: Environment;
  plan: Plan;
  canManage: boolean;
  /** Shows the on-site server (below on the same screen). */
  onOnsite: () => void;
}

function columns(canManage: boolean, act: { qr: (f: PublishedFlowView) => void; edit: (f: PublishedFlowView) => void; toggle: (f: PublishedFlowView) => void; busy: string | null }): GridColumn<PublishedFlowView>[] {
  const list: GridColumn<PublishedFlowView>[] = [
    {
      id: 'name',
      header: 'Flow',
      width: 'minmax(0, 1.3fr)',
      cell: (f) => (
        <span className="cell-stack">
          <span className="cell-strong hs-title" data-testid="flow-name">{f.name}</span>
          <span className="muted" data-testid="flow-page-title">{f.settings.page_title ?? 'Default page title'}</span>
        </span>
      ),
    },
    {
      id: 'product',
      header: 'Product',
      width: 'minmax(0, 0.7fr)',
      nowrap: true,
      cell: (f) => (
        <span className="cell-stack">
          <span data-testid="flow-product">{PRODUCT_INFO[f.product].label}{f.product === 'age' && f.settings.min_age ? ` ${f.settings.min_age}+` : ''}</span>
          <span><Badge tone={f.environment}>{f.environment === 'test' ? 'Test' : 'Live'}</Badge></span>
        </span>
      ),
    },
    {
      id: 'state',
      header: 'State',
      width: '96px',
      nowrap: true,
      cell: (f) => (
        <span data-testid="flow-state" data-enabled={String(f.enabled)}>
          <Badge tone={f.enabled ? 'positive' : 'neutral'} title={f.enabled ? 'The link starts a session for each visit.' : 'The link shows a page saying the check is not available.'}>
            {f.enabled ? 'On' : 'Off'}
          </Badge>
        </span>
      ),
    },
    {
      id: 'link',
      header: 'Link',
      width: 'minmax(0, 2.2fr)',
      cell: (f) => (
        <span className="hs-flow-link">
          <code className="mono hs-id" data-testid="flow-url">{f.url}</code>
          {f.link_reach === 'this_computer' ? (
            <span data-testid="flow-reach"><Badge tone="warning" title="A phone cannot open this address: start the on-site server or set a public URL in Settings.">This computer only</Badge></span>
          ) : null}
          <span className="hs-flow-link-actions">
            <CopyButton text={f.url} what={`Link of ${f.name}`} testId="flow-copy" />
            <button type="button" className="btn" onClick={() => act.qr(f)} aria-label={`QR code of ${f.name}`} data-testid="flow-qr-open">
              QR code
            </button>
          </span>
        </span>
      ),
    },
    {
      id: 'sessions',
      header: 'Sessions',
      width: '120px',
      numeric: true,
      cell: (f) => (
        <span className="cell-stack" data-testid="flow-counts">
          <span>{f.sessions_started} started</span>
          <span className="muted">{f.sessions_completed} completed</span>
        </span>
      ),
    },
  ];
  if (!canManage) return list;
  return [
    ...list,
    {
      id: 'actions',
      header: <span className="visually-hidden">Actions</span>,
      width: '176px',
      nowrap: true,
      cell: (f) => (
        <span className="hs-flow-actions">
          <button type="button" className="btn btn-small" onClick={() => act.edit(f)} aria-label={`Edit ${f.name}`} data-testid="flow-edit">
            Edit
          </button>
          <button
            type="button" className={`btn btn-small${f.enabled ? ' btn-danger-quiet' : ''}`} onClick={() => act.toggle(f)} disabled={act.busy === f.id}
            aria-label={`${f.enabled ? 'Switch off' : 'Switch on'} ${f.name}`} data-testid="flow-toggle"
          >
            {f.enabled ? 'Switch off' : 'Switch on'}
          </button>
        </span>
      ),
    },
  ];
}

export function FlowsPanel({ env, plan, canManage, onOnsite }: FlowsPanelProps) {
  const flows = useResource((signal) => flowsApi.list(env, signal), [env]);
  const [open, setOpen] = useState<Open>({ kind: 'none' });
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const list = flows.data?.flows ?? [];
  const envLabel = env === 'test' ? 'Test' : 'Live';

  const cols = columns(canManage, {
    qr: (flow) => setOpen({ kind: 'qr', flow }),
    edit: (flow) => setOpen({ kind: 'edit', flow }),
    toggle: (flow) => {
      setBusy(flow.id);
      setError(null);
      flowsApi.setEnabled(flow.id, !flow.enabled).then(
        (f) => {
          setNotice(f.enabled ? `“${f.name}” is on: its link starts a session again.` : `“${f.name}” is off: its link now says the check is not available. Switch it on to reopen the same link.`);
          setBusy(null);
          flows.reload();
        },
        (e: unknown) => {
          setError(errorText(e));
          setBusy(null);
        },
      );
    },
    busy,
  });

  return (
    <section className="panel" aria-labelledby="flows-heading" aria-busy={flows.loading} data-testid="flows-panel">
      <div className="panel-header">
        <h2 id="flows-heading">Published flows</h2>
        <span className="hs-flows-header-end">
          <span className="muted" data-testid="flows-count">
            {flows.data ? `${list.length} ${envLabel.toLowerCase()} ${list.length === 1 ? 'flow' : 'flows'}` : flows.loading ? 'Loading…' : ''}
          </span>
          {canManage ? (
            <button type="button" className="btn btn-small btn-primary" onClick={() => setOpen({ kind: 'create' })} data-testid="new-flow">
              New flow
            </button>
          ) : null}
        </span>
      </div>
      <p className="hs-flows-text">
        One link for many people, for example a QR code at a desk or a link on your website: each person who opens it gets their own
        session with the flow’s current settings. Editing a flow keeps its link; switching it off shows a page saying the check is not
        available until you switch it on again.
      </p>
      {notice ? <Alert tone="success" testId="flows-notice">{notice}</Alert> : null}
      {error ? <Alert testId="flows-action-error">{error}</Alert> : null}
      <LoadError testId="flows-error" title="Could not load the published flows." error={flows.error} onRetry={flows.reload} />
      <DataGrid
        label={`${envLabel} published flows, newest first`}
        rows={list}
        columns={cols}
        getRowKey={(f) => f.id}
        testId="flows-table"
        rowTestId="flow-row"
        rowClassName={(f) => (f.enabled ? undefined : 'row-muted')}
        empty={flows.loading && !flows.data ? 'Loading flows…' : `No ${env} flows yet.${canManage ? ' Publish one to give many people the same link.' : ''}`}
      />

      {open.kind === 'create' || open.kind === 'edit' ? (
        <FlowDialog
          env={env}
          plan={plan}
          flow={open.kind === 'edit' ? open.flow : undefined}
          onClose={() => setOpen({ kind: 'none' })}
          onSaved={(flow, created) => {
            flows.reload();
            setError(null);
            setNotice(created ? `Published “${flow.name}”.` : `Saved “${flow.name}”. Its link is unchanged.`);
            setOpen(created ? { kind: 'qr', flow } : { kind: 'none' });
          }}
        />
      ) : null}
      {open.kind === 'qr' ? (
        <FlowQrDialog
          flow={open.flow} onClose={() => setOpen({ kind: 'none' })}
          onOnsite={() => {
            setOpen({ kind: 'none' });
            onOnsite();
          }}
        />
      ) : null}
    </section>
  );
}

/** The flow's link and its QR code; unlike a session's, the link is not a secret and can be shown again. */
function FlowQrDialog({ flow, onClose, onOnsite }: { flow: PublishedFlowView; onClose: () => void; onOnsite: () => void }) {
  // A loopback link cannot be opened by another device: no QR code that cannot work (issue 26).
  const scannable = flow.link_reach !== 'this_computer';
  return (
    <Dialog
      title={flow.name}
      onClose={onClose}
      testId="flow-qr-dialog"
      footer={<button type="button" className="btn btn-primary" onClick={onClose} data-testid="flow-qr-done">Done</button>}
    >
      {flow.enabled ? null : (
        <Alert tone="warning" testId="flow-qr-off">This flow is off: the link shows a page saying the check is not available.</Alert>
      )}
      <LinkReachNotice reach={flow.link_reach} kind="link" onOnsite={onOnsite} after="and the flow’s link follows by itself" testId="flow-link-reach" />
      <div className="hs-share">
        {scannable ? (
          <figure className="hs-qr-frame">
            <QrCode value={flow.url} label={`QR code of the published flow ${flow.name}`} testId="flow-qr" />
            <figcaption className="muted">Print it or show it on a screen.</figcaption>
          </figure>
        ) : null}
        <div className="hs-share-text">
          <p className="hs-env-line">
            <Badge tone={flow.environment}>{flow.environment === 'test' ? 'Test' : 'Live'}</Badge>
            <strong className="text-body">{PRODUCT_INFO[flow.product].label}</strong>
          </p>
          <p className="muted">{PRODUCT_INFO[flow.product].description}</p>
          <p className="muted">
            The link stays the same when you edit the flow. Each person who opens it gets a session of their own for one hour.
          </p>
        </div>
      </div>
      <CopyField label="Flow link" value={flow.url} testId="flow-qr-url" autoFocus />
    </Dialog>
  );
}
