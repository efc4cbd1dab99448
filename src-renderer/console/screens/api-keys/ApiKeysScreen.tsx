// API keys: list per environment, create (key and secret shown once), revoke with a confirm.
import { useMemo, useState } from 'react';
import type { ApiKey, CreatedKey } from '../../../../src-shared/contracts/accounts';
import { api } from '../../api/client';
import { useResource } from '../../api/use-resource';
import { Alert } from '../../components/Alert';
import { DataGrid } from '../../components/DataGrid';
import { LoadError } from '../../components/LoadError';
import { ScreenHeader } from '../../components/ScreenHeader';
import { useEnv } from '../../stores/env';
import { usePlan } from '../../stores/session';
import { CreateKeyDialog } from './CreateKeyDialog';
import { keyColumns } from './key-columns';
import { NewKeyDialog } from './NewKeyDialog';
import { RevokeKeyDialog } from './RevokeKeyDialog';

type Open = { kind: 'none' } | { kind: 'create' } | { kind: 'created'; created: CreatedKey } | { kind: 'revoke'; key: ApiKey };

export function ApiKeysScreen() {
  const env = useEnv((s) => s.env);
  const plan = usePlan();
  const keys = useResource((signal) => api.listKeys(env, signal), [env]);
  const [open, setOpen] = useState<Open>({ kind: 'none' });
  const [notice, setNotice] = useState<string | null>(null);
  const columns = useMemo(() => keyColumns((key) => setOpen({ kind: 'revoke', key })), []);

  const list = keys.data?.keys ?? [];
  const active = list.filter((k) => !k.revoked_at).length;
  const envName = env === 'test' ? 'test' : 'live';

  return (
    <>
      <ScreenHeader
        title="API keys"
        summary="Keys your backend uses to call this service. Each key belongs to one environment and has product scopes."
        actions={
          <button type="button" className="btn btn-primary" onClick={() => setOpen({ kind: 'create' })} data-testid="create-key">
            Create key
          </button>
        }
      />

      {notice ? <Alert tone="success" testId="keys-notice">{notice}</Alert> : null}
      <LoadError testId="keys-error" title="Could not load the keys." error={keys.error} onRetry={keys.reload} />

      <section className="panel" aria-labelledby="keys-heading" aria-busy={keys.loading}>
        <div className="panel-header">
          <h2 id="keys-heading">{env === 'test' ? 'Test keys' : 'Live keys'}</h2>
          <span className="muted" data-testid="keys-count">
            {keys.data ? `${active} active of ${list.length}` : keys.loading ? 'Loading…' : ''}
          </span>
        </div>
        <DataGrid
          label={`${env === 'test' ? 'Test' : 'Live'} API keys`}
          rows={list}
          columns={columns}
          getRowKey={(k) => k.id}
          testId="keys-table"
          rowTestId="key-row"
          rowClassName={(k) => (k.revoked_at ? 'row-muted' : undefined)}
          empty={
            keys.loading && !keys.data ? (
              'Loading keys…'
            ) : (
              <>
                No {envName} keys yet.{' '}
                <button type="button" className="link-button" onClick={() => setOpen({ kind: 'create' })}>
                  Create one
                </button>
                {' '}to start calling the API.
              </>
            )
          }
        />
      </section>

      {open.kind === 'create' ? (
        <CreateKeyDialog
          env={env}
          plan={plan}
          onClose={() => setOpen({ kind: 'none' })}
          onCreated={(created) => {
            // The console stays in the environment it is in: making a live key is not a reason to
            // start working on live data. A key of the other environment is listed there.
            setNotice(
              created.key.env === env
                ? null
                : `Created “${created.key.name}” (${created.key.env === 'live' ? 'Live' : 'Test'}). It is listed under ${created.key.env === 'live' ? 'Live' : 'Test'} keys; the console stays in ${env === 'live' ? 'Live' : 'Test'}.`,
            );
            keys.reload();
            setOpen({ kind: 'created', created });
          }}
        />
      ) : null}
      {open.kind === 'created' ? <NewKeyDialog created={open.created} onClose={() => setOpen({ kind: 'none' })} /> : null}
      {open.kind === 'revoke' ? (
        <RevokeKeyDialog
          apiKey={open.key}
          onClose={() => setOpen({ kind: 'none' })}
          onRevoked={(key) => {
            setOpen({ kind: 'none' });
            setNotice(`Revoked “${key.name}”. Requests with this key are now refused.`);
            keys.reload();
          }}
        />
      ) : null}
    </>
  );
}
