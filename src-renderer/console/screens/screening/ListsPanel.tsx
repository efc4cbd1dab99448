// The lists this computer screens against, as the service loaded them at start-up. The service
// loads them a few seconds after it starts; the shared lists (stores/lists.ts) ask until they are ready.
// Owners and admins also manage them here: a newer edition of an official list, and the
// organisation's own lists (CSV). After a change the screen's lists reload, and with them the
// list kinds the form offers. Members see the same lists, read-only.
import { useId, useState } from 'react';
import { Alert } from '../../components/Alert';
import { Badge } from '../../components/Badge';
import { formatDate, formatNumber } from '../../components/format';
import { kindLabel } from '../../components/screening-labels';
import { useLists } from '../../stores/lists';
import { useSession } from '../../stores/session';
import { versionDate } from './labels';
import { AddListDialog } from './lists/AddListDialog';
import { HeldImports } from './lists/HeldImports';
import { ImportOfficialDialog } from './lists/ImportOfficialDialog';
import type { UserList } from './lists/lists-api';
import { RemoveListDialog } from './lists/RemoveListDialog';
import './lists/lists.css';
import { may } from '../../../../src-shared/policy';

type Open = { kind: 'none' } | { kind: 'official' } | { kind: 'user' } | { kind: 'remove'; list: UserList };

