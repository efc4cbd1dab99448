// Hosted sessions: verification pages this service hosts, made in the console for an on-site
// check (the link shown once, with a QR code for a phone or tablet), by an API key, or by a visit to
// a published flow (one stable link, its QR code shown any time). The list
// follows the console's environment and shows settings and state only. Members look; owners and
// admins create and revoke.
import { useEffect, useMemo, useRef, useState } from 'react';
import type { Environment } from '../../../../src-shared/catalog';
import type { HostedGenerateResponse, HostedSessionView } from '../../../../src-shared/contracts/hosted';
import { useResource } from '../../api/use-resource';
import { Alert } from '../../components/Alert';
import { DataGrid } from '../../components/DataGrid';
import { LoadError } from '../../components/LoadError';
import { formatDateTime } from '../../components/format';
import { ScreenHeader } from '../../components/ScreenHeader';
import { useEnv } from '../../stores/env';
import { usePlan, useSession } from '../../stores/session';
import { AttemptsDialog } from './AttemptsDialog';
import { CreateSessionDialog } from './CreateSessionDialog';
import { hostedApi } from './hosted-api';
import { isOpen, PRODUCT_INFO, type HostedProduct } from './labels';
import { FlowsPanel } from './FlowsPanel';
import { OnsitePanel } from './OnsitePanel';
import { RevokeSessionDialog } from './RevokeSessionDialog';
import { sessionColumns } from './session-columns';
import { SessionCreatedDialog } from './SessionCreatedDialog';
import './hosted.css';
import { may } from '../../../../src-shared/policy';

type Open =
  | { kind: 'none' }
  | { kind: 'create' }
  | { kind: 'created'; created: HostedGenerateResponse; product: HostedProduct; env: Environment }
  | { kind: 'revoke'; session: HostedSessionView }
  | { kind: 'attempts'; session: HostedSessionView };

/** After a revoke the row's button goes away: its state cell takes focus instead. */
function focusState(id: string): boolean {
  const cell = document.querySelector<HTMLElement>(
    `[data-testid="hosted-table"] [data-row-id="${CSS.escape(id)}"] [data-column="state"]`,
  );
  cell?.focus();
  return cell !== null;
}

export function HostedScreen() {
  const env = useEnv((s) => s.env);
  const role = useSession((s) => s.session?.user.role);
  const plan = usePlan();
  const canManage = may(role, 'hosted.manage');
  const sessions = useResource((signal) => hostedApi.list(env, signal), [env]);
  const [open, setOpen] = useState<Open>({ kind: 'none' });
  const [notice, setNotice] = useState<string | null>(null);
  const focusAfterLoad = useRef<string | null>(null);
  const columns = useMemo(
    () => sessionColumns(canManage, (session) => setOpen({ kind: 'revoke', session }), (session) => setOpen({ kind: 'attempts', session })),
    [canManage],
  );

  const list = sessions.data?.sessions ?? [];
  const openCount = list.filter(isOpen).length;
  const envLabel = env === 'test' ? 'Test' : 'Live';

  useEffect(() => {
    const id = focusAfterLoad.current;
    if (!id || sessions.loading) return;
    focusAfterLoad.current = null;
    requestAnimationFrame(() => focusState(id));
  }, [sessions.data, sessions.loading]);

  const newSession = () => setOpen({ kind: 'create' });
  /** The on-site server's panel, further down this screen: a dialog's "start the on-site server" brings it into view. */
  const showOnsite = () => {
    setOpen({ kind: 'none' });
    requestAnimationFrame(() => {
      const heading = document.getElementById('onsite-heading');
      heading?.scrollIntoView({ block: 'start' });
      document.querySelector<HTMLElement>('[data-testid="onsite-panel"] button, [data-testid="onsite-panel"] select')?.focus({ preventScroll: true });
    });
  };

  return (
    <>
      <ScreenHeader
        title="Hosted sessions"
        summary="Verification pages this service hosts: a single-use link a person opens on a phone or tablet, for example a QR code scanned on site. Sessions belong to one environment."
        actions={
          <>
            <button type="button" className="btn" onClick={sessions.reload} disabled={sessions.loading} data-testid="hosted-refresh">
              {sessions.loading && sessions.data ? 'Refreshing…' : 'Refresh'}
            </button>
            {canManage ? (
              <button type="button" className="btn btn-primary" onClick={newSession} data-testid="new-hosted">
                New session
              </button>
            ) : null}
          </>
        }
      />

      {canManage ? null : (
        <Alert tone="info" testId="hosted-read-only">
          You can see the sessions and their state. Owners and admins create and revoke them.
        </Alert>
      )}
      {notice ? <Alert tone="success" testId="hosted-notice">{notice}</Alert> : null}
      <LoadError testId="hosted-error" title="Could not load the sessions." error={sessions.error} onRetry={sessions.reload} />

      <section className="panel" aria-labelledby="hosted-heading" aria-busy={sessions.loading}>
        <div className="panel-header">
          <h2 id="hosted-heading">{envLabel} sessions</h2>
          <span className="muted" data-testid="hosted-count">
            {sessions.data
              ? `${list.length} ${list.length === 1 ? 'session' : 'sessions'}, ${openCount} open`
              : sessions.loading ? 'Loading…' : ''}
          </span>
        </div>
        <DataGrid
          label={`${envLabel} hosted sessions, newest first`}
          rows={list}
          columns={columns}
          getRowKey={(s) => s.session_id}
          testId="hosted-table"
          rowTestId="hosted-row"
          rowClassName={(s) => (isOpen(s) ? undefined : 'row-muted')}
          empty={
            sessions.loading && !sessions.data ? (
              'Loading sessions…'
            ) : canManage ? (
              <>
                No {env} sessions yet.{' '}
                <button type="button" className="link-button" onClick={newSession}>
                  Create one
                </button>
                {' '}to show a verification page on a phone or tablet.
              </>
            ) : (
              `No ${env} sessions yet.`
            )
          }
        />
        <p className="field-hint hs-footnote">
          The list holds each session’s settings and state, never what the person sent. The result goes to your
          webhooks as <code>verification.completed</code>.
        </p>
      </section>

      <FlowsPanel env={env} plan={plan} canManage={canManage} onOnsite={showOnsite} />

      <OnsitePanel canManage={canManage} />

      {open.kind === 'create' ? (
        <CreateSessionDialog
          env={env}
          plan={plan}
          onClose={() => setOpen({ kind: 'none' })}
          onCreated={(created, product) => {
            setNotice(null);
            sessions.reload();
            setOpen({ kind: 'created', created, product, env });
          }}
        />
      ) : null}
      {open.kind === 'created' ? (
        <SessionCreatedDialog
          created={open.created} product={open.product} env={open.env} onClose={() => setOpen({ kind: 'none' })} onOnsite={showOnsite}
        />
      ) : null}
      {open.kind === 'attempts' ? <AttemptsDialog session={open.session} onClose={() => setOpen({ kind: 'none' })} /> : null}
      {open.kind === 'revoke' ? (
        <RevokeSessionDialog
          session={open.session}
          onClose={() => setOpen({ kind: 'none' })}
          onStale={sessions.reload}
          onRevoked={(session) => {
            setOpen({ kind: 'none' });
            setNotice(
              `Revoked the ${PRODUCT_INFO[session.product].label.toLowerCase()} session made ${formatDateTime(session.created_at)}. Its link no longer works.`,
            );
            focusAfterLoad.current = session.session_id;
            sessions.reload();
          }}
        />
      ) : null}
    </>
  );
}
