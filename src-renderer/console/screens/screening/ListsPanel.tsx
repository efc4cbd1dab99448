// The lists this computer screens against, as the service loaded them at start-up. The service
// loads them a few seconds after it starts; the screen polls until they are ready.
import type { Resource } from '../../api/use-resource';
import { Alert } from '../../components/Alert';
import { Badge } from '../../components/Badge';
import { formatNumber } from '../../components/format';
import { kindLabel, versionDate } from './labels';
import type { ListsState } from './screening-api';

export function ListsPanel({ lists }: { lists: Resource<ListsState> }) {
  const data = lists.data;
  const state = data?.state ?? 'loading';
  return (
    <section className="panel scr-lists" aria-labelledby="scr-lists-heading" aria-busy={state === 'loading'} data-testid="lists-panel">
      <div className="panel-header">
        <h2 id="scr-lists-heading">Lists loaded</h2>
        <span className="scr-lists-state" data-testid="lists-state" data-state={state} role="status">
          {state === 'loading' ? (
            <>
              <span className="scr-spinner" aria-hidden="true" />
              Loading…
            </>
          ) : state === 'ready' ? (
            <Badge tone="positive">Ready</Badge>
          ) : (
            <Badge tone="negative">Not loaded</Badge>
          )}
        </span>
      </div>
      {lists.error ? (
        <Alert testId="lists-error" title="Could not ask the service for its lists.">
          {lists.error}{' '}
          <button type="button" className="link-button" onClick={lists.reload}>
            Try again
          </button>
        </Alert>
      ) : null}
      {state === 'failed' ? (
        <Alert testId="lists-failed" title="The lists could not be loaded.">
          Screening is unavailable until the service is restarted with readable list files. The service log says which file failed.
        </Alert>
      ) : null}
      {data && data.lists.length > 0 ? (
        <ul className="scr-list-items">
          {data.lists.map((l) => (
            <li key={l.source} data-testid="loaded-list" data-source={l.source}>
              <span className="scr-list-title">{l.title}</span>
              <span className="scr-list-meta">
                <Badge>{kindLabel(l.kind, true)}</Badge>
                <span data-testid="loaded-list-date">{versionDate(l)}</span>
                <span className="scr-list-count" title={`${formatNumber(l.counts.person)} of them people`}>
                  {formatNumber(l.counts.total)} records
                </span>
              </span>
            </li>
          ))}
        </ul>
      ) : state === 'loading' ? (
        <p className="scr-lists-empty muted">The service is reading the list files. This takes a few seconds after it starts.</p>
      ) : state === 'ready' ? (
        <p className="scr-lists-empty muted">No lists are installed.</p>
      ) : null}
      {data?.index ? (
        <p className="scr-lists-foot muted" data-testid="lists-index">
          {formatNumber(data.index.entities)} records, {formatNumber(data.index.names)} names indexed. Screening runs on this
          computer; subjects are never sent elsewhere or stored.
        </p>
      ) : null}
    </section>
  );
}