const USER_SOURCE = 'user:';
export function ListsPanel() {
  const lists = useLists();
  const role = useSession((s) => s.session?.user.role);
  const canManage = may(role, 'lists.manage');
  const data = lists.data;
  const state = data?.state ?? 'loading';
  const ownHeading = useId();
  const [open, setOpen] = useState<Open>({ kind: 'none' });
  const [notice, setNotice] = useState<string | null>(null);

  // The service answers a change once it is stored; its rebuilt lists can follow a moment later
  // (another rebuild may be under way): the shared lists ask again until they show the change.
  const changed = lists.changed;

  const official = (data?.lists ?? []).filter((l) => !l.source.startsWith(USER_SOURCE));
  const bySource = new Map((data?.lists ?? []).map((l) => [l.source, l]));
  const userLists = data?.user_lists ?? [];
  const close = () => setOpen({ kind: 'none' });
  const show = (next: Open) => {
    setNotice(null);
    setOpen(next);
  };

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
          ) : state === 'ready' && lists.settling ? (
            <>
              <span className="scr-spinner" aria-hidden="true" />
              Updating…
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
          <button type="button" className="link-button" onClick={lists.refresh}>
            Try again
          </button>
        </Alert>
      ) : null}
      {state === 'failed' ? (
        <Alert testId="lists-failed" title="The lists could not be loaded.">
          Screening is unavailable until the service is restarted with readable list files. The service log says which file failed.
        </Alert>
      ) : null}
      {notice ? (
        <Alert tone="success" testId="lists-notice">
          {notice}
        </Alert>
      ) : null}
      {official.length > 0 ? (
        <ul className="scr-list-items">
          {official.map((l) => (
            <li key={l.source} data-testid="loaded-list" data-source={l.source}>
              <span className="scr-list-title">{l.title}</span>
              <span className="scr-list-meta">
                <Badge>{kindLabel(l.kind, true)}</Badge>
                <span data-testid="loaded-list-date">{versionDate(l)}</span>
                {l.stale ? <Badge tone="warning" title={`${l.list_date ? 'Published' : 'Retrieved'} ${l.published_at ?? ''}, older than ${l.stale_after_days} days`}>Out of date</Badge> : null}
                <span className="scr-list-count" title={`${formatNumber(l.counts.person)} of them people`}>
                  {formatNumber(l.counts.total)} records
                </span>
              </span>
              <span className="scr-list-provenance muted">
                {l.publisher ? <span data-testid="loaded-list-publisher">{l.publisher}</span> : null}
                <span data-testid="loaded-list-checksum" title={`SHA-256 of the imported file: ${l.sha256}`}>
                  SHA-256 <code>{l.sha256.slice(0, 16)}…</code>
                </span>
                {l.terms ? <span data-testid="loaded-list-terms">Licence: {l.terms}</span> : null}
              </span>
            </li>
          ))}
        </ul>
      ) : state === 'loading' ? (
        <p className="scr-lists-empty muted">The service is reading the list files. This takes a few seconds after it starts.</p>
      ) : state === 'ready' ? (
        <p className="scr-lists-empty muted">No lists are installed.</p>
      ) : null}

      <HeldImports
        held={data?.held_imports ?? []}
        canManage={canManage}
        onDone={(result, message) => {
          setNotice(message);
          if (result) changed((l) => l.lists.some((x) => x.source === result.source && x.sha256 === result.sha256));
          else lists.refresh();
        }}
      />

      {userLists.length > 0 || (canManage && state === 'ready') ? (
        <div className="lst-own" data-testid="user-lists">
          <h3 className="lst-label" id={ownHeading}>Your lists</h3>
          {userLists.length > 0 ? (
            <ul className="scr-list-items lst-own-items" aria-labelledby={ownHeading}>
              {userLists.map((u) => {
                const loaded = bySource.get(`${USER_SOURCE}${u.slug}`);
                return (
                  <li key={u.slug} data-testid="user-list" data-slug={u.slug}>
                    <span className="lst-own-head">
                      <span className="scr-list-title" data-testid="user-list-name">{u.name}</span>
                      {canManage ? (
                        <button
                          type="button" className="btn btn-small btn-danger-quiet lst-remove" onClick={() => show({ kind: 'remove', list: u })}
                          aria-label={`Remove ${u.name}`} data-testid="user-list-remove"
                        >
                          Remove
                        </button>
                      ) : null}
                    </span>
                    <span className="scr-list-meta">
                      {loaded ? <Badge>{kindLabel(loaded.kind, true)}</Badge> : <Badge tone="warning">Not loaded</Badge>}
                      <span data-testid="user-list-imported-at" title={u.imported_at}>imported {formatDate(u.imported_at)}</span>
                      <span className="scr-list-count" data-testid="user-list-rows" data-rows={u.rows}>
                        {formatNumber(u.rows)} {u.rows === 1 ? 'record' : 'records'}
                      </span>
                    </span>
                  </li>
                );
              })}
            </ul>
          ) : data ? (
            <p className="lst-own-empty muted" data-testid="user-lists-empty">
              Add your PEP, RCA, wanted or internal lists from a CSV file to screen against them too.
            </p>
          ) : null}
        </div>
      ) : null}

      {canManage ? (
        <div className="lst-actions">
          <button
            type="button" className="btn btn-small" onClick={() => show({ kind: 'user' })} disabled={state !== 'ready'}
            data-testid="lists-add-user"
          >
            Add your own list…
          </button>
          <button
            type="button" className="btn btn-small" onClick={() => show({ kind: 'official' })} disabled={state !== 'ready'}
            data-testid="lists-import-official"
          >
            Import newer official file…
          </button>
        </div>
      ) : data && state === 'ready' ? (
        <p className="lst-own-empty muted" data-testid="lists-read-only">Owners and admins add and replace lists.</p>
      ) : null}

      {data?.index ? (
        <p className="scr-lists-foot muted" data-testid="lists-index">
          {formatNumber(data.index.entities)} records, {formatNumber(data.index.names)} names indexed. Screening runs on this
          computer; subjects are never sent elsewhere or stored.
        </p>
      ) : null}

      {open.kind === 'user' ? (
        <AddListDialog
          existing={userLists}
          onClose={close}
          onImported={(report) => changed((l) => l.lists.some((x) => x.source === report.source))}
        />
      ) : null}
      {open.kind === 'official' ? (
        <ImportOfficialDialog
          loaded={official}
          onClose={close}
          onImported={(result) => (result.held ? lists.refresh() : changed((l) => l.lists.some((x) => x.source === result.source && x.sha256 === result.sha256)))}
        />
      ) : null}
      {open.kind === 'remove' ? (
        <RemoveListDialog
          list={open.list}
          onClose={close}
          onRemoved={(list) => {
            close();
            setNotice(`Removed “${list.name}”. Its records are no longer screened.`);
            changed((l) => !l.lists.some((x) => x.source === `${USER_SOURCE}${list.slug}`));
          }}
        />
      ) : null}
    </section>
  );
}
